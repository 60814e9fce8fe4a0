// The workload properties each YCSB phase gets beyond the plan's, per client. Pure.
//
// REAL-LAB Y5: Client.java starts its terminator (maxexecutiontime) and throttle (target) for the
// load as well, so a limit meant for the run would cut the load short. The load therefore gets
// the neutral values Client.java reads as "no limit": maxexecutiontime=0 (no terminator thread)
// and target=0 (no throttle); operationcount is not sent (the load counts insertcount/recordcount).
//
// REAL-LAB Y6, Y10: CoreWorkload (0.17.0) numbers every client's run inserts from its own
// `recordcount` upwards, and chooses read keys relative to that sequence for `latest` and
// `exponential` (and up to recordcount + inserts for `zipfian`): no choice of recordcount gives
// several inserting clients disjoint inserts and keys that were loaded. What separates them is
// the key's prefix: couchbase2 names a record `<table>:<key>`. So when the run inserts and several
// clients run, each client gets a table of its own (`<table>-c<N>`), loads its share of the
// records into it (every client loads, in parallel) and runs on it as a one-client run would, for
// every request distribution and however the run is bounded. Otherwise the first client loads
// everything (or each its slice of one table, workload.splitLoad) and every client reads it.
// REAL-LAB Y10 too: 0.17.0's Client runs no thread at all when operationcount is 0 ("the
// threadcount will be recordcount!"), so a run bounded by maxexecutiontime gets the largest
// operationcount Client accepts instead of none.
// REAL-LAB Y11: insertstart + insertcount may not pass recordcount in either phase; the overrides
// keep that true in every table.

/** The largest operationcount Client.java parses (an int): a run bounded by time, not by count. */
export const unboundedOperationCount = 2_147_483_647;
/** Properties that only limit the run: never sent to a load (REAL-LAB Y5). */
export const runOnlyProperties = ['maxexecutiontime', 'operationcount', 'target'] as const;

/** The effective workload: the file, then the plan's properties, then the cell's axes. */
export function effectiveWorkload(
  fileText: string,
  properties: Record<string, string | number | boolean>,
  axes: Record<string, string | number>,
): Map<string, string> {
  const out = new Map<string, string>();
  // java.util.Properties subset: `key=value` / `key: value` / `key value`, # and ! comments
  for (const raw of fileText.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const match = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line);
    if (match) out.set(match[1], match[2].trim());
  }
  for (const [key, value] of Object.entries(properties)) out.set(key, String(value));
  for (const [key, value] of Object.entries(axes)) out.set(key, String(value));
  return out;
}

export interface PhaseSlice {
  phase: 'load' | 'run';
  /** 0-based index of the client among those taking part in the phase, and their number. */
  index: number;
  count: number;
}

/** Number of a workload property, or undefined when absent or not a number. */
export function numberOf(workload: Map<string, string>, key: string): number | undefined {
  const value = workload.get(key);
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Records the load must insert in total: insertcount if set, else recordcount - insertstart. */
export function recordsToLoad(workload: Map<string, string>): number | undefined {
  const insertCount = numberOf(workload, 'insertcount');
  if (insertCount !== undefined) return insertCount;
  const recordCount = numberOf(workload, 'recordcount');
  return recordCount === undefined ? undefined : recordCount - (numberOf(workload, 'insertstart') ?? 0);
}

/** Whether every client gets a table of its own: the run inserts and more than one client runs it. */
export function tablePerClient(workload: Map<string, string>, runClients: number): boolean {
  return runClients > 1 && (numberOf(workload, 'insertproportion') ?? 0) > 0;
}

/** How many clients take part in the load: all with a table each or a split load, else the first. */
export function loadingClients(workload: Map<string, string>, runClients: number, splitLoad: boolean): number {
  return tablePerClient(workload, runClients) || splitLoad ? runClients : 1;
}

/** The share of `total` records of client `index` of `count`, in order. */
function share(total: number, index: number, count: number): { start: number; count: number } {
  const base = Math.floor(total / count);
  const extra = total % count;
  return { start: index * base + Math.min(index, extra), count: base + (index < extra ? 1 : 0) };
}

/**
 * The per-phase overrides for one client (added after the plan's properties and the axes).
 * `workload` is the effective workload of the cell; `slice.count` is the number of clients in the
 * phase, which for a table per client is every client in both phases.
 */
export function phaseOverrides(workload: Map<string, string>, slice: PhaseSlice): Record<string, string | number> {
  const overrides: Record<string, string | number> = {};
  const recordCount = numberOf(workload, 'recordcount');
  const perClient = slice.count > 1 && (numberOf(workload, 'insertproportion') ?? 0) > 0;
  if (perClient && recordCount !== undefined) {
    // a table of its own, holding this client's share of the records at keys 0..n-1
    const mine = share(recordsToLoad(workload) ?? recordCount, slice.index, slice.count).count;
    overrides.table = `${workload.get('table') ?? 'usertable'}-c${slice.index + 1}`;
    overrides.recordcount = mine;
    overrides.insertstart = 0;
    overrides.insertcount = mine;
  }
  if (slice.phase === 'load') {
    overrides.maxexecutiontime = 0;
    overrides.target = 0;
    if (!perClient && slice.count > 1 && recordCount !== undefined) {
      const start = numberOf(workload, 'insertstart') ?? 0;
      const mine = share(recordsToLoad(workload) ?? recordCount - start, slice.index, slice.count);
      overrides.insertstart = start + mine.start;
      overrides.insertcount = mine.count;
    }
    return overrides;
  }
  // REAL-LAB Y10: operationcount 0 (or none) starts no client thread in 0.17.0
  if ((numberOf(workload, 'operationcount') ?? 0) <= 0 && (numberOf(workload, 'maxexecutiontime') ?? 0) > 0)
    overrides.operationcount = unboundedOperationCount;
  return overrides;
}

/** The plan's properties and axes without the run-only limits, for the load phase. */
export function withoutRunLimits<T extends string | number | boolean>(
  properties: Record<string, T>,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(properties))
    if (!(runOnlyProperties as readonly string[]).includes(key)) out[key] = value;
  return out;
}

/** Whether the workload scans (REAL-LAB Y7: couchbase2 scans through N1QL). */
export function workloadScans(workload: Map<string, string>): boolean {
  return (numberOf(workload, 'scanproportion') ?? 0) > 0 || workload.get('couchbase.kv') === 'false';
}
