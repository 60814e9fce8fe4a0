// Reads what the CPU sampler (cpuSampler.ts) printed on one host and turns it into the HostCpu
// figures of a cell. Pure.
//
// Facts relied on (proc(5)): `/proc/stat` `cpu`/`cpuN` lines are cumulative ticks of user, nice,
// system, idle, iowait, irq, softirq, steal (guest time is already inside user); `ctxt` and the
// first number of `intr` are cumulative counts since boot; `/proc/PID/stat` fields 14-17 (after
// the parenthesised comm, which may hold spaces) are utime, stime, cutime, cstime in ticks of
// CLK_TCK; `/proc/uptime`'s first number is seconds since boot (a monotonic clock for the rates);
// `/proc/PID/task/TID/stat` has the same fields for one thread, its comm the thread's name.
//
// The means cover the measured window (measuredWindow.ts: YCSB's own run, the warm-up left out),
// not the samplers' whole life; the series keeps every sample.
import { isSpinningIoThread, type ClientIoSpin } from './clientIoSpin';
import type { CellMark, CpuEvidence, CpuWindow, HostCpu, ThreadCpu } from '../model';
import { uptimeWindow, type CpuAlignment, type HostClock } from './measuredWindow';

/** How often the sampler reads (cpuSampler.ts ticks at this pace). */
export const samplerIntervalMs = 1000;

/** One reading of one host. */
export interface CpuSample {
  /** Seconds since boot (/proc/uptime). */
  uptimeSec: number;
  /** `cpu` (all cores) and `cpu0`... -> [user, nice, system, idle, iowait, irq, softirq, steal]. */
  cpus: Map<string, number[]>;
  ctxt?: number;
  intr?: number;
  /** The watched process (memcached, the YCSB JVM). */
  process?: { pid: number; name: string; ticks: number };
  /**
   * Its threads (tid -> name and utime + stime ticks), as last printed (the sampler prints a thread only when its ticks
   * moved).
   */
  threads?: Map<number, { name: string; ticks: number }>;
  /** Interrupt counts summed over the NIC device's /proc/interrupts lines. */
  nic: Record<string, number>;
  /** The sampler's own CPU ticks, its children (sleep) included. */
  selfTicks?: number;
}

export interface SamplerOutput {
  /** CLK_TCK of the host (ticks per second), 100 when it did not say. */
  hz: number;
  samples: CpuSample[];
  /** The host's clock read once at the sampler's start (`@clock`), to align samples with YCSB's run. */
  clock?: HostClock;
  /** This workstation's wall clock (ms since the epoch) when the `@clock` line arrived: with
   * `clock.epochMs` it measures how far the host's clock is from this one (measuredWindow.ts clockAgreement). */
  clockSeenAtMs?: number;
}

/** The fields after `pid (comm)` of a /proc/PID/stat line: [state, ppid, ...]; comm as printed. */
export function splitProcStat(line: string): { pid: number; comm: string; fields: string[] } | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(line.slice(0, open).trim());
  if (!Number.isInteger(pid)) return undefined;
  return {
    pid,
    comm: line.slice(open + 1, close),
    fields: line
      .slice(close + 1)
      .trim()
      .split(/\s+/),
  };
}

/** utime + stime (+ cutime + cstime when `withChildren`) of a /proc/PID/stat line, in ticks. */
export function procTicks(line: string, withChildren: boolean): number | undefined {
  const parsed = splitProcStat(line);
  if (!parsed) return undefined;
  // fields[0] is field 3 (state): utime is field 14 -> index 11
  const values = parsed.fields.slice(11, withChildren ? 15 : 13).map(Number);
  if (values.length < (withChildren ? 4 : 2) || values.some((value) => !Number.isFinite(value))) return undefined;
  return values.reduce((sum, value) => sum + value, 0);
}

/** Parses the sampler's stream (`@hz`, then blocks `@t ... @end`); an unfinished last block is dropped. */
export function parseSamplerOutput(text: string): SamplerOutput {
  const out: SamplerOutput = { hz: 100, samples: [] };
  let current: CpuSample | undefined;
  // threads carry over from block to block: a thread is printed again only when its ticks moved
  let threads = new Map<number, { name: string; ticks: number }>();
  let threadsPid: number | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('@hz ')) {
      const hz = Number(line.slice(4));
      if (Number.isFinite(hz) && hz > 0) out.hz = hz;
    } else if (line.startsWith('@clock ')) {
      // @clock <uptime> <epoch seconds, maybe with a fraction> <±hhmm>
      const [, uptime, epoch, zone] = line.split(/\s+/);
      const offset = /^([+-])(\d{2})(\d{2})$/.exec(zone ?? '');
      const epochSec = Number(/^\d+(\.\d+)?$/.test(epoch ?? '') ? epoch : (epoch ?? '').split('.')[0]);
      if (Number.isFinite(Number(uptime)) && Number.isFinite(epochSec) && epochSec > 0 && offset) {
        out.clock = {
          uptimeSec: Number(uptime),
          epochMs: Math.round(epochSec * 1000),
          utcOffsetMin: (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])),
        };
      }
    } else if (line.startsWith('@t ')) {
      current = { uptimeSec: Number(line.slice(3)), cpus: new Map(), nic: {} };
    } else if (!current) {
      continue;
    } else if (line === '@end') {
      if (current.process && current.process.pid === threadsPid && threads.size > 0) current.threads = new Map(threads);
      if (Number.isFinite(current.uptimeSec) && current.cpus.has('cpu')) out.samples.push(current);
      current = undefined;
    } else if (line.startsWith('@th ')) {
      // @th <tid> <utime+stime> <comm> (after @p: threads of the watched process)
      const match = /^@th (\d+) (\d+) (.*)$/.exec(raw.replace(/\r$/, ''));
      if (match && current.process) {
        if (threadsPid !== current.process.pid) {
          threads = new Map();
          threadsPid = current.process.pid;
        }
        threads.set(Number(match[1]), { name: match[3], ticks: Number(match[2]) });
      }
    } else if (/^cpu\d* /.test(line)) {
      const [name, ...values] = line.split(/\s+/);
      current.cpus.set(name, values.slice(0, 8).map(Number).concat([0, 0, 0, 0, 0, 0, 0, 0]).slice(0, 8));
    } else if (line.startsWith('ctxt ')) {
      current.ctxt = Number(line.split(/\s+/)[1]);
    } else if (line.startsWith('intr ')) {
      current.intr = Number(line.split(/\s+/)[1]);
    } else if (line.startsWith('@p ')) {
      const stat = splitProcStat(line.slice(3));
      const ticks = procTicks(line.slice(3), false);
      if (stat && ticks !== undefined) current.process = { pid: stat.pid, name: stat.comm, ticks };
    } else if (line.startsWith('@nic ')) {
      const [, device, count] = line.split(/\s+/);
      if (device && Number.isFinite(Number(count))) current.nic[device] = Number(count);
    } else if (line.startsWith('@self ') || line.startsWith('@ticker ')) {
      // the awk and the shell that ticks it (its `sleep`s are its children)
      const ticks = procTicks(line.slice(line.indexOf(' ') + 1), true);
      if (ticks !== undefined) current.selfTicks = (current.selfTicks ?? 0) + ticks;
    }
  }
  return out;
}

const busyFields = [0, 1, 2, 5, 6]; // user nice system irq softirq
const totalOf = (values: number[]): number => values.reduce((sum, value) => sum + value, 0);
const busyOf = (values: number[]): number => busyFields.reduce((sum, index) => sum + values[index], 0);

/** The share (0..100) of ticks in `fields` between two readings of one cpu line. */
function share(
  before: number[] | undefined,
  after: number[] | undefined,
  pick: (values: number[]) => number,
): number | undefined {
  if (!before || !after) return undefined;
  const delta = after.map((value, index) => value - before[index]);
  const total = totalOf(delta);
  return total > 0 ? (pick(delta) / total) * 100 : undefined;
}

function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** How many of the watched process's threads a HostCpu lists. */
export const busiestThreadCount = 5;

/**
 * A host's HostCpu over the measured window. `window`: a number is a warm-up counted from the first
 * sample (older behaviour), `{ fromSec, toSec }` the window in the host's /proc/uptime seconds
 * (measuredWindow.ts). The samples inside it are used when at least two are; else, with a number,
 * all samples. Undefined with fewer than two samples in all, or in an explicit window.
 */
export function deriveHostCpu(
  output: SamplerOutput,
  role: 'server' | 'client',
  window: number | { fromSec: number; toSec: number } = 0,
): HostCpu | undefined {
  const { samples, hz } = output;
  if (samples.length < 2) return undefined;
  const t0 = samples[0].uptimeSec;
  let inWindow: CpuSample[];
  if (typeof window === 'number') {
    const afterWarmup = samples.filter((sample) => sample.uptimeSec - t0 >= window - 1e-6);
    inWindow = window > 0 && afterWarmup.length >= 2 ? afterWarmup : samples;
  } else {
    inWindow = samples.filter(
      (sample) => sample.uptimeSec >= window.fromSec - 1e-6 && sample.uptimeSec <= window.toSec + 1e-6,
    );
    if (inWindow.length < 2) return undefined;
  }
  const first = inWindow[0];
  const last = inWindow[inWindow.length - 1];
  const seconds = last.uptimeSec - first.uptimeSec;
  const cores = [...last.cpus.keys()].filter((name) => name !== 'cpu');
  const all = (pick: (values: number[]) => number): number =>
    round(share(first.cpus.get('cpu'), last.cpus.get('cpu'), pick) ?? 0);
  const rate = (before: number | undefined, after: number | undefined): number =>
    before !== undefined && after !== undefined && seconds > 0 ? round((after - before) / seconds, 1) : 0;
  const host: HostCpu = {
    role,
    cores: cores.length,
    busyPct: all(busyOf),
    userPct: all((values) => values[0] + values[1]),
    systemPct: all((values) => values[2]),
    softirqPct: all((values) => values[6]),
    idlePct: all((values) => values[3] + values[4]),
    maxCoreBusyPct: round(
      Math.max(0, ...cores.map((name) => share(first.cpus.get(name), last.cpus.get(name), busyOf) ?? 0)),
    ),
    contextSwitchesPerSec: rate(first.ctxt, last.ctxt),
    interruptsPerSec: rate(first.intr, last.intr),
    series: [],
    windowSec: { from: round(first.uptimeSec - t0, 2), to: round(last.uptimeSec - t0, 2) },
  };
  // the watched process: the samples of the pid seen last (a restart starts a new process; YCSB
  // may end before the sampler stops)
  const pid = [...inWindow].reverse().find((sample) => sample.process !== undefined)?.process?.pid;
  const processSamples = inWindow.filter((sample) => sample.process?.pid === pid && pid !== undefined);
  if (processSamples.length >= 2) {
    const a = processSamples[0];
    const b = processSamples[processSamples.length - 1];
    const cpuSec = (b.process!.ticks - a.process!.ticks) / hz;
    const span = b.uptimeSec - a.uptimeSec;
    if (span > 0)
      host.process = {
        name: b.process!.name,
        pid: b.process!.pid,
        pctOfCore: round((cpuSec / span) * 100),
        cpuSec: round(cpuSec, 3),
      };
    const threads = span > 0 ? threadFigures(a, b, hz, span) : [];
    if (threads.length > 0) {
      host.threads = threads.slice(
        0,
        Math.max(busiestThreadCount, threads.filter((thread) => thread.pctOfCore >= saturatedThreadPct).length),
      );
      host.threadsSeen = threads.length;
    }
  }
  const devices = Object.keys(last.nic).filter((device) => first.nic[device] !== undefined);
  if (devices.length > 0)
    host.nicInterruptsPerSec = Object.fromEntries(
      devices.map((device) => [device, rate(first.nic[device], last.nic[device])]),
    );
  for (let i = 1; i < samples.length; i++) {
    const before = samples[i - 1];
    const after = samples[i];
    const point: HostCpu['series'][number] = {
      tSec: round(after.uptimeSec - t0, 2),
      busyPct: round(share(before.cpus.get('cpu'), after.cpus.get('cpu'), busyOf) ?? 0),
    };
    const span = after.uptimeSec - before.uptimeSec;
    if (before.process && after.process && before.process.pid === after.process.pid && span > 0)
      point.processPctOfCore = round(((after.process.ticks - before.process.ticks) / hz / span) * 100);
    host.series.push(point);
  }
  return host;
}

/**
 * Every thread of the watched process between two samples, busiest first: its ticks at `b` minus
 * those at `a` (0 for a thread born after `a`).
 */
function threadFigures(a: CpuSample, b: CpuSample, hz: number, span: number): ThreadCpu[] {
  if (!b.threads) return [];
  const out: ThreadCpu[] = [];
  for (const [tid, thread] of b.threads) {
    const before = a.threads?.get(tid)?.ticks ?? 0;
    const cpuSec = Math.max(0, thread.ticks - before) / hz;
    out.push({ tid, name: thread.name, pctOfCore: round((cpuSec / span) * 100), cpuSec: round(cpuSec, 3) });
  }
  return out.sort((x, y) => y.pctOfCore - x.pctOfCore || x.tid - y.tid);
}

/** The sampler's own CPU over its whole life, % of one core; undefined without two readings. */
export function samplerSelfCostPct(output: SamplerOutput): number | undefined {
  const readings = output.samples.filter((sample) => sample.selfTicks !== undefined);
  if (readings.length < 2) return undefined;
  const a = readings[0];
  const b = readings[readings.length - 1];
  const span = b.uptimeSec - a.uptimeSec;
  return span > 0 ? round(((b.selfTicks! - a.selfTicks!) / output.hz / span) * 100, 3) : undefined;
}

/** Above this busy % a client measures itself more than Couchbase. */
export const clientBoundBusyPct = 90;

/** A thread at or above this % of one CPU over the window is saturated: it cannot go faster. */
export const saturatedThreadPct = 90;

const threadText = (thread: ThreadCpu): string => `${thread.name} (tid ${thread.tid}) ${thread.pctOfCore.toFixed(0)} %`;

/**
 * The client-bound mark of a client host, when its host or its busiest threads were saturated; with
 * `spin` (clientIoSpin.ts) the IO loops that spin by design are left out of both checks (their CPU
 * taken off the host's busy share) and a `client-io-spinning` note says so, naming them.
 */
function clientBoundMarks(host: string, cpu: HostCpu, spin?: ClientIoSpin): CellMark[] {
  const threads = cpu.threads ?? [];
  const spinning = threads.filter((thread) => isSpinningIoThread(spin, thread.name));
  const spinningShare = spinning.reduce((sum, thread) => sum + thread.pctOfCore, 0) / Math.max(1, cpu.cores);
  const busyPct = Math.max(0, cpu.busyPct - spinningShare);
  const saturated = threads.filter(
    (thread) => thread.pctOfCore >= saturatedThreadPct && !isSpinningIoThread(spin, thread.name),
  );
  const reasons: string[] = [];
  if (busyPct > clientBoundBusyPct)
    reasons.push(
      `${host} was ${busyPct.toFixed(0)} % busy during the run${spinning.length > 0 ? ` (${cpu.busyPct.toFixed(0)} % with the spinning IO threads)` : ''}`,
    );
  if (saturated.length > 0) {
    reasons.push(
      `${saturated.length === 1 ? 'a thread' : `${saturated.length} threads`} of ${cpu.process?.name ?? 'the YCSB JVM'} ${cpu.process ? `(pid ${cpu.process.pid}) ` : ''}ran at ${saturatedThreadPct} % of one CPU or more: ${saturated.map(threadText).join(', ')} (/proc/PID/task/TID/stat)`,
    );
  }
  const marks: CellMark[] = [];
  if (reasons.length > 0)
    marks.push({
      code: 'client-bound',
      host,
      message: `${reasons.join('; ')}: its numbers measure the client more than Couchbase (add clients or lower threads).`,
    });
  const busySpinning = spinning.filter((thread) => thread.pctOfCore >= saturatedThreadPct / 2);
  if (spin && busySpinning.length > 0) {
    marks.push({
      code: 'client-io-spinning',
      host,
      message: `${busySpinning.map(threadText).join(', ')} on ${host}: the couchbase2 binding's IO loops spin by design (couchbase.boost=${spin.boost}; ${spin.source}), so their CPU is not load and was left out of the client-bound check; whether those IO threads themselves limited the client is not proven (couchbase.boost=0 lets it be checked).`,
    });
  }
  return marks;
}

/**
 * evidence.cpu of a cell from each host's sampler output, and `client-bound` marks. `throughput`
 * is the run's operations per second (after the warm-up when there is one), for the per-operation
 * figures: server µs per op = Σ servers (busy % × cores / 100) / throughput × 10⁶.
 *
 * With `alignment` (measuredWindow.ts) each host's means cover YCSB's run on its clock, the warm-up
 * left out from YCSB's start; a host that cannot be aligned keeps the samplers' window (first sample
 * + warm-up) and marks the cell `cpu-window-unverified`, saying why. Without it (older callers,
 * tests) the samplers' window, unmarked.
 */
export function cpuEvidence(
  hosts: { host: string; role: 'server' | 'client'; output: SamplerOutput }[],
  throughput: number | undefined,
  warmupSec = 0,
  alignment?: CpuAlignment,
  spin?: ClientIoSpin,
): { evidence: CpuEvidence; marks: CellMark[] } {
  const evidence: CpuEvidence = {
    sampler: { intervalMs: samplerIntervalMs, selfCostPctOfCore: {} },
    hosts: {},
    ...(spin ? { clientIoSpin: { ...spin } } : {}),
  };
  const marks: CellMark[] = [];
  const unaligned: string[] = [];
  for (const { host, role, output } of hosts) {
    const cost = samplerSelfCostPct(output);
    if (cost !== undefined) evidence.sampler.selfCostPctOfCore[host] = cost;
    let cpu: HostCpu | undefined;
    if (alignment && output.samples.length >= 2) {
      const run = role === 'client' ? alignment.clients[host] : alignment.servers;
      let why =
        role === 'client'
          ? (alignment.why[host] ?? `no YCSB run window for ${host}`)
          : (alignment.why['*servers'] ?? 'no common YCSB run window');
      if (run && !output.clock) why = `${host}'s sampler did not read its clock`;
      if (run && output.clock) {
        cpu = deriveHostCpu(output, role, uptimeWindow(run, warmupSec, output.clock));
        if (!cpu)
          why = `fewer than two of ${host}'s CPU readings fall inside YCSB's run after the ${warmupSec} s warm-up`;
      }
      if (!cpu) {
        cpu = deriveHostCpu(output, role, warmupSec);
        unaligned.push(why);
        marks.push({
          code: 'cpu-window-unverified',
          host,
          message: `${host}'s CPU figures could not be aligned to YCSB's run (${why}): they cover the sampler's readings from ${warmupSec} s after its first one, idle seconds before and after YCSB included.`,
        });
      }
    } else cpu = deriveHostCpu(output, role, warmupSec);
    if (!cpu) {
      // a check that could not run must mark the cell, never pass it
      const why = `${output.samples.length === 0 ? 'no' : 'only one'} CPU reading from ${host} during the run (its sampler did not run or was cut short)`;
      marks.push(
        role === 'client'
          ? {
              code: 'client-cpu-unverified',
              host,
              message: `${why}: whether ${host} was client-bound could not be checked.`,
            }
          : {
              code: 'server-cpu-unverified',
              host,
              message: `${why}: the server's and memcached's CPU per operation are unknown.`,
            },
      );
      continue;
    }
    evidence.hosts[host] = cpu;
    if (role === 'client') {
      const found = clientBoundMarks(host, cpu, spin);
      marks.push(...found);
      if (!found.some((mark) => mark.code === 'client-bound') && (cpu.threads ?? []).length === 0) {
        // the saturated-thread check could not run: say so rather than pass it
        marks.push({
          code: 'client-cpu-unverified',
          host,
          message: `${cpu.process ? `the threads of ${cpu.process.name} ${cpu.process.pid}` : 'the YCSB JVM'} on ${host} ${cpu.process ? 'were not read' : 'was not found'} (/proc/PID/task/TID/stat): whether some of its threads were saturated, making ${host} client-bound below 90 % host busy, could not be checked.`,
        });
      }
    }
  }
  if (alignment) evidence.window = windowEvidence(alignment, warmupSec, unaligned);
  const servers = Object.values(evidence.hosts).filter((cpu) => cpu.role === 'server');
  if (servers.length > 0 && throughput !== undefined && throughput > 0) {
    const busyCores = servers.reduce((sum, cpu) => sum + (cpu.busyPct * cpu.cores) / 100, 0);
    evidence.serverCpuUsPerOp = round((busyCores / throughput) * 1e6, 3);
    if (busyCores > 0) evidence.opsPerBusyServerCore = round(throughput / busyCores, 1);
    if (servers.every((cpu) => cpu.process !== undefined)) {
      evidence.memcachedCpuUsPerOp = round(
        (servers.reduce((sum, cpu) => sum + cpu.process!.pctOfCore / 100, 0) / throughput) * 1e6,
        3,
      );
    }
  }
  return { evidence, marks };
}

function windowEvidence(alignment: CpuAlignment, warmupSec: number, unaligned: string[]): CpuWindow {
  const runs = Object.values(alignment.clients);
  const run =
    alignment.servers ??
    (runs.length > 0
      ? {
          startEpochMs: Math.min(...runs.map((r) => r.startEpochMs)),
          endEpochMs: Math.max(...runs.map((r) => r.endEpochMs)),
        }
      : undefined);
  return {
    source: unaligned.length === 0 ? 'ycsb-status-lines' : 'sampler',
    ...(run
      ? { runStartedAt: new Date(run.startEpochMs).toISOString(), runEndedAt: new Date(run.endEpochMs).toISOString() }
      : {}),
    warmupSec,
    ...(unaligned.length > 0 ? { why: unaligned.join('; ') } : {}),
  };
}
