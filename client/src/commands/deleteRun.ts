// "Delete run": removes a run folder the user no longer wants, from the Runs view or a picked run,
// after a modal confirmation naming it. Only a folder right inside a results folder
// (runs/runHistory.ts' deletionRefusal), never a running run, never a link (lstat; `rm` removes
// links inside the folder without following them).
import * as vscode from 'vscode';
import * as path from 'node:path';
import { lstat, rm } from 'node:fs/promises';
import { commands } from '../commandIds';
import type { ExtensionServices } from '../extensionServices';
import { deletionRefusal } from '../runs/runHistory';
import { pickRun, runDirArgument, workspaceResultsRoots, workspaceRuns } from './pickRun';

/** Resolves with the deleted folder, or undefined when nothing was deleted. */
export async function deleteRunCommand(services: ExtensionServices, arg?: unknown): Promise<string | undefined> {
  const runDir = runDirArgument(arg) ?? (await pickRun(await workspaceRuns(services), 'Delete run'));
  if (!runDir) return undefined;
  const refusal = deletionRefusal(workspaceResultsRoots(services), runDir, services.runs.activeRunDirs());
  if (refusal) {
    void vscode.window.showErrorMessage(`Onload Bench: ${refusal}`);
    return undefined;
  }
  const stat = await lstat(runDir).catch(() => undefined);
  if (!stat?.isDirectory()) {
    void vscode.window.showErrorMessage(
      `Onload Bench: ${runDir} is ${stat?.isSymbolicLink() ? 'a link, not a run folder' : 'not a folder'}; nothing was deleted.`,
    );
    return undefined;
  }
  const remove = 'Delete';
  const answer = await vscode.window.showWarningMessage(
    `Delete the run ${path.basename(runDir)}?`,
    { modal: true, detail: `${runDir} and everything in it (results, logs) will be removed from the disk.` },
    remove,
  );
  if (answer !== remove) return undefined;
  await rm(runDir, { recursive: true });
  services.log.info(`Deleted the run folder ${runDir}`);
  services.results.closeRun(runDir);
  await vscode.commands.executeCommand(commands.refreshRuns.id);
  return runDir;
}
