// The engine's public API: what the VS Code extension, the CLI and the tests call.
export { loadPlan, checkPlanText, type PlanError } from './plan';
export { runSweep } from './sweep';
export { runPreflight } from './preflight';
export { dryRun } from './dryRun';
export { listRuns, type RunSummary } from './resultsStore';
export { cellId, expandCells, expandValues } from './cells';
export { withDefaults, type Plan, type ResolvedPlan } from './planSchema';
export { EngineFailure, formatEngineError } from './errors';
export { recordedPlanDifferences, type PlanDifference } from './recordedPlan';
export type { RunSweepOptions, PreflightOptions, SshOptions, TimeoutOptions } from './options';
export type { SweepEvent, RunOutcome, PreflightCheck, LiveStatus, LogLevel } from './events';
export type { CellKey, CellResult, EngineError, RunManifest, YcsbReport } from './model';
