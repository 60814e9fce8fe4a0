// The Runs view's core: without it every run, comparison and failure went
// through the palette and piled up tabs. Says which runs the workspace has, in which state
// (running, complete, stopped and resumable, failed pre-flight), with the verdict line each
// opens with, and which folder may be deleted. Pure (no `vscode`, no file system): the tree view
// (runsView.ts) draws what this returns and does what its items ask.
import * as path from 'node:path';
import {
  buildReportTables,
  buildVerdict,
  type CellResult,
  defaultMetrics,
  type RunManifest,
  type RunSummary,
  stackDisplayNames,
} from '../../../engine/src/report/index';

export type RunState = 'running' | 'complete' | 'stopped' | 'failed-preflight';

/** A new run that stopped in pre-flight: the engine removed its folder, so only the editor remembers it. */
export interface PreflightFailure {
  planPath: string;
  /** The folder run-started named (gone now); '' when the run never got that far. */
  runDir: string;
  /** ISO time the attempt ended. */
  at: string;
  /** What failed and the next step, as the failure notice words it. */
  message: string;
}

export interface RunEntry {
  /** Stable per run folder (resolved), or per failed attempt. */
  id: string;
  runDir: string;
  state: RunState;
  /** The folder's name (the run id). */
  label: string;
  /** `complete · 24/24 cells · 2026-12-04 12:05 UTC`; a running or stopped run says so first. */
  description: string;
  /** The run's verdict, one line per interface and profile (engine/src/report/verdict.ts), as the panel shows them. */
  verdict: string[];
  tooltip: string;
  /** What the item offers (package.json `view/item/context` matches on it). */
  contextValue: `onloadBench.run.${RunState}`;
  planPath?: string;
}

export interface RunsTree {
  /** Run folders, newest first. */
  runs: RunEntry[];
  /** Failed pre-flights, newest first: listed in one group instead of a tab each. */
  failedPreflights: RunEntry[];
}

const stateWords: Record<RunState, string> = {
  running: 'running',
  complete: 'complete',
  stopped: 'stopped, resumable',
  'failed-preflight': 'failed pre-flight',
};

/** `2026-12-04 12:05 UTC` from an ISO time; '' when there is none. */
export function shownTime(iso: unknown): string {
  const text = String(iso ?? '');
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(text);
  return match ? `${match[1]} ${match[2]} UTC` : '';
}

/** The verdict lines of a run's files, as the panel and `onload-bench report` open with them. */
export function verdictOfRun(manifest: RunManifest | undefined, results: readonly CellResult[]): string[] {
  if (results.length === 0) return [];
  const tables = buildReportTables({ results, manifest }, defaultMetrics);
  return buildVerdict(tables, stackDisplayNames(manifest?.plan)).map((line) => line.text);
}

function runState(run: RunSummary, running: ReadonlySet<string>): RunState {
  if (running.has(path.resolve(run.runDir))) return 'running';
  return run.finished ? 'complete' : 'stopped';
}

function runEntry(run: RunSummary, state: RunState, verdict: readonly string[]): RunEntry {
  const started = shownTime(run.manifest.createdAt);
  const cells = `${run.done}/${run.total} cells`;
  const description = [stateWords[state], cells, started].filter((part) => part !== '').join(' · ');
  const planPath = typeof run.manifest.planPath === 'string' ? run.manifest.planPath : undefined;
  const tooltip = [
    `${path.basename(run.runDir)}: ${stateWords[state]}, ${cells}`,
    ...(started ? [`Started ${started}`] : []),
    ...(planPath ? [`Plan: ${planPath}`] : []),
    ...(verdict.length > 0
      ? ['', ...verdict]
      : state === 'complete'
        ? ['', 'No verdict: the run has no kernel and Onload pair to compare.']
        : []),
    '',
    run.runDir,
  ].join('\n');
  return {
    id: path.resolve(run.runDir),
    runDir: run.runDir,
    state,
    label: path.basename(run.runDir),
    description,
    verdict: [...verdict],
    tooltip,
    contextValue: `onloadBench.run.${state}`,
    ...(planPath ? { planPath } : {}),
  };
}

function failureEntry(failure: PreflightFailure): RunEntry {
  const plan = path.basename(failure.planPath);
  const at = shownTime(failure.at);
  return {
    id: `preflight:${failure.at}:${failure.planPath}`,
    runDir: failure.runDir,
    state: 'failed-preflight',
    label: plan,
    description: [stateWords['failed-preflight'], at].filter((part) => part !== '').join(' · '),
    verdict: [],
    tooltip: [
      `${plan}: ${stateWords['failed-preflight']}${at ? ` at ${at}` : ''}; no run folder was kept.`,
      '',
      failure.message,
    ].join('\n'),
    contextValue: 'onloadBench.run.failed-preflight',
    planPath: failure.planPath,
  };
}

/**
 * The Runs view's items: every run folder with its state and verdict (verdicts by resolved folder;
 * a run without one shows none), then the failed pre-flights (kept in the workspace's storage), newest first.
 */
export function runsTree(
  runs: readonly RunSummary[],
  activeRunDirs: readonly string[],
  failures: readonly PreflightFailure[],
  verdicts: ReadonlyMap<string, readonly string[]> = new Map(),
): RunsTree {
  const running = new Set(activeRunDirs.map((dir) => path.resolve(dir)));
  const sorted = [...runs].sort((a, b) =>
    String(b.manifest.createdAt ?? '').localeCompare(String(a.manifest.createdAt ?? '')),
  );
  return {
    runs: sorted.map((run) => runEntry(run, runState(run, running), verdicts.get(path.resolve(run.runDir)) ?? [])),
    failedPreflights: [...failures].sort((a, b) => b.at.localeCompare(a.at)).map(failureEntry),
  };
}

/**
 * What the Runs view's rows are drawn from, as one string: two equal fingerprints draw the same
 * rows (verdict lines follow a run's count of finished cells), so the view's timed look redraws
 * only when this changes. Independent of the order runs were found in.
 */
export function runsFingerprint(
  runs: readonly RunSummary[],
  activeRunDirs: readonly string[],
  failures: readonly PreflightFailure[],
): string {
  return JSON.stringify([
    runs
      .map((run) => [
        path.resolve(run.runDir),
        run.done,
        run.total,
        run.finished,
        String(run.manifest.createdAt ?? ''),
        String(run.manifest.planPath ?? ''),
      ])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    activeRunDirs.map((dir) => path.resolve(dir)).sort(),
    failures.map((failure) => [failure.at, failure.planPath, failure.message]),
  ]);
}

/**
 * Whether Delete may remove `runDir`: only a folder right inside one of the results folders (never
 * the results folder itself, nothing reached through `..`), and never a running run. The tree view
 * also refuses a link (it lstat's the folder and removes without following links).
 */
export function deletionRefusal(
  resultsRoots: readonly string[],
  runDir: string,
  activeRunDirs: readonly string[],
): string | undefined {
  const target = path.resolve(runDir);
  const inside = resultsRoots.some(
    (root) =>
      path.dirname(target) === path.resolve(root) && path.basename(target) !== '' && target !== path.resolve(root),
  );
  if (!inside)
    return `${runDir} is not a run folder inside the results folder (${resultsRoots.join(', ')}); nothing was deleted.`;
  if (activeRunDirs.some((dir) => path.resolve(dir) === target))
    return `${path.basename(target)} is running; cancel it before deleting its folder.`;
  return undefined;
}
