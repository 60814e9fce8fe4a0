// The parts of the benchmark engine the extension host itself uses: reading plans, listing runs,
// the dry run. The engine's run entry (engine/src/index.ts) is imported on first use (a command or a
// task), never at activation: the whole engine and the plan's language services are behind it. The
// sweep itself, with SSH and the Couchbase SDK, runs in a separate process (engineProcess.ts).
// The reading entry (engine/src/report/index.ts) is light and already loaded by the results panel.
import { formatEngineError, listRuns, newestFirst, readManifest, surveyRuns } from '../../engine/src/report/index';

async function importEngine() {
  const run = await import('../../engine/src/index.js');
  return {
    loadPlan: run.loadPlan,
    dryRun: run.dryRun,
    listRuns,
    surveyRuns,
    newestFirst,
    readManifest,
    recordedPlanDifferences: run.recordedPlanDifferences,
    EngineFailure: run.EngineFailure,
    toEngineError: run.toEngineError,
    formatEngineError,
  };
}

export type Engine = Awaited<ReturnType<typeof importEngine>>;

let loading: Promise<Engine> | undefined;

export function loadEngine(): Promise<Engine> {
  loading ??= importEngine();
  return loading;
}
