// Offset -> line/character conversion for one document, from the parse's own line index.
// Diagnostics ask for thousands of positions, mostly in document order: remembering the last
// line found makes most answers a couple of comparisons instead of a binary search.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import type { ParsedProfile, Span } from './parser';

export interface PositionMapper {
  positionAt(offset: number): Position;
  /** The 0-based line of `offset` (what `positionAt(offset).line` says, without the object). */
  lineAt(offset: number): number;
  /** The text of a span (what `document.getText(range)` of that span says). */
  textOf(span: Span): string;
}

/**
 * A mapper that answers exactly as `document.positionAt` does. The parse splits lines at '\n'
 * only; the document also at a lone '\r' and moves offsets out of '\r\n'. Both agree when the
 * text has no '\r', so any other text is left to the document itself.
 */
export function positionMapper(document: TextDocument, parsed: ParsedProfile): PositionMapper {
  const text = document.getText();
  if (text.length !== parsed.length || text.indexOf('\r') !== -1) {
    return {
      positionAt: (offset) => document.positionAt(offset),
      lineAt: (offset) => document.positionAt(offset).line,
      textOf: (span) =>
        document.getText({ start: document.positionAt(span.start), end: document.positionAt(span.end) }),
    };
  }
  const starts = parsed.lineStarts;
  const lastLine = starts.length - 1;
  let hint = 0;
  const lineAt = (offset: number): number => {
    const at = offset < 0 ? 0 : offset > text.length ? text.length : offset;
    // The line holding `at` is the last whose start is <= at.
    if (starts[hint]! <= at && (hint === lastLine || starts[hint + 1]! > at)) return hint;
    if (hint < lastLine && starts[hint + 1]! <= at && (hint + 1 === lastLine || starts[hint + 2]! > at)) return ++hint;
    let low = 0;
    let high = lastLine;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    hint = low;
    return low;
  };
  return {
    positionAt(offset) {
      const line = lineAt(offset);
      const at = offset < 0 ? 0 : offset > text.length ? text.length : offset;
      return { line, character: at - starts[line]! };
    },
    lineAt,
    textOf: (span) => text.substring(span.start, span.end),
  };
}
