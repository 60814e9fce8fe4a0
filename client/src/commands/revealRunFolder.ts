// "Reveal run folder": shows a run's folder (from the Runs view, or a picked run) in the system's
// file manager, where its raw logs and results.jsonl are.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../extensionServices';
import { pickRun, runDirArgument, workspaceRuns } from './pickRun';

export async function revealRunFolderCommand(services: ExtensionServices, arg?: unknown): Promise<string | undefined> {
  const runDir = runDirArgument(arg) ?? (await pickRun(await workspaceRuns(services), 'Reveal run folder'));
  if (!runDir) return undefined;
  await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(runDir));
  return runDir;
}
