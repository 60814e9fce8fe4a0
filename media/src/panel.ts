// The results webview: draws the model the host posts (charts, tables, environment), keeps the
// reader's place (scroll, chart/table toggles, hidden series, collapsed groups) across live
// updates and reloads, and asks the host to save exports. Nothing here talks to the network.
import type {
  ChartGroup,
  ChartModel,
  HostMessage,
  PanelUiState,
  PanelViewModel,
  RunView,
  WebviewMessage,
} from '../../client/src/panel/protocol.js';
import { applyTheme, chartPrintPng, chartSvg, chartUnit, createChart, type ChartHandle } from './charts.js';
import { pngOfChart, svgOfChart, type SaveChartImage } from './chartExport.js';
import { renderComparison } from './compareView.js';
import { h, replaceChildren, safeId, setTabbable } from './dom.js';
import { exportPixelRatio, exportSize, exportTheme, imageFileName } from './exportImage.js';
import {
  applyChartNote,
  evidenceBoxes,
  initEvidence,
  onChartPointClick,
  onTimeSeries,
  renderRunEvidence,
} from './evidencePanel.js';
import { formatDuration, formatLocalTime } from './format.js';
import { renderPreflight } from './preflightView.js';
import {
  bestImprovementsList,
  chartDataTable,
  comparisonTableElement,
  environmentTable,
  profilesList,
} from './tables.js';
import { onThemeChange, readTheme, useSeriesPalette, type ThemeColours } from './theme.js';
import { renderVerdict } from './verdictView.js';
import { initTableKeys, oneTabStopPerTable } from './tableKeys.js';
import { stackText, useStackLabels } from './stackNames.js';
import { renderScaling } from './scalingView.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): PanelUiState | undefined;
  setState(state: PanelUiState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
let uiState: PanelUiState = { runDirs: [], views: {}, hidden: {}, collapsed: [], ...(vscode.getState() ?? {}) };
let model: PanelViewModel | undefined;
let theme: ThemeColours = readTheme();
let restoredScroll = false;
let lastAnnouncement = '';
const charts = new Map<string, { handle: ChartHandle; model: ChartModel; stacks: string[]; runDir: string }>();

/** Series hidden in one chart: its own legend toggles plus the run's stack filter. */
function hiddenIn(chartId: string, runDir: string): string[] {
  return [...new Set([...(uiState.hidden?.[chartId] ?? []), ...(uiState.hiddenStacks?.[runDir] ?? [])])];
}

function redrawCharts(): void {
  for (const [id, entry] of charts) entry.handle.update(entry.model, entry.stacks, theme, hiddenIn(id, entry.runDir));
}

function saveState(patch: Partial<PanelUiState> = {}): void {
  uiState = { ...uiState, ...patch };
  vscode.setState(uiState);
}

function announce(text: string): void {
  if (text === lastAnnouncement) return;
  lastAnnouncement = text;
  const region = document.getElementById('live-region');
  if (region) region.textContent = text;
}

function ensureChild<K extends keyof HTMLElementTagNameMap>(
  parent: Element,
  selector: string,
  create: () => HTMLElementTagNameMap[K],
): HTMLElementTagNameMap[K] {
  const existing = parent.querySelector(`:scope > ${selector}`);
  if (existing) return existing as HTMLElementTagNameMap[K];
  const element = create();
  parent.appendChild(element);
  return element;
}

/** The run's one-line summary; only a run still going says "so far". */
function progressText(run: RunView): string {
  const { progress } = run;
  if (run.status === 'preflight')
    return `Pre-flight checks running (${run.preflight?.checks.length ?? 0} done); ${progress.total} cells planned`;
  if (run.status === 'preflight-failed')
    return run.removed ? 'Pre-flight failed: no cell ran and no run folder was kept' : 'Pre-flight failed: no cell ran';
  const going = run.status === 'running' || (run.status === undefined && !progress.outcome);
  const parts = [`${progress.finished} of ${progress.total} cells finished${going ? ' so far' : ''}`];
  if (run.status === 'incomplete') parts[0] = `Incomplete: ${progress.finished} of ${progress.total} cells finished`;
  if (run.status === 'finished' && !progress.outcome)
    parts[0] = `Finished: ${progress.finished} of ${progress.total} cells`;
  if (progress.failed > 0) parts.push(`${progress.failed} failed`);
  if (progress.running) {
    let running = `running ${progress.running.cell} (cell ${progress.running.index + 1} of ${progress.running.total})`;
    if (progress.running.remainingEstimateMs !== undefined)
      running += `, about ${formatDuration(progress.running.remainingEstimateMs)} left`;
    parts.push(running);
  }
  if (progress.outcome) {
    if (progress.outcome.cancelled) parts.push('cancelled');
    else if (progress.outcome.error) parts.push(`stopped: ${progress.outcome.error}`);
    else parts.push('run finished');
  }
  return parts.join('; ');
}

function renderRunHeader(section: HTMLElement, run: RunView, runIndex: number): void {
  // The page's h1 is the one title; the header carries the run's facts and its actions.
  const header = ensureChild<'header'>(section, 'header.run-header', () => {
    const exportButton = h(
      'button',
      { type: 'button', class: 'export-csv', 'aria-label': `Export every metric of run ${run.runId} as CSV` },
      'Export CSV',
    );
    exportButton.addEventListener('click', () => vscode.postMessage({ type: 'export-csv', runIndex }));
    return h(
      'header',
      { class: 'run-header' },
      h('p', { class: 'run-meta muted' }),
      h('div', { class: 'toolbar' }, exportButton),
    );
  });
  const meta = header.querySelector('.run-meta')!;
  const started = run.createdAt
    ? h('time', { class: 'started', datetime: run.createdAt }, formatLocalTime(run.createdAt))
    : null;
  replaceChildren(
    meta,
    ...(started ? ['started ', started, ' · '] : []),
    [run.planPath && `plan ${run.planPath}`, `stacks: ${run.stacks.join(', ') || '–'}`].filter(Boolean).join(' · '),
  );
  header.hidden = run.removed === true;
  renderVerdict(section, header, run);
  // Nothing to export before a cell has finished.
  const exportButton = header.querySelector<HTMLButtonElement>('button.export-csv')!;
  exportButton.disabled = run.progress.finished === 0;
  exportButton.title = exportButton.disabled
    ? 'No cell has finished yet: nothing to export.'
    : 'Every metric, percentile and mark of each cell, as CSV';
  renderPreflight(section, run);

  const progress = ensureChild<'div'>(section, 'div.progress', () =>
    h(
      'div',
      { class: 'progress' },
      h('progress', { max: 1, value: 0, 'aria-label': 'cells finished' }),
      h('span', { class: 'progress-text' }),
      h('p', { class: 'live muted' }),
    ),
  );
  const bar = progress.querySelector('progress')!;
  bar.max = Math.max(1, run.progress.total);
  bar.value = run.progress.finished;
  progress.dataset.finished = String(run.progress.finished);
  progress.dataset.total = String(run.progress.total);
  progress.dataset.failed = String(run.progress.failed);
  progress.querySelector('.progress-text')!.textContent = progressText(run);
  bar.hidden = run.status === 'preflight-failed';
  if (!run.progress.running) progress.querySelector('.live')!.textContent = '';

  const warnings = ensureChild<'ul'>(section, 'ul.warnings', () =>
    h('ul', { class: 'warnings', 'aria-label': 'Warnings' }),
  );
  replaceChildren(warnings, ...run.warnings.map((warning) => h('li', {}, warning)));
  warnings.hidden = run.warnings.length === 0;

  renderStackFilter(section, run);
  renderAxisPicker(section, run);

  const best = ensureChild<'section'>(section, 'section.best-box', () =>
    h('section', { class: 'best-box', 'aria-label': 'Best improvements' }),
  );
  replaceChildren(best, bestImprovementsList(run));
  best.hidden = run.bestImprovements.length === 0;
}

/** One checkbox per stack, in the series colour: show or hide it in every chart of the run. */
function renderStackFilter(section: HTMLElement, run: RunView): void {
  const filter = ensureChild<'fieldset'>(section, 'fieldset.stack-filter', () =>
    h('fieldset', { class: 'stack-filter' }, h('legend', {}, 'Stacks shown in the charts')),
  );
  const known = Array.from(filter.querySelectorAll<HTMLInputElement>('input[data-stack]')).map(
    (input) => input.dataset.stack,
  );
  if (known.join('\u0000') !== run.stacks.join('\u0000')) {
    filter.querySelectorAll('label').forEach((label) => label.remove());
    run.stacks.forEach((stack, index) => {
      const input = h('input', { type: 'checkbox', 'data-stack': stack, id: `${section.id}-stack-${index}` });
      input.addEventListener('change', () => {
        const hidden = new Set(uiState.hiddenStacks?.[run.runDir] ?? []);
        if (input.checked) hidden.delete(stack);
        else hidden.add(stack);
        saveState({ hiddenStacks: { ...uiState.hiddenStacks, [run.runDir]: [...hidden] } });
        redrawCharts();
      });
      filter.appendChild(
        h(
          'label',
          { for: input.id },
          input,
          h('span', { class: 'swatch', 'aria-hidden': 'true', 'data-index': index }),
          stackText(stack),
        ),
      );
    });
  }
  const hidden = uiState.hiddenStacks?.[run.runDir] ?? [];
  filter
    .querySelectorAll<HTMLInputElement>('input[data-stack]')
    .forEach((input) => (input.checked = !hidden.includes(input.dataset.stack ?? '')));
  // Swatch colours follow the theme; CSSOM writes are allowed under the CSP (style attributes are not).
  filter
    .querySelectorAll<HTMLElement>('.swatch')
    .forEach((swatch) =>
      swatch.style.setProperty('background-color', theme.series[Number(swatch.dataset.index) % theme.series.length]),
    );
}

/** The axis a run's charts and tables are drawn against: the reader's pick, threads by default. */
function xAxisOf(run: RunView): string {
  const picked = uiState.xAxis?.[run.runDir];
  return picked && run.axes?.some((axis) => axis.id === picked) ? picked : 'threads';
}

/** The groups drawn for the axis picked; the other axes are held, one group each. */
function groupsOf(run: RunView): ChartGroup[] {
  const axis = xAxisOf(run);
  return axis === 'threads' ? run.groups : (run.axisGroups?.[axis] ?? run.groups);
}

/** A select of the run's swept axes (threads, cluster size, fieldlength...): what the charts and tables are against. */
function renderAxisPicker(section: HTMLElement, run: RunView): void {
  const axes = run.axes ?? [];
  const box = ensureChild<'div'>(section, 'div.axis-picker', () => {
    const select = h('select', { id: `${section.id}-x-axis`, class: 'x-axis' });
    select.addEventListener('change', () => {
      saveState({ xAxis: { ...uiState.xAxis, [run.runDir]: select.value } });
      if (model) render(model);
    });
    return h(
      'div',
      { class: 'axis-picker' },
      h('label', { for: select.id }, 'Charts and tables against '),
      select,
      h('span', { class: 'muted' }, ' (the other axes are held: one group per combination)'),
    );
  });
  const select = box.querySelector('select')!;
  const known = Array.from(select.options)
    .map((option) => option.value)
    .join('\u0000');
  if (known !== axes.map((axis) => axis.id).join('\u0000'))
    replaceChildren(select, ...axes.map((axis) => h('option', { value: axis.id }, axis.title)));
  select.value = xAxisOf(run);
  box.hidden = axes.length < 2 || run.removed === true;
}

function chartView(chartId: string): 'chart' | 'table' {
  return uiState.views?.[chartId] ?? 'chart';
}

function applyChartView(figure: HTMLElement, chartId: string): void {
  const view = chartView(chartId);
  const canvasBox = figure.querySelector<HTMLElement>('.canvas-box')!;
  const dataBox = figure.querySelector<HTMLElement>('.data-box')!;
  const toggle = figure.querySelector<HTMLButtonElement>('button.view-toggle')!;
  canvasBox.hidden = view === 'table';
  // In chart view the numbers stay readable to screen readers, just not drawn twice on screen.
  dataBox.classList.toggle('visually-hidden', view === 'chart');
  setTabbable(dataBox, view === 'table');
  toggle.setAttribute('aria-pressed', String(view === 'table'));
  toggle.textContent = view === 'table' ? 'Show chart' : 'Show table';
}

function toggleStack(chartId: string, stack: string, hide: boolean): void {
  const hidden = new Set(uiState.hidden?.[chartId] ?? []);
  if (hide) hidden.add(stack);
  else hidden.delete(stack);
  saveState({ hidden: { ...uiState.hidden, [chartId]: [...hidden] } });
  const entry = charts.get(chartId);
  if (entry) entry.handle.update(entry.model, entry.stacks, theme, hiddenIn(chartId, entry.runDir));
}

/** Asks the host to open the records and YCSB logs of the cells behind a table cell or chart point. */
function openCells(runIndex: number, cellIds: readonly string[] | undefined): void {
  if (cellIds && cellIds.length > 0) vscode.postMessage({ type: 'open-cell', runIndex, cellIds: [...cellIds] });
}

/**
 * The compare view's values open their cells' records and logs on click or Enter (one listener).
 * A run's own cells and points open their time series instead, whose header offers the records and
 * logs (evidencePanel.ts).
 */
function openCellFromEvent(event: Event): void {
  if (event instanceof KeyboardEvent && event.key !== 'Enter') return;
  const cell = (event.target as Element | null)?.closest?.<HTMLElement>('#comparison td[data-cells]');
  if (!cell) return;
  const side = cell.dataset.side;
  const runIndex =
    side === 'a' ? 0 : side === 'b' ? 1 : Number(cell.closest<HTMLElement>('section.run')?.dataset.runIndex ?? 0);
  try {
    openCells(runIndex, JSON.parse(cell.dataset.cells ?? '[]') as string[]);
  } catch {
    // a damaged attribute opens nothing
  }
}
document.addEventListener('click', openCellFromEvent);
document.addEventListener('keydown', openCellFromEvent);

function renderChart(container: HTMLElement, chart: ChartModel, group: ChartGroup, run: RunView): HTMLElement {
  const figureId = `chart-${safeId(chart.id)}`;
  let figure = document.getElementById(figureId);
  const hidden = hiddenIn(chart.id, run.runDir);
  if (!figure) {
    const canvas = h('canvas', { id: `${figureId}-canvas`, role: 'img' });
    const toggle = h('button', { type: 'button', class: 'view-toggle', 'aria-controls': `${figureId}-data-box` });
    toggle.addEventListener('click', () => {
      saveState({ views: { ...uiState.views, [chart.id]: chartView(chart.id) === 'chart' ? 'table' : 'chart' } });
      applyChartView(figure!, chart.id);
    });
    const save = (format: 'png' | 'svg') => {
      const entry = charts.get(chart.id);
      if (!entry) return;
      const spec = {
        title: [`${entry.model.title} (${chartUnit(entry.model)})`, `${group.label} · run ${run.runId}`],
        theme: exportTheme(theme, model?.exportBackground ?? 'light'),
        ...exportSize,
      };
      const hidden = hiddenIn(chart.id, entry.runDir);
      const data =
        format === 'png'
          ? chartPrintPng(entry.model, entry.stacks, hidden, spec, exportPixelRatio(window.devicePixelRatio))
          : chartSvg(entry.model, entry.stacks, hidden, spec);
      vscode.postMessage({
        type: 'save-image',
        format,
        name: imageFileName(run.runId, group.interface, chart.metric),
        data,
      });
    };
    const png = h(
      'button',
      { type: 'button', class: 'save-png', 'aria-label': `Save ${chart.title} chart of ${group.label} as PNG` },
      'PNG',
    );
    const svg = h(
      'button',
      { type: 'button', class: 'save-svg', 'aria-label': `Save ${chart.title} chart of ${group.label} as SVG` },
      'SVG',
    );
    png.addEventListener('click', () => save('png'));
    svg.addEventListener('click', () => save('svg'));
    figure = h(
      'figure',
      {
        class: 'chart',
        id: figureId,
        'data-chart-id': chart.id,
        'data-metric': chart.metric,
        'data-interface': group.interface,
      },
      h('figcaption', {}, h('h4', {}), h('div', { class: 'toolbar' }, toggle, png, svg)),
      h('div', { class: 'canvas-box' }, canvas),
      h('div', { class: 'data-box', id: `${figureId}-data-box` }),
    );
    container.appendChild(figure);
    // A point opens its time series, which offers its records and logs (evidencePanel.ts).
    const handle = createChart(
      canvas,
      chart,
      run.stacks,
      theme,
      hidden,
      (stack, hide) => toggleStack(chart.id, stack, hide),
      onChartPointClick(run.runDir, group),
    );
    charts.set(chart.id, { handle, model: chart, stacks: run.stacks, runDir: run.runDir });
  } else {
    const entry = charts.get(chart.id);
    if (entry) {
      entry.model = chart;
      entry.stacks = run.stacks;
      entry.handle.update(chart, run.stacks, theme, hidden);
    }
  }
  // Heading, canvas name, axis and table all say the unit the host chose for the metric, on every update.
  const unit = chartUnit(chart);
  figure.querySelector('figcaption h4')!.textContent = `${chart.title} (${unit})`;
  figure
    .querySelector('canvas')!
    .setAttribute(
      'aria-label',
      `${chart.title} (${unit}) against ${chart.xAxis?.title ?? 'YCSB threads'} for ${group.label}; the table view lists every value`,
    );
  replaceChildren(figure.querySelector('.data-box')!, chartDataTable(chart, group.label));
  applyChartNote(figure, chart);
  applyChartView(figure, chart.id);
  return figure;
}

function renderGroup(container: HTMLElement, group: ChartGroup, run: RunView): HTMLElement {
  const sectionId = `group-${safeId(group.id)}`;
  let section = document.getElementById(sectionId);
  if (!section) {
    const toggle = h(
      'button',
      { type: 'button', class: 'group-toggle', 'aria-controls': `${sectionId}-body` },
      h('span', { class: 'group-label' }),
    );
    toggle.addEventListener('click', () => {
      const collapsed = new Set(uiState.collapsed ?? []);
      if (collapsed.has(group.id)) collapsed.delete(group.id);
      else collapsed.add(group.id);
      saveState({ collapsed: [...collapsed] });
      applyCollapsed(section!, group.id);
    });
    section = h(
      'section',
      {
        class: 'group',
        id: sectionId,
        'data-group': group.id,
        'data-interface': group.interface,
        'aria-labelledby': `${sectionId}-heading`,
      },
      h('h3', { id: `${sectionId}-heading` }, toggle),
      // The cookbook's tables first (the answer), the charts after (the detail).
      h(
        'div',
        { class: 'group-body', id: `${sectionId}-body` },
        h('div', { class: 'tables' }),
        h('div', { class: 'charts' }),
      ),
    );
    container.appendChild(section);
  }
  section.querySelector('.group-label')!.textContent = group.label;
  renderChartList(section.querySelector<HTMLElement>('.group-body > .charts')!, group.charts, group, run);
  const tables = section.querySelector<HTMLElement>('.tables')!;
  replaceChildren(tables, ...group.tables.map((table) => comparisonTableElement(table, group.label)));
  // CPU charts, the latency spectrum and the time-series view (evidencePanel.ts).
  renderChartList(evidenceBoxes(section, group, run).cpu, group.cpuCharts ?? [], group, run);
  applyCollapsed(section, group.id);
  return section;
}

/** Draws a list of charts into a box and removes the box's charts that are gone. */
function renderChartList(chartBox: HTMLElement, list: readonly ChartModel[], group: ChartGroup, run: RunView): void {
  const keep = new Set<Element>();
  for (const chart of list) keep.add(renderChart(chartBox, chart, group, run));
  for (const child of Array.from(chartBox.children)) {
    if (keep.has(child)) continue;
    const id = (child as HTMLElement).dataset.chartId;
    if (id) {
      charts.get(id)?.handle.chart.destroy();
      charts.delete(id);
    }
    child.remove();
  }
}

function applyCollapsed(section: HTMLElement, groupId: string): void {
  const collapsed = (uiState.collapsed ?? []).includes(groupId);
  section.querySelector<HTMLElement>('.group-body')!.hidden = collapsed;
  section.querySelector('.group-toggle')!.setAttribute('aria-expanded', String(!collapsed));
}

function renderEnvironment(section: HTMLElement, run: RunView): void {
  const details = ensureChild<'details'>(section, 'details.environment-box', () =>
    h(
      'details',
      { class: 'environment-box' },
      h('summary', {}, 'Environment'),
      h('div', { class: 'environment-body' }),
    ),
  );
  replaceChildren(details.querySelector('.environment-body')!, environmentTable(run.environment), profilesList(run));
}

function renderRun(container: HTMLElement, run: RunView, runIndex: number): HTMLElement {
  const sectionId = `run-${runIndex}`;
  let section = document.getElementById(sectionId);
  if (section && section.dataset.runDir !== run.runDir) {
    for (const figure of Array.from(section.querySelectorAll<HTMLElement>('figure.chart'))) {
      const id = figure.dataset.chartId;
      if (id) charts.get(id)?.handle.chart.destroy();
      if (id) charts.delete(id);
    }
    section.remove();
    section = null;
  }
  if (!section) {
    section = h('section', {
      class: 'run',
      id: sectionId,
      'data-run-dir': run.runDir,
      'data-run-id': run.runId,
      'data-run-index': runIndex,
      'aria-labelledby': 'panel-title',
    });
    container.appendChild(section);
  }
  section.dataset.runId = run.runId;
  section.dataset.status = run.status ?? '';
  renderRunHeader(section, run, runIndex);
  renderRunEvidence(section, run, runIndex);
  // A landmark of its own, which the skip link at the top of the page jumps to.
  const groups = ensureChild<'div'>(section, 'div.groups', () =>
    h('div', {
      class: 'groups',
      id: `${sectionId}-groups`,
      role: 'region',
      'aria-label': `Tables and charts of run ${run.runId}`,
      tabindex: -1,
    }),
  );
  // A run whose folder is gone shows only why (the pre-flight section), never an empty run.
  const groupsShown = run.removed ? [] : groupsOf(run);
  const keep = new Set<Element>(groupsShown.map((group) => renderGroup(groups, group, run)));
  for (const child of Array.from(groups.children)) {
    if (keep.has(child)) continue;
    // A group of another axis (or gone): its charts go with it.
    for (const figure of Array.from(child.querySelectorAll<HTMLElement>('figure.chart'))) {
      const id = figure.dataset.chartId;
      if (id) charts.get(id)?.handle.chart.destroy();
      if (id) charts.delete(id);
    }
    child.remove();
  }
  if (groupsShown.length === 0 && !run.removed && run.status !== 'preflight') {
    if (!groups.querySelector('.placeholder'))
      groups.appendChild(h('p', { class: 'placeholder muted' }, 'No cells in this run yet.'));
  } else groups.querySelector('.placeholder')?.remove();
  section.querySelector<HTMLElement>('fieldset.stack-filter')!.hidden =
    run.removed === true || run.status === 'preflight';
  // Throughput against nodes, the ideal line and cost per node (scalingView.ts), with 2+ sizes.
  const override = uiState.price?.[run.runDir];
  renderScaling(section, run, {
    theme,
    save: saveChartImage,
    price: override === undefined ? run.cost : override,
    setPrice: (price) => {
      saveState({ price: { ...uiState.price, [run.runDir]: price } });
      if (model) render(model);
    },
  });
  renderEnvironment(section, run);
  section.querySelector<HTMLElement>('details.environment-box')!.hidden = run.removed === true;
  return section;
}

function render(next: PanelViewModel): void {
  model = next;
  useStackLabels(next.stackLabels);
  useSeriesPalette(next.palette);
  theme = readTheme();
  const app = document.getElementById('app')!;
  app.querySelector(':scope > p.placeholder')?.remove();
  app.setAttribute('aria-busy', 'false');
  // First in the tab order: past the header, verdict, pre-flight and filters, straight to the tables.
  const skip = ensureChild<'a'>(app, 'a.skip-link', () => {
    const link = h('a', { class: 'skip-link', href: '#run-0-groups' }, 'Skip to the tables and charts');
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const target = document.getElementById(model?.comparison ? 'comparison' : 'run-0-groups');
      target?.focus();
      target?.scrollIntoView({ block: 'start' });
    });
    return link;
  });
  if (app.firstElementChild !== skip) app.prepend(skip);
  const title = ensureChild<'h1'>(app, 'h1#panel-title', () => h('h1', { id: 'panel-title' }));
  title.textContent = next.title;
  ensureChild<'p'>(app, 'p#notice', () => h('p', { id: 'notice', role: 'status', hidden: true }));
  const runs = ensureChild<'div'>(app, 'div#runs', () => h('div', { id: 'runs' }));
  // Comparing: one view of run B against run A instead of two whole reports.
  const shown = next.comparison ? [] : next.runs;
  // Visible before drawing: Chart.js sizes a chart from its box.
  runs.hidden = next.comparison !== undefined;
  shown.forEach((run, index) => renderRun(runs, run, index));
  for (const child of Array.from(runs.children)) {
    const index = Number((child as HTMLElement).id.replace('run-', ''));
    if (index < shown.length) continue;
    for (const figure of Array.from(child.querySelectorAll<HTMLElement>('figure.chart'))) {
      const id = figure.dataset.chartId;
      if (id) charts.get(id)?.handle.chart.destroy();
      if (id) charts.delete(id);
    }
    child.remove();
  }
  const compare = ensureChild<'div'>(app, 'div#comparison', () => h('div', { id: 'comparison', tabindex: -1 }));
  compare.hidden = next.comparison === undefined;
  if (next.comparison) renderComparison(compare, next.comparison, theme, openCells, saveChartImage);
  // Tab enters each table once; the arrow keys move inside it (tableKeys.ts).
  oneTabStopPerTable(app);
  saveState({ runDirs: next.runs.map((run) => run.runDir) });
  announce(
    next.runs.map((run) => `${run.runId}: ${run.progress.finished} of ${run.progress.total} cells finished`).join('. '),
  );
  if (!restoredScroll) {
    restoredScroll = true;
    if (uiState.scrollY) window.scrollTo(0, uiState.scrollY);
  }
}

function showLive(runDir: string, text: string): void {
  const section = Array.from(document.querySelectorAll<HTMLElement>('section.run')).find(
    (element) => element.dataset.runDir === runDir,
  );
  const live = section?.querySelector('.live');
  if (live) live.textContent = text;
}

function showNotice(level: 'info' | 'error', text: string): void {
  const notice = document.getElementById('notice');
  if (!notice) return;
  notice.textContent = text;
  notice.className = level;
  notice.hidden = false;
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  switch (message.type) {
    case 'model':
      render(message.model);
      break;
    case 'live':
      showLive(message.runDir, message.text);
      break;
    case 'notice':
      showNotice(message.level, message.text);
      break;
    case 'timeseries':
      onTimeSeries(message.view);
      break;
  }
});

let scrollTimer: number | undefined;
window.addEventListener('scroll', () => {
  if (scrollTimer !== undefined) return;
  scrollTimer = window.setTimeout(() => {
    scrollTimer = undefined;
    saveState({ scrollY: Math.round(window.scrollY) });
  }, 200);
});

onThemeChange(() => {
  theme = readTheme();
  if (model) render(model);
});

/** The compare view's and the spectrum's exports: the same frame, size and background as the run's charts. */
const saveChartImage: SaveChartImage = (format, name, config, title) => {
  const spec = { title, theme: exportTheme(theme, model?.exportBackground ?? 'light'), ...exportSize };
  const data =
    format === 'png'
      ? pngOfChart(config, spec, exportPixelRatio(window.devicePixelRatio), applyTheme)
      : svgOfChart(config, spec, applyTheme);
  vscode.postMessage({ type: 'save-image', format, name: imageFileName(name), data });
};

initTableKeys();
initEvidence({
  post: (message) => vscode.postMessage(message),
  model: () => model,
  theme: () => theme,
  saveImage: saveChartImage,
});
vscode.postMessage({ type: 'ready' });
