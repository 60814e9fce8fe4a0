// "New benchmark plan from template": writes a plan with the cookbook's sweep next to the
// workspace's workloads and profiles (pointing at them when there are some) and opens it.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { freshPlanFileName } from '../planFiles';
import type { ExtensionServices } from '../extensionServices';
import { planTemplateText } from '../templates/planTemplate';

async function firstFile(glob: string): Promise<vscode.Uri | undefined> {
  const found = await vscode.workspace.findFiles(glob, '**/node_modules/**', 50);
  return found.sort((a, b) => a.fsPath.localeCompare(b.fsPath))[0];
}

function relativeTo(folder: string, file: vscode.Uri | undefined): string | undefined {
  return file ? path.relative(folder, file.fsPath).split(path.sep).join('/') : undefined;
}

export async function newPlanCommand(_services: ExtensionServices, arg?: unknown): Promise<vscode.Uri | undefined> {
  let folder: string | undefined = arg instanceof vscode.Uri ? arg.fsPath : typeof arg === 'string' ? arg : undefined;
  if (!folder) {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const workspaceFolder =
      folders.length > 1
        ? await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Where should the plan go?' })
        : folders[0];
    folder = workspaceFolder?.uri.fsPath;
  }
  if (!folder) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: 'Create the plan here',
    });
    folder = picked?.[0]?.fsPath;
    if (!folder) return undefined;
  }

  const name = await vscode.window.showInputBox({
    title: 'New benchmark plan',
    prompt: 'Plan name (used in run folder names)',
    value: 'kernel-vs-onload',
    validateInput: (value) =>
      /^[A-Za-z0-9._-]{1,64}$/.test(value) ? undefined : 'Use 1 to 64 letters, digits, ".", "_" or "-".',
  });
  if (name === undefined) return undefined;

  const existing = await vscode.workspace.fs.readDirectory(vscode.Uri.file(folder)).then(
    (entries) => entries.map(([entry]) => entry),
    () => [] as string[],
  );
  const target = vscode.Uri.file(path.join(folder, freshPlanFileName(name, existing)));
  const workloadPath = relativeTo(folder, await firstFile('**/workloads/workload*'));
  const profilePath = relativeTo(folder, await firstFile('**/*.opf'));
  const text = planTemplateText({
    name,
    ...(workloadPath ? { workloadPath } : {}),
    ...(profilePath ? { profilePath } : {}),
  });
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  await vscode.window.showTextDocument(target);
  void vscode.window.showInformationMessage(
    'Onload Bench: replace the example hosts and addresses with yours, then run "Run Couchbase benchmark".',
  );
  return target;
}
