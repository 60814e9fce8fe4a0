// The window a cell's CPU figures cover: YCSB's own run, not the samplers' life.
// The samplers start before the JVM and stop after every client ended; counting those idle seconds
// dilutes busy % and CPU per operation. YCSB says when its run was: with `-s` its status thread
// prints a line at its start (`0 sec`), one every status.interval, and a last one after its client
// threads ended (../shared/ycsb/OUTPUT.md §3), each stamped with the client's local wall clock
// (`yyyy-MM-dd HH:mm:ss:SSS`) and the whole seconds since that start. Each sampler prints its host's
// clock once (`@clock <uptime> <epoch seconds> <±hhmm>`, cpuSampler.ts), which turns that wall-clock
// window into the host's /proc/uptime seconds the samples carry. A client's window is its own run; a
// server's is the stretch when every client ran, on the server's clock, which holds only when the
// hosts' wall clocks agree: clockAgreement measures each against this workstation's as the samplers
// start, and clocks more than a second apart mark the servers' window unproven. Pure.
import type { YcsbStatus } from '../ycsb/ycsbStatus';

/** YCSB's run on one client, or on all of them, in milliseconds since the epoch (UTC). */
export interface RunWindow {
  startEpochMs: number;
  endEpochMs: number;
}

/** A host's clock as its sampler read it once. */
export interface HostClock {
  uptimeSec: number;
  epochMs: number;
  /** Minutes east of UTC (`date +%z`), what the JVM's SimpleDateFormat prints in. */
  utcOffsetMin: number;
}

/** A status line's timestamp (client local time) in ms since the epoch; undefined when it is not one. */
export function statusTimestampMs(timestamp: string, utcOffsetMin: number): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}):(\d{3})$/.exec(timestamp.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second, ms] = match.slice(1).map(Number);
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - utcOffsetMin * 60_000;
}

/**
 * One client's run from its status lines: the start is the earliest `timestamp − elapsed` (the
 * `0 sec` line's own stamp when it was printed), the end the last line's stamp. At least two
 * stamped lines, else why not.
 */
export function ycsbRunWindow(statuses: readonly YcsbStatus[], utcOffsetMin: number): RunWindow | { why: string } {
  const stamped = statuses.flatMap((status) => {
    const at = status.timestamp === undefined ? undefined : statusTimestampMs(status.timestamp, utcOffsetMin);
    return at === undefined ? [] : [{ at, elapsedSec: status.elapsedSec }];
  });
  if (stamped.length < 2) return { why: `${stamped.length === 0 ? 'no' : 'only one'} time-stamped YCSB status line` };
  const startEpochMs = Math.min(...stamped.map((line) => line.at - line.elapsedSec * 1000));
  const endEpochMs = Math.max(...stamped.map((line) => line.at));
  return endEpochMs > startEpochMs
    ? { startEpochMs, endEpochMs }
    : { why: 'YCSB status lines with no time between them' };
}

/** The stretch when every client ran (the latest start to the earliest end). */
export function commonWindow(windows: readonly RunWindow[]): RunWindow | { why: string } {
  if (windows.length === 0) return { why: 'no client run window' };
  const startEpochMs = Math.max(...windows.map((window) => window.startEpochMs));
  const endEpochMs = Math.min(...windows.map((window) => window.endEpochMs));
  return endEpochMs > startEpochMs ? { startEpochMs, endEpochMs } : { why: "the clients' runs did not overlap" };
}

/** A wall-clock window, the warm-up left out of its start, in the host's /proc/uptime seconds. */
export function uptimeWindow(
  window: RunWindow,
  warmupSec: number,
  clock: HostClock,
): { fromSec: number; toSec: number } {
  const at = (epochMs: number): number => clock.uptimeSec + (epochMs - clock.epochMs) / 1000;
  return { fromSec: at(window.startEpochMs) + Math.max(0, warmupSec), toSec: at(window.endEpochMs) };
}

/** What `cpuEvidence` aligns each host to: each client's own run, the common one for servers, or why none. */
export interface CpuAlignment {
  clients: Record<string, RunWindow>;
  servers?: RunWindow;
  /** Why a window is missing (for the hosts without one). */
  why: Record<string, string>;
}

/** Each client's window from its status lines and its sampler's clock, and the servers' common one. */
export function cpuAlignment(
  statusByHost: Record<string, readonly YcsbStatus[]>,
  clocks: Record<string, HostClock | undefined>,
): CpuAlignment {
  const alignment: CpuAlignment = { clients: {}, why: {} };
  for (const [host, statuses] of Object.entries(statusByHost)) {
    const clock = clocks[host];
    if (!clock) {
      alignment.why[host] = `${host}'s sampler did not read its clock`;
      continue;
    }
    const window = ycsbRunWindow(statuses, clock.utcOffsetMin);
    if ('why' in window) alignment.why[host] = `${host}: ${window.why}`;
    else alignment.clients[host] = window;
  }
  const missing = Object.keys(statusByHost).filter((host) => !alignment.clients[host]);
  if (missing.length > 0) alignment.why['*servers'] = `no run window for ${missing.join(', ')}`;
  else {
    const common = commonWindow(Object.values(alignment.clients));
    if ('why' in common) alignment.why['*servers'] = common.why;
    else alignment.servers = common;
  }
  return alignment;
}

/** Clocks further apart than this make the servers' window unproven (the samplers read once a second). */
export const clockSpreadLimitMs = 1000;

/**
 * How far each host's clock is from this workstation's (its `@clock` reading minus the moment that
 * line arrived here; the line's transit, a few ms, makes a host look that much behind), and the
 * spread between the hosts. Undefined when fewer than two hosts have both readings.
 */
export function clockAgreement(
  samplers: readonly { host: string; output: { clock?: HostClock; clockSeenAtMs?: number } }[],
): { offsetsMs: Record<string, number>; spreadMs: number } | undefined {
  const offsetsMs: Record<string, number> = {};
  for (const { host, output } of samplers) {
    if (output.clock && output.clockSeenAtMs !== undefined)
      offsetsMs[host] = Math.round(output.clock.epochMs - output.clockSeenAtMs);
  }
  const values = Object.values(offsetsMs);
  if (values.length < 2) return undefined;
  return { offsetsMs, spreadMs: Math.max(...values) - Math.min(...values) };
}
