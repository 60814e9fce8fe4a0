// The workload properties each YCSB phase gets beyond the plan's, per client. Pure.
//
// REAL-LAB Y5: Client.java starts its terminator (maxexecutiontime) and throttle (target) for the
// load as well, so a limit meant for the run would cut the load short. The load therefore gets
// the neutral values Client.java reads as "no limit": maxexecutiontime=0 (no terminator thread)
// and target=0 (no throttle); operationcount is not sent (the load counts insertcount/recordcount).
//
// REAL-LAB Y6: CoreWorkload (0.17.0) numbers the run's inserts from `recordcount` upwards in every
// client, and reads keys in [insertstart, insertstart+insertcount). Client i of n therefore runs
// with recordcount = R + i*S (its own insert range of S keys, S = its operationcount, the most it
// can insert) and insertstart=0, insertcount=R (reads stay on the loaded records). A split load
// gives client i the slice [insertstart, insertstart+insertcount) of the R records.

/** Properties that only limit the run: never sent to a load (REAL-LAB Y5). */
export const runOnlyProperties = ['maxexecutiontime', 'operationcount', 'target'] as const;

/** The effective workload: the file, then the plan's properties, then the cell's axes. */
export function effectiveWorkload(fileText: string, properties: Record<string, string | number | boolean>, axes: Record<string, string | number>): Map<string, string> {
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

/**
 * The per-phase overrides for one client (added after the plan's properties and the axes).
 * `workload` is the effective workload of the cell.
 */
export function phaseOverrides(workload: Map<string, string>, slice: PhaseSlice): Record<string, string | number> {
  const overrides: Record<string, string | number> = {};
  const recordCount = numberOf(workload, 'recordcount');
  if (slice.phase === 'load') {
    overrides.maxexecutiontime = 0;
    overrides.target = 0;
    if (slice.count > 1 && recordCount !== undefined) {
      const start = numberOf(workload, 'insertstart') ?? 0;
      const total = recordsToLoad(workload) ?? recordCount - start;
      const base = Math.floor(total / slice.count);
      const extra = total % slice.count;
      const mine = base + (slice.index < extra ? 1 : 0);
      overrides.insertstart = start + slice.index * base + Math.min(slice.index, extra);
      overrides.insertcount = mine;
    }
    return overrides;
  }
  if (slice.count > 1 && recordCount !== undefined) {
    const operations = numberOf(workload, 'operationcount') ?? 0;
    const inserts = (numberOf(workload, 'insertproportion') ?? 0) > 0 ? Math.max(1, operations) : 0;
    if (inserts > 0) {
      overrides.insertstart = numberOf(workload, 'insertstart') ?? 0;
      overrides.insertcount = recordsToLoad(workload) ?? recordCount;
      overrides.recordcount = recordCount + slice.index * inserts;
    }
  }
  return overrides;
}

/** The plan's properties and axes without the run-only limits, for the load phase. */
export function withoutRunLimits<T extends string | number | boolean>(properties: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(properties)) if (!(runOnlyProperties as readonly string[]).includes(key)) out[key] = value;
  return out;
}

/** Whether the workload scans (REAL-LAB Y7: couchbase2 scans through N1QL). */
export function workloadScans(workload: Map<string, string>): boolean {
  return (numberOf(workload, 'scanproportion') ?? 0) > 0 || workload.get('couchbase.kv') === 'false';
}
