// Shapes a completion answer for the client. Lists of options all replace the same word, so when
// the client understands LSP 3.17's `itemDefaults.editRange` the shared range is sent once instead
// of once per item (with `textEditText` where the inserted text differs from the label).
import type { CompletionItem, CompletionList, Range } from 'vscode-languageserver';

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

export function compactCompletionList(items: CompletionItem[], clientKnowsEditRange: boolean): CompletionItem[] | CompletionList {
  if (!clientKnowsEditRange || items.length < 2) return items;
  const first = items[0]!.textEdit;
  if (!first || !('range' in first)) return items;
  const shared = first.range;
  if (!items.every((item) => item.textEdit && 'range' in item.textEdit && sameRange(item.textEdit.range, shared))) return items;
  return {
    isIncomplete: false,
    itemDefaults: { editRange: shared },
    items: items.map(({ textEdit, ...item }) => (textEdit!.newText === item.label ? item : { ...item, textEditText: textEdit!.newText })),
  };
}
