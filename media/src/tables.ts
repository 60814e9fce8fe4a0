// The tables of the panel: the cookbook's kernel-vs-profile comparison, the data table behind
// every chart (the screen-reader and keyboard view of it), and the run's environment. Every
// value cell carries its unrounded number in data attributes for tests and for copying.
import type {
  CellState,
  ChartModel,
  ComparisonTable,
  EnvironmentRow,
  RunView,
  TableCell,
} from '../../client/src/panel/protocol.js';
import { h } from './dom.js';
import { stackText } from './stackNames.js';
import { formatDelta, formatValue, formatWithUnit, threadsText, type DisplayUnit } from './format.js';

/** How a cell without a trustworthy number reads. */
const stateText: Record<Exclude<CellState, 'ok'>, string> = {
  failed: 'failed',
  marked: 'marked',
  pending: 'not run yet',
  'no-data': 'no data',
};

/**
 * What a click on a value does: in a run's own tables its time series opens (whose header offers
 * the records and logs, as Shift does at once); in the compare view its records and logs open.
 */
export type CellOpens = 'timeseries' | 'logs';
export const opensHint: Record<CellOpens, string> = {
  timeseries: 'Click (or Enter) for its time series; Shift+click (or Shift+Enter) to open its records and YCSB logs.',
  logs: 'Click (or Enter) to open its records and YCSB logs.',
};

/** A cell's tooltip: the median with its unit, the repetitions and their spread, the marks. */
export function repetitionsNote(cell: TableCell, unit: DisplayUnit, opens: CellOpens = 'logs'): string {
  const { counted, finished, planned, failed } = cell.repetitions;
  const median = cell.value !== null ? `${formatWithUnit(cell.value, unit)}: ` : '';
  const parts = [
    `${median}median of ${counted} repetition${counted === 1 ? '' : 's'}`,
    `${finished} of ${planned} finished`,
  ];
  if (failed > 0) parts.push(`${failed} failed`);
  if (cell.min !== undefined && cell.max !== undefined)
    parts.push(`min–max ${formatValue(cell.min, unit)}–${formatWithUnit(cell.max, unit)}`);
  if (cell.spreadPercent != null) parts.push(`spread ${cell.spreadPercent.toFixed(1)} %`);
  if (cell.markedLeftOut > 0)
    parts.push(`${cell.markedLeftOut} marked repetition${cell.markedLeftOut === 1 ? '' : 's'} left out`);
  const notes = [parts.join(', ')];
  for (const mark of cell.marks)
    notes.push(`${mark.label} (${mark.repetitions} repetition${mark.repetitions === 1 ? '' : 's'}): ${mark.message}`);
  if (cell.state === 'marked') notes.push('Every repetition is marked: shown, never counted as an improvement.');
  if (cell.cellIds?.length) notes.push(opensHint[opens]);
  return notes.join('\n');
}

/** The marks of a cell as small badges, each naming its code and explained by its title. */
function markBadges(cell: TableCell): HTMLElement | null {
  if (cell.marks.length === 0) return null;
  return h(
    'span',
    { class: 'marks' },
    ...cell.marks.map((mark) =>
      h(
        'span',
        {
          class: 'mark',
          'data-mark': mark.code,
          title: `${mark.message} (${mark.repetitions} repetition${mark.repetitions === 1 ? '' : 's'})`,
        },
        `(${mark.label})`,
      ),
    ),
  );
}

export function valueCell(
  cell: TableCell,
  table: { metric: string },
  unit: DisplayUnit,
  stack: string,
  threads: number,
  extra: Record<string, string> = {},
  opens: CellOpens = 'logs',
): HTMLTableCellElement {
  const text = cell.state === 'ok' ? formatValue(cell.value, unit) : stateText[cell.state];
  const openable = (cell.cellIds?.length ?? 0) > 0;
  return h(
    'td',
    {
      class: `value state-${cell.state}`,
      'data-stack': stack,
      'data-threads': threads,
      'data-metric': table.metric,
      'data-value': cell.value ?? undefined,
      'data-state': cell.state,
      'data-marks': cell.marks.length > 0 ? cell.marks.map((mark) => mark.code).join(' ') : undefined,
      'data-cells': openable ? JSON.stringify(cell.cellIds) : undefined,
      tabindex: openable ? 0 : undefined,
      title: repetitionsNote(cell, unit, opens),
      ...extra,
    },
    cell.state === 'ok' ? text : null,
    cell.state === 'marked' && cell.value !== null ? `${formatValue(cell.value, unit)} ` : null,
    cell.state === 'ok' || cell.state === 'marked' ? null : h('span', { class: 'mark' }, text),
    markBadges(cell),
  );
}

function deltaCell(cell: TableCell, table: ComparisonTable, stack: string, threads: number): HTMLTableCellElement {
  const classes = ['delta'];
  // A difference with a marked side (e.g. Onload not verified: the kernel against itself) is
  // neither better nor worse.
  // Only a significant difference is coloured better or worse; noise is plain.
  if (cell.deltaPercent != null && !cell.deltaMarked && cell.significant)
    classes.push(cell.improvement ? 'improvement' : 'regression');
  if (cell.deltaPercent != null && !cell.significant) classes.push('not-significant');
  if (cell.deltaMarked) classes.push('marked');
  if (cell.best) classes.push('best');
  const text = formatDelta(cell.deltaPercent);
  const interval = cell.deltaPercent == null ? null : intervalText(cell);
  return h(
    'td',
    {
      class: classes.join(' '),
      'data-stack': stack,
      'data-threads': threads,
      'data-metric': table.metric,
      'data-delta': cell.deltaPercent ?? undefined,
      'data-low': cell.deltaInterval?.low,
      'data-high': cell.deltaInterval?.high,
      'data-significant': cell.deltaPercent == null ? undefined : String(cell.significant === true),
      'data-best': cell.best ? 'true' : undefined,
      'data-marked': cell.deltaMarked ? 'true' : undefined,
      title:
        [
          deltaNote(cell),
          cell.deltaMarked ? 'A side of this difference is marked: it may not compare what the columns say.' : '',
        ]
          .filter(Boolean)
          .join('\n') || undefined,
      'aria-label': [text, interval, cell.best ? 'best improvement' : '', cell.deltaMarked ? 'marked' : '']
        .filter(Boolean)
        .join(', '),
    },
    text,
    interval ? h('span', { class: 'interval' }, ` ${interval}`) : null,
    cell.best ? h('span', { class: 'best-badge', 'aria-hidden': 'true' }, ' ★') : null,
  );
}

/** `(±2.1)`, `(±4.0, not significant)`, `(1 repetition: no interval)`. */
type DeltaFields = Pick<TableCell, 'deltaPercent' | 'deltaInterval' | 'deltaNoInterval' | 'significant' | 'pValue'>;

export function intervalText(cell: DeltaFields): string {
  if (cell.deltaInterval)
    return `(±${cell.deltaInterval.halfWidth.toFixed(1)}${cell.significant ? '' : ', not significant'})`;
  if (cell.deltaNoInterval === 'single-repetition') return '(1 repetition: no interval)';
  if (cell.deltaNoInterval === 'no-spread') return '(no spread: no interval)';
  return '(no interval)';
}

export function deltaNote(cell: DeltaFields, baseline = 'kernel'): string {
  if (cell.deltaPercent == null) return '';
  if (cell.deltaInterval) {
    const p = cell.pValue !== undefined ? `, p = ${cell.pValue < 0.001 ? '< 0.001' : cell.pValue.toFixed(3)}` : '';
    return `95 % confidence interval ${formatDelta(cell.deltaInterval.low)} to ${formatDelta(cell.deltaInterval.high)}${p}: ${cell.significant ? 'significant' : 'not significant (the interval includes 0 %)'}`;
  }
  if (cell.deltaNoInterval === 'single-repetition')
    return 'With a single repetition on a side no interval can be given: run more repetitions to know whether this difference is real.';
  if (cell.deltaNoInterval === 'no-spread')
    return 'Every repetition gave the same figure: without a measured spread no interval can be given.';
  return `The ${baseline} repetitions vary too much to bound the ratio: no interval.`;
}

/**
 * A comparison table's body: one row per thread count (or value of another axis, `x`), marked with it and headed by it.
 */
export function threadRowsBody<Row extends { threads: number; x?: number | string }>(
  rows: readonly Row[],
  cellsOf: (row: Row) => HTMLTableCellElement[],
): HTMLTableSectionElement {
  return h(
    'tbody',
    {},
    ...rows.map((row) =>
      h(
        'tr',
        { 'data-threads': row.threads, 'data-x': row.x },
        h('th', { scope: 'row' }, String(row.x ?? row.threads)),
        ...cellsOf(row),
      ),
    ),
  );
}

export function comparisonTableElement(table: ComparisonTable, groupLabel: string): HTMLTableElement {
  const unit = table.displayUnit;
  // Stack names get a header row of their own, so a stack called `latency` can never read as a
  // metric's column.
  const stacksRow = h(
    'tr',
    {},
    h('th', { scope: 'col', rowspan: 2 }, table.xAxis ? axisHeading(table.xAxis.title) : 'Threads'),
    h('th', { scope: 'colgroup', class: 'stack-head', 'data-stack': 'kernel' }, stackText('kernel')),
    ...table.profiles.map((profile) =>
      h('th', { scope: 'colgroup', colspan: 2, class: 'stack-head', 'data-stack': profile }, stackText(profile)),
    ),
  );
  const columnsRow = h(
    'tr',
    {},
    h('th', { scope: 'col', class: 'unit-head' }, `median (${unit})`),
    ...table.profiles.flatMap(() => [
      h('th', { scope: 'col', class: 'unit-head' }, `median (${unit})`),
      h('th', { scope: 'col', class: 'unit-head' }, 'vs kernel'),
    ]),
  );
  const body = threadRowsBody(table.rows, (row) => [
    valueCell(row.kernel, table, unit, 'kernel', row.threads, {}, 'timeseries'),
    ...row.profiles.flatMap((cell, index) => [
      valueCell(cell, table, unit, table.profiles[index], row.threads, {}, 'timeseries'),
      deltaCell(cell, table, table.profiles[index], row.threads),
    ]),
  ]);
  return h(
    'table',
    { class: 'comparison', id: table.id, 'data-metric': table.metric },
    h('caption', {}, `${table.title}, ${groupLabel}`),
    h('thead', {}, stacksRow, columnsRow),
    body,
  );
}

/** `Cluster size (nodes)`, `Fieldlength`: an axis' title as a column heading. */
export function axisHeading(title: string): string {
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** The chart's numbers as a table: median and min-max of each stack at each thread count (or value of its axis). */
export function chartDataTable(chart: ChartModel, groupLabel: string): HTMLTableElement {
  const unit = chart.displayUnit;
  const body = h('tbody', {});
  (chart.xValues ?? chart.threads).forEach((x, index) => {
    const threads = chart.threads[index];
    const cells = chart.series.map((series) => {
      const point = series.points[index];
      const spread =
        point && point.median !== null && point.repetitions >= 2
          ? ` (${formatValue(point.min, unit)}–${formatValue(point.max, unit)})`
          : '';
      // A marked point keeps its number; its marks go beside it.
      const marked =
        point?.state === 'marked'
          ? `${point.markedValue != null ? `${formatValue(point.markedValue, unit)} ` : ''}(marked: ${point.marks.map((mark) => mark.label).join(', ')})`
          : undefined;
      const text = !point
        ? '–'
        : point.state === 'ok'
          ? `${formatValue(point.median, unit)}${spread}`
          : (marked ?? stateText[point.state]);
      return h(
        'td',
        {
          'data-stack': series.stack,
          'data-threads': threads,
          'data-median': point?.median ?? undefined,
          'data-min': point?.min ?? undefined,
          'data-max': point?.max ?? undefined,
          'data-repetitions': point?.repetitions ?? 0,
          'data-state': point?.state,
          'data-cells': point?.cellIds?.length ? JSON.stringify(point.cellIds) : undefined,
          tabindex: point?.cellIds?.length ? 0 : undefined,
          title: point?.cellIds?.length ? opensHint.timeseries : undefined,
        },
        text,
      );
    });
    body.appendChild(
      h('tr', { 'data-x': chart.xValues ? x : undefined }, h('th', { scope: 'row' }, String(x)), ...cells),
    );
  });
  return h(
    'table',
    { class: 'chart-data', id: `${chart.id}-data`, 'data-metric': chart.metric },
    h(
      'caption',
      {},
      `${chart.title} (${unit}) by ${chart.xAxis?.title ?? 'YCSB threads'}, ${groupLabel}: median, min–max of repetitions in brackets`,
    ),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, chart.xAxis ? axisHeading(chart.xAxis.title) : 'Threads'),
        ...chart.series.map((series) => h('th', { scope: 'col' }, stackText(series.stack))),
      ),
    ),
    body,
  );
}

export function environmentTable(rows: EnvironmentRow[]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted' }, 'The run recorded no environment.');
  const table = h('table', { class: 'environment' }, h('caption', {}, 'Hosts'));
  table.appendChild(
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Host'),
        h('th', { scope: 'col' }, 'Role'),
        h('th', { scope: 'col' }, 'Facts'),
      ),
    ),
  );
  const body = h('tbody', {});
  for (const row of rows) {
    const facts = h('dl', { class: 'facts' });
    for (const fact of row.facts)
      facts.append(h('dt', {}, fact.label), h('dd', { 'data-host': row.host, 'data-fact': fact.label }, fact.value));
    body.appendChild(h('tr', {}, h('th', { scope: 'row' }, row.host), h('td', {}, row.role), h('td', {}, facts)));
  }
  table.appendChild(body);
  return table;
}

export function profilesList(run: RunView): HTMLElement | null {
  if (run.profiles.length === 0) return null;
  const wrapper = h('div', { class: 'profiles' });
  for (const profile of run.profiles) {
    const table = h(
      'table',
      { class: 'profile-options', 'data-profile': profile.name },
      h('caption', {}, `Onload profile ${profile.name}: effective options`),
    );
    const body = h('tbody', {});
    for (const option of profile.options)
      body.appendChild(h('tr', {}, h('th', { scope: 'row' }, option.name), h('td', {}, option.value)));
    table.appendChild(body);
    wrapper.appendChild(table);
  }
  return wrapper;
}

/** The run's largest improvements per cookbook metric, best first. */
export function bestImprovementsList(run: RunView): HTMLElement | null {
  if (run.bestImprovements.length === 0) return null;
  const box = h('div', { class: 'best-improvements' }, h('h3', {}, 'Best improvements'));
  for (const metric of run.bestImprovements) {
    const list = h('ol', { 'aria-label': `Best ${metric.title} improvements`, 'data-metric': metric.metric });
    for (const item of metric.items) {
      list.appendChild(
        h(
          'li',
          { 'data-percent': item.percent, 'data-stack': item.stack, 'data-threads': item.threads },
          h('strong', {}, formatDelta(item.percent)),
          ` ${metric.title.toLowerCase()}: ${stackText(item.stack)} at ${threadsText(item.threads)}, ${item.group}`,
        ),
      );
    }
    box.appendChild(list);
  }
  return box;
}
