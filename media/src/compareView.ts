// "Compare two runs": run B against run A in one view. What changed between the runs first (host
// facts, effective Onload options, plan fields), then per interface the tables of both values with
// B's difference from A and its 95 % interval, and charts with both runs on shared axes (A dashed,
// B solid, one colour per stack) with the run charts' toolbar: table view, PNG and SVG. Only points
// both runs have are shown; the host left the rest out.
import { Chart, type ChartConfiguration } from 'chart.js';
import type {
  CompareCell,
  CompareChart,
  CompareGroup,
  CompareTable,
  RunComparisonView,
  RunDifference,
} from '../../client/src/panel/protocol.js';
import { imageButtons, type SaveChartImage } from './chartExport.js';
import { applyTheme, colourFor, exposePlotArea, legendItems, pointTooltip, threadsLineOptions } from './charts.js';
import { h, replaceChildren, setTabbable } from './dom.js';
import { formatDelta, formatLocalTime, scaled } from './format.js';
import { gainChangeTableElement } from './gainChangeView.js';
import { stackText } from './stackNames.js';
import { deltaNote, intervalText, threadRowsBody, valueCell } from './tables.js';
import type { ThemeColours } from './theme.js';

const charts = new Map<string, Chart<'line', (number | null)[], number>>();

const sectionNames: Record<RunDifference['section'], string> = {
  environment: 'Host',
  profile: 'Onload option',
  plan: 'Plan',
};

function differencesTable(view: RunComparisonView): HTMLElement {
  if (view.differences.length === 0) {
    return h(
      'p',
      { class: 'no-differences' },
      'Nothing recorded differs between the runs: the same hosts and versions, Onload options and plan.',
    );
  }
  const body = h('tbody', {});
  for (const difference of view.differences) {
    body.appendChild(
      h(
        'tr',
        { 'data-section': difference.section, 'data-name': difference.name },
        h('td', {}, sectionNames[difference.section]),
        h('th', { scope: 'row' }, difference.name),
        h('td', { class: 'side-a' }, difference.a ?? '(not recorded)'),
        h('td', { class: 'side-b' }, difference.b ?? '(not recorded)'),
      ),
    );
  }
  return h(
    'table',
    { class: 'differences' },
    h('caption', {}, `What changed from A to B (${view.differences.length})`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Where'),
        h('th', { scope: 'col' }, 'Setting'),
        h('th', { scope: 'col' }, `A: ${view.a.runId}`),
        h('th', { scope: 'col' }, `B: ${view.b.runId}`),
      ),
    ),
    body,
  );
}

function deltaCell(cell: CompareCell, table: CompareTable, threads: number): HTMLTableCellElement {
  const classes = ['delta'];
  if (cell.deltaPercent !== null && cell.significant && !cell.marked)
    classes.push(cell.improvement ? 'improvement' : 'regression');
  if (cell.deltaPercent !== null && !cell.significant) classes.push('not-significant');
  if (cell.marked) classes.push('marked');
  const text = formatDelta(cell.deltaPercent);
  const interval = cell.deltaPercent === null ? null : intervalText(cell);
  return h(
    'td',
    {
      class: classes.join(' '),
      'data-stack': cell.stack,
      'data-threads': threads,
      'data-metric': table.metric,
      'data-delta': cell.deltaPercent ?? undefined,
      'data-low': cell.deltaInterval?.low,
      'data-high': cell.deltaInterval?.high,
      'data-significant': cell.deltaPercent === null ? undefined : String(cell.significant),
      title:
        [
          deltaNote(cell, 'run A'),
          cell.marked ? 'A side of this difference is marked: it may not compare what the columns say.' : '',
        ]
          .filter(Boolean)
          .join('\n') || undefined,
    },
    text,
    interval ? h('span', { class: 'interval' }, ` ${interval}`) : null,
  );
}

function compareTableElement(table: CompareTable, groupLabel: string, id = table.id): HTMLTableElement {
  const unit = table.displayUnit;
  const stacksRow = h(
    'tr',
    {},
    h('th', { scope: 'col', rowspan: 2 }, 'Threads'),
    ...table.stacks.map((stack) =>
      h('th', { scope: 'colgroup', colspan: 3, class: 'stack-head', 'data-stack': stack }, stackText(stack)),
    ),
  );
  const columnsRow = h(
    'tr',
    {},
    ...table.stacks.flatMap(() => [
      h('th', { scope: 'col', class: 'unit-head' }, `A (${unit})`),
      h('th', { scope: 'col', class: 'unit-head' }, `B (${unit})`),
      h('th', { scope: 'col', class: 'unit-head' }, 'B vs A'),
    ]),
  );
  const body = threadRowsBody(table.rows, (row) =>
    row.cells.flatMap((cell) => [
      valueCell(cell.a, table, unit, cell.stack, row.threads, { 'data-side': 'a' }),
      valueCell(cell.b, table, unit, cell.stack, row.threads, { 'data-side': 'b' }),
      deltaCell(cell, table, row.threads),
    ]),
  );
  return h(
    'table',
    { class: 'comparison compare', id, 'data-metric': table.metric },
    h('caption', {}, `${table.title}, ${groupLabel}`),
    h('thead', {}, stacksRow, columnsRow),
    body,
  );
}

/** Opens the cells behind a point of run A (0) or B (1). */
export type OpenCells = (runIndex: number, cellIds: readonly string[] | undefined) => void;

/** The compare chart's Chart.js configuration: on screen (with clicks to a point's cells) and in its PNG/SVG files. */
function compareChartConfig(
  chart: CompareChart,
  theme: ThemeColours,
  openCells?: OpenCells,
): ChartConfiguration<'line', (number | null)[], number> {
  const unit = chart.displayUnit;
  const stacks = chart.series.map((series) => series.stack);
  const datasets = chart.series.flatMap((series) => {
    const colour = colourFor(theme, stacks, series.stack);
    const line = (side: 'a' | 'b') => ({
      // Short: the runs are named once above the charts (A dashed, B solid).
      label: `${stackText(series.stack)} ${side.toUpperCase()}`,
      stackName: series.stack,
      side,
      data: series[side].map((point) => scaled(point.median, unit)),
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 2,
      borderDash: side === 'a' ? [6, 4] : [],
      pointRadius: 3,
      pointStyle: side === 'a' ? 'rectRot' : 'circle',
      fill: false,
      role: 'median',
    });
    // Points whose every repetition is marked stay drawn, as crosses (as in the run's own charts).
    const marked = (side: 'a' | 'b') => ({
      label: `${stackText(series.stack)} ${side.toUpperCase()} (marked)`,
      stackName: series.stack,
      side,
      role: 'marked',
      data: series[side].map((point) => scaled(point.markedValue ?? null, unit)),
      borderColor: colour,
      backgroundColor: colour,
      showLine: false,
      pointStyle: 'crossRot',
      pointRadius: 6,
      pointBorderWidth: 2,
      fill: false,
    });
    const hasMarked = (side: 'a' | 'b') => series[side].some((point) => point.markedValue != null);
    return [line('a'), line('b'), ...(hasMarked('a') ? [marked('a')] : []), ...(hasMarked('b') ? [marked('b')] : [])];
  });
  return {
    type: 'line',
    data: {
      labels: chart.threads,
      datasets: datasets as ChartConfiguration<'line', (number | null)[], number>['data']['datasets'],
    },
    options: {
      ...threadsLineOptions(unit),
      onClick: (event, _elements, target) => {
        if (!openCells) return;
        const [nearest] = target.getElementsAtEventForMode(
          event as unknown as Event,
          'nearest',
          { intersect: false },
          false,
        );
        const dataset =
          nearest && (target.data.datasets[nearest.datasetIndex] as unknown as { stackName: string; side: 'a' | 'b' });
        const series = dataset && chart.series.find((candidate) => candidate.stack === dataset.stackName);
        if (series) openCells(dataset.side === 'a' ? 0 : 1, series[dataset.side][nearest.index]?.cellIds);
      },
      plugins: {
        // One entry per line; the cross is explained by an entry of its own.
        legend: {
          labels: { generateLabels: legendItems },
          onClick: (event, item, legend) => {
            if (item.datasetIndex === undefined) return; // the entry that explains the cross
            Chart.defaults.plugins.legend.onClick.call(legend, event, item, legend);
          },
        },
        tooltip: {
          callbacks: {
            label: (item) => {
              const dataset = item.dataset as unknown as { stackName: string; side: 'a' | 'b' };
              const series = chart.series.find((candidate) => candidate.stack === dataset.stackName);
              return pointTooltip(
                dataset.stackName,
                series?.[dataset.side][item.dataIndex],
                unit,
                dataset.side.toUpperCase(),
              );
            },
          },
        },
      },
    },
  };
}

/** Shows the chart or its table, as the run's charts do (one toggle, the hidden one out of the tab order). */
function applyCompareView(figure: HTMLElement, view: 'chart' | 'table'): void {
  const toggle = figure.querySelector<HTMLButtonElement>('button.view-toggle')!;
  figure.querySelector<HTMLElement>('.canvas-box')!.hidden = view === 'table';
  const dataBox = figure.querySelector<HTMLElement>('.data-box')!;
  dataBox.hidden = view === 'chart';
  setTabbable(dataBox, view === 'table');
  toggle.setAttribute('aria-pressed', String(view === 'table'));
  toggle.textContent = view === 'table' ? 'Show chart' : 'Show table';
}

function compareChart(
  container: HTMLElement,
  chart: CompareChart,
  group: CompareGroup,
  view: RunComparisonView,
  theme: ThemeColours,
  openCells: OpenCells,
  save: SaveChartImage | undefined,
): void {
  const unit = chart.displayUnit;
  const heading = `${chart.title} (${unit})`;
  const canvas = h('canvas', {
    id: `${chart.id}-canvas`,
    role: 'img',
    'aria-label': `${heading} against YCSB threads, run B (solid) against run A (dashed); B is ${view.b.runId}, A is ${view.a.runId}; the table lists the values`,
  });
  const figureId = `chart-${chart.id}`;
  const toggle = h('button', { type: 'button', class: 'view-toggle', 'aria-controls': `${figureId}-data-box` });
  const table = group.tables.find((candidate) => candidate.metric === chart.metric);
  const buttons = save
    ? imageButtons(`${chart.title} comparison chart of ${group.label}`, (format) =>
        save(
          format,
          `${view.b.runId}-vs-${view.a.runId}-${group.interface}-${chart.metric}`,
          compareChartConfig(chart, theme),
          [heading, `${group.label} · run B ${view.b.runId} (solid) against run A ${view.a.runId} (dashed)`],
        ),
      )
    : [];
  const figure = h(
    'figure',
    { class: 'chart compare-chart', id: figureId, 'data-metric': chart.metric },
    h('figcaption', {}, h('h4', {}, heading), h('div', { class: 'toolbar' }, toggle, ...buttons)),
    h('div', { class: 'canvas-box' }, canvas),
    h(
      'div',
      { class: 'data-box', id: `${figureId}-data-box` },
      table
        ? compareTableElement(table, group.label, `${figureId}-table`)
        : h('p', { class: 'muted' }, 'No table for this chart.'),
    ),
  );
  let shown: 'chart' | 'table' = 'chart';
  toggle.addEventListener('click', () => {
    shown = shown === 'chart' ? 'table' : 'chart';
    applyCompareView(figure, shown);
  });
  container.appendChild(figure);
  applyCompareView(figure, shown);
  const instance = new Chart<'line', (number | null)[], number>(canvas, compareChartConfig(chart, theme, openCells));
  applyTheme(instance, theme);
  instance.update('none');
  exposePlotArea(canvas, instance);
  charts.set(chart.id, instance);
}

export function renderComparison(
  container: HTMLElement,
  view: RunComparisonView,
  theme: ThemeColours,
  openCells: OpenCells,
  save?: SaveChartImage,
): void {
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
  const side = (name: string, run: RunComparisonView['a']) =>
    h(
      'li',
      { class: `side-${name.toLowerCase()}`, 'data-run-id': run.runId },
      h('strong', {}, `${name}: `),
      run.runId,
      run.createdAt ? ` (started ${formatLocalTime(run.createdAt)})` : '',
      run.planPath ? `, plan ${run.planPath}` : '',
    );
  const groups = view.groups.map((group) => {
    const chartBox = h('div', { class: 'charts' });
    const section = h(
      'section',
      { class: 'group compare-group', id: group.id, 'data-interface': group.interface },
      h('h3', {}, group.label),
      h(
        'div',
        { class: 'tables' },
        ...group.tables.map((table) => compareTableElement(table, group.label)),
        ...(group.gainChanges ?? []).map((table) => gainChangeTableElement(table, group.label)),
      ),
      chartBox,
    );
    return { section, chartBox, group };
  });
  replaceChildren(
    container,
    h('ul', { class: 'compare-runs' }, side('B', view.b), side('A', view.a)),
    h(
      'p',
      { class: 'muted' },
      'Each difference is B against A with its 95 % interval; only points both runs measured are shown. In the charts run A is dashed, run B solid.',
    ),
    h(
      'section',
      { class: 'differences-box', 'aria-label': 'What changed between the runs' },
      h('h2', {}, 'What changed'),
      differencesTable(view),
    ),
    view.leftOut.length > 0
      ? h(
          'details',
          { class: 'left-out' },
          h(
            'summary',
            {},
            `Left out: ${view.leftOut.length} part${view.leftOut.length === 1 ? '' : 's'} only one run has`,
          ),
          h('ul', {}, ...view.leftOut.map((item) => h('li', {}, item))),
        )
      : null,
    view.groups.length === 0
      ? h(
          'p',
          { class: 'placeholder muted' },
          'The runs have no interface, stack and thread count in common: nothing to compare.',
        )
      : null,
    ...groups.map((entry) => entry.section),
  );
  // Charts after the elements are in the page (Chart.js measures its box).
  for (const { chartBox, group } of groups)
    for (const chart of group.charts) compareChart(chartBox, chart, group, view, theme, openCells, save);
}
