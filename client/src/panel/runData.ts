// What the panel knows about one run folder: its manifest, the cells finished so far, and the
// live state a running sweep reports. Filled from the files or from SweepEvents; pure.
import type { PreflightCheck, RunOutcome, SweepEvent } from '../../../engine/src/index';
import { cellName, type CellResult, type RunManifest } from '../../../engine/src/report/index';

export interface RunData {
  runDir: string;
  manifest?: RunManifest;
  /** By cell id; a later line for the same id (a resumed retry) replaces the earlier one. */
  results: Map<string, CellResult>;
  /** Problems met reading the folder, worded for the user. */
  warnings: string[];
  running?: { cell: string; index: number; total: number; remainingEstimateMs?: number };
  outcome?: RunOutcome;
  /** Pre-flight as a sweep reports it: checks so far, and whether the last one came in. */
  preflight?: { checks: PreflightCheck[]; done: boolean };
  /** The run folder is gone (a new run that stopped before its first cell leaves none behind). */
  removed?: boolean;
}

export function emptyRunData(runDir: string): RunData {
  return { runDir, results: new Map(), warnings: [] };
}

export function runDataFromFiles(
  runDir: string,
  manifest: RunManifest | undefined,
  results: readonly CellResult[],
  warnings: readonly string[] = [],
): RunData {
  const data = emptyRunData(runDir);
  data.manifest = manifest;
  for (const result of results) data.results.set(result.id, result);
  data.warnings.push(...warnings);
  return data;
}

/**
 * Applies one sweep event. Returns whether what the panel shows changed enough to redraw
 * (status lines only update the live text, see liveText).
 */
export function applySweepEvent(data: RunData, event: SweepEvent): boolean {
  switch (event.type) {
    case 'run-started':
      data.manifest = event.manifest;
      data.outcome = undefined;
      data.removed = undefined;
      data.preflight = { checks: [], done: false };
      return true;
    case 'preflight-check':
      data.preflight ??= { checks: [], done: false };
      data.preflight.checks.push(event.check);
      return true;
    case 'preflight':
      // The full list replaces the live one (same checks, in the engine's order).
      data.preflight = { checks: [...event.checks], done: true };
      return true;
    case 'cell-started':
      if (data.preflight) data.preflight.done = true;
      data.running = { cell: cellName(event.key), index: event.index, total: event.total };
      return true;
    case 'cell-finished':
      if (data.preflight) data.preflight.done = true;
      data.results.set(event.result.id, event.result);
      if (data.running) data.running.remainingEstimateMs = event.remainingEstimateMs;
      return true;
    case 'run-finished':
      data.outcome = event.outcome;
      data.running = undefined;
      if (data.preflight) data.preflight.done = true;
      // A new run that stopped before its first cell: the engine removed its folder.
      if (event.outcome.runDir === '' && data.results.size === 0) data.removed = true;
      return true;
    default:
      return false;
  }
}

/** A cell's steps (engine/src/sweep/sweep.ts `phase(...)`) in words. */
const phaseWords: Record<string, string> = {
  'restart-server': 'Restarting Couchbase Server',
  'resize-cluster': 'Forming the cluster for this size (add, rebalance)',
  // Kernel cells are checked too (that nothing accelerates them): the words fit both stacks.
  'check-acceleration': 'Checking which network stack Couchbase runs on',
  'recreate-bucket': 'Recreating the bucket',
  'ycsb-load': 'Loading the data (YCSB load)',
  'item-count': 'Counting the loaded items',
  'cluster-spread': 'Reading how the bucket is spread over the nodes',
  'ycsb-run': 'Running the workload (YCSB run)',
};

/** A step id in words; an unknown id reads with spaces for dashes. */
export function phaseText(phase: string): string {
  return phaseWords[phase] ?? phase.charAt(0).toUpperCase() + phase.slice(1).replace(/[-_]+/g, ' ');
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The one-line live text a status or phase event gives, or undefined for other events. */
export function liveText(event: SweepEvent): string | undefined {
  if (event.type === 'status') {
    const { status } = event;
    return `${event.host}, YCSB ${event.phase}: ${status.elapsedSec} s, ${whole.format(status.operations)} operations, ${whole.format(status.currentOpsPerSec)} ops/s`;
  }
  if (event.type === 'phase') return `${phaseText(event.phase)}…`;
  return undefined;
}
