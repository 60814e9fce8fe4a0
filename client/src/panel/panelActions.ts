// What the results panel does in the editor for the user: after an export, a notification to open
// the file or show it in the file manager; from a table cell or chart point, that cell's YCSB logs
// and its record (the results.jsonl line). Paths from the run folder never leave it, and a log is
// opened only when it is a regular file reached without a link (engine/src/results/runFolderFiles.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type CellResult, runFolderFileToOpen } from '../../../engine/src/report/index';
import { type RunData } from './runData';
import { cellName } from '../../../engine/src/report/index';

export const openAction = 'Open';
export const revealAction = 'Reveal in File Manager';

/** After any export: say where it went and offer to open it or show it in the file manager. */
export async function offerExportActions(target: vscode.Uri): Promise<void> {
  const choice = await vscode.window.showInformationMessage(
    `Onload Bench: saved ${path.basename(target.fsPath)} in ${path.dirname(target.fsPath)}`,
    openAction,
    revealAction,
  );
  if (choice === openAction) await vscode.commands.executeCommand('vscode.open', target);
  else if (choice === revealAction) await vscode.commands.executeCommand('revealFileInOS', target);
}

/** A log path of a record, if it stays inside the run folder (records come from files). */
export function logPath(runDir: string, relative: string): string | undefined {
  const resolved = path.resolve(runDir, relative);
  const inside = path.relative(path.resolve(runDir), resolved);
  return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside) ? resolved : undefined;
}

type CellItem = vscode.QuickPickItem & { open?: () => PromiseLike<unknown> };

/** Opens a log only as a regular file reached without a link (a run folder can plant one to /etc/passwd). */
async function openLog(runDir: string, log: string): Promise<unknown> {
  const checked = await runFolderFileToOpen(runDir, log);
  if ('refused' in checked)
    return vscode.window.showErrorMessage(`Onload Bench: not opening ${log}: ${checked.refused}.`);
  return vscode.window.showTextDocument(vscode.Uri.file(checked.path), { preview: false });
}

function statusText(result: CellResult): string {
  if (result.status === 'failed')
    return `failed${result.error ? ` at ${result.error.step}: ${result.error.message}` : ''}`;
  const throughput = result.run?.throughputOpsPerSec;
  return throughput !== undefined ? `${Math.round(throughput).toLocaleString('en-US')} ops/s` : 'ok';
}

/** The items of the picker: per repetition its record, then each of its logs. */
export function cellItems(run: RunData, cellIds: readonly string[]): CellItem[] {
  const items: CellItem[] = [];
  for (const id of cellIds) {
    const result = run.results.get(id);
    if (!result) continue;
    items.push({ label: cellName(result.key), kind: vscode.QuickPickItemKind.Separator });
    items.push({
      label: '$(json) Cell record',
      description: statusText(result),
      detail: `The line of results.jsonl for ${id}`,
      open: async () => {
        const document = await vscode.workspace.openTextDocument({
          language: 'json',
          content: `${JSON.stringify(result, null, 2)}\n`,
        });
        return vscode.window.showTextDocument(document, { preview: false });
      },
    });
    for (const log of result.logs) {
      if (!logPath(run.runDir, log)) continue;
      items.push({ label: `$(output) ${path.basename(log)}`, description: log, open: () => openLog(run.runDir, log) });
    }
  }
  return items;
}

/** Lets the user pick a record or log of the cells behind a table cell or chart point, and opens it. */
export async function openCellFiles(run: RunData, cellIds: readonly string[]): Promise<void> {
  const items = cellItems(run, cellIds);
  if (!items.some((item) => item.open)) {
    void vscode.window.showInformationMessage(
      'Onload Bench: no cell of this point has finished yet, so there is no record or log to open.',
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Open a record or YCSB log of this point',
    matchOnDescription: true,
  });
  await picked?.open?.();
}
