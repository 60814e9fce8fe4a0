// Clients that resolve completion items lazily (VS Code) get lists without descriptions and each
// description on resolve; other clients get complete items in the list.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-types';
import { startTestClient, type TestClient } from '../support/lspClient';

let lazy: TestClient;
let eager: TestClient;
const uri = 'file:///deferred/tuning.opf';
const text = 'onload_set EF_POLL\n';

before(async () => {
  lazy = await startTestClient([], { resolveDocumentation: true });
  eager = await startTestClient();
  for (const client of [lazy, eager]) await client.open(uri, 'onload-profile', text);
});

after(async () => {
  await lazy.stop();
  await eager.stop();
});

test('a lazy client gets the option list without descriptions, and a description on resolve', async () => {
  const items = await lazy.completion(uri, { line: 0, character: 18 });
  const poll = items.find((item) => item.label === 'EF_POLL_USEC')!;
  assert.equal(poll.documentation, undefined);
  assert.equal(poll.detail, 'integer (usec) · default 0 · range 0..4294967295 · per-process');
  assert.ok(
    items.every((item) => item.documentation === undefined),
    'no item carries its description in the list',
  );

  const resolved = await lazy.resolveCompletion(poll);
  const documentation = resolved.documentation as MarkupContent;
  assert.equal(documentation.kind, 'markdown');
  assert.match(documentation.value, /^\*\*EF_POLL_USEC\*\*/);
  assert.match(documentation.value, /busy-waits/);
  assert.equal(resolved.data, undefined, 'the bookkeeping is removed again');
  assert.equal(resolved.label, 'EF_POLL_USEC');
});

test('an item of an older list resolves without a description rather than a wrong one', async () => {
  const first = await lazy.completion(uri, { line: 0, character: 18 });
  await lazy.completion(uri, { line: 0, character: 0 });
  const stale = await lazy.resolveCompletion(first.find((item) => item.label === 'EF_POLL_USEC')!);
  assert.equal(stale.documentation, undefined);
});

test('a client without lazy resolution gets every description in the list', async () => {
  const items = await eager.completion(uri, { line: 0, character: 18 });
  const poll = items.find((item) => item.label === 'EF_POLL_USEC')!;
  assert.match((poll.documentation as MarkupContent).value, /busy-waits/);
});
