// Quick fixes live in each diagnostic's `data`. A client may send the diagnostics of a code-action
// request back without it (no `dataSupport`, or a plugin that rebuilds them from its own list) or
// changed (Lua turns an empty list into `{}`). Such a diagnostic is matched with the one the
// server published (same code, range and message), whose `data` is used instead.
import type { Diagnostic } from 'vscode-languageserver';

const sameRange = (a: Diagnostic['range'], b: Diagnostic['range']) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

const messageOf = (diagnostic: Diagnostic) => (typeof diagnostic.message === 'string' ? diagnostic.message : String(diagnostic.message));

function usableData(diagnostic: Diagnostic): boolean {
  const data = diagnostic.data as { fixes?: unknown } | undefined;
  return typeof data === 'object' && data !== null && Array.isArray(data.fixes);
}

export function recoverDiagnosticData(sent: readonly Diagnostic[], published: readonly Diagnostic[]): Diagnostic[] {
  return sent.map((diagnostic) => {
    if (usableData(diagnostic)) return diagnostic;
    const match = published.find((candidate) => String(candidate.code) === String(diagnostic.code) && sameRange(candidate.range, diagnostic.range) && messageOf(candidate) === messageOf(diagnostic))
      ?? published.find((candidate) => String(candidate.code) === String(diagnostic.code) && sameRange(candidate.range, diagnostic.range));
    // The client's own fields (its range, the diagnostic it will link the fix to) stay; only data comes back.
    return match ? { ...diagnostic, source: diagnostic.source ?? match.source, data: match.data } : diagnostic;
  });
}
