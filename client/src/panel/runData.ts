// What the panel knows about one run folder: its manifest, the cells finished so far, and the
// live state a running sweep reports. Filled from the files or from SweepEvents; pure.
import type { SweepEvent, RunOutcome } from '../../../engine/src/events';
import type { CellResult, RunManifest } from '../../../engine/src/model';

export interface RunData {
  runDir: string;
  manifest?: RunManifest;
  /** By cell id; a later line for the same id (a resumed retry) replaces the earlier one. */
  results: Map<string, CellResult>;
  /** Problems met reading the folder, worded for the user. */
  warnings: string[];
  running?: { cell: string; index: number; total: number; remainingEstimateMs?: number };
  outcome?: RunOutcome;
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

/** `25G kernel 10 threads #1` style label of a cell, for the progress line. */
export function describeCell(key: CellResult['key']): string {
  const axes = Object.entries(key.axes).map(([name, value]) => ` ${name}=${value}`).join('');
  return `${key.interface} ${key.stack} ${key.threads} threads${axes} #${key.repetition}`;
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
      return true;
    case 'cell-started':
      data.running = { cell: describeCell(event.key), index: event.index, total: event.total };
      return true;
    case 'cell-finished':
      data.results.set(event.result.id, event.result);
      if (data.running) data.running.remainingEstimateMs = event.remainingEstimateMs;
      return true;
    case 'run-finished':
      data.outcome = event.outcome;
      data.running = undefined;
      return true;
    default:
      return false;
  }
}

/** The one-line live text a status or phase event gives, or undefined for other events. */
export function liveText(event: SweepEvent): string | undefined {
  if (event.type === 'status') {
    const { status } = event;
    return `${event.host} ${event.phase}: ${status.elapsedSec} s, ${status.operations} operations, ${Math.round(status.currentOpsPerSec)} ops/s`;
  }
  if (event.type === 'phase') return `phase: ${event.phase}`;
  return undefined;
}
