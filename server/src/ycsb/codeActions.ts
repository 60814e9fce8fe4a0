// Quick fixes: every fix travels in the diagnostic's `data` (see diagnostics.ts), so this only
// turns them into code actions for the document.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type CodeAction, CodeActionKind, type Diagnostic } from 'vscode-languageserver-types';
import { diagnosticSource, type YcsbDiagnosticData } from './diagnostics';

/** `diagnostics`: those the request is about (see common/codeActionRange.ts). */
export function ycsbCodeActions(text: TextDocument, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== diagnosticSource) continue;
    const data = diagnostic.data as Partial<YcsbDiagnosticData> | undefined;
    if (!Array.isArray(data?.fixes)) continue;
    data.fixes.forEach((fix, index) => {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: index === 0 || undefined,
        edit: { changes: { [text.uri]: fix.edits } },
      });
    });
  }
  return actions;
}
