// Opens the files of ONLOAD_BENCH_OPEN_AT_START (openAtStartPaths.ts) beside the Welcome page,
// once the page is up, and turns the page to this extension's walkthrough: what `npm start` shows
// a newcomer. Opening the files earlier would make VS Code skip the Welcome page (it shows only in
// an empty window), and with it the walkthrough, which records steps only from when it exists.
import * as vscode from 'vscode';
import { filesToOpenAtStart, openAtStartVariable } from './openAtStartPaths';
import { isExistingFile } from './planReferences';

/** How long to wait for the Welcome page before opening the files anyway (startupEditor: none). */
const welcomeWait = 10_000;

function welcomeShown(): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.label === 'Welcome' && !(tab.input instanceof vscode.TabInputText)),
  );
}

function alreadyOpen(file: string): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath === file),
  );
}

export function registerOpenAtStart(log: vscode.LogOutputChannel, walkthroughId: string): vscode.Disposable {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  const files = filesToOpenAtStart(process.env[openAtStartVariable], folders, isExistingFile);
  if (files.length === 0) return new vscode.Disposable(() => undefined);

  let done = false;
  const stop = () => {
    done = true;
    subscription.dispose();
    clearTimeout(timer);
  };
  const open = async () => {
    if (done) return;
    stop();
    if (welcomeShown()) {
      // in the Welcome editor itself (toSide false), so the files beside it stay the only split
      await Promise.resolve(
        vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId, false),
      ).catch((error: unknown) => {
        log.warn(`Could not open the walkthrough at start: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    for (const file of files.filter((candidate) => !alreadyOpen(candidate))) {
      try {
        // Beside and without focus: the walkthrough stays where the person reads.
        await vscode.window.showTextDocument(vscode.Uri.file(file), {
          viewColumn: vscode.ViewColumn.Beside,
          preserveFocus: true,
          preview: false,
        });
      } catch (error) {
        log.warn(`Could not open ${file} at start: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  const subscription = vscode.window.tabGroups.onDidChangeTabs(() => {
    if (welcomeShown()) void open();
  });
  const timer = setTimeout(() => void open(), welcomeWait);
  if (welcomeShown()) void open();
  return new vscode.Disposable(stop);
}
