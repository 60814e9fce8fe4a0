// The engine's door for running: everything the edges (the extension, its engine process and the
// `onload-bench` CLI) use to load and check a plan, run a sweep or show its commands (the dry run),
// compare a run folder's recorded plan before a resume, reach hosts the way the engine does, and
// follow a run through its events and outcome. client/ and cli/ import the engine through this file
// and report/index.ts (reading results) only, never a file behind them (.dependency-cruiser.cjs,
// `edges-use-the-engine-entries`), so the engine's inside can move without the edges noticing.
// Behind it is the whole engine, the plan's language services included: the extension host imports
// it on first use only (client/src/engine.ts, a dynamic import), never at activation
// (`extension-loads-the-run-entry-on-use`); types cost nothing and may be imported anywhere.

// The plan: loaded and checked, and compared with the plan a run folder recorded.
export { loadPlan } from './plan/plan';
export type { PlanError } from './plan/plan';
export { recordedPlanDifferences } from './plan/recordedPlan';
export type { PlanDifference } from './plan/recordedPlan';

// A run: the sweep, its pre-flight on its own, the dry run, and what the edges pass in.
export { runSweep } from './sweep/sweep';
export { runPreflight } from './sweep/preflight';
export { dryRun } from './sweep/dryRun';
export type { RunSweepOptions } from './options';

// Hosts as the engine reaches them (the engine process wraps each session to log its commands).
export { SessionPool } from './remote/ssh';
export type { RemoteResult, RemoteRunOptions, RemoteSession } from './remote/ssh';

// What a run says while it runs and how it ends; failures as values (their text: report/index.ts).
export type { LogLevel, PreflightCheck, RunOutcome, SweepEvent } from './events';
export type { EngineError } from './model';
export { EngineFailure, toEngineError } from './errors';
