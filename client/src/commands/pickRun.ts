// Finds run folders (under the results folder of each workspace folder) and lets the user pick.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { RunSummary } from '../../../engine/src/results/resultsStore';
import { currentSettings, resultsRootFor } from '../config';
import { loadEngine } from '../engine';
import type { CoreServices } from '../services';
import { describeRun } from '../tasks/resumeChoice';

export async function workspaceRuns(services: CoreServices): Promise<RunSummary[]> {
  const engine = await loadEngine();
  const folders = vscode.workspace.workspaceFolders ?? [];
  const roots = new Set<string>();
  if (folders.length === 0) roots.add(resultsRootFor(currentSettings(services.log), undefined));
  for (const folder of folders) roots.add(resultsRootFor(currentSettings(services.log, folder.uri), folder.uri));
  const surveys = await Promise.all([...roots].map((root) => engine.surveyRuns(root)));
  // a damaged run folder never hides the others: it is named in the log
  for (const damaged of surveys.flatMap((survey) => survey.damaged)) services.log.warn(`Run folder ${damaged.runDir}: ${damaged.problem}`);
  return surveys.flatMap((survey) => survey.runs).sort(engine.newestFirst);
}

type RunItem = vscode.QuickPickItem & { runDir?: string };

function runItems(runs: RunSummary[]): RunItem[] {
  return runs.map((run) => ({ ...describeRun(run), runDir: run.runDir }));
}

/** Picks one run; offers to browse for a folder when none is found. */
export async function pickRun(runs: RunSummary[], title: string): Promise<string | undefined> {
  const browse: RunItem = { label: '$(folder-opened) Browse for a run folder…' };
  const picked = await vscode.window.showQuickPick([...runItems(runs), browse], {
    title,
    placeHolder: runs.length > 0 ? 'Choose a run' : 'No runs found in the results folder',
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  return picked.runDir ?? browseForRunFolder(title);
}

/**
 * What Enter does in the two-run picker: with two runs checked, compare them (A is the one checked
 * first); otherwise the highlighted run is checked, and once that makes two, they are compared.
 * Pure, for tests.
 */
export function acceptTwoRuns(checkedInOrder: readonly string[], highlighted: string | undefined): { pair: [string, string] } | { check: string[] } {
  const checked = highlighted && !checkedInOrder.includes(highlighted) && checkedInOrder.length < 2 ? [...checkedInOrder, highlighted] : [...checkedInOrder];
  return checked.length === 2 ? { pair: [checked[0]!, checked[1]!] } : { check: checked };
}

/** Keeps the order in which runs were checked (VS Code reports the selection in list order). */
export function checkedOrder(previous: readonly string[], selected: readonly string[]): string[] {
  return [...previous.filter((dir) => selected.includes(dir)), ...selected.filter((dir) => !previous.includes(dir))];
}

/** Picks two runs: A (the baseline) then B. Enter checks the highlighted run; the second Enter compares. */
export async function pickTwoRuns(runs: RunSummary[], title: string): Promise<[string, string] | undefined> {
  if (runs.length < 2) {
    const first = await pickRun(runs, `${title}: run A (the baseline)`);
    if (!first) return undefined;
    const second = await pickRun(runs.filter((run) => path.resolve(run.runDir) !== path.resolve(first)), `${title}: run B (compared against A)`);
    return second ? [first, second] : undefined;
  }
  const quickPick = vscode.window.createQuickPick<RunItem>();
  quickPick.title = title;
  quickPick.placeholder = 'Enter on run A (the baseline), then Enter on run B';
  quickPick.canSelectMany = true;
  quickPick.matchOnDescription = true;
  quickPick.items = runItems(runs);
  let order: string[] = [];
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: [string, string] | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      quickPick.dispose();
    };
    quickPick.onDidChangeSelection((selected) => {
      order = checkedOrder(order, selected.flatMap((item) => (item.runDir ? [item.runDir] : [])));
      quickPick.placeholder = order.length > 2 ? 'Check only two runs' : order.length === 1 ? 'Now Enter on run B' : 'Enter on run A (the baseline), then Enter on run B';
    });
    quickPick.onDidAccept(() => {
      const answer = acceptTwoRuns(order, quickPick.activeItems[0]?.runDir);
      if ('pair' in answer) {
        finish(answer.pair);
        return;
      }
      order = answer.check;
      quickPick.selectedItems = quickPick.items.filter((item) => item.runDir !== undefined && order.includes(item.runDir));
      quickPick.placeholder = order.length === 1 ? 'Now Enter on run B' : `Check exactly two runs (${order.length} checked)`;
    });
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
  });
}

async function browseForRunFolder(title: string): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({ title, canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Open run' });
  return picked?.[0]?.fsPath;
}

/** A run folder given as an argument: a path, a folder Uri or a results/manifest file Uri. */
export function runDirArgument(arg: unknown): string | undefined {
  const fsPath = arg instanceof vscode.Uri ? arg.fsPath : typeof arg === 'string' && arg.trim() !== '' ? arg : undefined;
  if (!fsPath) return undefined;
  const base = path.basename(fsPath);
  return base === 'results.jsonl' || base === 'manifest.json' ? path.dirname(fsPath) : fsPath;
}
