// Shapes a completion answer for the client. Lists of options all replace the same word, so when
// the client understands LSP 3.17's `itemDefaults.editRange` the shared range is sent once instead
// of once per item (with `textEditText` where the inserted text differs from the label); a client
// that takes `itemDefaults.insertTextMode` is told once that every item goes in as it is.
import { type CompletionItem, type CompletionList, InsertTextMode, type Range } from 'vscode-languageserver';

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

export interface ListDefaults {
  /** The client declared `itemDefaults: ['editRange']`. */
  editRange: boolean;
  /** The client declared `itemDefaults: ['insertTextMode']` and the as-is mode. */
  insertTextModeAsIs?: boolean;
}

export function compactCompletionList(
  items: CompletionItem[],
  defaults: ListDefaults,
): CompletionItem[] | CompletionList {
  const asIs = defaults.insertTextModeAsIs === true;
  const shared = defaults.editRange && items.length >= 2 ? sharedRange(items) : undefined;
  if (!shared)
    return asIs ? { isIncomplete: false, itemDefaults: { insertTextMode: InsertTextMode.asIs }, items } : items;
  return {
    isIncomplete: false,
    itemDefaults: { editRange: shared, ...(asIs && { insertTextMode: InsertTextMode.asIs }) },
    items: items.map(({ textEdit, ...item }) =>
      textEdit!.newText === item.label ? item : { ...item, textEditText: textEdit!.newText },
    ),
  };
}

/** The range every item's edit replaces, when they all replace the same one. */
function sharedRange(items: CompletionItem[]): Range | undefined {
  const first = items[0]!.textEdit;
  if (!first || !('range' in first)) return undefined;
  const range = first.range;
  return items.every((item) => item.textEdit && 'range' in item.textEdit && sameRange(item.textEdit.range, range))
    ? range
    : undefined;
}
