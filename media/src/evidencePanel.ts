// Issue 10's parts of the results webview, kept apart from panel.ts: the Export report button, the
// legend of the marks met in the run, the caveat under a chart, the CPU and spectrum boxes of a
// group, and the time-series view a clicked chart point or table cell opens (the host answers an
// `open-timeseries` request with a `timeseries` message); that view and Shift+click (or Shift+Enter)
// on a cell open the point's records and YCSB logs (`open-cell`).
import type {
  ChartGroup,
  ChartModel,
  PanelViewModel,
  RunView,
  SeriesPoint,
  TimeSeriesView,
  WebviewMessage,
} from '../../client/src/panel/protocol.js';
import { h, replaceChildren, safeId } from './dom.js';
import { renderSpectrum } from './spectrumChart.js';
import { stackText } from './stackNames.js';
import type { ThemeColours } from './theme.js';
import type { SaveChartImage } from './chartExport.js';
import { closeTimeSeries, showTimeSeries } from './timeSeriesView.js';

export interface EvidenceHost {
  post(message: WebviewMessage): void;
  model(): PanelViewModel | undefined;
  theme(): ThemeColours;
  /** Saves a chart as PNG or SVG (the spectrum's toolbar). */
  saveImage?: SaveChartImage;
}

let host: EvidenceHost | undefined;
/** The group whose view the last request asked for: the answer goes there. */
let pendingGroup: string | undefined;
/** What had the focus when the view was asked for (a table cell): focus returns there on close. */
let pendingOpener: HTMLElement | undefined;

export function initEvidence(evidenceHost: EvidenceHost): void {
  host = evidenceHost;
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const box = (event.target as HTMLElement | null)?.closest?.<HTMLElement>('.timeseries-box');
    if (box) closeTimeSeries(box);
  });
}

function runIndexOf(runDir: string): number {
  return host?.model()?.runs.findIndex((run) => run.runDir === runDir) ?? -1;
}

/** Asks the host for the time series of one point's cells. */
export function requestTimeSeries(
  runDir: string,
  group: ChartGroup,
  stack: string,
  threads: number,
  cellIds: readonly string[] | undefined,
  x?: number | string,
): void {
  const runIndex = runIndexOf(runDir);
  if (!host || runIndex < 0 || !cellIds || cellIds.length === 0) return;
  pendingGroup = group.id;
  const active = document.activeElement;
  pendingOpener = active instanceof HTMLElement && active !== document.body ? active : undefined;
  host.post({
    type: 'open-timeseries',
    runIndex,
    cellIds: cellIds.slice(0, 100),
    stack,
    threads,
    title: `${group.label}, ${stackText(stack)}, ${pointText(group, threads, x)}`,
  });
}

/**
 * The point named by its group's x axis: `16 threads`, or against another axis its value
 * there (`2 nodes`, `fieldlength=1000`), the threads being held in the group's label already.
 */
export function pointText(group: ChartGroup, threads: number, x?: number | string): string {
  const axis = group.charts[0]?.xAxis;
  if (!axis || axis.id === 'threads' || x === undefined || x === '')
    return `${threads} thread${threads === 1 ? '' : 's'}`;
  if (axis.id === 'clusterSize') return `${x} node${Number(x) === 1 ? '' : 's'}`;
  return `${axis.title}=${x}`;
}

/** A chart point was clicked. */
export function onChartPointClick(
  runDir: string,
  group: ChartGroup,
): (stack: string, threads: number, point: SeriesPoint) => void {
  return (stack, threads, point) => requestTimeSeries(runDir, group, stack, threads, point.cellIds, point.x);
}

/** The host's answer: shown in the group it was asked from. */
export function onTimeSeries(view: TimeSeriesView): void {
  const model = host?.model();
  const run = model?.runs[view.runIndex];
  // The title starts with the group's label (requestTimeSeries): answers find their group even when
  // the reader clicked in another group meanwhile.
  // The groups against another axis too; the longest label that starts the title wins.
  const candidates = [...(run?.groups ?? []), ...Object.values(run?.axisGroups ?? {}).flat()].filter((group) =>
    view.title.startsWith(`${group.label}, `),
  );
  const groupId =
    candidates.sort((a, b) => b.label.length - a.label.length)[0]?.id ?? pendingGroup ?? run?.groups[0]?.id;
  if (!groupId || !host) return;
  const box = document.querySelector<HTMLElement>(`#group-${safeId(groupId)} .timeseries-box`);
  if (box)
    showTimeSeries(box, view, run, host.theme(), (cellIds) => openCellLogs(view.runIndex, cellIds), pendingOpener);
}

/** The run header's Export report button and the legend of the marks met in the run. */
export function renderRunEvidence(section: HTMLElement, run: RunView, runIndex: number): void {
  const toolbar = section.querySelector('header.run-header .toolbar');
  if (toolbar && !toolbar.querySelector('button.export-report')) {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'export-report',
        'aria-label': `Export run ${run.runId} as one self-contained HTML report`,
      },
      'Export report',
    );
    button.addEventListener('click', () => {
      const index = runIndexOf(section.dataset.runDir ?? run.runDir);
      host?.post({ type: 'export-report', runIndex: index >= 0 ? index : runIndex });
    });
    toolbar.appendChild(button);
  }
  // Like Export CSV: nothing to report before a cell has finished.
  const report = toolbar?.querySelector<HTMLButtonElement>('button.export-report');
  if (report) {
    report.disabled = run.progress.finished === 0;
    report.title = report.disabled
      ? 'No cell has finished yet: nothing to report.'
      : 'The run as one self-contained HTML file';
  }
  let legend = section.querySelector<HTMLElement>(':scope > section.marks-legend');
  if (!legend) {
    legend = h('section', { class: 'marks-legend', 'aria-label': 'Marked cells: what each mark means' });
    const best = section.querySelector(':scope > section.best-box');
    if (best) best.after(legend);
    else section.appendChild(legend);
  }
  const entries = run.marksLegend ?? [];
  legend.hidden = entries.length === 0;
  replaceChildren(
    legend,
    entries.length === 0 ? null : h('h3', {}, 'Marked cells'),
    entries.length === 0
      ? null
      : h(
          'p',
          { class: 'muted' },
          'Marked repetitions may not measure what their row and column say: they leave the median when unmarked ones exist, and a point whose repetitions are all marked is drawn as a cross, never counted as an improvement. Hover a mark for what was seen; click a cell for its time series.',
        ),
    entries.length === 0
      ? null
      : h(
          'dl',
          { class: 'marks-legend-list' },
          ...entries.flatMap((entry) => [
            h(
              'dt',
              { 'data-mark': entry.code },
              h('span', { class: 'mark' }, `(${entry.label})`),
              ` ${entry.cells} cell${entry.cells === 1 ? '' : 's'}`,
            ),
            h('dd', { 'data-mark': entry.code }, entry.explanation),
          ]),
        ),
  );
}

/** The caveat under a chart (percentiles that are upper bounds). */
export function applyChartNote(figure: HTMLElement, chart: ChartModel): void {
  let note = figure.querySelector<HTMLElement>(':scope > p.chart-note');
  if (!chart.note) {
    note?.remove();
    return;
  }
  if (!note) {
    note = h('p', { class: 'chart-note muted' });
    figure.querySelector('.canvas-box')?.after(note);
  }
  note.textContent = chart.note;
}

/** The group's CPU chart box (filled by panel.ts like the other charts), its spectrum and its time-series box. */
export function evidenceBoxes(section: HTMLElement, group: ChartGroup, run: RunView): { cpu: HTMLElement } {
  const body = section.querySelector<HTMLElement>('.group-body')!;
  let timeseries = body.querySelector<HTMLElement>(':scope > .timeseries-box');
  if (!timeseries) {
    timeseries = h('section', {
      class: 'timeseries-box',
      id: `ts-${safeId(group.id)}`,
      'aria-label': 'Throughput, latency and CPU over time',
      hidden: true,
    });
    body.querySelector(':scope > .tables')?.after(timeseries);
  }
  let cpu = body.querySelector<HTMLElement>(':scope > .cpu-box');
  if (!cpu) {
    cpu = h(
      'section',
      { class: 'cpu-box', 'aria-label': 'CPU utilisation and CPU per operation' },
      h('h4', { class: 'box-title' }, 'CPU'),
      h('div', { class: 'charts cpu-charts' }),
    );
    body.appendChild(cpu);
  }
  cpu.hidden = (group.cpuCharts ?? []).length === 0;
  let spectrum = body.querySelector<HTMLElement>(':scope > .spectrum-box');
  if (!spectrum) {
    spectrum = h('section', { class: 'spectrum-box', 'aria-label': 'Latency percentile spectrum' });
    body.appendChild(spectrum);
  }
  if (host) renderSpectrum(spectrum, group, run, host.theme(), host.saveImage);
  spectrum.hidden = (group.spectra ?? []).length === 0;
  attachCellOpeners(section, group, run);
  return { cpu: cpu.querySelector<HTMLElement>('.cpu-charts')! };
}

/** A run's cells that open their point: the cookbook tables' values and the chart tables' cells. */
const openerCells = 'td.value[data-stack][data-threads], td[data-cells][data-stack][data-threads]';

/**
 * Value cells of the cookbook tables (and the charts' table views) open their point's time series
 * (click, Enter or Space); Shift with either opens the point's records and YCSB logs straight away
 * (`open-cell`), which the time-series view's header also offers.
 */
function attachCellOpeners(section: HTMLElement, group: ChartGroup, run: RunView): void {
  const body = section.querySelector<HTMLElement>('.group-body');
  if (!body) return;
  // The handler reads the current model at click time: the group object changes on every update.
  body.dataset.runDir = run.runDir;
  body.dataset.groupId = group.id;
  for (const cell of Array.from(body.querySelectorAll<HTMLElement>(openerCells))) {
    if (cell.dataset.state === 'pending' || cell.closest('.timeseries-box, .spectrum-box')) continue;
    // A table only screen readers see (a chart in chart view) stays out of the tab order until shown (dom.ts
    // setTabbable).
    if (cell.closest('.data-box.visually-hidden')) {
      cell.dataset.tabindexShown = '0';
      cell.tabIndex = -1;
    } else cell.tabIndex = 0;
    cell.classList.add('opens-timeseries');
  }
  if (body.dataset.openers === 'on') return;
  body.dataset.openers = 'on';
  const open = (target: EventTarget | null, logs: boolean) => {
    const cell = (target as HTMLElement | null)?.closest?.<HTMLElement>(openerCells);
    if (!cell || cell.dataset.state === 'pending' || cell.closest('.timeseries-box, .spectrum-box')) return;
    const run = host?.model()?.runs.find((candidate) => candidate.runDir === body.dataset.runDir);
    // A group against threads or, in a run drawn against another axis, one of that axis' groups.
    const current = [...(run?.groups ?? []), ...Object.values(run?.axisGroups ?? {}).flat()].find(
      (candidate) => candidate.id === body.dataset.groupId,
    );
    if (!current) return;
    const stack = cell.dataset.stack!;
    const threads = Number(cell.dataset.threads);
    const point = current.charts[0]?.series
      .find((series) => series.stack === stack)
      ?.points.find((candidate) => candidate.threads === threads);
    let cellIds = point?.cellIds;
    try {
      if (cell.dataset.cells) cellIds = JSON.parse(cell.dataset.cells) as string[];
    } catch {
      // a damaged attribute: the model's cells
    }
    if (logs) openCellLogs(runIndexOf(body.dataset.runDir!), cellIds);
    else
      requestTimeSeries(
        body.dataset.runDir!,
        current,
        stack,
        threads,
        cellIds,
        cell.closest<HTMLElement>('tr')?.dataset.x,
      );
  };
  body.addEventListener('click', (event) => open(event.target, event.shiftKey));
  body.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    if (!(event.target as HTMLElement).matches?.(openerCells)) return;
    event.preventDefault();
    open(event.target, event.shiftKey);
  });
}

/** Asks the host to open the records and YCSB logs of a point's cells (drill-down). */
export function openCellLogs(runIndex: number, cellIds: readonly string[] | undefined): void {
  if (!host || runIndex < 0 || !cellIds || cellIds.length === 0) return;
  host.post({ type: 'open-cell', runIndex, cellIds: cellIds.slice(0, 1000) });
}
