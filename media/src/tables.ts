// The tables of the panel: the cookbook's kernel-vs-profile comparison, the data table behind
// every chart (the screen-reader and keyboard view of it), and the run's environment. Every
// value cell carries its unrounded number in data attributes for tests and for copying.
import type { ChartModel, ComparisonTable, EnvironmentRow, RunView, TableCell } from '../../client/src/panel/protocol.js';
import { h } from './dom.js';
import { formatDelta, formatValue } from './format.js';

const markText: Record<NonNullable<TableCell['mark']>, string> = {
  failed: 'failed',
  'not-accelerated': 'not accelerated',
  missing: 'not run yet',
};

function repetitionsNote(cell: TableCell): string | undefined {
  if (!cell.repetitions) return undefined;
  const { ok, finished } = cell.repetitions;
  const spread = cell.spreadPercent != null ? `, spread ${cell.spreadPercent.toFixed(1)} %` : '';
  return `median of ${ok} of ${finished} repetitions${spread}`;
}

function valueCell(cell: TableCell, table: ComparisonTable, stack: string, threads: number): HTMLTableCellElement {
  const classes = ['value'];
  if (cell.mark) classes.push(`mark-${cell.mark}`);
  return h(
    'td',
    {
      class: classes.join(' '),
      'data-stack': stack,
      'data-threads': threads,
      'data-metric': table.metric,
      'data-value': cell.value ?? undefined,
      'data-mark': cell.mark,
      title: repetitionsNote(cell),
    },
    cell.mark ? h('span', { class: 'mark' }, markText[cell.mark]) : formatValue(cell.value, table.unit),
  );
}

function deltaCell(cell: TableCell, table: ComparisonTable, stack: string, threads: number): HTMLTableCellElement {
  const classes = ['delta'];
  if (cell.deltaPercent != null) classes.push(cell.improvement ? 'improvement' : 'regression');
  if (cell.best) classes.push('best');
  const text = formatDelta(cell.deltaPercent);
  return h(
    'td',
    {
      class: classes.join(' '),
      'data-stack': stack,
      'data-threads': threads,
      'data-metric': table.metric,
      'data-delta': cell.deltaPercent ?? undefined,
      'data-best': cell.best ? 'true' : undefined,
      'aria-label': cell.best ? `${text}, best improvement` : undefined,
    },
    text,
    cell.best ? h('span', { class: 'best-badge', 'aria-hidden': 'true' }, ' ★') : null,
  );
}

export function comparisonTableElement(table: ComparisonTable, groupLabel: string): HTMLTableElement {
  const header = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'Threads'),
    h('th', { scope: 'col' }, `kernel (${table.unit})`),
    ...table.profiles.flatMap((profile) => [
      h('th', { scope: 'col' }, `${profile} (${table.unit})`),
      h('th', { scope: 'col' }, `${profile} vs kernel`),
    ]),
  );
  const body = h('tbody', {});
  for (const row of table.rows) {
    body.appendChild(
      h(
        'tr',
        { 'data-threads': row.threads },
        h('th', { scope: 'row' }, String(row.threads)),
        valueCell(row.kernel, table, 'kernel', row.threads),
        ...row.profiles.flatMap((cell, index) => [
          valueCell(cell, table, table.profiles[index], row.threads),
          deltaCell(cell, table, table.profiles[index], row.threads),
        ]),
      ),
    );
  }
  return h(
    'table',
    { class: 'comparison', id: table.id, 'data-metric': table.metric },
    h('caption', {}, `${table.title}, ${groupLabel}`),
    h('thead', {}, header),
    body,
  );
}

/** The chart's numbers as a table: median and min-max of each stack at each thread count. */
export function chartDataTable(chart: ChartModel, groupLabel: string): HTMLTableElement {
  const body = h('tbody', {});
  chart.threads.forEach((threads, index) => {
    const cells = chart.series.map((series) => {
      const point = series.points[index];
      const spread = point && point.values.length >= 2 ? ` (${formatValue(point.min, chart.unit)}–${formatValue(point.max, chart.unit)})` : '';
      let text = point && point.median !== null ? `${formatValue(point.median, chart.unit)}${spread}` : '–';
      if (point && point.median === null && point.failed > 0) text = 'failed';
      if (point && point.median === null && point.notAccelerated > 0) text = 'not accelerated';
      return h(
        'td',
        {
          'data-stack': series.stack,
          'data-threads': threads,
          'data-median': point?.median ?? undefined,
          'data-min': point?.min ?? undefined,
          'data-max': point?.max ?? undefined,
          'data-repetitions': point?.values.length ?? 0,
        },
        text,
      );
    });
    body.appendChild(h('tr', {}, h('th', { scope: 'row' }, String(threads)), ...cells));
  });
  return h(
    'table',
    { class: 'chart-data', id: `${chart.id}-data`, 'data-metric': chart.metric },
    h('caption', {}, `${chart.title} (${chart.unit}) by YCSB threads, ${groupLabel}: median, min–max of repetitions in brackets`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Threads'), ...chart.series.map((series) => h('th', { scope: 'col' }, series.stack)))),
    body,
  );
}

export function environmentTable(rows: EnvironmentRow[]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted' }, 'The run recorded no environment.');
  const table = h('table', { class: 'environment' }, h('caption', {}, 'Hosts'));
  table.appendChild(h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Host'), h('th', { scope: 'col' }, 'Role'), h('th', { scope: 'col' }, 'Facts'))));
  const body = h('tbody', {});
  for (const row of rows) {
    const facts = h('dl', { class: 'facts' });
    for (const fact of row.facts) facts.append(h('dt', {}, fact.label), h('dd', { 'data-host': row.host, 'data-fact': fact.label }, fact.value));
    body.appendChild(h('tr', {}, h('th', { scope: 'row' }, row.host), h('td', {}, row.role), h('td', {}, facts)));
  }
  table.appendChild(body);
  return table;
}

export function profilesList(run: RunView): HTMLElement | null {
  if (run.profiles.length === 0) return null;
  const wrapper = h('div', { class: 'profiles' });
  for (const profile of run.profiles) {
    const table = h('table', { class: 'profile-options', 'data-profile': profile.name }, h('caption', {}, `Onload profile ${profile.name}: effective options`));
    const body = h('tbody', {});
    for (const option of profile.options) body.appendChild(h('tr', {}, h('th', { scope: 'row' }, option.name), h('td', {}, option.value)));
    table.appendChild(body);
    wrapper.appendChild(table);
  }
  return wrapper;
}
