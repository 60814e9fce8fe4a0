// Which earlier runs may be resumed, and the one a resume without a folder takes by itself. A run
// folder can come from anyone: one shipped in a repository lies in the results folder like the
// user's own, so only a run whose manifest names the plan being run (planPath, compared after
// resolving) is ever taken without being named; any other needs the user to name its folder.
// Pure: works on the run summaries of resultsStore.ts' listing.
import { resolve } from 'node:path';
import type { RunSummary } from './resultsStore';

/** Unfinished runs, newest first; with `planPath`, only those whose manifest names that plan. */
export function unfinishedRuns(runs: readonly RunSummary[], planPath?: string): RunSummary[] {
  const wanted = planPath !== undefined ? resolve(planPath) : undefined;
  return runs
    .filter((run) => !run.finished)
    .filter(
      (run) =>
        wanted === undefined ||
        (typeof run.manifest.planPath === 'string' && resolve(run.manifest.planPath) === wanted),
    )
    .sort((a, b) => String(b.manifest.createdAt ?? '').localeCompare(String(a.manifest.createdAt ?? '')));
}

/** The run `--resume` (and the task's `resume: true`) takes for `planPath`: never one without a planPath. */
export function latestUnfinishedRun(runs: readonly RunSummary[], planPath: string): RunSummary | undefined {
  return unfinishedRuns(runs, planPath)[0];
}
