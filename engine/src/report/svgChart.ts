// A small line-chart renderer that writes SVG text: the figures of the self-contained HTML report
// (`onload-bench report --html`, the panel's Export report). Pure and deterministic: the same spec
// always gives the same bytes, so tests compare coordinates.
//
// Why our own and not a package: the report must be drawn in Node without a browser. Chart.js
// needs a canvas (node-canvas is a native build; svgcanvas needs a DOM), and the server-side SVG
// chart packages either pull in a headless DOM (jsdom, ~5 MB) or are unmaintained. What the
// report draws is a few lines over a linear or "nines" x axis with bands and error bars: about 200
// lines here, every text escaped, nothing fetched.
import { ninesTicks, percentileToNines } from './percentileScale';

export interface SvgPoint {
  x: number;
  /** null: a gap in the line. */
  y: number | null;
  /** An error bar from low to high (e.g. a 95 % interval of the mean). */
  low?: number | null;
  high?: number | null;
  /**
   * A marked point (its number may not mean what the key says): drawn as a cross (×), as the panel draws it, and not
   * joined.
   */
  hollow?: boolean;
}

export interface SvgSeries {
  label: string;
  colour: string;
  points: SvgPoint[];
  /** A filled band behind the line (e.g. the min–max spread of the repetitions). */
  band?: { x: number; low: number; high: number }[];
  dashed?: boolean;
  /** A dash pattern of its own (`2 3`), when several dashed lines share a colour; wins over `dashed`. */
  dashArray?: string;
}

/** The stroke-dasharray attribute of a series' line and legend entry, if any. */
function dashOf(series: SvgSeries): string {
  const pattern = series.dashArray ?? (series.dashed ? '6 4' : undefined);
  return pattern ? ` stroke-dasharray="${escapeXml(pattern)}"` : '';
}

export interface SvgChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  /**
   * `category`: x values are evenly spaced labels (thread counts); `nines`: x values are percentiles on HdrHistogram's
   * scale.
   */
  xScale: 'linear' | 'category' | 'nines';
  series: SvgSeries[];
  width?: number;
  height?: number;
  /** Start the y axis at 0 (default true). */
  yFromZero?: boolean;
  formatY?: (value: number) => string;
  formatX?: (value: number) => string;
  /**
   * `linear` only: the x values to mark (cluster sizes 1, 2, 4), drawn to scale with a margin so no marker sits on the
   * plot's edge.
   */
  xTicks?: number[];
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an XML/HTML text node or a quoted attribute. */
export function escapeXml(text: string): string {
  return String(text).replace(/[&<>"']/g, (char) => escapes[char]);
}

const round = (value: number) => Math.round(value * 100) / 100;

/** About `count` round tick values spanning [min, max] (1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max <= min) max = min === 0 ? 1 : min + Math.abs(min) * 0.1;
  const raw = (max - min) / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step =
    [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let value = Math.floor(min / step) * step; value <= max + step * 1e-9; value += step)
    ticks.push(Number(value.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

function defaultFormat(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toPrecision(3))}k`;
  return String(Number(value.toPrecision(4)));
}

/** The legend's words for a marked point (the panel's legend, media/src/charts.ts, says the same). */
export const markedLegendText = '× every repetition marked';

type Plot = { left: number; top: number; right: number; bottom: number };
type Scale = (value: number) => number;

/** Legend entries flow left to right under the x label and wrap. */
function legendLayout(
  spec: SvgChartSpec,
  width: number,
): { legend: { x: number; row: number }[]; rows: number; anyMarked: boolean } {
  // an entry's width is estimated from the label's length (no text measuring without a browser)
  const legend: { x: number; row: number }[] = [];
  let cursor = 64;
  let row = 0;
  // A cross is explained by a legend entry of its own (the panel's legend says the same).
  const anyMarked = spec.series.some((series) =>
    series.points.some((point) => point.hollow && point.y !== null && Number.isFinite(point.y)),
  );
  const entries = [...spec.series.map((series) => series.label), ...(anyMarked ? [markedLegendText] : [])];
  for (const label of entries) {
    const entryWidth = 24 + label.length * 6.5 + 16;
    if (cursor + entryWidth > width - 16 && cursor > 64) {
      row += 1;
      cursor = 64;
    }
    legend.push({ x: cursor, row });
    cursor += entryWidth;
  }
  return { legend, rows: entries.length === 0 ? 0 : row + 1, anyMarked };
}

/** The x axis: categories are the distinct x values in order, evenly spaced; nines and linear are continuous. */
function xAxisOf(
  spec: SvgChartSpec,
  plot: Plot,
): { sx: Scale; xTicks: { value: number; label: string }[]; xMin: number; xMax: number } {
  const xs = [
    ...new Set(
      spec.series.flatMap((series) => [
        ...series.points.map((point) => point.x),
        ...(series.band ?? []).map((point) => point.x),
      ]),
    ),
  ].sort((a, b) => a - b);
  const place = (x: number) => (spec.xScale === 'nines' ? percentileToNines(x) : x);
  let xTicks: { value: number; label: string }[];
  let xMin: number;
  let xMax: number;
  if (spec.xScale === 'category') {
    xMin = -0.5;
    xMax = xs.length - 0.5;
    xTicks = xs.map((x, index) => ({ value: index, label: (spec.formatX ?? String)(x) }));
  } else if (spec.xScale === 'nines') {
    const ticks = ninesTicks(Math.max(0, ...xs.map(place)));
    xMin = 0;
    xMax = ticks[ticks.length - 1].position;
    xTicks = ticks.map((tick) => ({ value: tick.position, label: `${tick.label}%` }));
  } else if (spec.xTicks && spec.xTicks.length > 0) {
    const first = Math.min(...spec.xTicks);
    const last = Math.max(...spec.xTicks);
    const pad = last > first ? (last - first) * 0.06 : 0.5;
    xMin = first - pad;
    xMax = last + pad;
    xTicks = spec.xTicks.map((value) => ({ value, label: (spec.formatX ?? defaultFormat)(value) }));
  } else {
    const ticks = niceTicks(xs[0] ?? 0, xs[xs.length - 1] ?? 1);
    xMin = ticks[0];
    xMax = ticks[ticks.length - 1];
    xTicks = ticks.map((value) => ({ value, label: (spec.formatX ?? defaultFormat)(value) }));
  }
  const xPosition = (x: number) => (spec.xScale === 'category' ? xs.indexOf(x) : place(x));
  const sx = (x: number) => round(plot.left + ((xPosition(x) - xMin) / (xMax - xMin || 1)) * (plot.right - plot.left));

  return { sx, xTicks, xMin, xMax };
}

/** The y axis over every value, interval end and band of the series (from zero unless the spec says not). */
function yAxisOf(spec: SvgChartSpec, plot: Plot): { sy: Scale; yTicks: number[] } {
  const ys = spec.series
    .flatMap((series) => [
      ...series.points.flatMap((point) => [point.y, point.low, point.high]),
      ...(series.band ?? []).flatMap((point) => [point.low, point.high]),
    ])
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  const yTicks = niceTicks(
    spec.yFromZero === false ? Math.min(...ys, Infinity) : Math.min(0, ...ys),
    ys.length > 0 ? Math.max(...ys) : 1,
  );
  const yMin = yTicks[0];
  const yMax = yTicks[yTicks.length - 1];
  const sy = (y: number) => round(plot.bottom - ((y - yMin) / (yMax - yMin || 1)) * (plot.bottom - plot.top));

  return { sy, yTicks };
}

/** Grid, ticks, axes and their labels. */
function axesSvg(
  spec: SvgChartSpec,
  plot: Plot,
  x: ReturnType<typeof xAxisOf>,
  y: ReturnType<typeof yAxisOf>,
  formatY: (value: number) => string,
): string[] {
  const { xTicks, xMin, xMax } = x;
  const { sy, yTicks } = y;
  const parts: string[] = [];
  for (const tick of yTicks) {
    const y = sy(tick);
    parts.push(`<line class="grid" x1="${plot.left}" y1="${y}" x2="${plot.right}" y2="${y}" stroke="#e3e3e3"/>`);
    parts.push(
      `<text class="y-tick" x="${plot.left - 6}" y="${round(y + 4)}" font-size="11" text-anchor="end" fill="#444">${escapeXml(formatY(tick))}</text>`,
    );
  }
  for (const tick of xTicks) {
    const x = round(plot.left + ((tick.value - xMin) / (xMax - xMin || 1)) * (plot.right - plot.left));
    parts.push(`<line class="x-grid" x1="${x}" y1="${plot.top}" x2="${x}" y2="${plot.bottom}" stroke="#f0f0f0"/>`);
    parts.push(
      `<text class="x-tick" x="${x}" y="${plot.bottom + 15}" font-size="11" text-anchor="middle" fill="#444">${escapeXml(tick.label)}</text>`,
    );
  }
  parts.push(
    `<line class="axis" x1="${plot.left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="#888"/>`,
  );
  parts.push(
    `<line class="axis" x1="${plot.left}" y1="${plot.top}" x2="${plot.left}" y2="${plot.bottom}" stroke="#888"/>`,
  );
  parts.push(
    `<text class="x-label" x="${round((plot.left + plot.right) / 2)}" y="${plot.bottom + 32}" font-size="11" text-anchor="middle" fill="#444">${escapeXml(spec.xLabel)}</text>`,
  );
  parts.push(
    `<text class="y-label" transform="translate(14 ${round((plot.top + plot.bottom) / 2)}) rotate(-90)" font-size="11" text-anchor="middle" fill="#444">${escapeXml(spec.yLabel)}</text>`,
  );

  return parts;
}

/** One series: its band, its line (broken at missing values), its error bars and points. */
function seriesSvg(series: SvgSeries, index: number, sx: Scale, sy: Scale): string {
  const colour = escapeXml(series.colour);
  const group: string[] = [`<g class="series" data-series="${escapeXml(series.label)}" data-index="${index}">`];
  const band = (series.band ?? []).filter((point) => Number.isFinite(point.low) && Number.isFinite(point.high));
  if (band.length >= 2) {
    const upper = band.map((point) => `${sx(point.x)},${sy(point.high)}`);
    const lower = [...band].reverse().map((point) => `${sx(point.x)},${sy(point.low)}`);
    group.push(
      `<polygon class="band" points="${[...upper, ...lower].join(' ')}" fill="${colour}" fill-opacity="0.18" stroke="none"/>`,
    );
  }
  // One path per unbroken run of points: a missing value leaves a gap instead of a false line.
  const runs: SvgPoint[][] = [];
  let current: SvgPoint[] = [];
  for (const point of series.points) {
    if (point.y === null || !Number.isFinite(point.y) || point.hollow) {
      if (current.length > 0) runs.push(current);
      current = [];
    } else current.push(point);
  }
  if (current.length > 0) runs.push(current);
  for (const run of runs.filter((points) => points.length >= 2)) {
    const d = run.map((point, at) => `${at === 0 ? 'M' : 'L'}${sx(point.x)} ${sy(point.y!)}`).join(' ');
    group.push(`<path class="line" d="${d}" fill="none" stroke="${colour}" stroke-width="2"${dashOf(series)}/>`);
  }
  for (const point of series.points) {
    if (point.y === null || !Number.isFinite(point.y)) continue;
    const x = sx(point.x);
    if (
      typeof point.low === 'number' &&
      typeof point.high === 'number' &&
      Number.isFinite(point.low) &&
      Number.isFinite(point.high)
    ) {
      const [low, high] = [sy(point.low), sy(point.high)];
      group.push(
        `<path class="error-bar" d="M${x} ${low} L${x} ${high} M${round(x - 4)} ${low} L${round(x + 4)} ${low} M${round(x - 4)} ${high} L${round(x + 4)} ${high}" stroke="${colour}" stroke-width="1.2" fill="none"/>`,
      );
    }
    const y = sy(point.y);
    group.push(
      point.hollow
        ? `<path class="point marked" d="M${round(x - 5)} ${round(y - 5)} L${round(x + 5)} ${round(y + 5)} M${round(x - 5)} ${round(y + 5)} L${round(x + 5)} ${round(y - 5)}" stroke="${colour}" stroke-width="2" fill="none"/>`
        : `<circle class="point" cx="${x}" cy="${y}" r="3" fill="${colour}"/>`,
    );
  }
  group.push('</g>');
  return group.join('');
}

export function renderSvgChart(spec: SvgChartSpec): string {
  const width = spec.width ?? 640;
  const height = spec.height ?? 300;
  const formatY = spec.formatY ?? defaultFormat;
  const { legend, rows: legendRows, anyMarked } = legendLayout(spec, width);
  const margin = { left: 64, right: 16, top: 28, bottom: 44 + 18 * legendRows };
  const plot = { left: margin.left, top: margin.top, right: width - margin.right, bottom: height - margin.bottom };
  const xAxis = xAxisOf(spec, plot);
  const yAxis = yAxisOf(spec, plot);
  const { sx } = xAxis;
  const { sy } = yAxis;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(spec.title)}">`,
  );
  parts.push(`<title>${escapeXml(spec.title)}</title>`);
  parts.push(`<rect class="background" x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(
    `<text class="chart-title" x="${plot.left}" y="18" font-size="13" font-weight="600" fill="#222">${escapeXml(spec.title)}</text>`,
  );
  parts.push(...axesSvg(spec, plot, xAxis, yAxis, formatY));
  spec.series.forEach((series, index) => parts.push(seriesSvg(series, index, sx, sy)));
  spec.series.forEach((series, index) => {
    const x = legend[index].x;
    const y = plot.bottom + 48 + legend[index].row * 18;
    parts.push(
      `<g class="legend-item"><line x1="${round(x)}" y1="${y - 4}" x2="${round(x + 18)}" y2="${y - 4}" stroke="${escapeXml(series.colour)}" stroke-width="3"${dashOf(series)}/><text x="${round(x + 24)}" y="${y}" font-size="11" fill="#222">${escapeXml(series.label)}</text></g>`,
    );
  });
  if (anyMarked) {
    const { x, row: at } = legend[spec.series.length];
    const y = plot.bottom + 48 + at * 18;
    parts.push(
      `<g class="legend-item marked"><text x="${round(x)}" y="${y}" font-size="11" fill="#222">${escapeXml(markedLegendText)}</text></g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}
