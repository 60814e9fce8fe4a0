// The outline: every onload_set and onload_import, nested in the shell function that holds it.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-types';
import type { ParsedProfile, Span } from './parser';
import { clip } from './values';

export function documentSymbols(document: TextDocument, parsed: ParsedProfile): DocumentSymbol[] {
  const range = (span: Span) => ({ start: document.positionAt(span.start), end: document.positionAt(span.end) });
  const top: DocumentSymbol[] = [];
  const functions = parsed.functions.map((fn) => ({
    fn,
    symbol: {
      name: fn.name,
      kind: SymbolKind.Function,
      range: range(fn.span),
      selectionRange: range(fn.nameSpan),
      children: [] as DocumentSymbol[],
    },
  }));
  for (const { symbol } of functions) top.push(symbol);
  for (const directive of parsed.directives) {
    const symbol: DocumentSymbol =
      directive.kind === 'set'
        ? {
            name: directive.name || 'onload_set',
            detail: directive.conditional ? `${clip(directive.value)} (conditional)` : clip(directive.value),
            kind: SymbolKind.Variable,
            range: range(directive.command),
            selectionRange: range(directive.name ? directive.nameSpan : directive.keyword),
          }
        : {
            name: `onload_import ${clip(directive.name)}`,
            detail: directive.conditional ? 'conditional' : undefined,
            kind: SymbolKind.Module,
            range: range(directive.command),
            selectionRange: range(directive.name ? directive.nameSpan : directive.keyword),
          };
    let owner: (typeof functions)[number] | undefined;
    for (const candidate of functions) {
      if (directive.command.start >= candidate.fn.span.start && directive.command.end <= candidate.fn.span.end)
        owner = candidate;
    }
    if (owner) owner.symbol.children.push(symbol);
    else top.push(symbol);
  }
  top.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return top;
}
