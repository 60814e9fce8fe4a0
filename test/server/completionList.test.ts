// Option lists all replace the same word: clients that understand `itemDefaults.editRange` get
// that range once, and each item only the text that differs from its label.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, CompletionList } from 'vscode-languageserver-types';
import { compactCompletionList } from '../../server/src/completionList';
import { startTestClient, type TestClient } from '../support/lspClient';

const range = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

let client: TestClient;
const uri = 'file:///compact/tuning.opf';

before(async () => {
  client = await startTestClient([], { itemDefaults: true, resolveDocumentation: true });
  await client.open(uri, 'onload-profile', 'onload_set EF_POLL\nonl\n');
});

after(() => client.stop());

test('an option list comes with one shared edit range and no per-item edits', async () => {
  const answer = (await client.completionAnswer(uri, { line: 0, character: 18 })) as CompletionList;
  assert.equal(Array.isArray(answer), false);
  assert.deepEqual(answer.itemDefaults?.editRange, range(0, 11, 18));
  const poll = answer.items.find((item) => item.label === 'EF_POLL_USEC')!;
  assert.equal(poll.textEdit, undefined);
  assert.equal(poll.textEditText, undefined, 'the label is the text to insert');
  assert.ok(answer.items.length >= 240);
});

test('snippet items keep their own text as textEditText', async () => {
  const answer = (await client.completionAnswer(uri, { line: 1, character: 3 })) as CompletionList;
  assert.deepEqual(answer.itemDefaults?.editRange, range(1, 0, 3));
  const set = answer.items.find((item) => item.label === 'onload_set')!;
  assert.equal(set.textEditText, 'onload_set ${1:EF_}');
  assert.equal(set.insertTextFormat, 2);
});

test('items with different ranges, or a client without item defaults, are left as they are', () => {
  const items: CompletionItem[] = [
    { label: 'a', textEdit: { range: range(0, 0, 1), newText: 'a' } },
    { label: 'b', textEdit: { range: range(0, 0, 2), newText: 'b' } },
  ];
  assert.equal(compactCompletionList(items, { editRange: true }), items);
  const same: CompletionItem[] = [items[0]!, { label: 'c', textEdit: { range: range(0, 0, 1), newText: 'c' } }];
  assert.equal(compactCompletionList(same, { editRange: false }), same);
  assert.deepEqual(compactCompletionList(same, { editRange: true }), {
    isIncomplete: false,
    itemDefaults: { editRange: range(0, 0, 1) },
    items: [{ label: 'a' }, { label: 'c' }],
  });
});

test('a client that takes insertTextMode in the defaults is told once that items go in as they are', () => {
  const items: CompletionItem[] = [
    { label: 'a', textEdit: { range: range(0, 0, 1), newText: 'a' } },
    { label: 'b', textEdit: { range: range(0, 0, 2), newText: 'b' } },
  ];
  assert.deepEqual(compactCompletionList(items, { editRange: true, insertTextModeAsIs: true }), {
    isIncomplete: false,
    itemDefaults: { insertTextMode: 1 },
    items,
  });
  const same: CompletionItem[] = [items[0]!, { label: 'c', textEdit: { range: range(0, 0, 1), newText: 'c' } }];
  assert.deepEqual(compactCompletionList(same, { editRange: true, insertTextModeAsIs: true }), {
    isIncomplete: false,
    itemDefaults: { editRange: range(0, 0, 1), insertTextMode: 1 },
    items: [{ label: 'a' }, { label: 'c' }],
  });
});
