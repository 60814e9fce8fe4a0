// Which earlier runs can be resumed. Pure (no `vscode`): works on the engine's run summaries.
import * as path from 'node:path';
import type { RunSummary } from '../../../engine/src/results/resultsStore';

/** Unfinished runs, newest first, optionally only those of one plan file. */
export function unfinishedRuns(runs: readonly RunSummary[], planPath?: string): RunSummary[] {
  const wanted = planPath !== undefined ? path.resolve(planPath) : undefined;
  return runs
    .filter((run) => !run.finished)
    .filter((run) => wanted === undefined || (run.manifest.planPath !== undefined && path.resolve(run.manifest.planPath) === wanted))
    .sort((a, b) => String(b.manifest.createdAt ?? '').localeCompare(String(a.manifest.createdAt ?? '')));
}

export function latestUnfinishedRun(runs: readonly RunSummary[], planPath: string): RunSummary | undefined {
  return unfinishedRuns(runs, planPath)[0];
}

/** `lab-20261202-1405 — 12/40 cells, started 2026-12-02 14:05` */
export function describeRun(run: RunSummary): { label: string; description: string; detail?: string } {
  const started = String(run.manifest.createdAt ?? '').replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  const result: { label: string; description: string; detail?: string } = {
    label: path.basename(run.runDir),
    description: `${run.done}/${run.total} cells${run.finished ? '' : ' (unfinished)'}, started ${started}`,
  };
  if (run.manifest.planPath) result.detail = run.manifest.planPath;
  return result;
}
