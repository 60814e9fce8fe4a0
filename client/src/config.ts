// Reads the `onloadBench` settings through the pure parser in settings.ts and reports settings
// that could not be used, once per distinct problem, in the log.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { homedir } from 'node:os';
import { expandProfileFolders } from '../../server/src/common/profileFolders';
import { type BenchSettings, readSettings, userProfilePath } from './settings';

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
  return path.join(planBase(planUri), settings.resultsFolder);
}

/**
 * `onloadBench.profilePath` as absolute folders: `~/` is the home folder, relative is against the plan's workspace
 * folder.
 */
export function profileFoldersFor(settings: BenchSettings, planUri: vscode.Uri | undefined): string[] {
  return expandProfileFolders(settings.profilePath, planBase(planUri), homedir());
}

/**
 * The user's own `onloadBench.profilePath` folders (user settings only), expanded as above: where uploads may also come
 * from.
 */
export function trustedProfileFoldersFor(planUri: vscode.Uri | undefined): string[] {
  return expandProfileFolders(
    userProfilePath(vscode.workspace.getConfiguration('onloadBench', planUri).inspect('profilePath')),
    planBase(planUri),
    homedir(),
  );
}

/**
 * Where a run (or its dry run) looks up imports and may take uploaded files from: imports resolve
 * as in the editor (beside the profile, then onloadBench.profilePath); uploads may come from the
 * plan's folder, the workspace folders and the user's own profile folders (pathConfinement.ts),
 * from anywhere only with the user's onloadBench.allowOutsidePaths.
 */
export function uploadPolicyFor(
  settings: BenchSettings,
  planUri: vscode.Uri | undefined,
): { profilePath: string[]; trustedProfilePath: string[]; allowedRoots: string[]; allowOutsidePaths?: true } {
  return {
    profilePath: profileFoldersFor(settings, planUri),
    trustedProfilePath: trustedProfileFoldersFor(planUri),
    allowedRoots: (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map((folder) => folder.uri.fsPath),
    ...(settings.allowOutsidePaths ? { allowOutsidePaths: true as const } : {}),
  };
}

/** The plan's workspace folder (or the plan's own folder): what relative results and profile folders are taken from. */
function planBase(planUri: vscode.Uri | undefined): string {
  const folder = (planUri && vscode.workspace.getWorkspaceFolder(planUri)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.fsPath ?? (planUri ? path.dirname(planUri.fsPath) : process.cwd());
}
