// The cookbook's tables from a run's results: per interface (and further axis values) and thread
// count, the kernel stack against each Onload profile and the difference in percent. Pure: the
// data structures come first (the results panel renders them), then a plain-text rendering for the
// terminal; csv.ts exports the same tables.
//
// Repetitions of a cell are summarised by their median with the min-max spread. A cell whose
// repetitions all failed is `failed`. A repetition with marks (marks.ts: not accelerated, wrong
// NIC, client-bound...) may not measure what its key says: when unmarked repetitions exist the
// marked ones are left out of the median (and counted, so the reader sees it); a cell whose
// repetitions are all marked is `marked`, shows its number with the marks, and no comparison
// involving it is ever an improvement.
//
// The difference of a profile from the kernel compares the means of the counted repetitions with a
// 95 % confidence interval (statistics.ts). Only a significant difference in the better direction,
// with neither side marked, is an improvement; only improvements are starred.
import { summariseRepetitions } from '../ycsb/combine';
import { evidenceMetric, measuredEvidenceMetrics } from './evidence/evidenceMetrics';
import { cellMarks, doubtingMarks } from '../evidence/marks';
import { cpuTableNotes } from './cpuTableNotes';
import { cellName, pointName } from './names';
import { busiestThreads, cpuWindowText, threadsText as hostThreadsText } from './evidence/busiestThreads';
import { cellProofs } from './evidence/cellProofs';
import { clusterProof } from './evidence/clusterProof';
import type { CellKey, CellResult, HostEnvironment, RunEnvironment, RunManifest, YcsbReport } from '../model';
import { hardwareFactsText } from '../evidence/hostHardware';
import { baselineStack, stackLabel, type StackDisplayNames } from './stackLabels';
import { compareSamples, formatDifference, type Difference } from './statistics';
import {
  axisInfo,
  axisPointText,
  axisValue,
  groupTitle,
  heldAxes,
  heldId,
  sortAxisValues,
  withAxisValue,
  type AxisId,
  type AxisInfo,
} from './axes';

export interface MetricDefinition {
  /** `throughput`, `<op>-latency` (average), `<op>-p<percentile>`, `<op>-min`, `<op>-max`. */
  id: string;
  title: string;
  unit: string;
  higherIsBetter: boolean;
}

/** Metrics the CLI lists; any `<op>-latency` / `<op>-p<N>` also works. */
export const commonMetrics = [
  'throughput',
  'read-latency',
  'read-p95',
  'read-p99',
  'update-latency',
  'update-p95',
  'update-p99',
  'insert-latency',
  'scan-latency',
  'read-modify-write-latency',
  'server-cpu',
  'client-cpu',
  'server-cpu-per-op',
  'memcached-cpu-per-op',
  'ops-per-busy-core',
];

/** The tables `onload-bench report` prints when no metric is asked for (the cookbook's). */
export const defaultMetrics = ['throughput', 'read-latency'];

/**
 * Every metric the run measured, in a stable order: throughput, then per operation (in the order
 * met) its average, minimum, maximum and each percentile YCSB printed, ascending.
 */
export function measuredMetrics(results: readonly CellResult[]): string[] {
  const operations = new Map<string, Set<string>>();
  for (const result of results) {
    for (const [name, stats] of Object.entries(result.run?.operations ?? {})) {
      const percentiles = operations.get(name) ?? new Set<string>();
      for (const percentile of Object.keys(stats.percentilesUs)) percentiles.add(percentile);
      operations.set(name, percentiles);
    }
  }
  const metrics = ['throughput'];
  for (const [name, percentiles] of operations) {
    const id = name.toLowerCase();
    if (!/^[a-z][a-z0-9_-]*$/.test(id)) continue;
    metrics.push(
      `${id}-latency`,
      `${id}-min`,
      `${id}-max`,
      ...[...percentiles]
        .filter((p) => Number.isFinite(Number(p)))
        .sort((a, b) => Number(a) - Number(b))
        .map((p) => `${id}-p${Number(p)}`),
    );
  }
  // CPU figures from the cells' evidence (evidenceMetrics.ts), when the run sampled them.
  metrics.push(...measuredEvidenceMetrics(results));
  return metrics;
}

/** Where a combined percentile came from (model.ts OperationStats.percentilesSource); `mixed` across repetitions. */
export type PercentilesSource = 'hdr-merged' | 'client-max' | 'mixed';

interface MetricReader extends MetricDefinition {
  read(result: CellResult): number | undefined;
  /** Percentile metrics: where the cell's percentile came from (absent: YCSB's own numbers). */
  source?(result: CellResult): 'hdr-merged' | 'client-max' | undefined;
}

/** A reader of the cell's combined run report. */
function fromRun(read: (report: YcsbReport) => number | undefined): (result: CellResult) => number | undefined {
  return (result) => (result.run ? read(result.run) : undefined);
}

/** Resolves a metric name; undefined when it names nothing. */
export function metricDefinition(id: string): MetricDefinition | undefined {
  const reader = metricReader(id);
  if (!reader) return undefined;
  const { read: _read, ...definition } = reader;
  return definition;
}

function metricReader(id: string): MetricReader | undefined {
  const name = id.trim().toLowerCase();
  if (name === 'throughput') {
    return {
      id: name,
      title: 'Throughput',
      unit: 'ops/s',
      higherIsBetter: true,
      read: fromRun((report) => report.throughputOpsPerSec),
    };
  }
  const cpu = evidenceMetric(name);
  if (cpu) return { ...cpu };
  const match = /^([a-z][a-z0-9_-]*?)-(latency|avg|min|max|p(\d+(?:\.\d+)?))$/.exec(name);
  if (!match) return undefined;
  const operation = match[1].toUpperCase();
  const pretty = operation.charAt(0) + operation.slice(1).toLowerCase();
  const base = { id: name, unit: 'µs', higherIsBetter: false };
  if (match[2] === 'latency' || match[2] === 'avg') {
    return {
      ...base,
      title: `${pretty} average latency`,
      read: fromRun((report) => report.operations[operation]?.averageUs),
    };
  }
  if (match[2] === 'min')
    return {
      ...base,
      title: `${pretty} minimum latency`,
      read: fromRun((report) => report.operations[operation]?.minUs),
    };
  if (match[2] === 'max')
    return {
      ...base,
      title: `${pretty} maximum latency`,
      read: fromRun((report) => report.operations[operation]?.maxUs),
    };
  const percentile = String(Number(match[3]));
  return {
    ...base,
    title: `${pretty} p${percentile} latency`,
    read: fromRun((report) => report.operations[operation]?.percentilesUs[percentile]),
    source: (result) => result.run?.operations[operation]?.percentilesSource,
  };
}

/** How one stack did at one thread count of one group. */
/** One mark code over the repetitions of a table cell. */
export interface MarkSummary {
  code: string;
  /** The distinct messages, in the order met. */
  messages: string[];
  /** Repetitions (that ran) carrying this mark. */
  repetitions: number;
  /** Hosts named by the marks, if any. */
  hosts: string[];
}

export type StackCellState = 'ok' | 'marked' | 'failed' | 'pending' | 'no-data';

export interface StackCell {
  stack: string;
  /** `marked`: every repetition that gave a value carries a mark; the value is shown, never an improvement. */
  state: StackCellState;
  /** Median of the repetitions that count (absent unless state is ok or marked). */
  value?: number;
  min?: number;
  max?: number;
  /** Repetitions in the median. */
  repetitions: number;
  /** The counted repetitions' values (what the median and the statistics are computed from). */
  values: number[];
  /** Repetitions that have a result (ok or failed). */
  finished: number;
  /** Repetitions planned (from the manifest; the finished count without one). */
  planned: number;
  failed: number;
  /** Repetitions that ran and carry at least one mark. */
  marked: number;
  /** Marked repetitions left out of the median because unmarked ones exist. */
  markedLeftOut: number;
  /** Every mark of the repetitions that ran, by code. */
  marks: MarkSummary[];
  /** The cells behind this entry, for drill-down (logs, errors). */
  cellIds: string[];
  /**
   * Percentile metrics: where the counted repetitions' percentiles came from; `client-max` is an
   * upper bound (the worst client's), `hdr-merged` the true combined percentile. Absent: YCSB's own.
   */
  percentilesSource?: PercentilesSource;
}

/**
 * Its percentile is only an upper bound: some counted repetition's came from the worst client (no HDR logs to merge).
 */
export function isUpperBound(cell: StackCell): boolean {
  return cell.percentilesSource === 'client-max' || cell.percentilesSource === 'mixed';
}

/** Its min–max spread says something: 2+ repetitions count and they differ. */
export function hasSpread(cell: StackCell): boolean {
  return cell.repetitions > 1 && cell.min !== cell.max;
}

/** One profile against the kernel in one row. */
export interface StackComparison {
  stack: string;
  /** (mean profile - mean kernel) / mean kernel * 100; absent when either side has no value. */
  percent?: number;
  /** The difference with its 95 % interval and verdict (statistics.ts); absent when `percent` is. */
  difference?: Difference;
  /** The interval excludes 0 % (false without an interval, e.g. a single repetition). */
  significant: boolean;
  /** The change goes the better way for this metric (more throughput, less latency), neither side marked. */
  improvement: boolean;
  /** Either side is marked: the difference is shown but proves nothing. */
  marked?: boolean;
  /** The largest improvement of this profile in this group. */
  best: boolean;
}

export interface ReportRow {
  /** The row's thread count: its x when the table is drawn against threads, else the held value. */
  threads: number;
  /** The row's value of the table's x axis (`ReportTable.xAxis`): threads by default. */
  x: number | string;
  /** One per stack of the table, in `ReportTable.stacks` order. */
  cells: StackCell[];
  /** One per profile (every stack but the kernel), in `ReportTable.profiles` order. */
  comparisons: StackComparison[];
}

export interface ReportGroup {
  interface: string;
  address?: string;
  /** Further sweep axes (YCSB property -> value). */
  axes: Record<string, string | number>;
  /** The cluster size every row shares, when the run sweeps sizes and they are not the x axis. */
  clusterSize?: number;
  /** The thread count every row shares, when threads are not the x axis. */
  threads?: number;
  /** e.g. `25G (10.20.128.35), 3 nodes, fieldlength=1024`. */
  title: string;
  rows: ReportRow[];
}

export interface BestImprovement {
  group: string;
  threads: number;
  /** The point's value of the table's x axis (threads by default). */
  x: number | string;
  stack: string;
  percent: number;
}

export interface ReportTable {
  metric: MetricDefinition;
  /** What the rows are (x): YCSB threads unless asked otherwise (axes.ts). */
  xAxis: AxisInfo;
  /** Kernel first (when present), then the profiles in the order the run met them. */
  stacks: string[];
  profiles: string[];
  /** Whether there is a kernel baseline to compare with. */
  hasBaseline: boolean;
  groups: ReportGroup[];
  /** The largest improvements anywhere in the table, best first (at most 5). */
  bestImprovements: BestImprovement[];
  /** Comparisons that could be tested (an interval exists), and how many of them are significant. */
  tested: number;
  significantCount: number;
}

export interface ReportInput {
  results: readonly CellResult[];
  manifest?: RunManifest;
}

/** Builds one table per metric; throws nothing, unknown metric ids are reported by the caller via metricDefinition. */
export function buildReportTables(
  input: ReportInput,
  metricIds: readonly string[] = defaultMetrics,
  xAxis: AxisId = 'threads',
): ReportTable[] {
  return metricIds.flatMap((id) => {
    const table = buildReportTable(input, id, xAxis);
    return table ? [table] : [];
  });
}

/**
 * Builds the table of one metric; undefined when the metric id is unknown. Rows are the values of
 * `xAxis` (threads by default); every other swept axis (cluster size, threads, YCSB properties) is
 * held within a group, so each group is one line of the chart per stack.
 */
export function buildReportTable(
  input: ReportInput,
  metricId: string,
  xAxis: AxisId = 'threads',
): ReportTable | undefined {
  const reader = metricReader(metricId);
  if (!reader) return undefined;
  const { read, source, ...metric } = reader;

  // Every cell key we know of: planned ones first (so pending cells show), then any extra results.
  const keys: CellKey[] = [
    ...(input.manifest?.cells.map((cell) => cell.key) ?? []),
    ...input.results.map((result) => result.key),
  ];
  const plannedKeys = input.manifest?.cells.map((cell) => cell.key);

  const stacks = unique(keys.map((key) => key.stack)).sort(
    (a, b) => Number(b === baselineStack) - Number(a === baselineStack),
  );
  const hasBaseline = stacks.includes(baselineStack);
  const profiles = stacks.filter((stack) => stack !== baselineStack);

  const groupId = (key: CellKey) => heldId(key, xAxis);
  const groupKeys = new Map<string, { key: CellKey; xs: Set<number | string> }>();
  for (const key of keys) {
    const x = axisValue(key, xAxis);
    if (x === undefined) continue;
    const id = groupId(key);
    const group = groupKeys.get(id) ?? { key, xs: new Set<number | string>() };
    group.xs.add(x);
    groupKeys.set(id, group);
  }
  // Index once (the panel rebuilds every table on each finished cell of a sweep of thousands).
  const slot = (key: CellKey, id = groupId(key)) => JSON.stringify([id, axisValue(key, xAxis), key.stack]);
  const resultsBySlot = new Map<string, CellResult[]>();
  for (const result of input.results) {
    const id = slot(result.key);
    const list = resultsBySlot.get(id);
    if (list) list.push(result);
    else resultsBySlot.set(id, [result]);
  }
  const plannedBySlot = new Map<string, Set<number>>();
  for (const key of plannedKeys ?? []) {
    const id = slot(key);
    const repetitions = plannedBySlot.get(id) ?? new Set<number>();
    repetitions.add(key.repetition);
    plannedBySlot.set(id, repetitions);
  }

  const groups: ReportGroup[] = [];
  for (const [id, { key, xs }] of groupKeys) {
    const held = heldAxes(key, xAxis);
    const group: ReportGroup = { interface: key.interface, axes: held.axes, title: groupTitle(key, xAxis), rows: [] };
    if (key.address) group.address = key.address;
    if (held.clusterSize !== undefined) group.clusterSize = held.clusterSize;
    if (held.threads !== undefined) group.threads = held.threads;
    for (const x of sortAxisValues([...xs])) {
      const at = withAxisValue(key, xAxis, x);
      const cells = stacks.map((stack) => {
        const where = slot({ ...at, stack }, id);
        const planned = plannedKeys ? (plannedBySlot.get(where)?.size ?? 0) : undefined;
        return stackCell(stack, resultsBySlot.get(where) ?? [], planned, read, source);
      });
      const kernel = hasBaseline ? cells[0] : undefined;
      const comparisons = profiles.map((stack) =>
        compare(stack, kernel, cells[stacks.indexOf(stack)], metric.higherIsBetter),
      );
      group.rows.push({ threads: at.threads, x, cells, comparisons });
    }
    profiles.forEach((_, column) => markBest(group.rows.map((row) => row.comparisons[column])));
    groups.push(group);
  }

  const { bestImprovements, tested, significantCount } = summaryOf(groups);

  return {
    metric,
    xAxis: axisInfo(xAxis),
    stacks,
    profiles,
    hasBaseline,
    groups,
    bestImprovements,
    tested,
    significantCount,
  };
}

/** The five largest improvements of a table, and how many of its comparisons were tested and significant. */
function summaryOf(
  groups: readonly ReportGroup[],
): Pick<ReportTable, 'bestImprovements' | 'tested' | 'significantCount'> {
  const bestImprovements = groups
    .flatMap((group) =>
      group.rows.flatMap((row) =>
        row.comparisons
          .filter((comparison) => comparison.improvement)
          .map((comparison) => ({
            group: group.title,
            threads: row.threads,
            x: row.x,
            stack: comparison.stack,
            percent: comparison.percent!,
          })),
      ),
    )
    .sort((a, b) => Math.abs(b.percent) - Math.abs(a.percent))
    .slice(0, 5);
  const all = groups.flatMap((group) => group.rows.flatMap((row) => row.comparisons));
  const tested = all.filter((comparison) => comparison.difference?.interval !== undefined).length;
  const significantCount = all.filter((comparison) => comparison.significant).length;
  return { bestImprovements, tested, significantCount };
}

function stackCell(
  stack: string,
  results: CellResult[],
  planned: number | undefined,
  read: (result: CellResult) => number | undefined,
  source?: (result: CellResult) => 'hdr-merged' | 'client-max' | undefined,
): StackCell {
  const finished = unique(results.map((result) => result.key.repetition)).length;
  const cell: StackCell = {
    stack,
    state: 'pending',
    repetitions: 0,
    values: [],
    finished,
    planned: Math.max(planned ?? finished, finished),
    failed: 0,
    marked: 0,
    markedLeftOut: 0,
    marks: [],
    cellIds: results.map((result) => result.id),
  };
  const clean: number[] = [];
  const marked: number[] = [];
  const cleanSources: (string | undefined)[] = [];
  const markedSources: (string | undefined)[] = [];
  for (const result of results) {
    if (result.status === 'failed') {
      cell.failed += 1;
      continue;
    }
    const marks = cellMarks(result);
    // notes (busy-polling) are shown with the cell but do not make it doubtful
    const doubtful = doubtingMarks(result).length > 0;
    if (doubtful) cell.marked += 1;
    addMarkSummaries(cell.marks, marks);
    const value = read(result);
    if (value === undefined || !Number.isFinite(value)) continue;
    (doubtful ? marked : clean).push(value);
    (doubtful ? markedSources : cleanSources).push(source?.(result));
  }
  const counted = clean.length > 0 ? clean : marked;
  const summary = summariseRepetitions(counted);
  if (summary) {
    cell.state = clean.length > 0 ? 'ok' : 'marked';
    cell.value = summary.median;
    cell.min = summary.min;
    cell.max = summary.max;
    cell.repetitions = summary.count;
    cell.values = counted;
    if (clean.length > 0) cell.markedLeftOut = marked.length;
    const sources = unique(clean.length > 0 ? cleanSources : markedSources).filter((value) => value !== undefined);
    if (sources.length === 1) cell.percentilesSource = sources[0] as PercentilesSource;
    else if (sources.length > 1) cell.percentilesSource = 'mixed';
  } else if (finished > 0) {
    cell.state = cell.failed === results.length ? 'failed' : 'no-data';
  }
  return cell;
}

function addMarkSummaries(
  summaries: MarkSummary[],
  marks: readonly { code: string; message: string; host?: string }[],
): void {
  const seen = new Set<string>();
  for (const mark of marks) {
    let summary = summaries.find((candidate) => candidate.code === mark.code);
    if (!summary) summaries.push((summary = { code: mark.code, messages: [], repetitions: 0, hosts: [] }));
    if (!seen.has(mark.code)) summary.repetitions += 1;
    seen.add(mark.code);
    if (!summary.messages.includes(mark.message)) summary.messages.push(mark.message);
    if (mark.host !== undefined && !summary.hosts.includes(mark.host)) summary.hosts.push(mark.host);
  }
}

function compare(
  stack: string,
  kernel: StackCell | undefined,
  profile: StackCell,
  higherIsBetter: boolean,
): StackComparison {
  const comparison: StackComparison = { stack, significant: false, improvement: false, best: false };
  const hasValue = (cell: StackCell) => (cell.state === 'ok' || cell.state === 'marked') && cell.values.length > 0;
  if (!kernel || !hasValue(kernel) || !hasValue(profile)) return comparison;
  const difference = compareSamples(kernel.values, profile.values);
  if (!Number.isFinite(difference.percent)) return comparison;
  comparison.difference = difference;
  comparison.percent = difference.percent;
  comparison.significant = difference.significant;
  // A marked side may not measure what its key says (e.g. a not-accelerated "Onload" cell is the
  // kernel again): the difference is shown, flagged, and is no improvement.
  if (kernel.state === 'marked' || profile.state === 'marked') comparison.marked = true;
  // Noise is never an improvement: the interval must exclude 0 % on the better side.
  comparison.improvement =
    !comparison.marked && comparison.significant && (higherIsBetter ? comparison.percent > 0 : comparison.percent < 0);
  return comparison;
}

function markBest(column: StackComparison[]): void {
  let best: StackComparison | undefined;
  for (const comparison of column) {
    if (!comparison.improvement) continue;
    if (!best || Math.abs(comparison.percent!) > Math.abs(best.percent!)) best = comparison;
  }
  if (best) best.best = true;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

// ---------------------------------------------------------------------------------------------
// Text rendering for the terminal

/** A figure as the tables show it: throughput in whole ops/s, latencies to 0.1 µs. */
function formatValue(value: number, unit: string): string {
  return unit === 'ops/s' ? String(Math.round(value)) : value.toFixed(1);
}

function formatPercent(percent: number): string {
  const rounded = Math.round(percent * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${rounded.toFixed(1)}%`;
}

function cellText(cell: StackCell, unit: string): string {
  switch (cell.state) {
    case 'pending':
      return 'pending';
    case 'failed':
      return 'FAILED';
    case 'no-data':
      return 'n/a';
    default: {
      let text = formatValue(cell.value!, unit);
      if (hasSpread(cell)) text += ` [${formatValue(cell.min!, unit)}-${formatValue(cell.max!, unit)}]`;
      if (isUpperBound(cell)) text += ' ^';
      if (cell.state === 'marked') text += ' !';
      if (cell.markedLeftOut > 0) text += ` (${cell.markedLeftOut} marked left out)`;
      if (cell.failed > 0) text += ` (${cell.failed}/${cell.finished} failed)`;
      if (cell.finished < cell.planned) text += ` (${cell.finished}/${cell.planned} done)`;
      return text;
    }
  }
}

function comparisonText(comparison: StackComparison): string {
  if (comparison.difference === undefined) return '-';
  return `${formatDifference(comparison.difference)}${comparison.best ? ' *' : ''}${comparison.marked ? ' !' : ''}`;
}

/**
 * Renders one table as plain text, one block per group: numbers right-aligned, notes after them; stacks named as
 * stacks.
 */
export function renderReportTable(table: ReportTable, displayNames: StackDisplayNames = {}): string {
  const { metric } = table;
  const lines: string[] = [`${metric.title} (${metric.unit}, ${metric.higherIsBetter ? 'higher' : 'lower'} is better)`];
  const label = (stack: string) => stackLabel(stack, displayNames);
  const header = [
    table.xAxis.column,
    ...table.stacks.map(label),
    ...(table.hasBaseline ? table.profiles.map((stack) => `${label(stack)} vs ${label(baselineStack)}`) : []),
  ];
  for (const group of table.groups) {
    const rows = group.rows.map((row) => [
      String(row.x),
      ...row.cells.map((cell) => cellText(cell, metric.unit)),
      ...(table.hasBaseline ? row.comparisons.map(comparisonText) : []),
    ]);
    lines.push('', group.title, ...alignColumns(header, rows));
  }
  if (table.hasBaseline && table.profiles.length > 0) {
    lines.push(
      '',
      table.tested === 0
        ? 'No difference has an interval: every point needs at least two repetitions of each stack (plan: repetitions).'
        : `${table.significantCount} of ${table.tested} differences with an interval are significant at 95 %; about 1 in 20 differences that are not real reads as significant by chance.`,
    );
  }
  if (table.bestImprovements.length > 0) {
    lines.push('', 'Best improvements:');
    for (const best of table.bestImprovements)
      lines.push(
        `  ${formatPercent(best.percent)}  ${label(best.stack)} at ${axisPointText(table.xAxis.id, best.x)}, ${best.group}`,
      );
  } else if (table.hasBaseline && table.profiles.length > 0) {
    lines.push('', 'No significant improvement over the kernel stack so far.');
  }
  const notes = cpuTableNotes(table);
  if (notes.length > 0) lines.push('', ...notes);
  return lines.join('\n');
}

/**
 * Lines of a table whose columns line up on the numbers: each cell's leading number (`10500`,
 * `+21.9 %`) is right-aligned within its column, what follows it (spread, notes) is left-aligned
 * after it; headers sit right-aligned over the numbers when they fit. Pure.
 */
export function alignColumns(header: readonly string[], rows: readonly string[][]): string[] {
  const split = (text: string): [string, string] => {
    const match = /^([+-]?\d[\d.,]*(?: %)?)(.*)$/.exec(text);
    return match ? [match[1], match[2]] : [text, ''];
  };
  const cells = rows.map((row) => row.map(split));
  const layout = header.map((title, column) => {
    const headWidth = Math.max(0, ...cells.map((row) => row[column][0].length));
    const tailWidth = Math.max(0, ...cells.map((row) => row[column][1].length));
    const width = Math.max(title.length, headWidth + tailWidth);
    return { width, numberEnd: width - tailWidth };
  });
  const line = (parts: string[]) => parts.join('  ').trimEnd();
  const title = line(
    header.map((text, column) => {
      const { width, numberEnd } = layout[column];
      return text.length <= numberEnd ? text.padStart(numberEnd).padEnd(width) : text.padEnd(width);
    }),
  );
  return [
    title,
    ...cells.map((row) =>
      line(
        row.map(([head, tail], column) =>
          (head.padStart(layout[column].numberEnd) + tail).padEnd(layout[column].width),
        ),
      ),
    ),
  ];
}

const legendEntries: { text: string; used: (text: string, tables: readonly ReportTable[]) => boolean }[] = [
  {
    text: 'Values are medians of the repetitions, [min-max] their spread.',
    used: (text) => /\[[^\]]+-[^\]]+\]/.test(text),
  },
  {
    text: 'Values are medians of the repetitions.',
    used: (text, tables) =>
      !/\[[^\]]+-[^\]]+\]/.test(text) &&
      tables.some((table) =>
        table.groups.some((group) => group.rows.some((row) => row.cells.some((cell) => cell.repetitions > 1))),
      ),
  },
  {
    text: 'vs kernel: difference of the means in percent, (±) half its 95 % confidence interval (Welch / Fieller); "not significant": the interval includes 0 %.',
    used: (_, tables) =>
      tables.some((table) =>
        table.groups.some((group) =>
          group.rows.some((row) => row.comparisons.some((comparison) => comparison.difference !== undefined)),
        ),
      ),
  },
  {
    text: '*  best significant improvement of the profile in its group',
    used: (_, tables) =>
      tables.some((table) =>
        table.groups.some((group) => group.rows.some((row) => row.comparisons.some((comparison) => comparison.best))),
      ),
  },
  {
    text: '^  percentile is an upper bound (max of clients): no HDR logs to merge for every repetition',
    used: (text) => / \^(\s|$)/m.test(text),
  },
  {
    text: '!  marked: every repetition carries a mark (not accelerated, wrong NIC, client-bound...; see Marked cells): shown, never an improvement',
    used: (text) => / !(\s|$)/m.test(text),
  },
  {
    text: '(N marked left out)  repetitions with marks are not in the median when unmarked ones exist',
    used: (text) => / marked left out\)/.test(text),
  },
  { text: 'FAILED  every repetition failed', used: (text) => /(^|\s)FAILED(\s|$)/m.test(text) },
  { text: 'n/a  the runs did not measure this', used: (text) => /(^|\s)n\/a(\s|$)/m.test(text) },
  { text: 'pending  not run yet', used: (text) => /(^|\s)pending(\s|$)/m.test(text) },
];

/** Every legend entry (the HTML report explains all its marks in one place). */
export const reportLegend = legendEntries
  .filter((_, index) => index !== 1)
  .map((entry) => entry.text)
  .join('\n');

/** Only the legend entries the rendered tables use. */
function renderLegend(tablesText: string, tables: readonly ReportTable[]): string {
  return legendEntries
    .filter((entry) => entry.used(tablesText, tables))
    .map((entry) => entry.text)
    .join('\n');
}

/** The failed cells with their errors, one line each, in results order. */
function renderFailures(results: readonly CellResult[]): string {
  const failed = results.filter((result) => result.status === 'failed');
  if (failed.length === 0) return '';
  const lines = [`Failed cells (${failed.length}):`];
  for (const result of failed) {
    const { key, error } = result;
    const where = cellName(key);
    const why = error
      ? `[${error.code}] ${error.host ? `${error.host}: ` : ''}${error.step}: ${error.message} Next: ${error.action}`
      : 'no error recorded';
    lines.push(`  ${where}: ${why}`);
  }
  return lines.join('\n');
}

/**
 * The marks of the cells that ran, one line per table cell and mark: which repetitions carry it
 * and why (the mark's own words), in results order.
 */
function renderMarks(results: readonly CellResult[]): string {
  const entries = new Map<
    string,
    { where: string; code: string; message: string; repetitions: number[]; hosts: Set<string> }
  >();
  for (const result of results) {
    if (result.status === 'failed') continue;
    const { key } = result;
    const where = pointName(key);
    for (const mark of cellMarks(result)) {
      const id = JSON.stringify([where, mark.code, mark.message]);
      const entry = entries.get(id) ?? {
        where,
        code: mark.code,
        message: mark.message,
        repetitions: [],
        hosts: new Set<string>(),
      };
      if (!entry.repetitions.includes(key.repetition)) entry.repetitions.push(key.repetition);
      if (mark.host) entry.hosts.add(mark.host);
      entries.set(id, entry);
    }
  }
  if (entries.size === 0) return '';
  const lines = [`Marked cells (${entries.size}):`];
  for (const entry of entries.values()) {
    const repetitions = entry.repetitions.sort((a, b) => a - b);
    const hosts = entry.hosts.size > 0 ? `${[...entry.hosts].join(', ')}: ` : '';
    lines.push(
      `  ${entry.where}, repetition${repetitions.length === 1 ? '' : 's'} ${repetitions.join(', ')}: [${entry.code}] ${hosts}${entry.message}`,
    );
  }
  return lines.join('\n');
}

/** How each cell's acceleration and interface were proven, or why not (evidence/cellProofs.ts), per server. */
function renderProofs(results: readonly CellResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    if (result.status === 'failed') continue;
    const { key } = result;
    for (const proof of cellProofs(result)) {
      lines.push(`  ${cellName(key)}, ${proof.host}:`);
      lines.push(`    acceleration: ${proof.acceleration}`);
      lines.push(`    interface: ${proof.interface}`);
      lines.push(`    ${proof.memcached}`);
    }
    const cluster = clusterProof(result);
    if (cluster) {
      lines.push(`  ${cellName(key)}, cluster:`);
      lines.push(`    formed: ${cluster.formed}`);
      lines.push(`    replicas: ${cluster.replicas}`);
      for (const node of cluster.nodes)
        lines.push(`    ${node.node} [${node.services}]: vBuckets ${node.vBuckets}; items ${node.items}`);
    }
  }
  return lines.length > 0 ? ['How each cell was proven:', ...lines].join('\n') : '';
}

/**
 * The per-thread CPU view (evidence/busiestThreads.ts): per cell that recorded threads, what its CPU
 * figures cover, then each host's busiest threads of memcached or the YCSB JVM.
 */
function renderThreads(results: readonly CellResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    if (result.status === 'failed') continue;
    const views = busiestThreads(result);
    if (views.length === 0) continue;
    const { key } = result;
    const window = cpuWindowText(result.evidence?.cpu?.window);
    lines.push(`  ${cellName(key)}${window ? `, ${window}` : ''}:`);
    for (const view of views) lines.push(`    ${view.host} (${view.role}) ${view.process}: ${hostThreadsText(view)}`);
  }
  return lines.length > 0
    ? [
        'Busiest threads (% of one CPU over the measured window, /proc/PID/task/TID/stat; names from comm):',
        ...lines,
      ].join('\n')
    : '';
}

/** All tables, the legend, the marked and the failed cells, as the terminal shows them. */
export function renderReport(
  tables: readonly ReportTable[],
  results: readonly CellResult[] = [],
  environment?: RunEnvironment,
  displayNames: StackDisplayNames = {},
): string {
  const marks = renderMarks(results);
  const proofs = renderProofs(results);
  const threads = renderThreads(results);
  const failures = renderFailures(results);
  const hosts = environment ? renderEnvironment(environment) : '';
  const rendered = tables.map((table) => renderReportTable(table, displayNames));
  const legend = renderLegend(rendered.join('\n'), tables);
  return (
    [
      ...rendered,
      ...(legend ? [legend] : []),
      ...(marks ? [marks] : []),
      ...(proofs ? [proofs] : []),
      ...(threads ? [threads] : []),
      ...(failures ? [failures] : []),
      ...(hosts ? [hosts] : []),
    ].join('\n\n') + '\n'
  );
}

/** What each host ran: versions, CPU, NUMA, governor, and the tested NICs' NUMA node and IRQs. */
function renderEnvironment(environment: RunEnvironment): string {
  const hosts = Object.entries(environment.hosts ?? {});
  if (hosts.length === 0) return '';
  const lines = ['Environment:'];
  for (const [host, env] of hosts) {
    lines.push(`  ${host} (${env.role})`);
    for (const fact of environmentFacts(env)) lines.push(`    ${fact.label}: ${fact.value}`);
  }
  return lines.join('\n');
}

/** Label/value lines of one host, in the order the panel and the text report show them. */
export function environmentFacts(env: HostEnvironment): { label: string; value: string }[] {
  const facts: { label: string; value: string }[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value) facts.push({ label, value });
  };
  add('Kernel', env.kernel);
  add('Couchbase', env.couchbase);
  add('YCSB', env.ycsb);
  add('Java', env.java);
  add('Onload', env.onload);
  for (const [address, nic] of Object.entries(env.interfaces ?? {})) {
    const parts = [nic.device, nic.driver, nic.firmware && `firmware ${nic.firmware}`].filter(Boolean);
    add(`Interface ${address}`, parts.join(', ') || 'unknown');
  }
  facts.push(...hardwareFactsText(env));
  return facts;
}
