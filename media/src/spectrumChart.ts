// The latency percentile spectrum of one point (HdrHistogram style): x is the percentile on the
// "nines" scale (0, 90, 99, 99.9 %... one step each; the host places the points), y the latency in
// µs, one line per stack so the arms overlay. A select picks the point (threads) and operation;
// like every chart it has a table view. Solid lines are the clients' merged HDR histograms; dashed
// ones YCSB's summary percentiles, which for several clients are the worst client's: an upper
// bound (max of clients), and labelled so.
import type { Chart } from 'chart.js';
import type { ChartGroup, RunView, SpectrumView } from '../../client/src/panel/protocol.js';
import { h, replaceChildren, safeId, setTabbable } from './dom.js';
import { formatPercentile, threadsText } from './format.js';
import { stackText } from './stackNames.js';
import type { ThemeColours } from './theme.js';
import { createXyChart, xyChartConfig, type XyChartSpec } from './xyChart.js';
import { imageButtons, type SaveChartImage } from './chartExport.js';

interface SpectrumState {
  selected?: string;
  view: 'chart' | 'table';
  chart?: Chart<'line', { x: number; y: number }[]>;
  drawn?: string;
  /** What the PNG and SVG buttons save: the chart as drawn, with its title. */
  file?: { spec: XyChartSpec; title: string[]; name: string };
}

const states = new Map<string, SpectrumState>();

export function sourceLabel(source: SpectrumView['series'][number]['source']): string {
  if (source === 'client-max') return 'upper bound (max of clients)';
  if (source === 'ycsb') return 'YCSB summary percentiles';
  return 'merged HDR histograms';
}

function seriesLabel(series: SpectrumView['series'][number]): string {
  const notes = [`rep. ${series.repetition}`];
  if (series.source !== 'hdr-merged') notes.push(sourceLabel(series.source));
  if (series.marked) notes.push('marked');
  return `${stackText(series.stack)} (${notes.join(', ')})`;
}

/** The point shown first: the busiest one where the most arms have a spectrum, reads first. */
function defaultSpectrum(spectra: readonly SpectrumView[]): SpectrumView {
  const operation = spectra[0].operation;
  const candidates = spectra.filter((spectrum) => spectrum.operation === operation);
  const most = Math.max(
    ...candidates.map(
      (spectrum) => spectrum.series.filter((series) => series.source === 'hdr-merged' && !series.marked).length,
    ),
  );
  return (
    [...candidates]
      .reverse()
      .find(
        (spectrum) =>
          spectrum.series.filter((series) => series.source === 'hdr-merged' && !series.marked).length === most,
      ) ?? candidates[candidates.length - 1]
  );
}

function dataTable(spectrum: SpectrumView, groupLabel: string): HTMLTableElement {
  const percentiles = [
    ...new Set(spectrum.series.flatMap((series) => series.points.map((point) => point.percentile))),
  ].sort((a, b) => a - b);
  const body = h('tbody', {});
  for (const percentile of percentiles) {
    body.appendChild(
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, formatPercentile(percentile)),
        ...spectrum.series.map((series) => {
          const point = series.points.find((candidate) => candidate.percentile === percentile);
          return h(
            'td',
            { 'data-stack': series.stack, 'data-percentile': percentile, 'data-value': point?.valueUs },
            point ? point.valueUs.toLocaleString('en-US', { maximumFractionDigits: 1 }) : '–',
          );
        }),
      ),
    );
  }
  return h(
    'table',
    { class: 'chart-data spectrum-data', id: `${spectrum.id}-data` },
    h(
      'caption',
      {},
      `${spectrum.operation} latency (µs) by percentile at ${threadsText(spectrum.threads)}, ${groupLabel}`,
    ),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Percentile'),
        ...spectrum.series.map((series) =>
          h('th', { scope: 'col', 'data-source': series.source }, seriesLabel(series)),
        ),
      ),
    ),
    body,
  );
}

/** Draws (or updates) the spectrum figure of a group inside `container`; removes it when the group has none. */
export function renderSpectrum(
  container: HTMLElement,
  group: ChartGroup,
  run: RunView,
  theme: ThemeColours,
  save?: SaveChartImage,
): void {
  const spectra = group.spectra ?? [];
  const figureId = `spectrum-${safeId(group.id)}`;
  let figure = container.querySelector<HTMLElement>(`#${figureId}`);
  const state = states.get(group.id) ?? { view: 'chart' };
  states.set(group.id, state);
  if (spectra.length === 0) {
    state.chart?.destroy();
    state.chart = undefined;
    state.drawn = undefined;
    figure?.remove();
    return;
  }
  if (!figure) {
    const select = h('select', {
      class: 'spectrum-select',
      'aria-label': `Point and operation of the latency spectrum, ${group.label}`,
    });
    select.addEventListener('change', () => {
      state.selected = select.value;
      renderSpectrum(container, group, run, theme, save);
    });
    const toggle = h('button', { type: 'button', class: 'view-toggle', 'aria-controls': `${figureId}-data-box` });
    toggle.addEventListener('click', () => {
      state.view = state.view === 'chart' ? 'table' : 'chart';
      applyView(figure!, state);
    });
    // PNG and SVG of the point shown, as the run's charts have.
    const buttons = save
      ? imageButtons(`latency spectrum of ${group.label}`, (format) => {
          if (state.file) save(format, state.file.name, xyChartConfig(state.file.spec, theme), state.file.title);
        })
      : [];
    figure = h(
      'figure',
      { class: 'chart spectrum', id: figureId, 'data-group': group.id },
      h(
        'figcaption',
        {},
        h('h4', {}, 'Latency by percentile (µs)'),
        h('div', { class: 'toolbar' }, select, toggle, ...buttons),
      ),
      h(
        'div',
        { class: 'canvas-box' },
        h('canvas', {
          id: `${figureId}-canvas`,
          role: 'img',
          'aria-label': `Latency by percentile for ${group.label}, the stacks overlaid; the table view lists every value`,
        }),
      ),
      h('p', { class: 'chart-note muted' }),
      h('div', { class: 'data-box', id: `${figureId}-data-box` }),
    );
    container.appendChild(figure);
  }
  const select = figure.querySelector<HTMLSelectElement>('select.spectrum-select')!;
  const ids = spectra.map((spectrum) => spectrum.id).join('\u0000');
  if (select.dataset.ids !== ids) {
    replaceChildren(
      select,
      ...spectra.map((spectrum) =>
        h('option', { value: spectrum.id }, `${threadsText(spectrum.threads)}, ${spectrum.operation}`),
      ),
    );
    select.dataset.ids = ids;
  }
  const spectrum = spectra.find((candidate) => candidate.id === state.selected) ?? defaultSpectrum(spectra);
  select.value = spectrum.id;
  figure.dataset.spectrum = spectrum.id;
  const colour = (stack: string) => theme.series[Math.max(0, run.stacks.indexOf(stack)) % theme.series.length];
  const key = JSON.stringify([spectrum, theme, run.stacks]);
  if (state.drawn !== key) {
    state.chart?.destroy();
    const canvas = figure.querySelector('canvas')!;
    const spec: XyChartSpec = {
      xTitle: 'percentile (%)',
      yTitle: 'µs',
      xTicks: spectrum.ticks,
      series: spectrum.series.map((series) => ({
        label: seriesLabel(series),
        colour: colour(series.stack),
        dashed: series.source !== 'hdr-merged',
        points: series.points.map((point) => ({ x: point.x, y: point.valueUs })),
      })),
      tooltip: (series, point) => {
        const source = spectrum.series.find((candidate) => seriesLabel(candidate) === series.label);
        const percentile = source?.points.find((candidate) => candidate.x === point.x)?.percentile;
        return `${series.label}: p${percentile === undefined ? '?' : formatPercentile(percentile)} = ${point.y.toLocaleString('en-US', { maximumFractionDigits: 1 })} µs`;
      },
    };
    state.chart = createXyChart(canvas, spec, theme);
    state.file = {
      spec,
      title: [
        `${spectrum.operation} latency by percentile (µs) at ${threadsText(spectrum.threads)}`,
        `${group.label} · run ${run.runId}`,
      ],
      name: `${run.runId}-${group.interface}-spectrum-${spectrum.operation}-${spectrum.threads}`,
    };
    state.drawn = key;
  }
  const bounded = spectrum.series.filter((series) => series.source !== 'hdr-merged');
  figure.querySelector('.chart-note')!.textContent = [
    "Solid: the clients' merged HDR histograms.",
    ...bounded.map((series) => `${stackText(series.stack)}: dashed, ${sourceLabel(series.source)}.`),
    ...spectrum.series
      .filter((series) => series.marked)
      .map((series) => `${stackText(series.stack)}: every repetition is marked.`),
  ].join(' ');
  replaceChildren(figure.querySelector('.data-box')!, dataTable(spectrum, group.label));
  applyView(figure, state);
}

function applyView(figure: HTMLElement, state: SpectrumState): void {
  const toggle = figure.querySelector<HTMLButtonElement>('button.view-toggle')!;
  figure.querySelector<HTMLElement>('.canvas-box')!.hidden = state.view === 'table';
  const dataBox = figure.querySelector<HTMLElement>('.data-box')!;
  dataBox.classList.toggle('visually-hidden', state.view === 'chart');
  setTabbable(dataBox, state.view !== 'chart');
  toggle.setAttribute('aria-pressed', String(state.view === 'table'));
  toggle.textContent = state.view === 'table' ? 'Show chart' : 'Show table';
}
