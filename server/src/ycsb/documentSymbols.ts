// Outline: one group per part of YCSB that reads the keys (Core workload, Client, couchbase2
// binding, ...), each key as a child showing its value.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type DocumentSymbol, SymbolKind } from 'vscode-languageserver-types';
import { componentLabel, componentRank, type YcsbCatalog } from './catalog';
import type { PropertiesDocument } from './propertiesParser';
import { workloadShape } from './workloadShape';

const unknownGroup = 'Not read by YCSB';

export function ycsbDocumentSymbols(
  text: TextDocument,
  document: PropertiesDocument,
  catalog: YcsbCatalog,
): DocumentSymbol[] {
  const binding = workloadShape(document, catalog).binding;
  const groups = new Map<string, { rank: number; children: DocumentSymbol[] }>();
  for (const entry of document.entries) {
    const property = catalog.lookup(entry.key, binding);
    const name = property ? componentLabel(property) : unknownGroup;
    const group = groups.get(name) ?? { rank: property ? componentRank(property) : 9, children: [] };
    groups.set(name, group);
    const value = entry.value.length > 60 ? `${entry.value.slice(0, 57)}...` : entry.value;
    group.children.push({
      name: entry.key.length > 0 ? entry.key : '(empty key)',
      detail: value,
      kind: SymbolKind.Property,
      range: { start: text.positionAt(entry.lineStart), end: text.positionAt(entry.lineEnd) },
      selectionRange: {
        start: text.positionAt(entry.keyStart),
        end: text.positionAt(Math.max(entry.keyEnd, entry.keyStart)),
      },
    });
  }
  return [...groups.entries()]
    .sort(([, a], [, b]) => a.rank - b.rank)
    .map(([name, group]) => ({
      name,
      kind: SymbolKind.Namespace,
      range: {
        start: group.children[0]!.range.start,
        end: group.children.reduce(
          (end, child) => (child.range.end.line > end.line ? child.range.end : end),
          group.children[0]!.range.end,
        ),
      },
      selectionRange: group.children[0]!.selectionRange,
      children: group.children,
    }));
}
