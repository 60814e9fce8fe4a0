// Finds run folders (under the results folder of each workspace folder) and lets the user pick.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { RunSummary } from '../../../engine/src/report/index';
import { currentSettings, resultsRootFor } from '../config';
import { loadEngine } from '../engine';
import type { CoreServices } from '../services';
import { describeRun } from '../tasks/resumeChoice';

/** The results folder of each workspace folder (onloadBench.resultsFolder), each once. */
export function workspaceResultsRoots(services: CoreServices): string[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const roots = new Set<string>();
  if (folders.length === 0) roots.add(resultsRootFor(currentSettings(services.log), undefined));
  for (const folder of folders) roots.add(resultsRootFor(currentSettings(services.log, folder.uri), folder.uri));
  return [...roots];
}

export async function workspaceRuns(services: CoreServices): Promise<RunSummary[]> {
  const engine = await loadEngine();
  const surveys = await Promise.all(workspaceResultsRoots(services).map((root) => engine.surveyRuns(root)));
  // a damaged run folder never hides the others: it is named in the log
  for (const damaged of surveys.flatMap((survey) => survey.damaged))
    services.log.warn(`Run folder ${damaged.runDir}: ${damaged.problem}`);
  return surveys.flatMap((survey) => survey.runs).sort(engine.newestFirst);
}

type RunItem = vscode.QuickPickItem & { runDir?: string };

function runItems(runs: RunSummary[]): RunItem[] {
  return runs.map((run) => ({ ...describeRun(run), runDir: run.runDir }));
}

/** Picks one run; offers to browse for a folder when none is found. */
export async function pickRun(
  runs: RunSummary[],
  title: string,
  placeHolder = 'Choose a run',
): Promise<string | undefined> {
  const browse: RunItem = { label: '$(folder-opened) Browse for a run folder…' };
  const picked = await vscode.window.showQuickPick([...runItems(runs), browse], {
    title,
    placeHolder: runs.length > 0 ? placeHolder : 'No runs found in the results folder',
    matchOnDescription: true,
    // a step of a flow (baseline, then candidate): kept open when the focus moves, as choosePlan.ts says why
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  return picked.runDir ?? browseForRunFolder(title);
}

/**
 * Picks the baseline, then the candidate: two single picks, each saying which it is, the second
 * without the baseline and naming it. (A multi-select made the baseline the first run ticked,
 * which its ticked rows never showed, and was swapped by accident.)
 */
export async function pickBaselineThenCandidate(
  runs: RunSummary[],
  title: string,
  given?: string,
): Promise<[string, string] | undefined> {
  // From the Runs view the item is the baseline: only the candidate is asked for.
  const baseline =
    given ??
    (await pickRun(
      runs,
      `${title} (1 of 2): the baseline`,
      'Choose the baseline: the run the other is compared against',
    ));
  if (!baseline) return undefined;
  const others = runs.filter((run) => path.resolve(run.runDir) !== path.resolve(baseline));
  const candidate = await pickRun(
    others,
    `${title} (2 of 2): the candidate, compared against ${path.basename(baseline)}`,
    `Choose the candidate: the run compared against ${path.basename(baseline)}`,
  );
  return candidate ? [baseline, candidate] : undefined;
}

async function browseForRunFolder(title: string): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Open run',
  });
  return picked?.[0]?.fsPath;
}

/** A run folder given as an argument: a path, a folder Uri, a results/manifest file Uri or a Runs view item. */
export function runDirArgument(arg: unknown): string | undefined {
  const item =
    typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri)
      ? (arg as { runDir?: unknown }).runDir
      : undefined;
  if (item !== undefined) return typeof item === 'string' && item.trim() !== '' ? item : undefined;
  const fsPath =
    arg instanceof vscode.Uri ? arg.fsPath : typeof arg === 'string' && arg.trim() !== '' ? arg : undefined;
  if (!fsPath) return undefined;
  const base = path.basename(fsPath);
  return base === 'results.jsonl' || base === 'manifest.json' ? path.dirname(fsPath) : fsPath;
}
