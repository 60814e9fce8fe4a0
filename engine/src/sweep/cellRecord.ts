// The one place a cell's record (results.jsonl, model.ts CellResult) is put together: from the parts
// its steps returned (cell.ts), whether the attempt finished or failed part-way. Evidence groups
// follow the steps (bucket, YCSB, cluster, servers, then the run's time series and CPU), marks are
// each step's in the order the steps ran (one per code and host), and the cell's acceleration is
// the servers' verdict as the run's traffic left it.
import { addMark } from '../evidence/marks';
import { accelerationAfterRun, type ServerRecord } from '../evidence/serverEvidence';
import type { CellEvidence, CellKey, CellMark, CellResult, EngineError } from '../model';
import type { ResolvedPlan } from '../plan/planSchema';
import type { HdrSupport } from '../ycsb/ycsbHdrSupport';
import type { YcsbLauncher } from '../ycsb/ycsbLauncher';
import type { CellParts, YcsbSetup } from './cell';

/** What the record says of the attempt itself. */
export interface CellAttempt {
  id: string;
  key: CellKey;
  attempt: number;
  startedAt: string;
  finishedAt: string;
  /** Every attempt's raw logs, relative to the run folder. */
  logs: string[];
}

/** The record of an attempt: `error` makes it the cell's failed record. */
export function cellRecord(attempt: CellAttempt, parts: CellParts, error?: EngineError): CellResult {
  const evidence = cellEvidence(parts);
  const marks = cellMarks(parts);
  const load = parts.load?.record && {
    ...parts.load.record,
    ...(parts.settled?.itemCount !== undefined ? { itemCount: parts.settled.itemCount } : {}),
  };
  return {
    kind: 'cell',
    id: attempt.id,
    key: attempt.key,
    status: error ? 'failed' : 'ok',
    accelerated: cellAcceleration(attempt.key, parts),
    startedAt: attempt.startedAt,
    finishedAt: attempt.finishedAt,
    attempts: attempt.attempt,
    logs: attempt.logs,
    ...(evidence ? { evidence } : {}),
    ...(marks.length > 0 ? { marks } : {}),
    ...(load ? { load } : {}),
    ...(parts.run?.clients ? { clients: parts.run.clients } : {}),
    ...(parts.run?.run ? { run: parts.run.run } : {}),
    ...(error ? { error } : {}),
  };
}

/** The evidence groups, present from the moment the cell's server was on its stack. */
function cellEvidence(parts: CellParts): CellEvidence | undefined {
  if (!parts.ycsb) return undefined;
  const traffic = parts.run?.traffic ?? {};
  const servers: Record<string, ServerRecord> | undefined = parts.servers
    ? Object.fromEntries(
        Object.entries(parts.servers.servers).map(([host, record]) => [host, { ...record, ...(traffic[host] ?? {}) }]),
      )
    : undefined;
  return {
    bucket: { ...parts.bucket?.evidence, ...parts.settled?.evidence },
    ycsb: { ...parts.ycsb, keys: { ...parts.load?.keys, ...parts.run?.keys } },
    ...(parts.cluster ? { cluster: { ...parts.cluster, ...(parts.spread ? { nodes: parts.spread } : {}) } } : {}),
    ...(servers ? { server: servers } : {}),
    ...parts.run?.evidence,
  };
}

/** The servers' marks, the arms', then the run's (its traffic watch's, then its evidence's). */
function cellMarks(parts: CellParts): CellMark[] {
  const record: { marks: CellMark[] } = { marks: [] };
  for (const mark of [...(parts.servers?.marks ?? []), ...(parts.arms ?? []), ...(parts.run?.marks ?? [])])
    addMark(record, mark);
  return record.marks;
}

/** Kernel cells: null. Onload cells: the servers' verdict (false until it is in), then the run's traffic. */
function cellAcceleration(key: CellKey, parts: CellParts): boolean | null {
  if (key.stack === 'kernel') return null;
  const verdicts = Object.values(parts.run?.traffic ?? {}).map((traffic) => traffic.runAcceleration?.verdict);
  const servers = parts.servers?.accelerated;
  return accelerationAfterRun(servers === undefined ? false : servers, verdicts);
}

/** evidence.ycsb before the keys: the clients that run without HDR logs (and why), the binding, each launcher. */
export function ycsbSetup(
  plan: ResolvedPlan,
  launchers: Map<string, YcsbLauncher>,
  hdrSupport: Map<string, HdrSupport>,
): YcsbSetup {
  const withoutHdr = plan.clients.filter((client) => hdrSupport.get(client.host)?.ok === false);
  return {
    ...(withoutHdr.length > 0
      ? { hdrLogs: Object.fromEntries(withoutHdr.map((client) => [client.host, hdrSupport.get(client.host)?.detail])) }
      : {}),
    binding: [...new Set(plan.clients.map((client) => client.binding))].join(', '),
    launcher: Object.fromEntries(
      plan.clients.map((client) => [client.host, launchers.get(client.host)?.command ?? '(default)']),
    ),
  };
}
