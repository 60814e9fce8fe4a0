// Parses YCSB's final report into the results model. Pure: text in, data out, never throws.
//
// Accepts the three exporters YCSB ships:
// - text (the default, on stdout): `[METRIC], MEASUREMENT, VALUE` lines, possibly mixed with status
//   lines, SDK log records, stack traces and other stderr output when both streams were merged;
// - JSON (`JSONMeasurementsExporter`): a stream of `{metric, measurement, value}` objects written
//   back to back, which is not one JSON document;
// - JSON array (`JSONArrayMeasurementsExporter`): the same objects inside one array.
//
// Units in the returned report: latencies in microseconds, runtime in milliseconds, throughput in
// operations per second. Reports from YCSB before 0.4.0 print some latencies in milliseconds
// (`AverageLatency(ms)`); those are converted to microseconds.
//
// Every measurement type is understood: hdrhistogram (default), histogram (with the verbose bucket
// counts and `LatencyVariance(us)`), timeseries (per-interval averages), raw, and the two-in-one
// types `hdrhistogram+histogram` / `hdrhistogram+raw`, whose `Hdr<OP>` block is reported as `<OP>`
// (it carries the percentiles and the `Return=` codes) while `Bucket<OP>` / `Raw<OP>` are kept
// under their own names.
import { createScanner, SyntaxKind } from 'jsonc-parser';
import type { OperationStats, YcsbReport } from '../model';

export type YcsbReportFormat = 'text' | 'json' | 'json-array';

export interface YcsbParseError {
  /** `ycsb-no-report`: nothing that looks like a YCSB report; `ycsb-bad-json`: broken JSON export. */
  code: 'ycsb-no-report' | 'ycsb-bad-json';
  message: string;
}

export type YcsbParseResult =
  { ok: true; format: YcsbReportFormat; report: YcsbReport } | { ok: false; error: YcsbParseError; warnings: string[] };

/** One `[metric], measurement, value` record, whatever the exporter. */
export interface YcsbRecord {
  metric: string;
  measurement: string;
  value: number;
}

/** HdrHistogram 2.1.4 prints Long.MAX_VALUE as the minimum of an empty histogram. */
const emptyMinimumSentinel = 9.2e18;

/** Parses a YCSB final report in any exporter format. */
export function parseYcsbReport(text: string): YcsbParseResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = source.trimStart();
  if (start.startsWith('{') || /^\[\s*(\{|\])/.test(start)) {
    const format: YcsbReportFormat = start.startsWith('{') ? 'json' : 'json-array';
    const decoded = decodeJsonRecords(start, format);
    if (decoded.records.length === 0) {
      // A merged log may begin with some other JSON (a log event); it may still hold a text report.
      const asText = readTextRecords(source);
      if (asText.records.length > 0) return buildReport(asText.records, asText.warnings, 'text');
      return {
        ok: false,
        error: {
          code: decoded.warnings.length > 0 ? 'ycsb-bad-json' : 'ycsb-no-report',
          message: `The file looks like a YCSB JSON export but holds no measurement records${decoded.warnings.length > 0 ? ` (${decoded.warnings[0]})` : ''}.`,
        },
        warnings: decoded.warnings,
      };
    }
    return buildReport(decoded.records, decoded.warnings, format);
  }
  // bin/ycsb.sh prints the java command line on stdout before a JSON exporter's report
  const jsonLine = /^(?:\{\s*$|\{\s*"metric"|\[\s*\{)/m.exec(start);
  if (jsonLine && jsonLine.index > 0) {
    const format: YcsbReportFormat = jsonLine[0].startsWith('{') ? 'json' : 'json-array';
    const decoded = decodeJsonRecords(start.slice(jsonLine.index), format);
    if (decoded.records.length > 0) {
      const skipped = start
        .slice(0, jsonLine.index)
        .split('\n')
        .filter((line) => line.trim() !== '').length;
      return buildReport(
        decoded.records,
        [
          ...decoded.warnings,
          `${skipped} line(s) before the JSON report were not part of it (such as bin/ycsb.sh's java command line) and were ignored.`,
        ],
        format,
      );
    }
  }
  const { records, warnings } = readTextRecords(source);
  return buildReport(records, warnings, 'text');
}

// ---------------------------------------------------------------------------------------------
// Text exporter

/** A Java `long` or `Double.toString` value, as the text exporter writes them. */
const javaNumber = /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|NaN|[-+]?Infinity)$/;

/**
 * Splits one report line: the metric ends at the first `], `, the value starts after the last
 * `, ` (measurement texts may hold spaces, colons and commas without a following space).
 */
function splitReportLine(line: string): YcsbRecord | undefined {
  if (!line.startsWith('[')) return undefined;
  const metricEnd = line.indexOf('], ');
  if (metricEnd < 2) return undefined;
  const metric = line.slice(1, metricEnd);
  if (metric.includes('[') || metric.includes(']')) return undefined;
  const rest = line.slice(metricEnd + 3);
  const valueStart = rest.lastIndexOf(', ');
  if (valueStart < 1) return undefined;
  const measurement = rest.slice(0, valueStart);
  const valueText = rest.slice(valueStart + 2).trim();
  if (!javaNumber.test(valueText)) return undefined;
  return { metric, measurement, value: Number(valueText) };
}

function readTextRecords(text: string): { records: YcsbRecord[]; warnings: string[] } {
  const warnings: string[] = [];
  let records: YcsbRecord[] = [];
  let reportsSeen = 0;
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((rawLine, index) => {
    const line = rawLine.replace(/\s+$/, '');
    let record = splitReportLine(line);
    if (!record) {
      // A report line glued to the end of other output (a status line or log record without its
      // newline): take the first `[` from which the rest is a whole report line.
      for (let at = line.indexOf('[', 1); at > 0 && !record; at = line.indexOf('[', at + 1)) {
        record = splitReportLine(line.slice(at));
        if (record && !isKnownReportMetric(record.metric)) record = undefined;
        else if (record)
          warnings.push(
            `Line ${index + 1}: a report line was preceded by other output on the same line; the other output was ignored.`,
          );
      }
    }
    if (!record) {
      if (/^\[[^\]\s]+\], [^,]+, ?$/.test(line) || (/^\[[^\]\s]+\], /.test(line) && index === lines.length - 1)) {
        warnings.push(`Line ${index + 1} looks like a cut-off report line and was ignored: "${line.slice(0, 80)}".`);
      }
      return;
    }
    if (record.metric === 'OVERALL' && record.measurement === 'RunTime(ms)') {
      reportsSeen += 1;
      // Several reports in one file (e.g. a load and a run log appended): keep the last one.
      if (reportsSeen > 1) records = [];
    }
    records.push(record);
  });
  if (reportsSeen > 1) {
    warnings.push(`The text holds ${reportsSeen} YCSB reports; only the last one was read.`);
  }
  return { records, warnings };
}

/** Metrics that are certainly report lines, used when a report line is found mid-line. */
function isKnownReportMetric(metric: string): boolean {
  return metric === 'OVERALL' || metric.startsWith('TOTAL_GC') || /^[A-Z][A-Za-z0-9_%-]*$/.test(metric);
}

// ---------------------------------------------------------------------------------------------
// JSON exporters

/**
 * Splits a JSON text into its top-level values with jsonc-parser's scanner (the JSON exporter
 * writes `{...} {...}`, which no whole-document parser accepts), then reads each record.
 */
function decodeJsonRecords(text: string, format: YcsbReportFormat): { records: YcsbRecord[]; warnings: string[] } {
  const warnings: string[] = [];
  const records: YcsbRecord[] = [];
  const scanner = createScanner(text, true);
  // Objects at this depth are the records: 0 for the JSON stream, 1 inside the array.
  const recordDepth = format === 'json-array' ? 1 : 0;
  let depth = 0;
  let objectStart = -1;
  let token = scanner.scan();
  let closed = false;
  while (token !== SyntaxKind.EOF) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (token === SyntaxKind.OpenBraceToken && depth === recordDepth) objectStart = scanner.getTokenOffset();
      depth += 1;
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) {
      depth -= 1;
      if (token === SyntaxKind.CloseBraceToken && depth === recordDepth && objectStart >= 0) {
        const chunk = text.slice(objectStart, scanner.getTokenOffset() + scanner.getTokenLength());
        objectStart = -1;
        const record = jsonRecord(chunk);
        if (record) records.push(record);
        else
          warnings.push(
            `Skipped a JSON value that is not a {metric, measurement, value} record: ${chunk.replace(/\s+/g, ' ').slice(0, 80)}`,
          );
      }
      if (depth === 0 && format === 'json-array') closed = true;
      if (depth < 0) depth = 0;
    }
    token = scanner.scan();
  }
  if (objectStart >= 0 || (format === 'json-array' && !closed)) {
    warnings.push(
      'The JSON export ends in the middle of a record (the file was cut off); the records before it were read.',
    );
  }
  return { records, warnings };
}

function jsonRecord(chunk: string): YcsbRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(chunk);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { metric, measurement, value: raw } = value as Record<string, unknown>;
  if (typeof metric !== 'string' || typeof measurement !== 'string') return undefined;
  // Jackson writes NaN and Infinity as strings.
  const number =
    typeof raw === 'number' ? raw : typeof raw === 'string' && javaNumber.test(raw) ? Number(raw) : undefined;
  if (number === undefined) return undefined;
  return { metric, measurement, value: number };
}

// ---------------------------------------------------------------------------------------------
// Records -> report

const percentileMeasurement = /^(\d+(?:\.\d+)?)(?:st|nd|rd|th)?PercentileLatency\((us|ms)\)$/;
const rawPercentileMeasurement = /^p(\d+(?:\.\d+)?)$/;

/** A metric is an operation block when it holds latency or count measurements. */
function isOperationMeasurement(measurement: string): boolean {
  return (
    measurement === 'Operations' ||
    measurement === 'Total Operations' ||
    measurement.startsWith('Return=') ||
    /^(Average|Min|Max)Latency\((us|ms)\)$/.test(measurement) ||
    percentileMeasurement.test(measurement)
  );
}

interface OperationDraft {
  stats: OperationStats;
  /** Integer measurements (`0`, `1`, ... `>20` or timeseries starts) seen in the block. */
  numbered: { key: string; value: number }[];
  hasOverflowBucket: boolean;
  hasHistogramShape: boolean;
}

function buildReport(records: YcsbRecord[], warnings: string[], format: YcsbReportFormat): YcsbParseResult {
  const byMetric = new Map<string, YcsbRecord[]>();
  for (const record of records) {
    const list = byMetric.get(record.metric);
    if (list) list.push(record);
    else byMetric.set(record.metric, [record]);
  }
  const overall = byMetric.get('OVERALL');
  const operationMetrics = [...byMetric.keys()].filter(
    (metric) =>
      metric !== 'OVERALL' && byMetric.get(metric)!.some((record) => isOperationMeasurement(record.measurement)),
  );
  if (!overall && operationMetrics.length === 0) {
    return {
      ok: false,
      error: {
        code: 'ycsb-no-report',
        message:
          format === 'text'
            ? 'No YCSB report found: no "[OVERALL], RunTime(ms), ..." line and no operation lines. YCSB may have failed before it finished; look at the end of its log.'
            : 'The JSON export holds no OVERALL record and no operation records.',
      },
      warnings,
    };
  }

  const report: YcsbReport = { runtimeMs: 0, throughputOpsPerSec: 0, operations: {}, other: {}, warnings };
  const runtime = overall?.find((record) => record.measurement === 'RunTime(ms)');
  const throughput = overall?.find((record) => record.measurement === 'Throughput(ops/sec)');
  if (!runtime) warnings.push('The report has no "[OVERALL], RunTime(ms)" line; runtime is given as 0.');
  else report.runtimeMs = finiteOr(runtime.value, 0, 'OVERALL RunTime(ms)', warnings);
  if (!throughput) warnings.push('The report has no "[OVERALL], Throughput(ops/sec)" line; throughput is given as 0.');
  else report.throughputOpsPerSec = finiteOr(throughput.value, 0, 'OVERALL Throughput(ops/sec)', warnings);

  for (const [metric, list] of byMetric) {
    if (operationMetrics.includes(metric)) continue;
    const section: Record<string, number> = {};
    for (const record of list) {
      if (
        metric === 'OVERALL' &&
        (record.measurement === 'RunTime(ms)' || record.measurement === 'Throughput(ops/sec)')
      )
        continue;
      if (Number.isFinite(record.value)) section[record.measurement] = record.value;
      else warnings.push(`${metric} ${record.measurement} is ${record.value}; left out.`);
    }
    if (Object.keys(section).length > 0) report.other[metric] = section;
  }

  const names = twoInOneNames(operationMetrics);
  for (const metric of operationMetrics) {
    const name = names.get(metric) ?? metric;
    report.operations[name] = buildOperation(name, byMetric.get(metric)!, warnings);
  }
  return { ok: true, format, report };
}

/** `HdrREAD` -> `READ` when YCSB ran a two-in-one measurement type (a `BucketREAD`/`RawREAD` exists). */
function twoInOneNames(metrics: string[]): Map<string, string> {
  const present = new Set(metrics);
  const names = new Map<string, string>();
  for (const metric of metrics) {
    if (!metric.startsWith('Hdr') || metric.length <= 3) continue;
    const plain = metric.slice(3);
    const twoInOne = present.has(`Bucket${plain}`) || present.has(`Raw${plain}`);
    if (twoInOne || (/^[A-Z][A-Z0-9_-]*$/.test(plain) && !present.has(plain))) names.set(metric, plain);
  }
  return names;
}

function buildOperation(name: string, records: YcsbRecord[], warnings: string[]): OperationStats {
  const draft: OperationDraft = {
    stats: { operation: name, operations: 0, percentilesUs: {}, returnCodes: {} },
    numbered: [],
    hasOverflowBucket: false,
    hasHistogramShape: false,
  };
  const stats = draft.stats;
  let average: number | undefined;
  let minimum: number | undefined;
  let maximum: number | undefined;
  let sawOperations = false;
  for (const { measurement, value } of records) {
    const unit = measurement.endsWith('(ms)') ? 1000 : 1;
    let match: RegExpExecArray | null;
    if (measurement === 'Operations' || measurement === 'Total Operations') {
      stats.operations = Number.isFinite(value) ? value : 0;
      sawOperations = true;
    } else if (measurement.startsWith('Return=')) {
      const code = measurement.slice('Return='.length);
      stats.returnCodes[code] = (stats.returnCodes[code] ?? 0) + value;
    } else if (
      measurement === 'AverageLatency(us)' ||
      measurement === 'AverageLatency(ms)' ||
      measurement === 'Average'
    ) {
      average = value * unit;
    } else if (measurement === 'MinLatency(us)' || measurement === 'MinLatency(ms)' || measurement === 'Min') {
      minimum = value * unit;
    } else if (measurement === 'MaxLatency(us)' || measurement === 'MaxLatency(ms)' || measurement === 'Max') {
      maximum = value * unit;
    } else if (measurement === 'LatencyVariance(us)') {
      draft.hasHistogramShape = true;
      if (Number.isFinite(value)) stats.latencyVarianceUs2 = value;
    } else if (
      (match = percentileMeasurement.exec(measurement)) ||
      (match = rawPercentileMeasurement.exec(measurement))
    ) {
      draft.hasHistogramShape = true;
      if (Number.isFinite(value))
        stats.percentilesUs[canonicalPercentile(match[1])] = value * (match[2] === 'ms' ? 1000 : 1);
    } else if (/^>\d+$/.test(measurement)) {
      draft.hasOverflowBucket = true;
      draft.numbered.push({ key: measurement, value });
    } else if (/^\d+$/.test(measurement)) {
      draft.numbered.push({ key: measurement, value });
    }
    // Anything else (`Below is a summary of latency in microseconds:`) carries no value.
  }
  if (!sawOperations) warnings.push(`${name}: the block has no Operations line; its operation count is given as 0.`);

  // An empty block (every call failed, or a FAILED block with nothing in it) prints sentinel
  // latencies (NaN average, Long.MAX_VALUE or -1 minimum, zeros): they are not measurements.
  const empty = stats.operations === 0;
  if (empty) {
    if (Object.keys(stats.percentilesUs).length > 0 || average !== undefined) {
      warnings.push(`${name}: no successful operation was measured, so it has no latency figures.`);
    }
    stats.percentilesUs = {};
  } else {
    if (average !== undefined) {
      if (Number.isFinite(average)) stats.averageUs = average;
      else warnings.push(`${name}: the average latency is ${average}; left out.`);
    }
    if (minimum !== undefined && minimum >= 0 && minimum < emptyMinimumSentinel) stats.minUs = minimum;
    if (maximum !== undefined && maximum >= 0 && Number.isFinite(maximum)) stats.maxUs = maximum;
  }

  if (draft.numbered.length > 0) {
    if (draft.hasOverflowBucket || draft.hasHistogramShape) {
      // `measurement.histogram.verbose=true`: operation counts per 1 ms bucket, then the overflow.
      stats.histogramCounts = Object.fromEntries(draft.numbered.map(({ key, value }) => [key, value]));
    } else {
      // `measurementtype=timeseries`: the average latency of each interval, by its start in ms.
      stats.timeseries = draft.numbered
        .filter(({ value }) => Number.isFinite(value))
        .map(({ key, value }) => ({ startMs: Number(key), averageUs: value }));
    }
  }
  return stats;
}

/** `99.90` and `99.9` name the same percentile; integers stay integers (`95`). */
function canonicalPercentile(text: string): string {
  return String(Number(text));
}

function finiteOr(value: number, fallback: number, what: string, warnings: string[]): number {
  if (Number.isFinite(value)) return value;
  warnings.push(`${what} is ${value}; given as ${fallback}.`);
  return fallback;
}
