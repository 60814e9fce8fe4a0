// The engine's public API: what the VS Code extension, the CLI and the tests call.
export { loadPlan, checkPlanText, type PlanError } from './plan/plan';
export { runSweep } from './sweep/sweep';
export { runPreflight } from './sweep/preflight';
export { dryRun } from './sweep/dryRun';
export { listRuns, type RunSummary } from './results/resultsStore';
export { cellId, expandCells, expandValues } from './plan/cells';
export { withDefaults, type Plan, type ResolvedPlan } from './plan/planSchema';
export { EngineFailure, formatEngineError } from './errors';
export { recordedPlanDifferences, type PlanDifference } from './plan/recordedPlan';
export type { RunSweepOptions, PreflightOptions, SshOptions, TimeoutOptions } from './options';
export type { SweepEvent, RunOutcome, PreflightCheck, LiveStatus, LogLevel } from './events';
export type { CellKey, CellResult, EngineError, RunManifest, YcsbReport } from './model';
