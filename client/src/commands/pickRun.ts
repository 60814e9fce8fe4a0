// Finds run folders (under the results folder of each workspace folder) and lets the user pick.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { RunSummary } from '../../../engine/src/resultsStore';
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

/** Picks exactly two runs. */
export async function pickTwoRuns(runs: RunSummary[], title: string): Promise<[string, string] | undefined> {
  if (runs.length < 2) {
    const first = await pickRun(runs, `${title}: first run`);
    if (!first) return undefined;
    const second = await pickRun(runs.filter((run) => path.resolve(run.runDir) !== path.resolve(first)), `${title}: second run`);
    return second ? [first, second] : undefined;
  }
  const quickPick = vscode.window.createQuickPick<RunItem>();
  quickPick.title = title;
  quickPick.placeholder = 'Choose two runs';
  quickPick.canSelectMany = true;
  quickPick.matchOnDescription = true;
  quickPick.items = runItems(runs);
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: [string, string] | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      quickPick.dispose();
    };
    quickPick.onDidChangeSelection((selected) => {
      quickPick.placeholder = selected.length > 2 ? 'Choose only two runs' : 'Choose two runs';
    });
    quickPick.onDidAccept(() => {
      const selected = quickPick.selectedItems.flatMap((item) => (item.runDir ? [item.runDir] : []));
      if (selected.length === 2) finish([selected[0]!, selected[1]!]);
      else quickPick.placeholder = `Choose exactly two runs (${selected.length} chosen)`;
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
