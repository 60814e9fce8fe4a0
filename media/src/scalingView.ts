// Exists for the scaling view and the cost per node in the results panel: per held point
// (interface, threads, YCSB properties), throughput against the cluster size with each stack's
// ideal linear line (dashed), a table of the sizes (ops/s, ideal, share of it, ops/s per node, the
// cost of a million operations at the price set, the efficiency of each step with its interval)
// and the best size per price. The host computes every figure but the cost (client/src/panel/
// viewModel.ts scalingView); the price is the plan's or the one typed here, kept per run. The cost
// of a million operations is the one sum done here, the same as engine/src/report/scaling.ts
// costPerMillionOps (the webview takes only types from the engine).
import type { Chart } from 'chart.js';
import type { CostView, RunView, ScalingPanelView } from '../../client/src/panel/protocol.js';
import { colourFor } from './charts.js';
import { h, replaceChildren, safeId } from './dom.js';
import { stackText } from './stackNames.js';
import type { ThemeColours } from './theme.js';
import { imageButtons, type SaveChartImage } from './chartExport.js';
import { createXyChart, xyChartConfig, type XyChartSpec } from './xyChart.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Price per node hour / (ops/s per node × 3600) × 10^6: what a million operations cost. */
export function costPerMillionOps(perNode: number, pricePerNodeHour: number): number {
  return (pricePerNodeHour / (perNode * 3600)) * 1e6;
}

/** Three significant figures, whatever the magnitude: `0.00694 EUR`. */
export function formatCost(value: number, currency: string): string {
  const text = value >= 1000 ? integer.format(value) : String(Number(value.toPrecision(3)));
  return currency ? `${text} ${currency}` : text;
}

const scalingCharts = new Map<string, Chart<'line', { x: number; y: number }[]>>();

export interface ScalingHost {
  theme: ThemeColours;
  /** The price in force: set in the panel, else the plan's; null when the reader cleared it. */
  price: CostView | null | undefined;
  setPrice(price: CostView | null): void;
  /** Saves the figure as PNG or SVG, as every chart of the panel. */
  save?: SaveChartImage;
}

/** Creates (once) and fills the run's scaling box after its groups; hidden without 2+ sizes. */
export function renderScaling(section: HTMLElement, run: RunView, host: ScalingHost): void {
  let box = section.querySelector<HTMLElement>(':scope > section.scaling-box');
  if (!box) {
    box = h('section', { class: 'scaling-box', 'aria-labelledby': `${section.id}-scaling-heading` });
    section.querySelector(':scope > div.groups')?.after(box);
  }
  const view = run.scaling;
  box.hidden = view === undefined || run.removed === true;
  for (const [id, chart] of scalingCharts) {
    if (id.startsWith(`${section.id}:`)) {
      chart.destroy();
      scalingCharts.delete(id);
    }
  }
  if (!view) return replaceChildren(box);
  // The heading and the price form are made once, so typing a price is never interrupted by an
  // update; the groups are drawn anew.
  if (!box.querySelector(':scope > .scaling-groups')) {
    replaceChildren(
      box,
      h('h3', { id: `${section.id}-scaling-heading` }, 'Scaling with the cluster size'),
      h(
        'p',
        { class: 'muted' },
        'Dashed: the ideal linear line from the smallest size. Efficiency of a step a → b: (throughput at b / at a) / (b / a), 100 % is linear, with its 95 % interval when both sizes have 2+ repetitions. The best size per price has the highest ops/s per node; a size whose difference from it has an interval including 0 % (or no interval) cannot be told apart from it.',
      ),
      priceForm(section, host),
      h('div', { class: 'scaling-groups' }),
    );
  }
  updatePriceForm(box, run, host);
  replaceChildren(
    box.querySelector(':scope > .scaling-groups')!,
    ...view.groups.map((group) => scalingGroup(section, run, view, group, host)),
  );
}

/** The inputs show the price in force unless the reader is typing in them; the note says where it comes from. */
function updatePriceForm(box: HTMLElement, run: RunView, host: ScalingHost): void {
  const price = box.querySelector<HTMLInputElement>('input.price')!;
  const currency = box.querySelector<HTMLInputElement>('input.currency')!;
  if (document.activeElement !== price && document.activeElement !== currency) {
    price.value = host.price ? String(host.price.pricePerNodeHour) : '';
    currency.value = host.price ? host.price.currency : (run.cost?.currency ?? '');
  }
  const fromPlan =
    host.price &&
    run.cost &&
    host.price.pricePerNodeHour === run.cost.pricePerNodeHour &&
    host.price.currency === run.cost.currency;
  box.querySelector('.price-source')!.textContent = host.price
    ? fromPlan
      ? "the plan's price"
      : 'set here'
    : 'no price: enter one to see the cost of a million operations';
}

function priceForm(section: HTMLElement, host: ScalingHost): HTMLElement {
  const price = h('input', {
    type: 'number',
    class: 'price',
    id: `${section.id}-price`,
    min: 0,
    step: 'any',
    inputmode: 'decimal',
  });
  const currency = h('input', {
    type: 'text',
    class: 'currency',
    id: `${section.id}-currency`,
    maxlength: 12,
    size: 5,
  });
  const apply = () => {
    const value = Number(price.value);
    if (price.value.trim() === '') return host.setPrice(null);
    if (!Number.isFinite(value) || value <= 0 || currency.value.trim() === '') return;
    host.setPrice({ pricePerNodeHour: value, currency: currency.value.trim() });
  };
  price.addEventListener('change', apply);
  currency.addEventListener('change', apply);
  return h(
    'fieldset',
    { class: 'price-form' },
    h('legend', {}, 'Price per server node hour'),
    h('label', { for: price.id }, 'Price '),
    price,
    ' ',
    h('label', { for: currency.id }, 'Currency '),
    currency,
    ' ',
    h('span', { class: 'muted price-source', role: 'status' }),
  );
}

function scalingGroup(
  section: HTMLElement,
  run: RunView,
  view: ScalingPanelView,
  group: ScalingPanelView['groups'][number],
  host: ScalingHost,
): HTMLElement {
  const { theme, price } = host;
  const canvas = h('canvas', {
    id: `${safeId(group.id)}-canvas`,
    role: 'img',
    'aria-label': `Throughput by cluster size (nodes), ${group.title}, with each stack's ideal linear line; the tables list every value`,
  });
  const series = group.series.flatMap((line) => {
    const colour = colourFor(theme, run.stacks, line.stack);
    const measured = line.points
      .filter((point) => point.median !== null)
      .map((point) => ({ x: point.size, y: point.median! }));
    const ideal = line.points
      .filter((point) => point.ideal !== null)
      .map((point) => ({ x: point.size, y: point.ideal! }));
    const base = line.points.find(
      (point) => point.ideal !== null && point.median !== null && point.ideal === point.median,
    );
    return [
      { label: stackText(line.stack), colour, points: measured },
      ...(ideal.length > 0
        ? [
            {
              label: `${stackText(line.stack)}: ideal${base ? ` (linear from ${base.size} node${base.size === 1 ? '' : 's'})` : ''}`,
              colour,
              points: ideal,
              dashed: true,
            },
          ]
        : []),
    ];
  });
  const spec: XyChartSpec = {
    xTitle: 'cluster size (nodes)',
    yTitle: 'ops/s',
    series,
    xTicks: view.sizes.map((size) => ({ x: size, label: String(size) })),
    xMargin: 0.06,
    tooltip: (line, point) =>
      `${line.label}: ${integer.format(point.y)} ops/s at ${point.x} node${point.x === 1 ? '' : 's'}`,
  };
  const heading = `Throughput (ops/s) by cluster size, ${group.title}`;
  const save = host.save;
  const buttons = save
    ? imageButtons(`throughput by cluster size of ${group.title}`, (format) =>
        save(format, `${run.runId}-scaling-${group.title}`, xyChartConfig(spec, theme), [heading, `run ${run.runId}`]),
      )
    : [];
  const figure = h(
    'figure',
    { class: 'chart scaling-chart', 'data-group': group.id },
    h('figcaption', {}, h('h4', {}, heading), h('div', { class: 'toolbar' }, ...buttons)),
    h('div', { class: 'canvas-box' }, canvas),
  );
  const tables = group.series
    .filter((series) => series.points.some((point) => point.median !== null))
    .map((series) => {
      const head = [
        'Nodes',
        'ops/s',
        'ideal',
        'of ideal',
        'ops/s per node',
        ...(price ? [`${price.currency} per million operations`] : []),
        'step efficiency',
      ];
      const rows = series.points.map((point) => {
        const step = series.steps.find((candidate) => candidate.to === point.size);
        const cost = price && point.perNode !== null ? costPerMillionOps(point.perNode, price.pricePerNodeHour) : null;
        return h(
          'tr',
          { 'data-size': point.size },
          h('th', { scope: 'row' }, String(point.size)),
          h(
            'td',
            { 'data-value': point.median ?? undefined },
            point.median === null ? 'no value' : `${integer.format(point.median)}${point.marked ? ' (marked)' : ''}`,
          ),
          h('td', { 'data-ideal': point.ideal ?? undefined }, point.ideal === null ? '' : integer.format(point.ideal)),
          h('td', {}, point.ofIdealPercent === null ? '' : `${point.ofIdealPercent.toFixed(1)} %`),
          h(
            'td',
            { 'data-per-node': point.perNode ?? undefined },
            point.perNode === null ? '' : integer.format(point.perNode),
          ),
          ...(price
            ? [
                h(
                  'td',
                  { class: 'cost', 'data-cost': cost ?? undefined },
                  cost === null ? '' : formatCost(cost, price.currency),
                ),
              ]
            : []),
          h('td', { class: 'efficiency' }, step?.text ?? ''),
        );
      });
      const best = series.points.find((point) => point.size === series.bestSize);
      const bestCost =
        price && best?.perNode != null
          ? `; ${formatCost(costPerMillionOps(best.perNode, price.pricePerNodeHour), price.currency)} per million operations at ${best.size} node${best.size === 1 ? '' : 's'}`
          : '';
      return h(
        'div',
        { class: 'scaling-stack', 'data-stack': series.stack },
        h(
          'table',
          { class: 'scaling', 'data-stack': series.stack },
          h('caption', {}, `${stackText(series.stack)}, ${group.title}`),
          h('thead', {}, h('tr', {}, ...head.map((text) => h('th', { scope: 'col' }, text)))),
          h('tbody', {}, ...rows),
        ),
        series.best
          ? h(
              'p',
              { class: 'best-size', 'data-stack': series.stack },
              h('strong', {}, 'Best performance per price: '),
              `${series.best}${bestCost}.`,
            )
          : null,
      );
    });
  const box = h(
    'section',
    { class: 'scaling-group', id: safeId(group.id), 'data-group': group.id, 'aria-label': group.title },
    h('h4', {}, group.title),
    figure,
    ...tables,
  );
  // Drawn once the box is in the page (Chart.js sizes a chart from its box).
  queueMicrotask(() => {
    if (!canvas.isConnected) return;
    const chart = createXyChart(canvas, spec, theme);
    canvas.dataset.series = series
      .map((line) => `${line.label}=${line.points.map((point) => `${point.x}:${Math.round(point.y)}`).join(' ')}`)
      .join(' | ');
    scalingCharts.set(`${section.id}:${group.id}`, chart);
  });
  return box;
}
