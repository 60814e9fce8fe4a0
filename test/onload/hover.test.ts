// Hover over JSON-RPC: the option's facts and its effective value at that line after imports.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { MarkupContent } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { positionOf, range, startOnloadClient, workspaceUri } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

const text = [
  'onload_import latency',
  'onload_set EF_POLL_USEC 20',
  'onload_set EF_UL_EPOLL 3',
  'onload_set MY_VARIABLE 1',
].join('\n');

async function hoverText(needle: string) {
  const uri = workspaceUri('hover.opf');
  await client.open(uri, 'onload-profile', text);
  const hover = await client.hover(uri, positionOf(text, needle, 3));
  return { hover, value: (hover?.contents as MarkupContent | undefined)?.value ?? '' };
}

test('an option: facts, description and the value an earlier import already set', async () => {
  const { hover, value } = await hoverText('EF_POLL_USEC');
  assert.deepEqual(hover?.range, range(1, 11, 23));
  assert.match(value, /\*\*EF_POLL_USEC\*\* — per-process integer in usec/);
  assert.match(value, /default: `0`/);
  assert.match(
    value,
    /\*\*Effective value here:\*\* `100000` from shipped profile latency line 10 via onload_import latency; this line has no effect/,
  );
});

test('an option the profile sets first: its own value is effective', async () => {
  const { value } = await hoverText('EF_UL_EPOLL');
  assert.match(value, /\*\*Effective value here:\*\* `3`, unless the environment already sets EF_UL_EPOLL/);
  assert.match(value, /values: `0` .*`3`/);
});

test('an import: where it resolves and what it sets', async () => {
  const { hover, value } = await hoverText('latency');
  assert.deepEqual(hover?.range, range(0, 14, 21));
  assert.match(value, /resolves to the profile Onload ships \(`latency.opf`\)/);
  assert.match(value, /`EF_TCP_FASTSTART_INIT` = `0`/);
});

test('a shell variable is not mistaken for an option, and a directive keyword has no hover', async () => {
  const { value } = await hoverText('MY_VARIABLE');
  assert.match(value, /a shell variable \(not an Onload option\)/);
  const uri = workspaceUri('hover.opf');
  assert.equal(await client.hover(uri, { line: 0, character: 3 }), null);
});
