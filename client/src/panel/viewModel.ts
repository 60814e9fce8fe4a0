// Turns what the panel knows about one or two runs into the model the webview draws. Pure: the
// same input always gives the same model, which is what the tests compare with the files.
import type { PreflightCheck } from '../../../engine/src/index';
import {
  bestSizeText,
  buildReportTable,
  buildScaling,
  buildVerdict,
  type CellResult,
  defaultMetrics,
  efficiencyText,
  environmentFacts,
  planCost,
  type ReportTable,
  type RunEnvironment,
  seriesPalette,
  stackDisplayNames,
  stackLabel,
  sweptAxes,
  threadsAxis,
} from '../../../engine/src/report/index';
import type {
  ChartGroup,
  ChartModel,
  EnvironmentRow,
  MetricId,
  PanelViewModel,
  PreflightCheckView,
  RunStatus,
  RunView,
  ScalingPanelView,
} from './protocol';
import { buildComparison } from './comparison';
import { chartSeries, comparisonTable, displayUnitOf, unitOf } from './comparisonTables';
import { cpuCharts, cpuTables, groupSpectra, percentileNote, runMarksLegend } from './evidenceModel';
import type { RunData } from './runData';

export const panelTitlePrefix = 'Onload Bench Results';

/** Every chart of a group, in order; the cookbook's tables are engine/src/report/report.ts defaultMetrics. */
export const chartMetrics: readonly MetricId[] = [
  'throughput',
  'read-latency',
  'read-p95',
  'read-p99',
  'update-latency',
  'update-p95',
  'update-p99',
];

/** Charts drawn even before any value exists, so a fresh run shows its frame at once. */
const alwaysDrawn: readonly MetricId[] = ['throughput', 'read-latency'];

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part.length > 0);
  return parts[parts.length - 1] ?? path;
}

export function runIdOf(data: RunData): string {
  return data.manifest?.runId ?? basename(data.runDir);
}

/** `…: run-1`; when comparing, run B against run A: `…: run-2 against run-1`. */
export function panelTitle(runIds: readonly string[]): string {
  if (runIds.length === 0) return panelTitlePrefix;
  if (runIds.length === 2) return `${panelTitlePrefix}: ${runIds[1]} against ${runIds[0]}`;
  return `${panelTitlePrefix}: ${runIds.join(', ')}`;
}

/** The tab's and the page's one title; a run whose folder was removed is not named as a run. */
export function modelTitle(runs: readonly RunData[]): string {
  if (runs.length === 1 && runs[0].removed) return `${panelTitlePrefix}: pre-flight failed, no run was created`;
  return panelTitle(runs.map(runIdOf));
}

function reportTables(data: RunData, xAxis = threadsAxis): ReportTable[] {
  const input = { results: [...data.results.values()], manifest: data.manifest };
  return chartMetrics.map((metric) => buildReportTable(input, metric, xAxis)!);
}

/**
 * The groups of charts and cookbook tables. Against threads (no `axisIndex`) with the CPU charts
 * and spectra; against another axis with ids of their own (`r0-a1-g0-...`) and only
 * the charts and tables, every other axis held in each group.
 */
function buildGroups(
  tables: readonly ReportTable[],
  runIndex: number,
  data?: RunData,
  axisIndex?: number,
): ChartGroup[] {
  const byThreads = axisIndex === undefined;
  const input = data && byThreads ? { results: [...data.results.values()], manifest: data.manifest } : undefined;
  const cpu = input ? cpuTables(input) : [];
  const xAxis = tables[0].xAxis;
  // Every table has the same groups in the same order (they come from the same cell keys).
  return tables[0].groups.map((group, groupIndex) => {
    const id = byThreads ? `r${runIndex}-g${groupIndex}` : `r${runIndex}-a${axisIndex}-g${groupIndex}`;
    const charts: ChartModel[] = [];
    for (const table of tables) {
      const metric = table.metric.id as MetricId;
      const metricGroup = table.groups[groupIndex];
      const series = chartSeries(table, metricGroup);
      // A latency chart of an operation the workload never ran (no UPDATE in workload c) is noise.
      const anyValue = series.some((s) => s.points.some((point) => point.median !== null));
      if (!anyValue && !alwaysDrawn.includes(metric)) continue;
      const chart: ChartModel = {
        id: `${id}-${metric}`,
        metric,
        title: table.metric.title,
        unit: unitOf(table),
        displayUnit: displayUnitOf([table]),
        threads: metricGroup.rows.map((row) => row.threads),
        series,
      };
      if (!byThreads) {
        chart.xAxis = { id: xAxis.id, title: xAxis.title };
        chart.xValues = metricGroup.rows.map((row) => row.x);
      }
      const note = percentileNote(chart);
      if (note) chart.note = note;
      charts.push(chart);
    }
    const cookbook = tables.filter((table) => defaultMetrics.includes(table.metric.id));
    return {
      id,
      interface: group.interface,
      address: group.address ?? '',
      axes: group.axes,
      label: group.title,
      charts,
      tables: cookbook
        .map((table) => comparisonTable(table, table.groups[groupIndex], `${id}-${table.metric.id}-table`))
        .filter((table) => table !== undefined),
      ...(input
        ? {
            cpuCharts: cpuCharts(cpu, groupIndex, id),
            spectra: groupSpectra(input.results, group, tables[0].stacks, id),
          }
        : {}),
    };
  });
}

function environmentRows(environment: RunEnvironment | undefined): EnvironmentRow[] {
  if (!environment) return [];
  return Object.entries(environment.hosts).map(([host, env]) => ({
    host,
    role: env.role,
    facts: environmentFacts(env),
  }));
}

/** Pre-flight check ids (engine/src/sweep/preflight.ts) in words. */
const checkLabels: Record<string, string> = {
  reachable: 'Host reachable over SSH',
  'couchbase-version': 'Couchbase Server installed',
  'onload-version': 'Onload installed',
  'interface-address': 'Interface address configured',
  'server-facts': 'Server facts',
  'client-facts': 'Client facts',
  'ycsb-version': 'YCSB installed',
  'java-version': 'Java installed',
  'bucket-quota': 'Bucket fits the memory quota',
  'couchbase-password': 'Couchbase password',
  'profile-lint': 'Onload profile checks',
  'workload-lint': 'Workload file checks',
  'results-writable': 'Results folder writable',
};

export function preflightCheckView(check: PreflightCheck): PreflightCheckView {
  const label = checkLabels[check.id] ?? check.id.charAt(0).toUpperCase() + check.id.slice(1).replace(/[-_]+/g, ' ');
  return {
    id: check.id,
    label,
    ...(check.host ? { host: check.host } : {}),
    ok: check.ok,
    blocking: check.blocking,
    detail: check.detail,
    ...(check.action ? { action: check.action } : {}),
  };
}

function scalingAndCost(data: RunData, runIndex: number): Pick<RunView, 'scaling' | 'cost'> {
  const scaling = scalingView(data, runIndex);
  const cost = planCost(data.manifest?.plan);
  return { ...(scaling ? { scaling } : {}), ...(cost ? { cost } : {}) };
}

/** Where the run is, from what the events and the files told (see RunStatus). */
export function runStatus(data: RunData): RunStatus {
  const { outcome } = data;
  if (outcome) {
    if (outcome.cancelled) return 'cancelled';
    if (outcome.error)
      return data.preflight?.checks.some((check) => !check.ok && check.blocking) || data.removed
        ? 'preflight-failed'
        : 'stopped';
    return 'finished';
  }
  if (data.preflight && !data.preflight.done && data.results.size === 0) return 'preflight';
  if (data.running || data.preflight) return 'running';
  const total = data.manifest?.cells.length ?? data.results.size;
  return total > 0 && data.results.size >= total ? 'finished' : 'incomplete';
}

/** The scaling view's model (engine/src/report/scaling.ts); undefined without 2+ cluster sizes. */
export function scalingView(data: RunData, runIndex: number): ScalingPanelView | undefined {
  const view = buildScaling({ results: [...data.results.values()], manifest: data.manifest });
  if (!view) return undefined;
  return {
    sizes: view.sizes,
    groups: view.groups.map((group, index) => ({
      id: `r${runIndex}-scaling-g${index}`,
      title: group.title,
      series: group.series.map((series) => ({
        stack: series.stack,
        points: series.points.map((point) => ({
          size: point.size,
          median: point.median ?? null,
          ideal: point.ideal ?? null,
          ofIdealPercent: point.ofIdealPercent ?? null,
          perNode: point.perNode ?? null,
          marked: point.marked,
        })),
        steps: series.steps.map((step) => ({
          from: step.from,
          to: step.to,
          efficiency: step.efficiency,
          text: efficiencyText(step),
        })),
        best: bestSizeText(series),
        bestSize: series.ranking[0]?.size ?? null,
      })),
    })),
  };
}

/** The axes and the groups against each axis but threads, when the run sweeps more than threads. */
function axisViews(data: RunData, runIndex: number): Pick<RunView, 'axes' | 'axisGroups'> {
  const keys = [
    ...(data.manifest?.cells.map((cell) => cell.key) ?? []),
    ...[...data.results.values()].map((result) => result.key),
  ];
  const axes = sweptAxes(keys);
  if (axes.length < 2) return {};
  const axisGroups: Record<string, ChartGroup[]> = {};
  axes.forEach((axis, index) => {
    if (axis.id !== threadsAxis) axisGroups[axis.id] = buildGroups(reportTables(data, axis.id), runIndex, data, index);
  });
  return { axes: axes.map((axis) => ({ id: axis.id, title: axis.title })), axisGroups };
}

export function buildRunView(data: RunData, runIndex: number): RunView {
  const tables = reportTables(data);
  const stacks = tables[0].stacks;
  const results: CellResult[] = [...data.results.values()];
  const warnings = [...data.warnings];
  const environment = data.manifest?.environment;
  const outcome = data.outcome;
  return {
    runDir: data.runDir,
    runId: runIdOf(data),
    createdAt: data.manifest?.createdAt ?? '',
    planPath: data.manifest?.planPath,
    stacks,
    progress: {
      total: data.manifest?.cells.length ?? results.length,
      finished: results.length,
      failed: results.filter((result) => result.status === 'failed').length,
      running: data.running ? { ...data.running } : undefined,
      outcome: outcome && {
        completed: outcome.completed,
        failed: outcome.failed,
        total: outcome.total,
        cancelled: outcome.cancelled,
        error: outcome.error && `${outcome.error.message} ${outcome.error.action}`.trim(),
      },
    },
    environment: environmentRows(environment),
    profiles: Object.entries(environment?.profiles ?? {}).map(([name, options]) => ({
      name,
      options: Object.entries(options).map(([option, value]) => ({ name: option, value })),
    })),
    groups: buildGroups(tables, runIndex, data),
    ...axisViews(data, runIndex),
    ...scalingAndCost(data, runIndex),
    // The same lines as `onload-bench report` and the HTML report: over the cookbook's metrics.
    verdict: buildVerdict(
      tables.filter((table) => defaultMetrics.includes(table.metric.id)),
      stackDisplayNames(data.manifest?.plan),
    ).map((line) => ({
      interface: line.interface,
      stack: line.stack,
      kind: line.kind,
      cue: line.cue,
      text: line.text,
    })),
    bestImprovements: tables
      .filter((table) => defaultMetrics.includes(table.metric.id) && table.bestImprovements.length > 0)
      .map((table) => ({
        metric: table.metric.id as MetricId,
        title: table.metric.title,
        items: table.bestImprovements.map((item) => ({ ...item })),
      })),
    warnings: data.removed ? [] : warnings,
    marksLegend: runMarksLegend(results),
    status: runStatus(data),
    ...(data.preflight
      ? { preflight: { checks: data.preflight.checks.map(preflightCheckView), done: data.preflight.done } }
      : {}),
    ...(outcome?.error
      ? {
          failure: {
            ...(outcome.error.host ? { host: outcome.error.host } : {}),
            step: outcome.error.step,
            message: outcome.error.message,
            action: outcome.error.action,
          },
        }
      : {}),
    ...(data.removed ? { removed: true } : {}),
  };
}

export function buildViewModel(runs: readonly RunData[]): PanelViewModel {
  const views = runs.map(buildRunView);
  if (views.length > 1) shareAxes(views);
  const model: PanelViewModel = {
    title: modelTitle(runs),
    runs: views,
    stackLabels: stackLabelsOf(runs, views),
    palette: [...seriesPalette],
  };
  if (runs.length === 2) model.comparison = buildComparison(runs[0], runs[1], chartMetrics);
  return model;
}

/** How each stack of the runs reads; when comparing, the later run's display name wins. */
function stackLabelsOf(runs: readonly RunData[], views: readonly RunView[]): Record<string, string> {
  const labels: Record<string, string> = {};
  runs.forEach((data, index) => {
    const names = stackDisplayNames(data.manifest?.plan);
    for (const stack of views[index].stacks) labels[stack] = stackLabel(stack, names);
  });
  return labels;
}

/** Side by side, the same chart of both runs gets the same y axis so heights compare at a glance. */
function shareAxes(views: RunView[]): void {
  const charts = views.flatMap((view) =>
    view.groups.flatMap((group) =>
      group.charts.map((chart) => ({ key: `${group.label}\u0000${chart.metric}`, chart })),
    ),
  );
  const maxima = new Map<string, number>();
  for (const { key, chart } of charts) {
    for (const series of chart.series)
      for (const point of series.points) {
        const top = point.max ?? point.median;
        if (top !== null) maxima.set(key, Math.max(maxima.get(key) ?? 0, top));
      }
  }
  // ... and the same unit: ms in one run means ms in both.
  const inMs = new Set(charts.filter(({ chart }) => chart.displayUnit === 'ms').map(({ key }) => key));
  for (const { key, chart } of charts) {
    const max = maxima.get(key);
    if (max !== undefined && max > 0) chart.sharedMax = max;
    if (inMs.has(key)) chart.displayUnit = 'ms';
  }
  for (const view of views)
    for (const group of view.groups)
      for (const table of group.tables) {
        if (inMs.has(`${group.label}\u0000${table.metric}`)) table.displayUnit = 'ms';
      }
}
