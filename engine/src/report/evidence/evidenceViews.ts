// Reader-side views of a cell's evidence (model.ts CpuEvidence, TimeseriesEvidence) for the panel
// and the HTML report: the latency percentile spectrum of a point (HdrHistogram's percentile
// distribution, the arms side by side) and one cell's throughput, latency and CPU over time.
// Pure; tolerant of records without evidence (older runs, hosts the sampler could not read).
import { doubtingMarks } from '../../evidence/marks';
import type { CellKey, CellResult } from '../../model';

/**
 * Where a spectrum's points came from: the clients' merged HDR histograms (the real distribution),
 * the worst client's summary percentiles (an upper bound at each percentile), or a single client's
 * own summary.
 */
export type SpectrumSource = 'hdr-merged' | 'client-max' | 'ycsb';

export interface SpectrumSeries {
  stack: string;
  /** The repetition drawn (the first unmarked one with data; a marked one only when no other exists). */
  repetition: number;
  cellId: string;
  source: SpectrumSource;
  marked: boolean;
  points: { percentile: number; valueUs: number }[];
}

/** Same interface, address, cluster size, axes and threads: the arms of one point. */
function samePoint(a: CellKey, b: CellKey): boolean {
  return (
    a.interface === b.interface &&
    (a.address ?? '') === (b.address ?? '') &&
    a.threads === b.threads &&
    (a.clusterSize ?? null) === (b.clusterSize ?? null) &&
    JSON.stringify(sortedAxes(a)) === JSON.stringify(sortedAxes(b))
  );
}

function sortedAxes(key: CellKey): [string, string | number][] {
  return Object.keys(key.axes ?? {})
    .sort()
    .map((name) => [name, key.axes[name]]);
}

/** The spectrum of one cell for one operation, or undefined when it measured nothing for it. */
export function cellSpectrum(
  result: CellResult,
  operation: string,
): Omit<SpectrumSeries, 'stack' | 'repetition' | 'cellId' | 'marked'> | undefined {
  const hdr = result.evidence?.timeseries?.hdr?.operations?.[operation];
  if (hdr && Array.isArray(hdr.spectrum) && hdr.spectrum.length > 0) {
    const points = hdr.spectrum
      .filter((point) => Number.isFinite(point.percentile) && Number.isFinite(point.valueUs))
      .map((point) => ({ percentile: point.percentile, valueUs: point.valueUs }));
    if (points.length > 0) return { source: 'hdr-merged', points: points.sort((a, b) => a.percentile - b.percentile) };
  }
  // No HDR log: YCSB's summary percentiles, with the minimum at 0 % and the maximum at 100 %.
  const stats = result.run?.operations?.[operation];
  if (!stats) return undefined;
  const points: { percentile: number; valueUs: number }[] = [];
  if (stats.minUs !== undefined && Number.isFinite(stats.minUs)) points.push({ percentile: 0, valueUs: stats.minUs });
  for (const [name, value] of Object.entries(stats.percentilesUs ?? {})) {
    const percentile = Number(name);
    if (Number.isFinite(percentile) && Number.isFinite(value)) points.push({ percentile, valueUs: value });
  }
  if (stats.maxUs !== undefined && Number.isFinite(stats.maxUs)) points.push({ percentile: 100, valueUs: stats.maxUs });
  if (points.length === 0) return undefined;
  const multiClient = (result.clients?.length ?? 0) > 1;
  const source: SpectrumSource =
    stats.percentilesSource === 'client-max' || (stats.percentilesSource === undefined && multiClient)
      ? 'client-max'
      : 'ycsb';
  return { source, points: points.sort((a, b) => a.percentile - b.percentile) };
}

/**
 * The spectra of every stack at the point of `key` (its interface, axes and threads), one series
 * per stack in `stacks` order, for `operation` (READ, UPDATE...).
 */
export function pointSpectra(
  results: readonly CellResult[],
  key: CellKey,
  stacks: readonly string[],
  operation: string,
): SpectrumSeries[] {
  const series: SpectrumSeries[] = [];
  for (const stack of stacks) {
    const candidates = results
      .filter((result) => result.status === 'ok' && result.key.stack === stack && samePoint(result.key, key))
      .sort(
        (a, b) =>
          Number(doubtingMarks(a).length > 0) - Number(doubtingMarks(b).length > 0) ||
          a.key.repetition - b.key.repetition,
      );
    for (const result of candidates) {
      const spectrum = cellSpectrum(result, operation);
      if (!spectrum) continue;
      series.push({
        stack,
        repetition: result.key.repetition,
        cellId: result.id,
        marked: doubtingMarks(result).length > 0,
        ...spectrum,
      });
      break;
    }
  }
  return series;
}

/**
 * At most `limit` points of a curve, evenly spread along x (the nines scale for spectra), always keeping the first and
 * last.
 */
export function thinByX<T extends { x: number }>(points: T[], limit = 80): T[] {
  if (points.length <= limit) return points;
  const kept: T[] = [];
  const last = points[points.length - 1].x;
  let next = points[0].x;
  const step = (last - next) / (limit - 1);
  for (const point of points) {
    if (point.x >= next - 1e-9 || point === points[points.length - 1]) {
      kept.push(point);
      next = point.x + step;
    }
  }
  return kept;
}

/** The operations a set of cells measured latencies for, READ first, in the order met. */
export function spectrumOperations(results: readonly CellResult[]): string[] {
  const names = new Set<string>();
  for (const result of results) {
    for (const name of Object.keys(result.evidence?.timeseries?.hdr?.operations ?? {})) names.add(name);
    for (const [name, stats] of Object.entries(result.run?.operations ?? {}))
      if (!name.endsWith('-FAILED') && stats.operations > 0) names.add(name);
  }
  // YCSB's CLEANUP is its threads closing the binding, not an operation of the workload.
  names.delete('CLEANUP');
  return [...names].sort((a, b) => Number(b === 'READ') - Number(a === 'READ'));
}

export interface CellTimeSeries {
  cellId: string;
  key: CellKey;
  /** All clients' status lines summed per interval: seconds since the run phase started. */
  throughput: { tSec: number; opsPerSec: number }[];
  /** Per operation: the clients' interval latencies, weighted by each client's throughput. */
  latency: { operation: string; points: { tSec: number; latencyUs: number }[] }[];
  /** Per host: busy % of all its cores, and its process (memcached, the YCSB JVM) in % of one core. */
  cpu: {
    host: string;
    role: 'server' | 'client';
    process?: string;
    points: { tSec: number; busyPct: number; processPctOfCore?: number }[];
  }[];
  warmupSec?: number;
  /** The status lines' clients, for the caption. */
  clients: string[];
}

/** One cell's series over time; undefined when it recorded none. */
export function cellTimeSeries(result: CellResult): CellTimeSeries | undefined {
  const status = result.evidence?.timeseries?.status ?? {};
  const clients = Object.keys(status).filter((host) => Array.isArray(status[host]));
  // Clients print a status line every status.interval seconds from their own start: lines of the
  // same interval are summed at the interval's (rounded) second.
  const byTime = new Map<number, { ops: number; latency: Map<string, { weighted: number; weight: number }> }>();
  for (const host of clients) {
    for (const line of status[host]) {
      if (!Number.isFinite(line?.tSec) || !Number.isFinite(line?.opsPerSec)) continue;
      const tSec = Math.round(line.tSec);
      const entry = byTime.get(tSec) ?? { ops: 0, latency: new Map() };
      entry.ops += line.opsPerSec;
      for (const [operation, value] of Object.entries(line.latencyUs ?? {})) {
        if (!Number.isFinite(value)) continue;
        const sum = entry.latency.get(operation) ?? { weighted: 0, weight: 0 };
        const weight = Math.max(line.opsPerSec, 1e-9);
        sum.weighted += value * weight;
        sum.weight += weight;
        entry.latency.set(operation, sum);
      }
      byTime.set(tSec, entry);
    }
  }
  const times = [...byTime.keys()].sort((a, b) => a - b);
  const operations = [...new Set(times.flatMap((tSec) => [...byTime.get(tSec)!.latency.keys()]))];
  const cpu = Object.entries(result.evidence?.cpu?.hosts ?? {})
    .filter(([, host]) => host && Array.isArray(host.series))
    .map(([host, facts]) => ({
      host,
      role: facts.role,
      process: facts.process?.name,
      points: facts.series
        .filter((point) => Number.isFinite(point.tSec) && Number.isFinite(point.busyPct))
        .map((point) => ({
          tSec: point.tSec,
          busyPct: point.busyPct,
          ...(point.processPctOfCore !== undefined ? { processPctOfCore: point.processPctOfCore } : {}),
        })),
    }))
    .sort((a, b) => Number(a.role === 'client') - Number(b.role === 'client') || a.host.localeCompare(b.host));
  if (times.length === 0 && cpu.every((host) => host.points.length === 0)) return undefined;
  const series: CellTimeSeries = {
    cellId: result.id,
    key: result.key,
    throughput: times.map((tSec) => ({ tSec, opsPerSec: byTime.get(tSec)!.ops })),
    latency: operations.map((operation) => ({
      operation,
      points: times.flatMap((tSec) => {
        const sum = byTime.get(tSec)!.latency.get(operation);
        return sum && sum.weight > 0 ? [{ tSec, latencyUs: sum.weighted / sum.weight }] : [];
      }),
    })),
    cpu,
    clients,
  };
  const warmup = result.evidence?.timeseries?.warmupSec;
  if (warmup !== undefined && Number.isFinite(warmup)) series.warmupSec = warmup;
  return series;
}
