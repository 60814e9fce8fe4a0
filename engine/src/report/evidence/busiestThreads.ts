// The per-thread CPU view of a cell: for each host, the busiest threads of the process
// it watched (memcached on servers, the YCSB JVM on clients) over the measured window, each named
// from its comm with its tid and % of one CPU, from /proc/PID/task/TID/stat; a saturated one
// (>= 90 % of a CPU) is flagged; and the window said in words (YCSB's run from its status lines, or
// the sampler's readings and why). The text report, the HTML report and the panel show these. Pure,
// tolerant of older records (no threads: nothing shown for that host).
import type { CellResult, CpuWindow } from '../../model';
import { isSpinningIoThread } from '../../evidence/clientIoSpin';
import { clockSpreadLimitMs } from '../../evidence/measuredWindow';

/** A thread at or above this % of one CPU is saturated (cpuStat.ts uses the same figure for client-bound). */
const saturatedPct = 90;

export interface HostThreadsView {
  host: string;
  role: 'server' | 'client';
  /** `memcached 4242`, `java 913`. */
  process: string;
  /** `spinning`: a couchbase2 IO loop that spins by design (clientIoSpin.ts): never called saturated. */
  threads: { tid: number; name: string; pctOfCore: number; saturated: boolean; spinning?: boolean }[];
  /** Threads seen beyond those listed. */
  more: number;
}

/** Each host's busiest threads, servers first; empty when the cell recorded none. */
export function busiestThreads(result: Pick<CellResult, 'evidence'>): HostThreadsView[] {
  const hosts = result.evidence?.cpu?.hosts ?? {};
  return Object.entries(hosts)
    .filter(([, cpu]) => Array.isArray(cpu?.threads) && cpu.threads.length > 0)
    .map(([host, cpu]): HostThreadsView => {
      const spin = cpu.role === 'client' ? result.evidence?.cpu?.clientIoSpin : undefined;
      const threads = cpu
        .threads!.filter((thread) => Number.isFinite(thread?.pctOfCore))
        .map((thread) => {
          const name = String(thread.name);
          // a couchbase2 IO loop spins by design (clientIoSpin.ts): named so, never called saturated
          if (isSpinningIoThread(spin, name))
            return { tid: thread.tid, name, pctOfCore: thread.pctOfCore, saturated: false, spinning: true };
          return { tid: thread.tid, name, pctOfCore: thread.pctOfCore, saturated: thread.pctOfCore >= saturatedPct };
        });
      const process = cpu.process ? `${cpu.process.name} ${cpu.process.pid}` : 'its watched process';
      return {
        host,
        role: cpu.role,
        process,
        threads,
        more: Math.max(0, (cpu.threadsSeen ?? cpu.threads!.length) - cpu.threads!.length),
      };
    })
    .sort((a, b) => Number(a.role === 'client') - Number(b.role === 'client') || a.host.localeCompare(b.host));
}

/** One host's threads in a line: `mc:worker_0 (tid 4250) 85 %, … (+7 more threads)`. */
export function threadsText(view: HostThreadsView): string {
  const listed = view.threads
    .map(
      (thread) =>
        `${thread.name} (tid ${thread.tid}) ${thread.pctOfCore.toFixed(0)} %${thread.saturated ? ' SATURATED' : thread.spinning ? ' spins by design (couchbase.boost)' : ''}`,
    )
    .join(', ');
  return `${listed}${view.more > 0 ? ` (+${view.more} more thread${view.more === 1 ? '' : 's'})` : ''}`;
}

/** What the CPU figures of a cell cover, in words; undefined for older records. */
export function cpuWindowText(window: CpuWindow | undefined): string | undefined {
  if (!window) return undefined;
  const run =
    window.runStartedAt && window.runEndedAt
      ? `YCSB's run ${window.runStartedAt} to ${window.runEndedAt}`
      : "YCSB's run";
  const offsets = Object.values(window.clockOffsetsMs ?? {});
  const spread = offsets.length >= 2 ? Math.max(...offsets) - Math.min(...offsets) : undefined;
  const clocks =
    spread === undefined
      ? "; the hosts' clocks were not compared"
      : spread <= clockSpreadLimitMs
        ? `; the hosts' clocks agree within ${spread} ms (measured)`
        : `; the hosts' clocks are ${(spread / 1000).toFixed(1)} s apart (measured): the servers' window is not proven`;
  return window.source === 'ycsb-status-lines'
    ? `over ${run} (its status lines), the first ${window.warmupSec} s left out as warm-up${clocks}`
    : `over the sampler's readings from ${window.warmupSec} s after its first one, not aligned to ${run}: ${window.why ?? 'no reason recorded'}`;
}
