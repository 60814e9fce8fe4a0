// The panel's view of evidence: CPU charts against threads, latency percentile spectra
// per point (the arms overlaid), the legend of the marks met, and one point's time series on
// demand. Built from the engine's report tables and evidence views, so the panel, the CLI and the
// HTML report agree. Pure.
import {
  buildReportTable,
  busiestThreads,
  busyPollingNote,
  type CellKey,
  cellMarks,
  cellProofs,
  type CellResult,
  cellTimeSeries,
  clusterProof,
  cpuWindowText,
  evidenceMetrics,
  markLabel,
  markLegend,
  ninesTicks,
  percentileToNines,
  pointSpectra,
  type ReportGroup,
  type ReportInput,
  type ReportTable,
  spectrumOperations,
  thinByX as thin,
} from '../../../engine/src/report/index';
import { chartSeries, unitOf } from './comparisonTables';
import type {
  CellTimeSeriesView,
  ChartModel,
  CpuMetricId,
  MarkLegendView,
  SpectrumView,
  TimeSeriesView,
} from './protocol';
import { type RunData } from './runData';
import { cellName } from '../../../engine/src/report/index';

/** The CPU charts of a group, in order: utilisation, then cost per operation. */
export const cpuChartMetrics: readonly CpuMetricId[] = [
  'server-cpu',
  'client-cpu',
  'server-cpu-per-op',
  'ops-per-busy-core',
];

/** The CPU tables of a run (one per metric that any cell measured); empty without CPU evidence. */
export function cpuTables(input: ReportInput): ReportTable[] {
  const measured = new Set(
    evidenceMetrics
      .filter((metric) => input.results.some((result) => result.status === 'ok' && metric.read(result) !== undefined))
      .map((metric) => metric.id),
  );
  return cpuChartMetrics.filter((id) => measured.has(id)).map((id) => buildReportTable(input, id)!);
}

/** The group's CPU charts from the run's CPU tables (same groups, same order as the other tables). */
export function cpuCharts(tables: readonly ReportTable[], groupIndex: number, groupId: string): ChartModel[] {
  return tables.flatMap((table) => {
    const group = table.groups[groupIndex];
    if (!group) return [];
    const series = chartSeries(table, group);
    if (!series.some((entry) => entry.points.some((point) => point.median !== null || point.markedValue != null)))
      return [];
    const note = busyPollingNote({ metric: table.metric, groups: [group] });
    return [
      {
        id: `${groupId}-${table.metric.id}`,
        metric: table.metric.id as CpuMetricId,
        title: table.metric.title,
        unit: unitOf(table),
        displayUnit: unitOf(table),
        threads: group.rows.map((row) => row.threads),
        series,
        ...(note ? { note } : {}),
      },
    ];
  });
}

/** A chart's caveat: percentiles that are upper bounds (the worst client's) say so. */
export function percentileNote(chart: ChartModel): string | undefined {
  const bounded = chart.series.flatMap((series) =>
    series.points
      .filter((point) => point.percentilesSource === 'client-max' || point.percentilesSource === 'mixed')
      .map((point) => `${series.stack} at ${point.threads} threads`),
  );
  return bounded.length > 0 ? `Upper bound (max of clients), no HDR logs to merge: ${bounded.join(', ')}.` : undefined;
}

function inGroup(key: CellKey, group: ReportGroup): boolean {
  return (
    key.interface === group.interface &&
    (key.address ?? '') === (group.address ?? '') &&
    (key.clusterSize ?? null) === (group.clusterSize ?? null) &&
    JSON.stringify(Object.entries(key.axes ?? {}).sort()) === JSON.stringify(Object.entries(group.axes).sort())
  );
}

/** Every point (threads) and operation of a group that has a spectrum for at least one stack. */
export function groupSpectra(
  results: readonly CellResult[],
  group: ReportGroup,
  stacks: readonly string[],
  groupId: string,
): SpectrumView[] {
  const groupResults = results.filter((result) => result.status === 'ok' && inGroup(result.key, group));
  const operations = spectrumOperations(groupResults);
  const views: SpectrumView[] = [];
  for (const row of group.rows) {
    const atThreads = groupResults.filter((result) => result.key.threads === row.threads);
    const key = atThreads[0]?.key;
    if (!key) continue;
    for (const operation of operations) {
      const spectra = pointSpectra(atThreads, key, stacks, operation);
      if (spectra.length === 0) continue;
      const series = spectra.map((spectrum) => ({
        stack: spectrum.stack,
        repetition: spectrum.repetition,
        source: spectrum.source,
        marked: spectrum.marked,
        points: thin(
          spectrum.points.map((point) => ({
            x: percentileToNines(point.percentile),
            percentile: point.percentile,
            valueUs: point.valueUs,
          })),
        ),
      }));
      const highest = Math.max(...series.flatMap((entry) => entry.points.map((point) => point.x)));
      const safeOperation = operation.replace(/[^A-Za-z0-9_-]/g, '_');
      views.push({
        id: `${groupId}-spectrum-t${row.threads}-${safeOperation}`,
        threads: row.threads,
        operation,
        series,
        ticks: ninesTicks(highest).map((tick) => ({ x: tick.position, label: tick.label })),
      });
    }
  }
  return views;
}

/** One legend entry per mark code met in the run, with how many cells carry it. */
export function runMarksLegend(results: readonly CellResult[]): MarkLegendView[] {
  const counts = new Map<string, number>();
  for (const result of results) {
    if (result.status !== 'ok') continue;
    for (const code of new Set(cellMarks(result).map((mark) => mark.code)))
      counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return markLegend(counts.keys()).map((entry) => ({ ...entry, cells: counts.get(entry.code) ?? 0 }));
}

/** The time-series view of the cells asked for (every repetition of one point of one stack). */
export function timeSeriesView(
  data: RunData,
  runIndex: number,
  request: { cellIds: readonly string[]; stack: string; threads: number; title: string },
): TimeSeriesView {
  const cells: CellTimeSeriesView[] = [];
  const missing: string[] = [];
  for (const id of request.cellIds) {
    const result = data.results.get(id);
    const series = result && result.status === 'ok' ? cellTimeSeries(result) : undefined;
    if (!result || !series) {
      missing.push(result ? cellName(result.key) : id);
      continue;
    }
    const view: CellTimeSeriesView = {
      cellId: id,
      repetition: result.key.repetition,
      throughput: series.throughput,
      latency: series.latency,
      cpu: series.cpu,
      marks: cellMarks(result).map((mark) => ({
        code: mark.code,
        label: markLabel(mark.code),
        message: mark.message,
        repetitions: 1,
      })),
    };
    if (series.warmupSec !== undefined) view.warmupSec = series.warmupSec;
    const window = cpuWindowText(result.evidence?.cpu?.window);
    if (window) view.cpuWindow = window;
    const threads = busiestThreads(result);
    if (threads.length > 0) view.threads = threads;
    const proofs = cellProofs(result);
    if (proofs.length > 0) view.proofs = proofs;
    const cluster = clusterProof(result);
    if (cluster) view.cluster = cluster;
    cells.push(view);
  }
  cells.sort((a, b) => a.repetition - b.repetition);
  return {
    runIndex,
    title: request.title,
    stack: request.stack,
    threads: request.threads,
    cellIds: [...request.cellIds],
    cells,
    missing,
  };
}
