// The parts of the benchmark engine the extension host itself uses: reading plans and listing
// runs. They are imported on first use (a command or a task), never at activation. The sweep
// itself, with SSH and the Couchbase SDK, runs in a separate process (engineProcess.ts).
async function importEngine() {
  const [plan, store, errors, recorded] = await Promise.all([
    import('../../engine/src/plan/plan.js'),
    import('../../engine/src/results/resultsStore.js'),
    import('../../engine/src/errors.js'),
    import('../../engine/src/plan/recordedPlan.js'),
  ]);
  return {
    loadPlan: plan.loadPlan,
    listRuns: store.listRuns,
    surveyRuns: store.surveyRuns,
    newestFirst: store.newestFirst,
    readManifest: store.readManifest,
    recordedPlanDifferences: recorded.recordedPlanDifferences,
    EngineFailure: errors.EngineFailure,
    formatEngineError: errors.formatEngineError,
  };
}

export type Engine = Awaited<ReturnType<typeof importEngine>>;

let loading: Promise<Engine> | undefined;

export function loadEngine(): Promise<Engine> {
  loading ??= importEngine();
  return loading;
}
