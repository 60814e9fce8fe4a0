// Reads what the CPU sampler (cpuSampler.ts) printed on one host and turns it into the HostCpu
// figures of a cell. Pure.
//
// Facts relied on (proc(5)): `/proc/stat` `cpu`/`cpuN` lines are cumulative ticks of user, nice,
// system, idle, iowait, irq, softirq, steal (guest time is already inside user); `ctxt` and the
// first number of `intr` are cumulative counts since boot; `/proc/PID/stat` fields 14-17 (after
// the parenthesised comm, which may hold spaces) are utime, stime, cutime, cstime in ticks of
// CLK_TCK; `/proc/uptime`'s first number is seconds since boot (a monotonic clock for the rates).
import type { CellMark, CpuEvidence, HostCpu } from '../model';

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
  /** Interrupt counts summed over the NIC device's /proc/interrupts lines. */
  nic: Record<string, number>;
  /** The sampler's own CPU ticks, its children (sleep) included. */
  selfTicks?: number;
}

export interface SamplerOutput {
  /** CLK_TCK of the host (ticks per second), 100 when it did not say. */
  hz: number;
  samples: CpuSample[];
}

/** The fields after `pid (comm)` of a /proc/PID/stat line: [state, ppid, ...]; comm as printed. */
export function splitProcStat(line: string): { pid: number; comm: string; fields: string[] } | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(line.slice(0, open).trim());
  if (!Number.isInteger(pid)) return undefined;
  return { pid, comm: line.slice(open + 1, close), fields: line.slice(close + 1).trim().split(/\s+/) };
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
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('@hz ')) {
      const hz = Number(line.slice(4));
      if (Number.isFinite(hz) && hz > 0) out.hz = hz;
    } else if (line.startsWith('@t ')) {
      current = { uptimeSec: Number(line.slice(3)), cpus: new Map(), nic: {} };
    } else if (!current) {
      continue;
    } else if (line === '@end') {
      if (Number.isFinite(current.uptimeSec) && current.cpus.has('cpu')) out.samples.push(current);
      current = undefined;
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
function share(before: number[] | undefined, after: number[] | undefined, pick: (values: number[]) => number): number | undefined {
  if (!before || !after) return undefined;
  const delta = after.map((value, index) => value - before[index]);
  const total = totalOf(delta);
  return total > 0 ? (pick(delta) / total) * 100 : undefined;
}

function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * A host's HostCpu over the run phase. `fromSec` (the warm-up) leaves out the samples taken
 * earlier than that many seconds after the first one, when at least two samples remain after it.
 * Undefined with fewer than two samples.
 */
export function deriveHostCpu(output: SamplerOutput, role: 'server' | 'client', fromSec = 0): HostCpu | undefined {
  const { samples, hz } = output;
  if (samples.length < 2) return undefined;
  const t0 = samples[0].uptimeSec;
  const afterWarmup = samples.filter((sample) => sample.uptimeSec - t0 >= fromSec - 1e-6);
  const window = fromSec > 0 && afterWarmup.length >= 2 ? afterWarmup : samples;
  const first = window[0];
  const last = window[window.length - 1];
  const seconds = last.uptimeSec - first.uptimeSec;
  const cores = [...last.cpus.keys()].filter((name) => name !== 'cpu');
  const all = (pick: (values: number[]) => number): number => round(share(first.cpus.get('cpu'), last.cpus.get('cpu'), pick) ?? 0);
  const rate = (before: number | undefined, after: number | undefined): number => (before !== undefined && after !== undefined && seconds > 0 ? round((after - before) / seconds, 1) : 0);
  const host: HostCpu = {
    role,
    cores: cores.length,
    busyPct: all(busyOf),
    userPct: all((values) => values[0] + values[1]),
    systemPct: all((values) => values[2]),
    softirqPct: all((values) => values[6]),
    idlePct: all((values) => values[3] + values[4]),
    maxCoreBusyPct: round(Math.max(0, ...cores.map((name) => share(first.cpus.get(name), last.cpus.get(name), busyOf) ?? 0))),
    contextSwitchesPerSec: rate(first.ctxt, last.ctxt),
    interruptsPerSec: rate(first.intr, last.intr),
    series: [],
  };
  // the watched process: the samples of the pid seen last (a restart starts a new process; YCSB
  // may end before the sampler stops)
  const pid = [...window].reverse().find((sample) => sample.process !== undefined)?.process?.pid;
  const processSamples = window.filter((sample) => sample.process?.pid === pid && pid !== undefined);
  if (processSamples.length >= 2) {
    const a = processSamples[0];
    const b = processSamples[processSamples.length - 1];
    const cpuSec = (b.process!.ticks - a.process!.ticks) / hz;
    const span = b.uptimeSec - a.uptimeSec;
    if (span > 0) host.process = { name: b.process!.name, pid: b.process!.pid, pctOfCore: round((cpuSec / span) * 100), cpuSec: round(cpuSec, 3) };
  }
  const devices = Object.keys(last.nic).filter((device) => first.nic[device] !== undefined);
  if (devices.length > 0) host.nicInterruptsPerSec = Object.fromEntries(devices.map((device) => [device, rate(first.nic[device], last.nic[device])]));
  for (let i = 1; i < samples.length; i++) {
    const before = samples[i - 1];
    const after = samples[i];
    const point: HostCpu['series'][number] = { tSec: round(after.uptimeSec - t0, 2), busyPct: round(share(before.cpus.get('cpu'), after.cpus.get('cpu'), busyOf) ?? 0) };
    const span = after.uptimeSec - before.uptimeSec;
    if (before.process && after.process && before.process.pid === after.process.pid && span > 0) point.processPctOfCore = round(((after.process.ticks - before.process.ticks) / hz / span) * 100);
    host.series.push(point);
  }
  return host;
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

/**
 * evidence.cpu of a cell from each host's sampler output, and `client-bound` marks. `throughput`
 * is the run's operations per second (after the warm-up when there is one), for the per-operation
 * figures: server µs per op = Σ servers (busy % × cores / 100) / throughput × 10⁶.
 */
export function cpuEvidence(hosts: { host: string; role: 'server' | 'client'; output: SamplerOutput }[], throughput: number | undefined, warmupSec = 0): { evidence: CpuEvidence; marks: CellMark[] } {
  const evidence: CpuEvidence = { sampler: { intervalMs: samplerIntervalMs, selfCostPctOfCore: {} }, hosts: {} };
  const marks: CellMark[] = [];
  for (const { host, role, output } of hosts) {
    const cost = samplerSelfCostPct(output);
    if (cost !== undefined) evidence.sampler.selfCostPctOfCore[host] = cost;
    const cpu = deriveHostCpu(output, role, warmupSec);
    if (!cpu) {
      // a check that could not run must mark the cell, never pass it (issue 21)
      const why = `${output.samples.length === 0 ? 'no' : 'only one'} CPU reading from ${host} during the run (its sampler did not run or was cut short)`;
      marks.push(role === 'client'
        ? { code: 'client-cpu-unverified', host, message: `${why}: whether ${host} was client-bound could not be checked.` }
        : { code: 'server-cpu-unverified', host, message: `${why}: the server's and memcached's CPU per operation are unknown.` });
      continue;
    }
    evidence.hosts[host] = cpu;
    if (role === 'client' && cpu.busyPct > clientBoundBusyPct) {
      marks.push({ code: 'client-bound', host, message: `${host} was ${cpu.busyPct.toFixed(0)} % busy during the run: its numbers measure the client more than Couchbase (add clients or lower threads).` });
    }
  }
  const servers = Object.values(evidence.hosts).filter((cpu) => cpu.role === 'server');
  if (servers.length > 0 && throughput !== undefined && throughput > 0) {
    const busyCores = servers.reduce((sum, cpu) => sum + (cpu.busyPct * cpu.cores) / 100, 0);
    evidence.serverCpuUsPerOp = round((busyCores / throughput) * 1e6, 3);
    if (busyCores > 0) evidence.opsPerBusyServerCore = round(throughput / busyCores, 1);
    if (servers.every((cpu) => cpu.process !== undefined)) {
      evidence.memcachedCpuUsPerOp = round((servers.reduce((sum, cpu) => sum + cpu.process!.pctOfCore / 100, 0) / throughput) * 1e6, 3);
    }
  }
  return { evidence, marks };
}
