// True combined percentiles: the clients' HDR interval logs, merged. Pure (text in, figures out).
//
// Facts relied on (YCSB 0.17 core/.../measurements/OneMeasurementHdrHistogram.java): with
// `hdrhistogram.fileoutput=true` each measurement (READ, UPDATE, READ-FAILED, CLEANUP...) writes
// `<hdrhistogram.output.path><NAME>.hdr`, an HdrHistogram interval log (HistogramLogWriter of
// HdrHistogram 2.1.4, so V1-encoded histograms: hdrLogV1.ts; base
// time = the measurement's creation, values in µs) with one interval per status line (`-s`) and a
// last one at the end; so the union of a log's intervals is every operation the client measured.
// Adding the clients' histograms gives the histogram of all operations: its percentiles are the
// real ones, where the per-client reports only bound them (combine.ts, 'client-max').
import { build, HistogramLogReader, type Histogram } from 'hdr-histogram-js';
import type { CellMark, HdrCountCheck, HdrOperationSummary, TimeseriesEvidence, YcsbReport } from '../model';
import { decodeV1CompressedBase64, isV1CompressedBase64 } from './hdrLogV1';

/** One `.hdr` file fetched from a client. */
export interface HdrLogFile {
  /** Client host alias. */
  host: string;
  /** Measurement name (the file name without `.hdr`): READ, UPDATE, READ-FAILED... */
  operation: string;
  /** Relative to the run folder. */
  file: string;
  text: string;
}

export const evidencePercentiles = ['50', '90', '95', '99', '99.9', '99.99'];

/** The measurement a file name belongs to: `READ.hdr` -> `READ`; undefined for other files. */
export function hdrOperationOf(fileName: string): string | undefined {
  const match = /(?:^|\/)([^/]+)\.hdr$/.exec(fileName);
  return match?.[1];
}

/** Decodes every interval of one log, with its start in seconds since the log's start. */
export function decodeIntervals(text: string): { startSec: number; histogram: Histogram }[] {
  // YCSB 0.17.0's own logs: V1 histograms (hdrLogV1.ts), starts relative to the log's StartTime
  const intervalLines = text.split(/\r?\n/).filter((line) => /^(Tag=[^,]*,)?\d/.test(line));
  const firstPayload = intervalLines[0]?.replace(/^Tag=[^,]*,/, '').split(',')[3];
  if (firstPayload !== undefined && isV1CompressedBase64(firstPayload)) {
    return intervalLines.map((line) => {
      const fields = line.replace(/^Tag=[^,]*,/, '').split(',');
      return { startSec: Number(fields[0]), histogram: decodeV1CompressedBase64(fields[3]) };
    });
  }
  const reader = new HistogramLogReader(text, 64);
  const out: { startSec: number; histogram: Histogram }[] = [];
  for (let histogram = reader.nextIntervalHistogram(); histogram; histogram = reader.nextIntervalHistogram()) {
    const origin = reader.startTimeSec ?? 0;
    out.push({ startSec: histogram.startTimeStampMsec / 1000 - (Number.isFinite(origin) ? origin : 0), histogram });
  }
  return out;
}

/**
 * Merges the logs per operation; with `warmupSec`, only intervals that start at or after it count
 * (the raw totals stay in the clients' own reports).
 */
export function mergeHdrLogs(files: HdrLogFile[], warmupSec = 0): Map<string, Histogram> {
  const merged = new Map<string, Histogram>();
  for (const file of files) {
    for (const interval of decodeIntervals(file.text)) {
      if (warmupSec > 0 && interval.startSec < warmupSec - 1e-6) continue;
      let target = merged.get(file.operation);
      if (!target) {
        target = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3, autoResize: true });
        merged.set(file.operation, target);
      }
      target.add(interval.histogram);
    }
  }
  return merged;
}

/**
 * Each client's HDR count of each operation beside the Operations YCSB reported for it, over the
 * whole run (no warm-up cut, as YCSB's own count). They can differ in YCSB 0.17.0 itself:
 * Measurements.getOpMeasurement creates a measurement on first use without a lock, so two threads
 * whose first operation of a kind ends at the same time may both construct one; each opens
 * `<path><NAME>.hdr` with a truncating FileOutputStream, and when the one that is dropped opens it
 * after the kept one has logged an interval, that interval (and the next line, behind the gap of
 * NUL bytes) is gone from the log while the kept one's total still counts it
 * (test/lab/README.md, Y12). The merged percentiles then cover fewer operations than the report.
 */
export function hdrCountChecks(files: HdrLogFile[], clients: { host: string; report: YcsbReport }[]): HdrCountCheck[] {
  const checks: HdrCountCheck[] = [];
  for (const { host, report } of clients) {
    const counts = new Map<string, number>();
    for (const file of files.filter((entry) => entry.host === host)) {
      const total = decodeIntervals(file.text).reduce((sum, interval) => sum + interval.histogram.totalCount, 0);
      counts.set(file.operation, (counts.get(file.operation) ?? 0) + total);
    }
    const operations = new Set([...Object.keys(report.operations), ...counts.keys()]);
    for (const operation of [...operations].sort()) {
      checks.push({
        host,
        operation,
        ycsbOperations: report.operations[operation]?.operations ?? 0,
        hdrCount: counts.get(operation) ?? 0,
      });
    }
  }
  return checks;
}

/** One `hdr-count-differs` mark per client whose logs and report disagree, naming each operation. */
export function hdrCountMarks(checks: HdrCountCheck[]): CellMark[] {
  const marks: CellMark[] = [];
  for (const host of [...new Set(checks.map((check) => check.host))]) {
    const differing = checks.filter((check) => check.host === host && check.hdrCount !== check.ycsbOperations);
    if (differing.length === 0) continue;
    const parts = differing.map(
      (check) =>
        `${check.operation}: ${check.hdrCount} in the HDR logs, ${check.ycsbOperations} reported by YCSB (${check.hdrCount < check.ycsbOperations ? `${check.ycsbOperations - check.hdrCount} missing from the logs` : `${check.hdrCount - check.ycsbOperations} more in the logs`})`,
    );
    marks.push({
      code: 'hdr-count-differs',
      host,
      message: `${host}: ${parts.join('; ')}. The merged percentiles of ${differing.map((check) => check.operation).join(', ')} come from the HDR logs, so from those operations only; the operation counts stay YCSB's.`,
    });
  }
  return marks;
}

/** Percentiles of the spectrum chart: 0, 68.4, 90, 96.8, 99, ... 99.999 (five per decade of the tail), 100. */
export const spectrumPercentiles: number[] = [
  ...Array.from({ length: 26 }, (_, k) => Number((100 * (1 - 10 ** (-k / 5))).toPrecision(8))),
  100,
];

export function summariseHistogram(histogram: Histogram): HdrOperationSummary {
  const percentilesUs: Record<string, number> = {};
  for (const name of evidencePercentiles) percentilesUs[name] = histogram.getValueAtPercentile(Number(name));
  return {
    count: histogram.totalCount,
    meanUs: Math.round(histogram.mean * 100) / 100,
    maxUs: histogram.maxValue,
    percentilesUs,
    spectrum: spectrumPercentiles.map((percentile) => ({
      percentile,
      valueUs: histogram.getValueAtPercentile(percentile),
    })),
  };
}

/** evidence.timeseries.hdr from the fetched logs; undefined when there are none. */
export function hdrEvidence(
  files: HdrLogFile[],
  warmupSec = 0,
  clients?: { host: string; report: YcsbReport }[],
): TimeseriesEvidence['hdr'] {
  if (files.length === 0) return undefined;
  const merged = mergeHdrLogs(files, warmupSec);
  const operations: Record<string, HdrOperationSummary> = {};
  for (const [operation, histogram] of merged)
    if (histogram.totalCount > 0) operations[operation] = summariseHistogram(histogram);
  return {
    files: files.map((file) => file.file),
    afterWarmup: warmupSec > 0,
    operations,
    ...(clients ? { counts: hdrCountChecks(files, clients) } : {}),
  };
}

/**
 * Replaces the combined report's per-operation percentiles (the keys YCSB printed) with the merged
 * histograms' and labels them `hdr-merged`. Operations without a merged histogram keep theirs.
 */
export function applyMergedPercentiles(report: YcsbReport, merged: Map<string, Histogram>): void {
  for (const [name, stats] of Object.entries(report.operations)) {
    const histogram = merged.get(name);
    if (!histogram || histogram.totalCount === 0) continue;
    const keys = Object.keys(stats.percentilesUs);
    for (const key of keys.length > 0 ? keys : ['50', '95', '99'])
      stats.percentilesUs[key] = histogram.getValueAtPercentile(Number(key));
    stats.percentilesSource = 'hdr-merged';
  }
}
