// The code actions ESLint users look for beside a problem's own fixes: *Fix all CODE problems in
// this file* (the preferred fix of every problem with that code, in one edit) and *Disable CODE
// for this line* (a comment the services honour: disableComments.ts). Language-neutral: the fixes
// come from the language's own quick fixes, so any language registered gets both.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type CodeAction, CodeActionKind, type Diagnostic, type TextEdit } from 'vscode-languageserver-types';
import type { Cancellation, LanguageFeatures } from './languageFeatures';
import { disableEdit } from './disableComments';
import { limitSource } from './documentLimits';

/** Codes of the server's own notices about a document, not checks of its text: nothing to fix or disable. */
const notices = new Set(['document-too-large', 'too-many-problems']);

const ours = (diagnostic: Diagnostic) =>
  diagnostic.source === limitSource && typeof diagnostic.code === 'string' && !notices.has(diagnostic.code);

/** The fix a whole-file fix applies for one problem: the preferred one, or the only one. */
function preferredFix(actions: readonly CodeAction[]): CodeAction | undefined {
  return actions.find((action) => action.isPreferred) ?? (actions.length === 1 ? actions[0] : undefined);
}

const before = (a: TextEdit['range']['start'], b: TextEdit['range']['start']) =>
  a.line < b.line || (a.line === b.line && a.character < b.character);

/**
 * `requested`: the diagnostics the request is about; `current`: every diagnostic the document has now.
 * One fix-all per requested code with at least two fixable problems, one disable per requested code and line.
 */
export async function fileWideActions(
  features: LanguageFeatures,
  document: TextDocument,
  requested: readonly Diagnostic[],
  current: readonly Diagnostic[],
  token: Cancellation,
): Promise<CodeAction[]> {
  const actions: CodeAction[] = [];
  const codes = [...new Set(requested.filter(ours).map((diagnostic) => diagnostic.code as string))];
  for (const code of codes) {
    const problems = current.filter((diagnostic) => ours(diagnostic) && diagnostic.code === code);
    if (problems.length < 2) continue;
    const edits: TextEdit[] = [];
    const fixed: Diagnostic[] = [];
    for (const problem of problems) {
      if (token.isCancellationRequested) return actions;
      const fix = preferredFix(await features.codeActions(document, problem.range, [problem], token));
      const fixEdits = fix?.edit?.changes?.[document.uri];
      // Edits of one workspace edit must not overlap: a problem whose fix would is left for later.
      if (
        !fixEdits ||
        fixEdits.some((edit) =>
          edits.some((taken) => before(edit.range.start, taken.range.end) && before(taken.range.start, edit.range.end)),
        )
      )
        continue;
      edits.push(...fixEdits);
      fixed.push(problem);
    }
    if (fixed.length < 2) continue;
    actions.push({
      title: `Fix all '${code}' problems in this file`,
      kind: CodeActionKind.QuickFix,
      diagnostics: fixed,
      edit: { changes: { [document.uri]: edits } },
    });
  }
  const disabled = new Set<string>();
  for (const diagnostic of requested.filter(ours)) {
    const code = diagnostic.code as string;
    const key = `${diagnostic.range.start.line} ${code}`;
    if (disabled.has(key)) continue;
    disabled.add(key);
    actions.push({
      title: `Disable '${code}' for this line`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      edit: { changes: { [document.uri]: [disableEdit(document, diagnostic.range.start.line, code)] } },
    });
  }
  return actions;
}
