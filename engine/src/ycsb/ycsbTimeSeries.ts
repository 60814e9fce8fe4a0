// YCSB's status lines as a cell's time series, the throughput after the warm-up, and whether the
// warm-up was long enough. Pure. The lines are read by ycsbStatus.ts; with `-s` YCSB prints one every
// `status.interval` seconds (default 10) with the operations so far and, per measurement, the
// last interval's figures, and a last one when the run ends (a partial interval).
import type { CellMark, TimeseriesEvidence } from '../model';
import type { YcsbStatus } from './ycsbStatus';

export type StatusPoint = TimeseriesEvidence['status'][string][number];

/**
 * One point per status line: seconds since YCSB started, operations so far, the interval's ops/s and each measurement's
 * average latency (µs).
 */
export function statusSeries(statuses: YcsbStatus[]): StatusPoint[] {
  return statuses.map((status) => {
    const latencyUs: Record<string, number> = {};
    for (const [name, figures] of Object.entries(status.perOperation))
      if (figures.averageUs !== undefined && Number.isFinite(figures.averageUs)) latencyUs[name] = figures.averageUs;
    return { tSec: status.elapsedSec, operations: status.operations, opsPerSec: status.currentOpsPerSec, latencyUs };
  });
}

/**
 * Operations per second between the first status at or after `fromSec` and the last one; undefined without two such
 * lines.
 */
export function throughputAfter(series: StatusPoint[], fromSec: number): number | undefined {
  const after = series.filter((point) => point.tSec >= fromSec);
  if (after.length < 2) return undefined;
  const first = after[0];
  const last = after[after.length - 1];
  return last.tSec > first.tSec ? (last.operations - first.operations) / (last.tSec - first.tSec) : undefined;
}

/**
 * Still warming up? The rule: take the whole status intervals after the warm-up (the last, partial
 * interval left out); with at least 4 of them (fewer: `{ intervals }`, not judged), the throughput is "still rising
 * clearly" when the
 * mean of the first quarter is more than 10 % below the mean of the second half. A steady run
 * varies by a few percent between intervals; a JVM still compiling or a cache still filling shows
 * as a first stretch well below the rest.
 */
export function stillRising(
  series: StatusPoint[],
  warmupSec: number,
): { first: number; later: number } | { intervals: number } | undefined {
  const after = series.filter((point) => point.tSec >= warmupSec);
  const rates: number[] = [];
  for (let i = 1; i < after.length - 1; i++) {
    const span = after[i].tSec - after[i - 1].tSec;
    if (span > 0) rates.push((after[i].operations - after[i - 1].operations) / span);
  }
  // too few to judge: said (a check that could not run is never a pass)
  if (rates.length < 4) return { intervals: rates.length };
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const first = mean(rates.slice(0, Math.max(1, Math.floor(rates.length / 4))));
  const later = mean(rates.slice(Math.floor(rates.length / 2)));
  return first < 0.9 * later ? { first, later } : undefined;
}

/** evidence.timeseries without the HDR part, and the `warmup-too-short` / `warmup-unverified` marks. */
export function timeSeriesEvidence(
  statusByHost: Record<string, YcsbStatus[]>,
  warmupSec: number | undefined,
): { evidence: TimeseriesEvidence; marks: CellMark[] } {
  const evidence: TimeseriesEvidence = { status: {} };
  const marks: CellMark[] = [];
  for (const [host, statuses] of Object.entries(statusByHost)) evidence.status[host] = statusSeries(statuses);
  if (warmupSec !== undefined && warmupSec > 0) {
    evidence.warmupSec = warmupSec;
    const rates = Object.values(evidence.status).map((series) => throughputAfter(series, warmupSec));
    if (rates.length > 0 && rates.every((rate) => rate !== undefined))
      evidence.throughputAfterWarmupOpsPerSec =
        Math.round(rates.reduce((sum, rate) => sum + (rate as number), 0) * 100) / 100;
    for (const [host, series] of Object.entries(evidence.status)) {
      const rising = stillRising(series, warmupSec);
      if (rising && 'intervals' in rising) {
        marks.push({
          code: 'warmup-unverified',
          host,
          message: `${host}: only ${rising.intervals} whole status interval${rising.intervals === 1 ? '' : 's'} after the ${warmupSec} s warm-up (4 needed): whether throughput was still rising was not checked (lengthen the run or shorten status.interval).`,
        });
      } else if (rising) {
        marks.push({
          code: 'warmup-too-short',
          host,
          message: `${host}: throughput was still rising after the ${warmupSec} s warm-up (${Math.round(rising.first)} ops/s at first, ${Math.round(rising.later)} ops/s later): raise warmupSec or the run time.`,
        });
      }
    }
  }
  return { evidence, marks };
}
