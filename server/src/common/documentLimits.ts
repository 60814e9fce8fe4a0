// Bounds that keep the server alive on absurd input (a 50 MB profile once made a 3.4 GB process
// and a RangeError in JSON.stringify). Real profiles and workloads are a few KB; the bounds are
// far above them and keep memory and the size of each answer bounded:
//   - only the first `maxAnalysedCharacters` of a document are analysed (cut at a line start),
//     with an information diagnostic saying where the analysis stopped;
//   - at most `maxDiagnosticsPerDocument` diagnostics are published (errors first), plus one
//     summary diagnostic saying how many more there are.
// Shared by the server and `onload-bench lint`, so both report the same.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';

export const maxAnalysedCharacters = 4 * 1024 * 1024;
export const maxDiagnosticsPerDocument = 1000;
export const limitSource = 'onload-bench';

export interface AnalysedPart {
  /** The document itself, or a prefix of it with the same URI, language and version. */
  document: TextDocument;
  /** When cut: the 0-based line at which analysis stopped (the first line not analysed). */
  cutAtLine?: number;
}

const cuts = new Map<string, { version: number; length: number; part: AnalysedPart }>();

/** The part of `document` the services look at (the same object when it is small enough). */
export function analysedPart(document: TextDocument, limit = maxAnalysedCharacters): AnalysedPart {
  const text = document.getText();
  if (text.length <= limit) return { document };
  const cached = cuts.get(document.uri);
  if (cached && cached.version === document.version && cached.length === text.length) return cached.part;
  const lineStart = text.lastIndexOf('\n', limit - 1) + 1;
  const end = lineStart > 0 ? lineStart : limit;
  const prefix = TextDocument.create(document.uri, document.languageId, document.version, text.slice(0, end));
  const part: AnalysedPart = { document: prefix, cutAtLine: document.positionAt(end).line };
  cuts.set(document.uri, { version: document.version, length: text.length, part });
  if (cuts.size > 8) cuts.delete(cuts.keys().next().value as string);
  return part;
}

export function forgetAnalysedPart(uri: string): void {
  cuts.delete(uri);
}

/** The notice for a cut document, on the first line that was not analysed. */
export function truncationNotice(document: TextDocument, cutAtLine: number): Diagnostic {
  const megabytes = (document.getText().length / (1024 * 1024)).toFixed(1);
  const at = { line: cutAtLine, character: 0 };
  return {
    range: { start: at, end: at },
    severity: DiagnosticSeverity.Information,
    code: 'document-too-large',
    source: limitSource,
    message: `This document is ${megabytes} MB: only its first ${cutAtLine.toLocaleString('en-US')} lines (${maxAnalysedCharacters / (1024 * 1024)} MiB) are checked, so nothing from here on is.`,
  };
}

/**
 * At most `max` diagnostics (errors, then warnings, then the rest; in document order), and a summary when some were
 * left out.
 */
export function capDiagnostics(diagnostics: Diagnostic[], max = maxDiagnosticsPerDocument): Diagnostic[] {
  if (diagnostics.length <= max) return diagnostics;
  const rank = (diagnostic: Diagnostic) => diagnostic.severity ?? DiagnosticSeverity.Error;
  const kept = diagnostics
    .map((diagnostic, index) => ({ diagnostic, index }))
    .sort((a, b) => rank(a.diagnostic) - rank(b.diagnostic) || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map(({ diagnostic }) => diagnostic);
  const left = diagnostics.length - max;
  const counts = new Map<number, number>();
  for (const diagnostic of diagnostics) counts.set(rank(diagnostic), (counts.get(rank(diagnostic)) ?? 0) + 1);
  const names: [number, string][] = [
    [1, 'error'],
    [2, 'warning'],
    [3, 'information'],
    [4, 'hint'],
  ];
  const total = names
    .filter(([severity]) => counts.has(severity))
    .map(
      ([severity, name]) =>
        `${counts.get(severity)!.toLocaleString('en-US')} ${name}${counts.get(severity)! > 1 && name !== 'information' ? 's' : ''}`,
    )
    .join(', ');
  const at = { line: 0, character: 0 };
  kept.unshift({
    range: { start: at, end: at },
    severity: DiagnosticSeverity.Information,
    code: 'too-many-problems',
    source: limitSource,
    message: `${diagnostics.length.toLocaleString('en-US')} problems (${total}): the first ${max.toLocaleString('en-US')} are listed, errors first; ${left.toLocaleString('en-US')} more are not.`,
  });
  return kept;
}
