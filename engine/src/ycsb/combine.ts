// Combines what several YCSB clients measured in one cell into one report, and summarises the
// repetitions of a cell. Pure.
//
// How each figure combines (the clients run at the same time against the same server):
// - throughput: the sum (each client's throughput is its own operations over its own runtime);
// - runtime: the longest client's;
// - operation counts and `Return=` counts: the sums;
// - average latency: weighted by each client's operation count (exact: it is the mean of all ops);
// - latency variance (histogram type): pooled over clients, exact for the combined population;
// - min / max latency: the min of the minimums / the max of the maximums (exact);
// - percentiles: the MAXIMUM of the clients' values. The p-th percentile of the merged operations
//   always lies between the smallest and the largest client's p-th percentile, so the maximum is a
//   guaranteed upper bound that never flatters a stack; an operation-weighted mean of percentiles
//   has no such guarantee (it can sit below the true value when one client saw a slow tail). With
//   balanced clients the clients' percentiles are close and the bound is tight. Labelled
//   `percentilesSource: 'client-max'`; when the clients' HDR interval logs exist the sweep replaces
//   them with the true percentiles of the merged histograms (hdrMerge.ts, 'hdr-merged').
// - histogram bucket counts: summed per bucket (exact);
// - timeseries: not combined (clients' intervals start at different moments); left out, with a warning;
// - other sections (GC): counts and times add; percentages and `MAX_*` take the maximum, `MIN_*` the minimum.
import type { OperationStats, YcsbReport } from '../model';

export interface ClientReport {
  /** Names the client in warnings (a host name). */
  host: string;
  report: YcsbReport;
}

/** Combines the reports of the clients of one cell into one. */
export function combineClientReports(clients: ClientReport[]): YcsbReport {
  const combined: YcsbReport = { runtimeMs: 0, throughputOpsPerSec: 0, operations: {}, other: {}, warnings: [] };
  if (clients.length === 0) {
    combined.warnings.push('No client report to combine.');
    return combined;
  }
  if (clients.length === 1) return structuredClone(clients[0].report);
  for (const { host, report } of clients) {
    combined.throughputOpsPerSec += report.throughputOpsPerSec;
    combined.runtimeMs = Math.max(combined.runtimeMs, report.runtimeMs);
    for (const warning of report.warnings) combined.warnings.push(`${host}: ${warning}`);
    for (const [metric, section] of Object.entries(report.other)) {
      const target = (combined.other[metric] ??= {});
      for (const [measurement, value] of Object.entries(section)) {
        target[measurement] =
          target[measurement] === undefined ? value : combineOther(metric, measurement, target[measurement], value);
      }
    }
  }
  const names = new Set(clients.flatMap(({ report }) => Object.keys(report.operations)));
  for (const name of names) {
    const parts = clients
      .map(({ report }) => report.operations[name])
      .filter((stats): stats is OperationStats => stats !== undefined);
    combined.operations[name] = combineOperation(name, parts);
    if (parts.some((stats) => stats.timeseries !== undefined)) {
      combined.warnings.push(
        `${name}: the clients' timeseries cannot be merged (their intervals start at different times); see each client's own report.`,
      );
    }
  }
  return combined;
}

function combineOther(metric: string, measurement: string, a: number, b: number): number {
  if (metric.startsWith('MIN_')) return Math.min(a, b);
  if (metric.startsWith('MAX_') || measurement.includes('%')) return Math.max(a, b);
  return a + b;
}

function combineOperation(name: string, parts: OperationStats[]): OperationStats {
  const stats: OperationStats = { operation: name, operations: 0, percentilesUs: {}, returnCodes: {} };
  for (const part of parts) {
    stats.operations += part.operations;
    for (const [code, count] of Object.entries(part.returnCodes))
      stats.returnCodes[code] = (stats.returnCodes[code] ?? 0) + count;
  }
  const measured = parts.filter((part) => part.operations > 0);
  const withAverage = measured.filter((part) => part.averageUs !== undefined);
  const weight = withAverage.reduce((sum, part) => sum + part.operations, 0);
  if (weight > 0) {
    const mean = withAverage.reduce((sum, part) => sum + part.averageUs! * part.operations, 0) / weight;
    stats.averageUs = mean;
    const withVariance = withAverage.filter((part) => part.latencyVarianceUs2 !== undefined);
    if (withVariance.length === withAverage.length && withVariance.length > 0) {
      // Pooled variance: the spread inside each client plus the spread between the clients' means.
      stats.latencyVarianceUs2 =
        withVariance.reduce(
          (sum, part) => sum + part.operations * (part.latencyVarianceUs2! + (part.averageUs! - mean) ** 2),
          0,
        ) / weight;
    }
  }
  const minimums = measured.flatMap((part) => (part.minUs === undefined ? [] : [part.minUs]));
  const maximums = measured.flatMap((part) => (part.maxUs === undefined ? [] : [part.maxUs]));
  if (minimums.length > 0) stats.minUs = Math.min(...minimums);
  if (maximums.length > 0) stats.maxUs = Math.max(...maximums);
  for (const part of measured) {
    for (const [percentile, value] of Object.entries(part.percentilesUs)) {
      stats.percentilesUs[percentile] = Math.max(stats.percentilesUs[percentile] ?? value, value);
    }
  }
  if (Object.keys(stats.percentilesUs).length > 0) stats.percentilesSource = 'client-max';
  const histograms = parts.filter((part) => part.histogramCounts !== undefined);
  if (histograms.length > 0) {
    const counts: Record<string, number> = {};
    for (const part of histograms) {
      for (const [bucket, count] of Object.entries(part.histogramCounts!))
        counts[bucket] = (counts[bucket] ?? 0) + count;
    }
    stats.histogramCounts = counts;
  }
  return stats;
}

/** The median and spread of one figure over the repetitions of a cell. */
export interface RepetitionSummary {
  median: number;
  min: number;
  max: number;
  /** How many repetitions gave a value. */
  count: number;
}

/** Median (mean of the two middle values for an even count) with min and max; undefined for no values. */
export function summariseRepetitions(values: readonly number[]): RepetitionSummary | undefined {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], count: sorted.length };
}
