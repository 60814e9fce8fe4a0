// Completion over JSON-RPC: directives, option names with facts, values, profile names.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CompletionItemKind, MarkupKind, type MarkupContent } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { range, startOnloadClient, workspaceUri } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

async function completeIn(name: string, text: string, line: number, character: number) {
  const uri = workspaceUri(name);
  await client.open(uri, 'onload-profile', text);
  return client.completion(uri, { line, character });
}

test('at the start of a command: the directives', async () => {
  const items = await completeIn('c1.opf', 'onl', 0, 3);
  const labels = items.map((item) => item.label);
  assert.deepEqual(labels.slice(0, 2), ['onload_set', 'onload_import']);
  assert.ok(labels.includes('fail'));
  const set = items.find((item) => item.label === 'onload_set')!;
  assert.equal(set.kind, CompletionItemKind.Keyword);
  assert.deepEqual(set.textEdit && 'range' in set.textEdit ? set.textEdit.range : undefined, range(0, 0, 3));
});

test('after onload_set: every option with type, default, range and unit, and a description', async () => {
  const items = await completeIn('c2.opf', 'onload_set EF_POLL', 0, 18);
  assert.ok(items.length >= 240, `only ${items.length} items`);
  const poll = items.find((item) => item.label === 'EF_POLL_USEC')!;
  assert.equal(poll.detail, 'integer (usec) · default 0 · range 0..4294967295 · per-process');
  const documentation = poll.documentation as MarkupContent;
  assert.equal(documentation.kind, MarkupKind.Markdown);
  assert.match(documentation.value, /busy-waits/);
  assert.deepEqual(poll.textEdit && 'range' in poll.textEdit ? poll.textEdit.range : undefined, range(0, 11, 18));
  const ignore = items.find((item) => item.label === 'EF_CLUSTER_IGNORE')!;
  assert.deepEqual(ignore.tags, [1]);
  assert.ok(
    items.some((item) => item.label === 'EF_CLUSTER_NAME'),
    'extra accepted names are offered too',
  );
});

test('values: accepted names for name-only enums, numbers with labels for numeric enums and booleans', async () => {
  const ctpio = await completeIn('c3.opf', 'onload_set EF_CTPIO_MODE ', 0, 25);
  // each value says what it means, in the words of the option's description
  assert.deepEqual(
    ctpio.map((item) => [item.label, item.detail]),
    [
      ['sf', 'store-and-forward'],
      ['sf-np', 'store-and-forward that never poisons (default)'],
      ['ct', 'cut-through (lowest latency, may emit poisoned frames when the CPU cannot keep up)'],
    ],
  );
  const epoll = await completeIn('c4.opf', 'onload_set EF_UL_EPOLL=', 0, 23);
  assert.ok(
    epoll.some((item) => item.label === '3'),
    epoll.map((item) => item.label).join(','),
  );
  assert.equal(
    epoll.find((item) => item.label === '3')?.detail,
    'ul_scale: the scalable user-level epoll favoured for servers with many sockets',
  );
  const pages = await completeIn('c6.opf', 'onload_set EF_USE_HUGE_PAGES ', 0, 29);
  assert.deepEqual(
    pages.map((item) => item.detail),
    ['no: never', 'try: when available (default)', 'always: always (stack creation fails without them)'],
  );
  const push = await completeIn('c5.opf', 'onload_set EF_TX_PUSH 1', 0, 23);
  assert.deepEqual(
    push.map((item) => [item.label, item.detail]),
    [
      ['0', 'no'],
      ['1', 'yes (default)'],
    ],
  );
  assert.deepEqual(
    push[1]!.textEdit && 'range' in push[1]!.textEdit ? push[1]!.textEdit.range : undefined,
    range(0, 22, 23),
  );
});

test('after onload_import: workspace profiles and the standard profile names', async () => {
  const items = await completeIn('c6.opf', 'onload_import ', 0, 14);
  const labels = items.map((item) => item.label);
  for (const expected of ['latency', 'latency-best', 'throughput', 'base', 'couchbase', 'cycle-a'])
    assert.ok(labels.includes(expected), `missing ${expected}`);
  assert.ok(!labels.includes('c6'), 'a profile does not offer itself');
  assert.equal(items.find((item) => item.label === 'latency')!.detail, 'profile shipped with Onload');
});
