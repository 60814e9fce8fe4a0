// Quick fixes: each Onload diagnostic carries its fixes in `data.fixes`; this turns them into
// code actions for the document.
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver-types';
import { diagnosticSource, type OnloadDiagnosticData } from './diagnostics';

export function quickFixes(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== diagnosticSource) continue;
    const data = diagnostic.data as Partial<OnloadDiagnosticData> | undefined;
    // A client may send `data` back changed (an empty list as `{}` from Lua): only a list is fixes.
    for (const fix of Array.isArray(data?.fixes) ? data.fixes : []) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: fix.preferred === true ? true : undefined,
        edit: { changes: { [uri]: fix.edits.map((edit) => ({ range: edit.range, newText: edit.newText })) } },
      });
    }
  }
  return actions;
}
