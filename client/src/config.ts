// Reads the `onloadBench` settings through the pure parser in settings.ts and reports settings
// that could not be used, once per distinct problem, in the log.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { homedir } from 'node:os';
import { expandProfileFolders } from '../../server/src/common/profileFolders';
import { type BenchSettings, readSettings } from './settings';

const reported = new Set<string>();

export function currentSettings(log?: vscode.LogOutputChannel, scope?: vscode.Uri): BenchSettings {
  const section = vscode.workspace.getConfiguration('onloadBench', scope);
  const { settings, problems } = readSettings((key) => section.get(key));
  for (const problem of problems) {
    if (reported.has(problem.message)) continue;
    reported.add(problem.message);
    log?.warn(problem.message);
    void vscode.window.showWarningMessage(`Onload Bench: ${problem.message}`);
  }
  return settings;
}

/** The results folder for a plan: the setting, resolved against the plan's workspace folder. */
export function resultsRootFor(settings: BenchSettings, planUri: vscode.Uri | undefined): string {
  if (path.isAbsolute(settings.resultsFolder)) return settings.resultsFolder;
  const folder = (planUri && vscode.workspace.getWorkspaceFolder(planUri)) ?? vscode.workspace.workspaceFolders?.[0];
  const base = folder?.uri.fsPath ?? (planUri ? path.dirname(planUri.fsPath) : process.cwd());
  return path.join(base, settings.resultsFolder);
}

/** `onloadBench.profilePath` as absolute folders: `~/` is the home folder, relative is against the plan's workspace folder. */
export function profileFoldersFor(settings: BenchSettings, planUri: vscode.Uri | undefined): string[] {
  const folder = (planUri && vscode.workspace.getWorkspaceFolder(planUri)) ?? vscode.workspace.workspaceFolders?.[0];
  const base = folder?.uri.fsPath ?? (planUri ? path.dirname(planUri.fsPath) : process.cwd());
  return expandProfileFolders(settings.profilePath, base, homedir());
}
