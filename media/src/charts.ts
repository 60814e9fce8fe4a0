// Chart.js drawing for the panel: only the pieces used are registered (tree-shaken), animations
// are off (live updates must not wobble and exported pixels must be exact), and the spread of the
// repetitions is a min-max band filled under each median line.
import {
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Title,
  Tooltip,
  type ChartConfiguration,
  type ChartDataset,
  type ChartOptions,
  type LegendItem,
} from 'chart.js';
import { pngOfChart, svgOfChart, type ExportSpec } from './chartExport.js';
import { errorBarsPlugin, type ErrorBar } from './errorBars.js';
import { formatDelta, formatValue, formatWithUnit, scaled, type DisplayUnit } from './format.js';
import type { ChartModel, SeriesPoint } from '../../client/src/panel/protocol.js';
import { stackText } from './stackNames.js';
import { withAlpha, type ThemeColours } from './theme.js';

Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip, Filler, Title);

/** The unit a chart's heading, axis and tooltips use: the metric's, chosen once by the host. */
export function chartUnit(model: ChartModel): DisplayUnit {
  return model.displayUnit;
}

/** A point's tooltip: its median with the unit, the repetitions and their spread. */
export function pointTooltip(
  stack: string,
  point: SeriesPoint | undefined,
  unit: DisplayUnit,
  side?: string,
): string[] {
  const name = side ? `${stackText(stack)} ${side}` : stackText(stack);
  // A marked point keeps its number, with its marks beside it.
  if (point && point.median === null && point.markedValue != null)
    return [
      `${name}: ${formatWithUnit(point.markedValue, unit)} (marked: ${point.marks.map((mark) => mark.label).join(', ')})`,
    ];
  if (!point || point.median === null) return [`${name}: ${point ? point.state.replace('-', ' ') : 'no value'}`];
  const lines = [`${name}: ${formatWithUnit(point.median, unit)}`];
  if (point.repetitions >= 2 && point.min !== null && point.max !== null) {
    lines.push(
      `  median of ${point.repetitions} repetitions, min–max ${formatValue(point.min, unit)}–${formatWithUnit(point.max, unit)}`,
    );
  } else lines.push(`  ${point.repetitions} repetition${point.repetitions === 1 ? '' : 's'}: no spread`);
  return lines;
}

// `stackName`, not `stack`: Chart.js reads a dataset's `stack` as a stacking group.
// `errorBars`: the 95 % interval of each point's mean, drawn by errorBars.ts.
type LineDataset = ChartDataset<'line', (number | null)[]> & {
  stackName?: string;
  role?: 'median' | 'min' | 'max' | 'marked';
  errorBars?: ErrorBar[];
};

/** The model each live chart draws now (tooltips and clicks read the current points). */
const currentModels = new WeakMap<object, ChartModel>();

/** Where a point's (stack, index) is in the model. */
function pointOf(model: ChartModel | undefined, stack: string | undefined, index: number): SeriesPoint | undefined {
  return model?.series.find((series) => series.stack === stack)?.points[index];
}

/** Index of a stack's colour: kernel first, then the profiles in plan order. */
export function colourFor(theme: ThemeColours, stacks: readonly string[], stack: string): string {
  const index = Math.max(0, stacks.indexOf(stack));
  return theme.series[index % theme.series.length];
}

/** One median line per stack plus, when any point has 2+ repetitions, a min-max band. */
export function datasetsOf(
  model: ChartModel,
  stacks: readonly string[],
  theme: ThemeColours,
  hidden: readonly string[],
): LineDataset[] {
  const datasets: LineDataset[] = [];
  const unit = chartUnit(model);
  for (const series of model.series) {
    const colour = colourFor(theme, stacks, series.stack);
    const isHidden = hidden.includes(series.stack);
    datasets.push({
      label: stackText(series.stack),
      stackName: series.stack,
      role: 'median',
      data: series.points.map((point) => scaled(point.median, unit)),
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 2,
      pointRadius: 3,
      pointHoverRadius: 5,
      spanGaps: false,
      hidden: isHidden,
      fill: false,
      errorBars: series.points.map((point) =>
        point.median !== null && point.interval
          ? { low: scaled(point.interval.low, unit)!, high: scaled(point.interval.high, unit)! }
          : null,
      ),
    });
    if (series.points.some((point) => point.markedValue != null)) {
      // Points whose every repetition is marked: drawn as a cross, apart from the line, explained in the tooltip.
      datasets.push({
        label: `${stackText(series.stack)} (marked)`,
        stackName: series.stack,
        role: 'marked',
        data: series.points.map((point) => scaled(point.markedValue ?? null, unit)),
        borderColor: colour,
        backgroundColor: colour,
        showLine: false,
        pointStyle: 'crossRot',
        pointRadius: 6,
        pointBorderWidth: 2,
        pointHoverRadius: 8,
        hidden: isHidden,
        fill: false,
      });
    }
    if (series.points.some((point) => point.median !== null && point.repetitions >= 2)) {
      // A faint fill with slightly stronger edges: a spread of a few percent stays visible.
      const common = {
        stackName: series.stack,
        borderWidth: 1,
        pointRadius: 0,
        pointHitRadius: 0,
        hidden: isHidden,
        backgroundColor: withAlpha(colour, 0.25),
        borderColor: withAlpha(colour, 0.55),
      };
      datasets.push({
        ...common,
        label: `${stackText(series.stack)} min`,
        role: 'min',
        data: series.points.map((point) => scaled(point.min, unit)),
        fill: false,
      });
      // Fill down to the previous dataset (the min line): the band between min and max.
      datasets.push({
        ...common,
        label: `${stackText(series.stack)} max`,
        role: 'max',
        data: series.points.map((point) => scaled(point.max, unit)),
        fill: '-1',
      });
    }
  }
  return datasets;
}

export interface ChartHandle {
  chart: Chart<'line', (number | null)[], number>;
  update(model: ChartModel, stacks: readonly string[], theme: ThemeColours, hidden: readonly string[]): void;
}

type LineConfig = ChartConfiguration<'line', (number | null)[], number>;

/** Tooltip lines under a point's value: its interval, its difference from the kernel, its caveats. */
function pointNotes(point: SeriesPoint | undefined, role: LineDataset['role'], unit: DisplayUnit): string[] {
  if (!point) return [];
  const lines: string[] = [];
  if (role === 'marked') {
    lines.push('Every repetition is marked: shown, never counted as an improvement.');
    for (const mark of point.marks) lines.push(`${mark.label}: ${mark.message}`);
    return lines;
  }
  if (point.interval)
    lines.push(
      `95 % interval of the mean: ${formatValue(point.interval.low, unit)} – ${formatWithUnit(point.interval.high, unit)}`,
    );
  if (point.delta) {
    const interval =
      point.delta.halfWidth !== undefined
        ? ` (±${point.delta.halfWidth.toFixed(1)}${point.delta.significant ? '' : ', not significant'})`
        : ' (no interval)';
    lines.push(
      `${formatDelta(point.delta.percent)}${interval} vs kernel${point.delta.marked ? ', a side is marked' : ''}`,
    );
  }
  if (point.percentilesSource === 'client-max' || point.percentilesSource === 'mixed')
    lines.push('^ upper bound (max of clients)');
  for (const mark of point.marks) lines.push(`${mark.label} (${mark.repetitions} left out): ${mark.message}`);
  if (point.cellIds && point.cellIds.length > 0)
    lines.push('Click for throughput and latency over time (and its records and YCSB logs).');
  return lines;
}

/**
 * What every line chart over YCSB thread counts shares (a run's charts and the comparison's):
 * thread counts across, the unit up from zero, one tooltip for all lines at a thread count.
 */
export function threadsLineOptions(unit: string, suggestedMax?: number, xTitle = 'YCSB threads') {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index', intersect: false },
    // Room on the right so the last thread count's tick label is never clipped.
    layout: { padding: { right: 16 } },
    // Markers inside the plot area, never cut at its edge: half a thread count of room at either
    // end (offset) and a little above the highest value (grace).
    scales: {
      x: { offset: true, title: { display: true, text: xTitle } },
      y: { beginAtZero: true, suggestedMax, grace: '5%', title: { display: true, text: unit } },
    },
  } satisfies ChartOptions<'line'>;
}

/** The x values a chart is drawn against: its thread counts, or another swept axis' values. */
export function chartXValues(model: ChartModel): (number | string)[] {
  return model.xValues ?? model.threads;
}

/** Called with the stack, thread count and point a click chose (its time series, then its cells). */
export type PointClick = (stack: string, threads: number, point: SeriesPoint) => void;

export function chartConfig(
  model: ChartModel,
  stacks: readonly string[],
  theme: ThemeColours,
  hidden: readonly string[],
  onToggleStack?: (stack: string, hidden: boolean) => void,
  onPointClick?: PointClick,
): LineConfig {
  const unit = chartUnit(model);
  return {
    type: 'line',
    plugins: [errorBarsPlugin],
    data: { labels: chartXValues(model) as number[], datasets: datasetsOf(model, stacks, theme, hidden) },
    options: {
      ...threadsLineOptions(
        unit,
        model.sharedMax === undefined ? undefined : (scaled(model.sharedMax, unit) ?? undefined),
        model.xAxis?.title,
      ),
      onClick: (event, _elements, chart) => {
        if (!onPointClick) return;
        const hit = chart.getElementsAtEventForMode(
          event as unknown as Event,
          'nearest',
          { intersect: false },
          true,
        )[0];
        if (!hit) return;
        const dataset = chart.data.datasets[hit.datasetIndex] as LineDataset;
        const current = currentModels.get(chart) ?? model;
        const point = pointOf(current, dataset.stackName, hit.index);
        if (dataset.stackName !== undefined && point) onPointClick(dataset.stackName, point.threads, point);
      },
      plugins: {
        legend: {
          labels: {
            // Bands share their median's legend entry; a cross is explained once, by an entry of its own.
            generateLabels: legendItems,
          },
          onClick: (_event, item, legend) => {
            const datasets = legend.chart.data.datasets as LineDataset[];
            if (item.datasetIndex === undefined) return; // the entry that explains the cross
            const stack = datasets[item.datasetIndex]?.stackName;
            if (stack === undefined || !onToggleStack) return;
            onToggleStack(stack, !datasets[item.datasetIndex].hidden);
          },
        },
        tooltip: {
          filter: (item) =>
            (item.dataset as LineDataset).role === 'median' || (item.dataset as LineDataset).role === 'marked',
          callbacks: {
            // Both read the model the chart draws now (live updates change its points and unit).
            label: (item) => {
              const current = currentModels.get(item.chart) ?? model;
              const stack = (item.dataset as LineDataset).stackName ?? String(item.dataset.label);
              return pointTooltip(stack, pointOf(current, stack, item.dataIndex), chartUnit(current));
            },
            afterLabel: (item) => {
              const current = currentModels.get(item.chart) ?? model;
              const dataset = item.dataset as LineDataset;
              return pointNotes(pointOf(current, dataset.stackName, item.dataIndex), dataset.role, chartUnit(current));
            },
          },
        },
      },
    },
  };
}

export function createChart(
  canvas: HTMLCanvasElement,
  model: ChartModel,
  stacks: readonly string[],
  theme: ThemeColours,
  hidden: readonly string[],
  onToggleStack: (stack: string, hidden: boolean) => void,
  onPointClick?: PointClick,
): ChartHandle {
  const chart = new Chart<'line', (number | null)[], number>(
    canvas,
    chartConfig(model, stacks, theme, hidden, onToggleStack, onPointClick),
  );
  currentModels.set(chart, model);
  const handle: ChartHandle = {
    chart,
    update(next, nextStacks, nextTheme, nextHidden) {
      currentModels.set(chart, next);
      const unit = chartUnit(next);
      chart.data.labels = chartXValues(next) as number[];
      const xTitle = chart.options.scales?.x?.title;
      if (xTitle) xTitle.text = next.xAxis?.title ?? 'YCSB threads';
      if (chart.options.scales?.y) {
        chart.options.scales.y.suggestedMax =
          next.sharedMax === undefined ? undefined : (scaled(next.sharedMax, unit) ?? undefined);
        const title = chart.options.scales.y.title;
        if (title) title.text = unit;
      }
      chart.data.datasets = datasetsOf(next, nextStacks, nextTheme, nextHidden);
      applyTheme(chart, nextTheme);
      chart.update('none');
      exposePlotArea(canvas, chart);
    },
  };
  applyTheme(chart, theme);
  chart.update('none');
  exposePlotArea(canvas, chart);
  return handle;
}

export type { ExportSpec } from './chartExport.js';

/** The text of the legend's entry for marked points: the same words as the HTML report's figures (svgChart.ts). */
export const markedLegendText = '× every repetition marked';

/**
 * One entry per stack (its median line), then, when a marked point is drawn, one entry that says
 * what the cross means: on screen and in every PNG/SVG export, so no mark goes unexplained.
 */
export function legendItems(chart: Chart): LegendItem[] {
  const datasets = chart.data.datasets as unknown as LineDataset[];
  const items = Chart.defaults.plugins.legend.labels
    .generateLabels(chart)
    .filter((item) => datasets[item.datasetIndex ?? -1]?.role === 'median');
  if (
    datasets.some(
      (dataset, index) =>
        dataset.role === 'marked' && chart.isDatasetVisible(index) && dataset.data.some((value) => value !== null),
    )
  ) {
    items.push({
      text: markedLegendText,
      fillStyle: 'rgba(0, 0, 0, 0)',
      strokeStyle: 'rgba(0, 0, 0, 0)',
      lineWidth: 0,
      hidden: false,
    });
  }
  return items;
}

/**
 * The chart as a PNG data URL at `pixelRatio` device pixels per CSS pixel (2 or more for print); chartExport.ts frames
 * it.
 */
export function chartPrintPng(
  model: ChartModel,
  stacks: readonly string[],
  hidden: readonly string[],
  spec: ExportSpec,
  pixelRatio: number,
): string {
  return pngOfChart(chartConfig(model, stacks, spec.theme, hidden), spec, pixelRatio, applyTheme);
}

/** The chart as vector SVG (chartExport.ts). */
export function chartSvg(
  model: ChartModel,
  stacks: readonly string[],
  hidden: readonly string[],
  spec: ExportSpec,
): string {
  return svgOfChart(chartConfig(model, stacks, spec.theme, hidden), spec, applyTheme);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function applyTheme(chart: Chart<any, any, any>, theme: ThemeColours): void {
  // Chart.js takes the text font from its global defaults; the webview has one theme at a time.
  Chart.defaults.font.family = theme.fontFamily;
  Chart.defaults.color = theme.foreground;
  const options = chart.options;
  options.color = theme.foreground;
  options.font = { ...(options.font ?? {}), family: theme.fontFamily };
  for (const axis of ['x', 'y'] as const) {
    const scale = options.scales?.[axis];
    if (!scale) continue;
    scale.grid = { ...(scale.grid ?? {}), color: theme.grid };
    scale.border = { ...(scale.border ?? {}), color: theme.grid };
    scale.ticks = { ...(scale.ticks ?? {}), color: theme.foreground };
    if (scale.title) scale.title.color = theme.foreground;
  }
}

/**
 * The plot area (inside the axes, without the legend) in CSS pixels as `left,top,right,bottom`,
 * so tests can check the drawn series' pixels without counting the legend's swatches; and the
 * y axis' title.
 */
export function exposePlotArea(canvas: HTMLCanvasElement, chart: Chart<'line', (number | null)[], number>): void {
  const area = chart.chartArea;
  if (area)
    canvas.dataset.plotArea = [area.left, area.top, area.right, area.bottom]
      .map((value) => Math.round(value))
      .join(',');
  // Where the drawn markers reach (centre ± radius), so a test can hold them inside the plot area.
  const reach = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const meta of chart.getSortedVisibleDatasetMetas()) {
    for (const element of meta.data as unknown as {
      x: number;
      y: number;
      skip?: boolean;
      options?: { radius?: number };
    }[]) {
      const radius = element.options?.radius ?? 0;
      if (element.skip || radius <= 0 || !Number.isFinite(element.x) || !Number.isFinite(element.y)) continue;
      reach.left = Math.min(reach.left, element.x - radius);
      reach.top = Math.min(reach.top, element.y - radius);
      reach.right = Math.max(reach.right, element.x + radius);
      reach.bottom = Math.max(reach.bottom, element.y + radius);
    }
  }
  if (Number.isFinite(reach.left))
    canvas.dataset.markerReach = [reach.left, reach.top, reach.right, reach.bottom]
      .map((value) => Math.round(value * 10) / 10)
      .join(',');
  // The legend as drawn, so a test can read what it explains.
  const legend = (chart as unknown as { legend?: { legendItems?: LegendItem[] } }).legend?.legendItems;
  if (legend) canvas.dataset.legend = legend.map((item) => item.text).join(' | ');
  // The y axis' title as drawn (the unit), so a test can hold it against the heading.
  const title = chart.options.scales?.y?.title;
  if (title && typeof title.text === 'string') canvas.dataset.yTitle = title.text;
  // The x axis' title and labels as drawn, so a test can read what the chart is against.
  const xTitle = chart.options.scales?.x?.title;
  if (xTitle && typeof xTitle.text === 'string') canvas.dataset.xTitle = xTitle.text;
  canvas.dataset.xLabels = (chart.data.labels ?? []).map(String).join(',');
}
