// Turning a check off for one line, as ESLint users expect (`// eslint-disable-next-line`): a
// comment line `# onload-bench-disable-next-line CODE[, CODE...] [-- reason]` (`!` also starts a
// comment in workload files) hides those codes, or every code when it names none, on the next
// line and the lines that continue it with a trailing backslash. Both languages, the server and
// `lint` honour it (each service filters its diagnostics here); docs/diagnostics.md documents it.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-types';

export const disableNextLine = 'onload-bench-disable-next-line';

const markerLine = new RegExp(`^([ \\t]*)[#!][ \\t]*${disableNextLine}(?![\\w-])(.*)$`);

interface Marker {
  indent: string;
  /** Empty: every code. */
  codes: string[];
  /** ` -- why`, kept when codes are added. */
  reason: string;
}

function parseMarker(line: string): Marker | undefined {
  const match = markerLine.exec(line);
  if (!match) return undefined;
  const [list = '', reason = ''] = match[2]!.split(/(?=\s--\s|\s--$)/, 2);
  return { indent: match[1]!, codes: list.split(/[\s,]+/).filter((code) => code !== ''), reason: reason.trimEnd() };
}

/** A line ending in an odd number of backslashes continues on the next one (shell and .properties alike). */
const continues = (line: string) => (/\\+$/.exec(line)?.[0].length ?? 0) % 2 === 1;

/** Lines (0-based) with the codes disabled on them; 'all' when the comment names none. */
export function disabledLines(text: string): Map<number, ReadonlySet<string> | 'all'> {
  const disabled = new Map<number, ReadonlySet<string> | 'all'>();
  if (!text.includes(disableNextLine)) return disabled;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const marker = parseMarker(line);
    if (!marker) return;
    for (let target = index + 1; target < lines.length; target++) {
      const before = disabled.get(target);
      if (marker.codes.length === 0 || before === 'all') disabled.set(target, 'all');
      else disabled.set(target, new Set([...(before ?? []), ...marker.codes]));
      if (!continues(lines[target]!)) break;
    }
  });
  return disabled;
}

/** The diagnostics that no disable comment hides. */
export function withoutDisabled<T extends Diagnostic>(text: string, diagnostics: T[]): T[] {
  const disabled = disabledLines(text);
  if (disabled.size === 0) return diagnostics;
  return diagnostics.filter((diagnostic) => {
    const codes = disabled.get(diagnostic.range.start.line);
    return codes === undefined || (codes !== 'all' && !codes.has(String(diagnostic.code)));
  });
}

/**
 * The edit that disables `code` for the line a diagnostic starts on: a new comment above it, or the code added to the
 * one there.
 */
export function disableEdit(document: TextDocument, line: number, code: string): TextEdit {
  const lines = document.getText().split(/\r?\n/);
  let first = Math.min(line, lines.length - 1);
  while (first > 0 && continues(lines[first - 1]!)) first--;
  const above = first > 0 ? parseMarker(lines[first - 1]!) : undefined;
  if (above && above.codes.length > 0) {
    const comment = `${above.indent}# ${disableNextLine} ${[...above.codes, code].join(', ')}${above.reason}`;
    return {
      range: {
        start: { line: first - 1, character: 0 },
        end: { line: first - 1, character: lines[first - 1]!.length },
      },
      newText: comment,
    };
  }
  const indent = /^[ \t]*/.exec(lines[first] ?? '')![0];
  return {
    range: { start: { line: first, character: 0 }, end: { line: first, character: 0 } },
    newText: `${indent}# ${disableNextLine} ${code}\n`,
  };
}
