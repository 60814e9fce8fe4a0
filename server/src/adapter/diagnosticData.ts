// Quick fixes live in each diagnostic's `data`. A client may send the diagnostics of a code-action
// request back without it (no `dataSupport`, or a plugin that rebuilds them from its own list) or
// changed (Lua turns an empty list into `{}`). Such a diagnostic is matched with the one the
// server published (same code, range and message), whose `data` is used instead. A client may also
// send none at all: ALE does unless the cursor is on a word's first character (it then sends the
// word's range and an empty list), so the server's own current diagnostics under the range count.
import type { Diagnostic, Range } from 'vscode-languageserver';
import { rangesOverlap } from '../common/codeActionRange';

const sameRange = (a: Diagnostic['range'], b: Diagnostic['range']) =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

const messageOf = (diagnostic: Diagnostic) =>
  typeof diagnostic.message === 'string' ? diagnostic.message : String(diagnostic.message);

function usableData(diagnostic: Diagnostic): boolean {
  const data = diagnostic.data as { fixes?: unknown } | undefined;
  return typeof data === 'object' && data !== null && Array.isArray(data.fixes);
}

export function recoverDiagnosticData(sent: readonly Diagnostic[], published: readonly Diagnostic[]): Diagnostic[] {
  return sent.map((diagnostic) => {
    if (usableData(diagnostic)) return diagnostic;
    const match =
      published.find(
        (candidate) =>
          String(candidate.code) === String(diagnostic.code) &&
          sameRange(candidate.range, diagnostic.range) &&
          messageOf(candidate) === messageOf(diagnostic),
      ) ??
      published.find(
        (candidate) =>
          String(candidate.code) === String(diagnostic.code) && sameRange(candidate.range, diagnostic.range),
      );
    // The client's own fields (its range, the diagnostic it will link the fix to) stay; only data comes back.
    return match ? { ...diagnostic, source: diagnostic.source ?? match.source, data: match.data } : diagnostic;
  });
}

/**
 * The diagnostics a code-action request is about: those sent (their data recovered), or when none were sent, those
 * published under the range.
 */
export function requestDiagnostics(
  sent: readonly Diagnostic[] | undefined,
  range: Range,
  published: readonly Diagnostic[],
): Diagnostic[] {
  if (Array.isArray(sent) && sent.length > 0) return recoverDiagnosticData(sent, published);
  return published.filter((diagnostic) => rangesOverlap(diagnostic.range, range));
}
