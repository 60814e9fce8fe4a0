// Completion lists carry every option with its Markdown description: about 130 KB for the 258
// Onload options. Clients that can resolve items lazily (VS Code can) get the list without the
// descriptions, and each description when the item is focused. The services stay simple: they
// return complete items, and this adapter-side store holds back the documentation of the latest
// list only (the one the user is looking at).
import type { CompletionItem } from 'vscode-languageserver';

interface DeferredData {
  deferredList: number;
  deferredIndex: number;
  original?: unknown;
}

export class DeferredDocumentation {
  private listId = 0;
  private documentation: CompletionItem['documentation'][] = [];

  /** Strips the documentation of each item, remembering it for `resolve`. */
  defer(items: CompletionItem[]): CompletionItem[] {
    this.listId++;
    this.documentation = items.map((item) => item.documentation);
    return items.map((item, index) => {
      if (item.documentation === undefined) return item;
      const { documentation: _documentation, ...rest } = item;
      const data: DeferredData = { deferredList: this.listId, deferredIndex: index, original: item.data };
      return { ...rest, data };
    });
  }

  /** Puts the documentation back on an item of the latest list. */
  resolve(item: CompletionItem): CompletionItem {
    const data = item.data as Partial<DeferredData> | undefined;
    if (data?.deferredList === undefined || data.deferredIndex === undefined) return item;
    const documentation = data.deferredList === this.listId ? this.documentation[data.deferredIndex] : undefined;
    return { ...item, data: data.original, ...(documentation !== undefined && { documentation }) };
  }
}
