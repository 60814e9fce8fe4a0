// Ticks the getting-started walkthrough's steps on what the user really does, however they do it:
// a run started from the task list, a password taken from the environment or typed when asked, the
// results panel opened by a run. Each is a context key the steps' `onContext:` completion events
// watch (package.json contributes.walkthroughs); VS Code remembers a step once it is complete.
import * as vscode from 'vscode';

export const walkthroughKeys = {
  openedExamples: 'onloadBench.walkthrough.openedExamples',
  sawDiagnostics: 'onloadBench.walkthrough.sawDiagnostics',
  passwordReady: 'onloadBench.walkthrough.passwordReady',
  ranBenchmark: 'onloadBench.walkthrough.ranBenchmark',
  sawResults: 'onloadBench.walkthrough.sawResults',
} as const;

const marked = new Set<string>();

export function markWalkthrough(key: (typeof walkthroughKeys)[keyof typeof walkthroughKeys]): void {
  if (marked.has(key)) return;
  marked.add(key);
  void vscode.commands.executeCommand('setContext', key, true);
}

/**
 * A folder with profiles or plans open; diagnostics shown on an open profile or workload; the results panel on screen.
 */
export function registerWalkthroughProgress(resultsViewType: string): vscode.Disposable {
  const checkDiagnostics = () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !['onload-profile', 'ycsb-workload'].includes(editor.document.languageId)) return;
    if (vscode.languages.getDiagnostics(editor.document.uri).length > 0)
      markWalkthrough(walkthroughKeys.sawDiagnostics);
  };
  const checkResults = () => {
    const shown = vscode.window.tabGroups.all.some((group) =>
      group.tabs.some(
        (tab) =>
          tab.isActive && tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(resultsViewType),
      ),
    );
    if (shown) markWalkthrough(walkthroughKeys.sawResults);
  };
  const checkExamples = () => {
    void vscode.workspace.findFiles('{**/*.opf,**/*.benchplan.json}', '**/node_modules/**', 1).then((found) => {
      if (found.length > 0) markWalkthrough(walkthroughKeys.openedExamples);
    });
  };
  checkExamples();
  checkDiagnostics();
  checkResults();
  return vscode.Disposable.from(
    vscode.languages.onDidChangeDiagnostics(checkDiagnostics),
    vscode.window.onDidChangeActiveTextEditor(checkDiagnostics),
    vscode.window.tabGroups.onDidChangeTabs(checkResults),
    vscode.workspace.onDidChangeWorkspaceFolders(checkExamples),
  );
}
