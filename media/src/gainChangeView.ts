// The compare view's difference-of-differences table: did Onload's gain over the kernel change from
// run A to run B? Per thread count and profile, each run's gain and the change in percentage points
// with its 95 % interval (computed by the host, engine/src/report/gainChange.ts). Better and worse
// are said in words and symbols (▲ better, ▼ worse), never by colour alone.
import type { GainChangeTable } from '../../client/src/panel/protocol.js';
import { h } from './dom.js';
import { formatDelta } from './format.js';
import { stackText } from './stackNames.js';

const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `+3.2 points`, `−12.5 points`. */
function points(value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return `${sign}${oneDecimal.format(Math.abs(value))} points`;
}

function changeText(row: GainChangeTable['rows'][number]): string {
  const head = points(row.changePoints);
  let note: string;
  if (row.interval) note = `(±${row.interval.halfWidth.toFixed(1)}${row.significant ? '' : ', not significant'})`;
  else if (row.noInterval === 'single-repetition') note = '(1 repetition: no interval)';
  else if (row.noInterval === 'no-spread') note = '(no spread: no interval)';
  else note = '(no interval)';
  const cue = row.marked ? ' (a side is marked)' : row.significant ? (row.better ? ' ▲ better' : ' ▼ worse') : '';
  return `${head} ${note}${cue}`;
}

export function gainChangeTableElement(table: GainChangeTable, groupLabel: string): HTMLTableElement {
  const head = h(
    'tr',
    {},
    ...['Threads', 'Stack', 'Gain over the kernel in A', 'Gain over the kernel in B', 'Change (B − A)'].map((title) =>
      h('th', { scope: 'col' }, title),
    ),
  );
  const body = h(
    'tbody',
    {},
    ...table.rows.map((row) =>
      h(
        'tr',
        { 'data-threads': row.threads, 'data-stack': row.stack },
        h('th', { scope: 'row' }, String(row.threads)),
        h('td', { class: 'text' }, stackText(row.stack)),
        h('td', { class: 'gain', 'data-side': 'a', 'data-gain': row.gainA }, formatDelta(row.gainA)),
        h('td', { class: 'gain', 'data-side': 'b', 'data-gain': row.gainB }, formatDelta(row.gainB)),
        h(
          'td',
          {
            class: `change${row.significant && !row.marked ? (row.better ? ' improvement' : ' regression') : ''}`,
            'data-change': row.changePoints,
            'data-significant': String(row.significant),
            title: row.interval
              ? `95 % confidence interval ${points(row.interval.low)} to ${points(row.interval.high)}`
              : undefined,
          },
          changeText(row),
        ),
      ),
    ),
  );
  return h(
    'table',
    { class: 'gain-change', id: table.id, 'data-metric': table.metric },
    h('caption', {}, `${table.title}, ${groupLabel}`),
    h('thead', {}, head),
    body,
  );
}
