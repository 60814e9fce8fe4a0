// Which diagnostics a code-action request is about, by the LSP rule: the client sends in
// `context.diagnostics` the ones it means (Neovim: those of the cursor's line; VS Code: those under
// the cursor or selection). With an empty range (a cursor) all of them count; with a selection,
// those that overlap it.
import type { Diagnostic, Position, Range } from 'vscode-languageserver-types';

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

export function isEmptyRange(range: Range): boolean {
  return range.start.line === range.end.line && range.start.character === range.end.character;
}

export function rangesOverlap(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

export function diagnosticsForRange(range: Range, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (isEmptyRange(range)) return [...diagnostics];
  return diagnostics.filter((diagnostic) => rangesOverlap(diagnostic.range, range));
}
