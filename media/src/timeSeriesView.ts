// Throughput, latency and CPU over time for one point of one stack (every repetition), opened by
// clicking a chart point or a table cell; the host answers with the cells' series
// (engine/src/report/evidence/evidenceViews.ts). Each chart has a table view; the view closes with its button or
// Escape. Text from files goes through textContent only.
import type { Chart } from 'chart.js';
import type { RunView, TimeSeriesView } from '../../client/src/panel/protocol.js';
import { h, replaceChildren } from './dom.js';
import type { ThemeColours } from './theme.js';
import { createXyChart, type XySeries } from './xyChart.js';

const open = new Map<HTMLElement, Chart<'line', { x: number; y: number }[]>[]>();

function destroyCharts(box: HTMLElement): void {
  for (const chart of open.get(box) ?? []) chart.destroy();
  open.delete(box);
}

function dataTable(id: string, caption: string, series: XySeries[], unit: string): HTMLTableElement {
  const times = [...new Set(series.flatMap((entry) => entry.points.map((point) => point.x)))].sort((a, b) => a - b);
  const body = h('tbody', {});
  for (const tSec of times) {
    body.appendChild(
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, String(tSec)),
        ...series.map((entry) => {
          const point = entry.points.find((candidate) => candidate.x === tSec);
          return h(
            'td',
            { 'data-series': entry.label, 'data-t': tSec, 'data-value': point?.y },
            point ? point.y.toLocaleString('en-US', { maximumFractionDigits: 1 }) : '–',
          );
        }),
      ),
    );
  }
  return h(
    'table',
    { class: 'chart-data timeseries-data', id },
    h('caption', {}, `${caption} (${unit}) by seconds since the run phase started`),
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 's'), ...series.map((entry) => h('th', { scope: 'col' }, entry.label))),
    ),
    body,
  );
}

function figure(
  box: HTMLElement,
  id: string,
  title: string,
  unit: string,
  series: XySeries[],
  theme: ThemeColours,
  markers?: { x: number; label: string }[],
): HTMLElement | null {
  if (series.every((entry) => entry.points.length === 0)) return null;
  const canvas = h('canvas', {
    id: `${id}-canvas`,
    role: 'img',
    'aria-label': `${title} over time; the table view lists every value`,
  });
  const dataBox = h('div', { class: 'data-box visually-hidden' }, dataTable(`${id}-data`, title, series, unit));
  const canvasBox = h('div', { class: 'canvas-box' }, canvas);
  const toggle = h('button', { type: 'button', class: 'view-toggle', 'aria-pressed': 'false' }, 'Show table');
  toggle.addEventListener('click', () => {
    const table = toggle.getAttribute('aria-pressed') !== 'true';
    toggle.setAttribute('aria-pressed', String(table));
    toggle.textContent = table ? 'Show chart' : 'Show table';
    canvasBox.hidden = table;
    dataBox.classList.toggle('visually-hidden', !table);
  });
  const element = h(
    'figure',
    { class: 'chart timeseries-chart', id, 'data-kind': id.split('-').pop() },
    h('figcaption', {}, h('h4', {}, `${title} (${unit})`), h('div', { class: 'toolbar' }, toggle)),
    canvasBox,
    dataBox,
  );
  box.appendChild(element);
  const chart = createXyChart(
    canvas,
    {
      xTitle: 'seconds since the run phase started',
      yTitle: unit,
      series,
      tooltip: (entry, point) =>
        `${entry.label}: ${point.y.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${unit} at ${point.x} s`,
      markers,
    },
    theme,
  );
  open.set(box, [...(open.get(box) ?? []), chart]);
  return element;
}

/** What opened each box's view: focus goes back there when it closes (else to the group's heading). */
const openers = new WeakMap<HTMLElement, HTMLElement>();

/** Shows the view in `box` (replacing what it showed), closing on its button or Escape. */
export function showTimeSeries(
  box: HTMLElement,
  view: TimeSeriesView,
  run: RunView | undefined,
  theme: ThemeColours,
  openLogs?: (cellIds: string[]) => void,
  opener?: HTMLElement,
): void {
  if (opener) openers.set(box, opener);
  destroyCharts(box);
  const close = h(
    'button',
    { type: 'button', class: 'close-timeseries', 'aria-label': `Close the time series of ${view.title}` },
    'Close',
  );
  close.addEventListener('click', () => closeTimeSeries(box));
  // Every cell asked for, with or without a series: their records and YCSB logs (`open-cell`).
  const cellIds = view.cellIds ?? view.cells.map((cell) => cell.cellId);
  const logs =
    openLogs && cellIds.length > 0
      ? h(
          'button',
          { type: 'button', class: 'open-cell-logs', 'aria-label': `Open the records and YCSB logs of ${view.title}` },
          'Open records and logs',
        )
      : null;
  logs?.addEventListener('click', () => openLogs!(cellIds));
  replaceChildren(
    box,
    h(
      'header',
      { class: 'timeseries-header' },
      h('h4', { class: 'timeseries-title' }, `Over time: ${view.title}`),
      h('div', { class: 'toolbar' }, logs, close),
    ),
  );
  box.hidden = false;
  box.dataset.stack = view.stack;
  box.dataset.threads = String(view.threads);
  const palette = theme.series;
  // Where the statistics start: throughput still rising after this line is what `warmup-too-short` marks.
  const warmupSec = view.cells.find((cell) => cell.warmupSec !== undefined)?.warmupSec;
  const markers = warmupSec !== undefined ? [{ x: warmupSec, label: 'warm-up ends' }] : undefined;
  const stackIndex = Math.max(0, run?.stacks.indexOf(view.stack) ?? 0);
  const base = `ts-${box.id}`;
  figure(
    box,
    `${base}-throughput`,
    'Throughput',
    'ops/s',
    view.cells.map((cell, index) => ({
      label: `rep. ${cell.repetition}`,
      colour: palette[(stackIndex + index) % palette.length],
      dashed: index % 2 === 1,
      points: cell.throughput.map((point) => ({ x: point.tSec, y: point.opsPerSec })),
    })),
    theme,
    markers,
  );
  const operations = [...new Set(view.cells.flatMap((cell) => cell.latency.map((series) => series.operation)))];
  figure(
    box,
    `${base}-latency`,
    'Latency per interval',
    'µs',
    view.cells.flatMap((cell, index) =>
      cell.latency.map((series) => ({
        label: `${series.operation} rep. ${cell.repetition}`,
        colour: palette[operations.indexOf(series.operation) % palette.length],
        dashed: index % 2 === 1,
        points: series.points.map((point) => ({ x: point.tSec, y: point.latencyUs })),
      })),
    ),
    theme,
    markers,
  );
  const hosts = [...new Set(view.cells.flatMap((cell) => cell.cpu.map((host) => host.host)))];
  figure(
    box,
    `${base}-cpu`,
    'CPU busy',
    '%',
    view.cells.flatMap((cell, index) =>
      cell.cpu.map((host) => ({
        label: `${host.host} (${host.role}) rep. ${cell.repetition}`,
        colour: palette[hosts.indexOf(host.host) % palette.length],
        dashed: index % 2 === 1,
        points: host.points.map((point) => ({ x: point.tSec, y: point.busyPct })),
      })),
    ),
    theme,
    markers,
  );
  threadsTables(box, view);
  proofsList(box, view);
  clusterList(box, view);
  const notes: string[] = [];
  if (warmupSec !== undefined)
    notes.push(`The first ${warmupSec} s are warm-up (dashed line): the statistics start after it.`);
  for (const cell of view.cells)
    if (cell.cpuWindow) notes.push(`Repetition ${cell.repetition}: CPU figures ${cell.cpuWindow}.`);
  for (const cell of view.cells)
    for (const mark of cell.marks) notes.push(`Repetition ${cell.repetition} is marked ${mark.label}: ${mark.message}`);
  if (view.missing.length > 0) notes.push(`No series recorded for: ${view.missing.join('; ')}.`);
  if (view.cells.length === 0) notes.push('These cells recorded no time series (older records or failed cells).');
  if (notes.length > 0)
    box.appendChild(h('ul', { class: 'timeseries-notes muted' }, ...notes.map((note) => h('li', {}, note))));
  box.scrollIntoView({ block: 'nearest' });
  close.focus({ preventScroll: true });
}

/** Each repetition's busiest threads per host (memcached, the YCSB JVM), a saturated one said in words. */
function threadsTables(box: HTMLElement, view: TimeSeriesView): void {
  const cells = view.cells.filter((cell) => (cell.threads ?? []).length > 0);
  if (cells.length === 0) return;
  const section = h(
    'section',
    { class: 'threads' },
    h('h4', {}, 'Busiest threads (% of one CPU over the measured window, /proc/PID/task/TID/stat)'),
  );
  for (const cell of cells) {
    const rows = (cell.threads ?? []).flatMap((host) =>
      host.threads.map((thread) =>
        h(
          'tr',
          thread.saturated ? { class: 'saturated' } : {},
          h('td', {}, `${host.host} (${host.role}) ${host.process}`),
          h('td', {}, thread.name),
          h('td', {}, String(thread.tid)),
          h(
            'td',
            {},
            `${thread.pctOfCore.toFixed(0)} %${thread.saturated ? ' saturated' : thread.spinning ? ' spins by design (couchbase.boost)' : ''}`,
          ),
        ),
      ),
    );
    const more = (cell.threads ?? [])
      .filter((host) => host.more > 0)
      .map((host) => `${host.host}: ${host.more} more threads`)
      .join('; ');
    section.appendChild(
      h(
        'table',
        { class: 'threads' },
        h('caption', {}, `Repetition ${cell.repetition}${more ? ` (${more})` : ''}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'host, process'),
            h('th', { scope: 'col' }, 'thread'),
            h('th', { scope: 'col' }, 'tid'),
            h('th', { scope: 'col' }, '% of one CPU'),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    );
  }
  box.appendChild(section);
}

/** How each repetition's acceleration and interface were proven (or why not), each claim with its source. */
function proofsList(box: HTMLElement, view: TimeSeriesView): void {
  const cells = view.cells.filter((cell) => (cell.proofs ?? []).length > 0);
  if (cells.length === 0) return;
  const section = h(
    'section',
    { class: 'proofs' },
    h(
      'h4',
      {},
      "How this point was proven (acceleration from onload_stackdump during the run, interface from the KV connections' addresses)",
    ),
  );
  for (const cell of cells) {
    for (const proof of cell.proofs ?? []) {
      section.appendChild(h('p', { class: 'proof-of' }, `Repetition ${cell.repetition}, ${proof.host}`));
      section.appendChild(
        h(
          'dl',
          { class: 'proof' },
          h('dt', {}, 'Acceleration'),
          h('dd', {}, proof.acceleration),
          h('dt', {}, 'Interface'),
          h('dd', {}, proof.interface),
          h('dt', {}, 'memcached'),
          h('dd', {}, proof.memcached),
        ),
      );
    }
  }
  box.appendChild(section);
}

/** How each repetition's cluster was formed and how the bucket spread over its nodes. */
function clusterList(box: HTMLElement, view: TimeSeriesView): void {
  const cells = view.cells.filter((cell) => cell.cluster !== undefined);
  if (cells.length === 0) return;
  const section = h(
    'section',
    { class: 'cluster' },
    h(
      'h4',
      {},
      "The cluster of this point (rebalance from /pools/default/tasks, vBuckets from the bucket's vBucketServerMap, items from interestingStats)",
    ),
  );
  for (const cell of cells) {
    const cluster = cell.cluster!;
    section.appendChild(h('p', { class: 'cluster-of' }, `Repetition ${cell.repetition}`));
    section.appendChild(
      h(
        'dl',
        { class: 'proof' },
        h('dt', {}, 'Formed'),
        h('dd', {}, cluster.formed),
        h('dt', {}, 'Replicas'),
        h('dd', {}, cluster.replicas),
      ),
    );
    if (cluster.nodes.length === 0) continue;
    const header = h(
      'tr',
      {},
      ...['node', 'services', 'vBuckets', 'items'].map((name) => h('th', { scope: 'col' }, name)),
    );
    const rows = cluster.nodes.map((node) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, node.node),
        h('td', {}, node.services),
        h('td', {}, node.vBuckets),
        h('td', {}, node.items),
      ),
    );
    section.appendChild(
      h(
        'table',
        { class: 'cluster-nodes' },
        h('caption', {}, `Repetition ${cell.repetition}: the bucket over its nodes`),
        h('thead', {}, header),
        h('tbody', {}, ...rows),
      ),
    );
  }
  box.appendChild(section);
}

export function closeTimeSeries(box: HTMLElement): void {
  const hadFocus = box.contains(document.activeElement);
  destroyCharts(box);
  replaceChildren(box);
  box.hidden = true;
  // Focus returns to what opened the view (a table cell), or to the group's heading: never to the page.
  if (!hadFocus) return;
  const opener = openers.get(box);
  const fallback = box.closest('section.group')?.querySelector<HTMLElement>('button.group-toggle');
  (opener?.isConnected ? opener : fallback)?.focus({ preventScroll: true });
}
