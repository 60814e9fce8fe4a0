// One self-contained HTML file for a run (`onload-bench report RUN --html`, the panel's Export
// report): what a user sends a colleague instead of a spreadsheet. It opens with the verdict (one
// line per interface and profile, verdict.ts, the same words as the panel and the terminal), then the cookbook's tables
// with
// their 95 % intervals, the CPU tables, the figures (throughput, latency, CPU, CPU per operation
// per interface, and the latency spectrum of the busiest point) as inline SVG, the marked and the
// failed cells with what each mark means, the environment and each profile's effective Onload
// settings. Pure: a string from the run's records.
//
// Nothing is fetched when the file is opened: no script at all, styles inline, figures inline SVG,
// system fonts; a Content-Security-Policy meta forbids any load even if a value slipped through.
// Every text from a file (run ids, host and profile names, marks' messages) is escaped.
import { evidenceMetrics } from './evidence/evidenceMetrics';
import { pointSpectra, spectrumOperations, thinByX, type SpectrumSeries } from './evidence/evidenceViews';
import { markLegend } from './evidence/markExplanations';
import { cellMarks, markLabel } from '../evidence/marks';
import { cellProofs } from './evidence/cellProofs';
import { clusterProof } from './evidence/clusterProof';
import { busiestThreads, cpuWindowText } from './evidence/busiestThreads';
import { cpuTableNotes } from './cpuTableNotes';
import { cellName, threadsText } from './names';
import type { CellKey, CellResult, RunManifest } from '../model';
import {
  buildReportTable,
  defaultMetrics,
  hasSpread,
  isUpperBound,
  measuredMetrics,
  reportLegend,
  type ReportGroup,
  type ReportTable,
  type StackCell,
} from './report';
import { formatDifference, relativeHalfWidth } from './statistics';
import { percentileToNines } from './percentileScale';
import {
  displayUnitOf,
  formatInDisplayUnit,
  formatTick,
  inDisplayUnit,
  metricDisplayUnit,
  type DisplayUnit,
} from './displayUnits';
import { escapeXml as escape, renderSvgChart, type SvgSeries } from './svgChart';
import { axisPointText, sweptAxes, threadsAxis, type AxisId } from './axes';
import {
  bestSizeText,
  buildScaling,
  costPerMillionOps,
  efficiencyText,
  formatCost,
  planCost,
  type CostSettings,
  type ScalingView,
} from './scaling';
import { seriesColour } from './palette';
import { stackDisplayNames, stackLabel } from './stackLabels';
import { buildVerdict, type VerdictLine } from './verdict';

/** A stack as the reader sees it (`kernel`, `Onload · latency`, or the plan's display name). */
type Label = (stack: string) => string;

export interface HtmlReportInput {
  runDir: string;
  results: readonly CellResult[];
  manifest?: RunManifest;
  /** Problems met reading the folder. */
  warnings?: readonly string[];
  /** When the report was made (ISO); omitted from the file when absent, so tests compare bytes. */
  generatedAt?: string;
  /** The axis the tables and figures are drawn against (axes.ts): threads unless asked otherwise. */
  xAxis?: AxisId;
  /** A price per server-node hour instead of the plan's `cost` (scaling.ts). */
  cost?: CostSettings;
}

/** The figures of each interface, in order, when the run measured them. */
const figureMetrics = [
  'throughput',
  'read-latency',
  'update-latency',
  'read-p99',
  'update-p99',
  'server-cpu',
  'client-cpu',
  'server-cpu-per-op',
  'ops-per-busy-core',
];
const cpuTableMetrics = ['server-cpu', 'client-cpu', 'server-cpu-per-op', 'ops-per-busy-core'];

const style = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #fff; margin: 24px auto; max-width: 1200px; padding: 0 16px; line-height: 1.4; }
h1 { font-size: 1.6em; margin: 0 0 4px; } h2 { font-size: 1.3em; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 1.1em; margin: 20px 0 6px; } .muted { color: #666; }
table { border-collapse: collapse; margin: 6px 0 16px; font-variant-numeric: tabular-nums; font-size: 0.92em; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e3e3e3; text-align: right; white-space: nowrap; }
/* A value's marks wrap below it (each mark whole) rather than widen the table past the page. */
table.report-table th { white-space: normal; overflow-wrap: anywhere; } table.report-table td { white-space: normal; } table.report-table td .mark, table.report-table td .spread { white-space: nowrap; }
table { max-width: 100%; }
th:first-child, td.text { text-align: left; } thead th { border-bottom: 2px solid #bbb; }
td.improvement { color: #1a7f37; font-weight: 600; } td.regression { color: #b42318; } td.not-significant, td.marked { color: #666; font-style: italic; }
.mark { color: #9a6700; font-style: italic; } .spread { color: #666; font-size: 0.9em; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 12px; }
figure svg { width: 100%; height: auto; display: block; }
table.environment th { text-align: left; }
figure { margin: 0; border: 1px solid #e3e3e3; border-radius: 4px; padding: 6px; } figcaption { font-size: 0.85em; color: #555; margin-top: 4px; }
dl.legend dt { font-weight: 600; } dl.legend dd { margin: 0 0 6px 16px; }
pre.legend { white-space: pre-wrap; overflow-wrap: anywhere; }
ul.warnings { color: #9a6700; }
ul.verdict { list-style: none; padding: 0; font-size: 1.05em; } ul.verdict li { margin: 4px 0; padding: 4px 8px; border-left: 4px solid #888; }
ul.verdict li.better { border-color: #1a7f37; } ul.verdict li.worse { border-color: #b42318; } ul.verdict .cue { font-weight: 600; }
ul.verdict li.better .cue { color: #1a7f37; } ul.verdict li.worse .cue { color: #b42318; } code { font-family: ui-monospace, Menlo, Consolas, monospace; }
table.environment td.facts { white-space: normal; overflow-wrap: anywhere; }
ul.marked-cells li { margin: 4px 0; } ul.marked-cells .cells { overflow-wrap: anywhere; }
table.threads { margin: 4px 0 10px; } table.threads tr.saturated td { font-weight: 600; color: #b42318; }
/* Prints on A4 (and Letter): tables wrap instead of widening the page, figures one per row. */
@page { size: A4; margin: 14mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  th, td { white-space: normal; overflow-wrap: anywhere; padding: 2px 4px; }
  table { max-width: 100%; }
  .figures { grid-template-columns: 1fr; } figure { break-inside: avoid; }
}
`;

/** The panel's own fixed palette (palette.ts), so a figure here and a chart there look alike. */
function colourOf(stacks: readonly string[], stack: string): string {
  return seriesColour(stacks, stack);
}

function sameGroup(key: CellKey, group: ReportGroup): boolean {
  return (
    key.interface === group.interface &&
    (key.address ?? '') === (group.address ?? '') &&
    (key.clusterSize ?? null) === (group.clusterSize ?? null) &&
    JSON.stringify(Object.entries(key.axes ?? {}).sort()) === JSON.stringify(Object.entries(group.axes).sort())
  );
}

/** The 95 % interval of a point's mean (for the error bars), when 2+ repetitions count. */
function meanInterval(cell: StackCell): { low: number; high: number } | undefined {
  const halfWidth = relativeHalfWidth(cell.values);
  if (halfWidth === undefined) return undefined;
  const mean = cell.values.reduce((sum, value) => sum + value, 0) / cell.values.length;
  return { low: mean * (1 - halfWidth / 100), high: mean * (1 + halfWidth / 100) };
}

function cellHtml(cell: StackCell, unit: DisplayUnit): string {
  switch (cell.state) {
    case 'pending':
      return '<td class="muted">not run yet</td>';
    case 'failed':
      return '<td class="marked">failed</td>';
    case 'no-data':
      return '<td class="muted">n/a</td>';
    default: {
      const parts = [escape(formatInDisplayUnit(cell.value!, unit))];
      if (hasSpread(cell))
        parts.push(
          `<span class="spread">[${escape(formatInDisplayUnit(cell.min!, unit))}–${escape(formatInDisplayUnit(cell.max!, unit))}]</span>`,
        );
      if (isUpperBound(cell))
        parts.push('<span class="mark" title="upper bound (max of clients): no HDR logs to merge">^</span>');
      for (const mark of cell.marks)
        parts.push(
          `<span class="mark" title="${escape(mark.messages.join(' '))}">(${escape(markLabel(mark.code))})</span>`,
        );
      if (cell.failed > 0) parts.push(`<span class="spread">(${cell.failed}/${cell.finished} failed)</span>`);
      return `<td class="${cell.state === 'marked' ? 'marked' : 'value'}" data-stack="${escape(cell.stack)}" data-value="${cell.value}">${parts.join(' ')}</td>`;
    }
  }
}

function tableHtml(table: ReportTable, group: ReportGroup, groupIndex: number, label: Label, idPrefix = ''): string {
  const { metric } = table;
  // One unit for the metric over the whole run (displayUnits.ts): every group's table, caption and figure agree.
  const unit = metricDisplayUnit([table]);
  const head = [
    `<th>${escape(table.xAxis.column)}</th>`,
    ...table.stacks.map((stack) => `<th>${escape(label(stack))} (${escape(unit)})</th>`),
    ...(table.hasBaseline
      ? table.profiles.map((stack) => `<th>${escape(label(stack))} vs ${escape(label('kernel'))}</th>`)
      : []),
  ];
  const rows = group.rows.map((row) => {
    const comparisons = table.hasBaseline
      ? row.comparisons.map((comparison) => {
          if (!comparison.difference) return '<td class="muted">–</td>';
          const classes = comparison.marked
            ? 'marked'
            : comparison.improvement
              ? 'improvement'
              : comparison.significant
                ? 'regression'
                : 'not-significant';
          const text = `${formatDifference(comparison.difference)}${comparison.best ? ' ★' : ''}${comparison.marked ? ' (a side is marked)' : ''}`;
          const interval = comparison.difference.interval;
          const title = interval
            ? `95 % interval ${interval.low.toFixed(1)} % to ${interval.high.toFixed(1)} %${comparison.difference.pValue !== undefined ? `, p = ${comparison.difference.pValue.toPrecision(2)}` : ''}`
            : '';
          return `<td class="${classes}" data-stack="${escape(comparison.stack)}"${title ? ` title="${escape(title)}"` : ''}>${escape(text)}</td>`;
        })
      : [];
    // Against threads the row is what it always was; against another axis it also says its value.
    const x = table.xAxis.id === threadsAxis ? '' : ` data-x="${escape(String(row.x))}"`;
    return `<tr data-threads="${row.threads}"${x}><th>${escape(String(row.x))}</th>${row.cells.map((cell) => cellHtml(cell, unit)).join('')}${comparisons.join('')}</tr>`;
  });
  const summary =
    table.hasBaseline && table.profiles.length > 0
      ? table.tested === 0
        ? 'No difference has an interval: every point needs at least two repetitions of each stack.'
        : `${table.significantCount} of ${table.tested} differences with an interval are significant at 95 % (in the whole run).`
      : '';
  const notes = cpuTableNotes(table)
    .map((note) => `<p class="muted cpu-note">${escape(note)}</p>`)
    .join('');
  return `<table class="report-table" id="${escape(idPrefix ? `${idPrefix}-` : '')}g${groupIndex}-${escape(metric.id)}" data-metric="${escape(metric.id)}"${table.xAxis.id === threadsAxis ? '' : ` data-x-axis="${escape(table.xAxis.id)}"`}><caption>${escape(metric.title)} (${escape(unit)}, ${metric.higherIsBetter ? 'higher' : 'lower'} is better)</caption><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>${summary ? `<p class="muted">${escape(summary)}</p>` : ''}${notes}`;
}

function metricFigure(table: ReportTable, group: ReportGroup, runId: string, label: Label): string | undefined {
  const unit = metricDisplayUnit([table]);
  const scale = (value: number | undefined | null) =>
    value === undefined || value === null ? null : inDisplayUnit(value, unit);
  const series: SvgSeries[] = table.stacks.map((stack, column) => {
    const points = group.rows.map((row) => {
      const cell = row.cells[column];
      const hasValue = (cell.state === 'ok' || cell.state === 'marked') && cell.value !== undefined;
      const interval = cell.state === 'ok' ? meanInterval(cell) : undefined;
      return {
        x: xPlace(group, row.x),
        y: hasValue ? scale(cell.value) : null,
        low: scale(interval?.low),
        high: scale(interval?.high),
        hollow: cell.state === 'marked',
      };
    });
    const band = group.rows.flatMap((row) => {
      const cell = row.cells[column];
      return cell.state === 'ok' && cell.repetitions >= 2 && cell.min !== undefined && cell.max !== undefined
        ? [{ x: xPlace(group, row.x), low: scale(cell.min)!, high: scale(cell.max)! }]
        : [];
    });
    return { label: label(stack), colour: colourOf(table.stacks, stack), points, band };
  });
  if (!series.some((entry) => entry.points.some((point) => point.y !== null))) return undefined;
  const title = `${table.metric.title}, ${group.title}`;
  const svg = renderSvgChart({
    title,
    xLabel: table.xAxis.title,
    yLabel: unit,
    xScale: 'category',
    series,
    formatY: formatTick,
    formatX: (x) => String(xText(group, x)),
  });
  const bounded = group.rows.flatMap((row) =>
    row.cells.filter(isUpperBound).map((cell) => `${label(cell.stack)} at ${axisPointText(table.xAxis.id, row.x)}`),
  );
  const caveat =
    bounded.length > 0 ? ` Upper bound (max of clients), no HDR logs to merge: ${bounded.join(', ')}.` : '';
  return `<figure data-metric="${escape(table.metric.id)}"${table.xAxis.id === threadsAxis ? '' : ` data-x-axis="${escape(table.xAxis.id)}"`}>${svg}<figcaption>${escape(table.metric.title)} by ${escape(table.xAxis.title)}, run ${escape(runId)}: line = median of the repetitions, band = min–max, bars = 95 % interval of the mean, × = every repetition marked (see Marked cells).${escape(caveat)}</figcaption></figure>`;
}

/**
 * Where a row's x value goes on a category axis: the value itself when numeric, else its place among the group's
 * values.
 */
function xPlace(group: ReportGroup, x: number | string): number {
  return group.rows.every((row) => Number.isFinite(Number(row.x)))
    ? Number(x)
    : group.rows.findIndex((row) => row.x === x);
}

function xText(group: ReportGroup, place: number): number | string {
  return group.rows.every((row) => Number.isFinite(Number(row.x))) ? place : (group.rows[place]?.x ?? place);
}

function spectrumFigure(
  results: readonly CellResult[],
  stacks: readonly string[],
  group: ReportGroup,
  runId: string,
  label: Label,
): string | undefined {
  // The busiest point that compares best: the most arms with an unmarked merged HDR spectrum,
  // then the highest thread count.
  const groupResults = results.filter((result) => result.status === 'ok' && sameGroup(result.key, group));
  const operation = spectrumOperations(groupResults)[0];
  if (!operation) return undefined;
  const candidates = group.rows.flatMap((row) => {
    const key = groupResults.find((result) => result.key.threads === row.threads)?.key;
    const spectra = key ? pointSpectra(groupResults, key, stacks, operation) : [];
    const score =
      spectra.length * 10 +
      spectra.filter((spectrum) => spectrum.source === 'hdr-merged' && !spectrum.marked).length * 100;
    return spectra.length > 0 ? [{ row, spectra, score }] : [];
  });
  candidates.sort((a, b) => b.score - a.score || b.row.threads - a.row.threads);
  for (const { row, spectra } of candidates.slice(0, 1)) {
    const unit = displayUnitOf(
      'µs',
      spectra.flatMap((spectrum) => spectrum.points.map((point) => point.valueUs)),
    );
    const svg = renderSvgChart({
      title: `${operation} latency by percentile, ${threadsText(row.threads)}, ${group.title}`,
      xLabel: 'percentile',
      yLabel: unit,
      formatY: formatTick,
      xScale: 'nines',
      series: spectra.map((spectrum) => ({
        label: `${label(spectrum.stack)} (rep. ${spectrum.repetition}${spectrumNote(spectrum)})`,
        colour: colourOf(stacks, spectrum.stack),
        dashed: spectrum.source !== 'hdr-merged',
        // HdrHistogram's distribution can hold hundreds of points: about 80 along the nines scale are plenty.
        points: thinByX(
          spectrum.points.map((point) => ({
            x: percentileToNines(point.percentile),
            percentile: point.percentile,
            valueUs: point.valueUs,
          })),
        ).map((point) => ({ x: point.percentile, y: inDisplayUnit(point.valueUs, unit) })),
      })),
    });
    return `<figure data-metric="spectrum">${svg}<figcaption>Latency percentile spectrum (HdrHistogram style), run ${escape(runId)}: solid = merged HDR histograms of all clients; dashed = YCSB's summary percentiles (for several clients the worst client's: an upper bound).</figcaption></figure>`;
  }
  return undefined;
}

function spectrumNote(spectrum: SpectrumSeries): string {
  if (spectrum.source === 'client-max') return ', upper bound (max of clients)';
  if (spectrum.source === 'ycsb') return ', YCSB summary';
  return spectrum.marked ? ', marked' : '';
}

/**
 * The cookbook's throughput and read latency tables and the throughput figure against every other
 * swept axis (cluster size, a YCSB property), the remaining axes held in each group (axes.ts).
 */
function otherAxesHtml(
  input: { results: readonly CellResult[]; manifest?: RunManifest },
  xAxis: AxisId,
  runId: string,
  label: Label,
): string {
  const keys = [...(input.manifest?.cells.map((cell) => cell.key) ?? []), ...input.results.map((result) => result.key)];
  const sections = sweptAxes(keys)
    .filter((axis) => axis.id !== xAxis)
    .map((axis) => {
      const throughput = buildReportTable(input, 'throughput', axis.id)!;
      const latency = buildReportTable(input, 'read-latency', axis.id)!;
      const groups = throughput.groups.map((group, index) => {
        const figure = metricFigure(throughput, group, runId, label);
        return `<section class="axis-group"><h3>${escape(group.title)}</h3>${tableHtml(throughput, group, index, label, axis.id)}${tableHtml(latency, latency.groups[index], index, label, axis.id)}${figure ? `<div class="figures">${figure}</div>` : ''}</section>`;
      });
      // One more axis shown as separate lines instead of held: threads when they are not across, else the next swept
      // axis.
      const lineAxis = sweptAxes(keys).find(
        (candidate) =>
          candidate.id !== axis.id &&
          new Set(throughput.groups.map((group) => String(heldValue(group, candidate.id)))).size > 1,
      );
      const lines = lineAxis ? linesFigures(throughput, lineAxis.id, lineAxis.title, runId, label) : [];
      const linesHtml =
        lines.length > 0
          ? `<section class="axis-lines" data-lines="${escape(lineAxis!.id)}"><h3>${escape(lineAxis!.title)} as separate lines</h3><div class="figures">${lines.join('')}</div></section>`
          : '';
      return `<section class="by-axis" data-x-axis="${escape(axis.id)}"><h2 id="by-${escape(axis.id)}">By ${escape(axis.title)}</h2><p class="muted">The same runs with ${escape(axis.title)} across; every other axis held in each group${lineAxis ? `, then ${escape(lineAxis.title)} drawn as separate lines` : ''}.</p>${groups.join('')}${linesHtml}</section>`;
    });
  return sections.join('\n');
}

/** A group's held value of an axis (the threads, the size, a YCSB property). */
function heldValue(group: ReportGroup, axis: AxisId): number | string | undefined {
  if (axis === threadsAxis) return group.threads;
  if (axis === 'clusterSize') return group.clusterSize;
  return group.axes[axis];
}

/** Dash patterns that tell the lines of one stack apart (its colour stays the stack's). */
const linePatterns = ['', '6 4', '2 3', '10 3 2 3', '1 5'];

/**
 * The table's groups that differ only in `lineAxis`, drawn together: one figure each, a line per
 * stack and value of that axis (the stack's colour, a dash pattern per value).
 */
function linesFigures(table: ReportTable, lineAxis: AxisId, lineTitle: string, runId: string, label: Label): string[] {
  const merged = new Map<string, { title: string; members: { group: ReportGroup; value: number | string }[] }>();
  for (const group of table.groups) {
    const value = heldValue(group, lineAxis);
    if (value === undefined) continue;
    const title = group.title.replace(`, ${axisPointText(lineAxis, value)}`, '');
    const entry = merged.get(title) ?? { title, members: [] };
    entry.members.push({ group, value });
    merged.set(title, entry);
  }
  return [...merged.values()]
    .filter((entry) => entry.members.length > 1)
    .map((entry) => {
      const series: SvgSeries[] = entry.members.flatMap(({ group, value }, index) =>
        table.stacks.map((stack, column) => ({
          label: `${label(stack)} · ${axisPointText(lineAxis, value)}`,
          colour: colourOf(table.stacks, stack),
          dashArray: linePatterns[index % linePatterns.length] || undefined,
          points: group.rows.map((row) => {
            const cell = row.cells[column];
            const hasValue = (cell.state === 'ok' || cell.state === 'marked') && cell.value !== undefined;
            return { x: xPlace(group, row.x), y: hasValue ? cell.value! : null, hollow: cell.state === 'marked' };
          }),
        })),
      );
      const first = entry.members[0].group;
      const title = `${table.metric.title}, ${entry.title}, ${lineTitle} as lines`;
      const svg = renderSvgChart({
        title,
        xLabel: table.xAxis.title,
        yLabel: table.metric.unit,
        xScale: 'category',
        series,
        formatY: formatTick,
        formatX: (x) => String(xText(first, x)),
      });
      return `<figure data-metric="${escape(table.metric.id)}" data-x-axis="${escape(table.xAxis.id)}" data-lines="${escape(lineAxis)}">${svg}<figcaption>${escape(table.metric.title)} by ${escape(table.xAxis.title)}, run ${escape(runId)}: a line per stack (its colour) and ${escape(lineTitle)} (its dash pattern); medians of the repetitions, × = every repetition marked.</figcaption></figure>`;
    });
}

/**
 * Throughput against nodes with each stack's ideal linear line (dashed), the efficiency of each
 * step, ops/s per node, with a price the cost of a million operations, and the best size per price.
 */
function scalingHtml(view: ScalingView, runId: string, label: Label, cost?: CostSettings): string {
  const groups = view.groups.map((group) => {
    const series: SvgSeries[] = group.series.flatMap((line) => {
      const colour = colourOf(view.stacks, line.stack);
      const base = line.points.find(
        (point) => point.ideal !== undefined && point.median !== undefined && !point.marked,
      );
      return [
        {
          label: label(line.stack),
          colour,
          points: line.points.map((point) => ({ x: point.size, y: point.median ?? null, hollow: point.marked })),
        },
        ...(base
          ? [
              {
                label: `${label(line.stack)}: ideal (linear from ${axisPointText('clusterSize', base.size)})`,
                colour,
                dashed: true,
                points: line.points
                  .filter((point) => point.ideal !== undefined)
                  .map((point) => ({ x: point.size, y: point.ideal! })),
              },
            ]
          : []),
      ];
    });
    const svg = renderSvgChart({
      title: `Throughput by cluster size, ${group.title}`,
      xLabel: 'cluster size (nodes)',
      yLabel: 'ops/s',
      xScale: 'linear',
      xTicks: [...new Set(group.series.flatMap((line) => line.points.map((point) => point.size)))],
      formatX: String,
      series,
    });
    const tables = group.series
      .filter((line) => line.points.some((point) => point.median !== undefined))
      .map((line) => {
        const head = [
          'nodes',
          'ops/s',
          'ideal',
          'of ideal',
          'ops/s per node',
          ...(cost ? [`${cost.currency} per million operations`] : []),
          'scaling efficiency of the step',
        ]
          .map((text) => `<th>${escape(text)}</th>`)
          .join('');
        const rows = line.points.map((point) => {
          const step = line.steps.find((candidate) => candidate.to === point.size);
          const cells =
            point.median === undefined
              ? [`<td class="muted" colspan="${cost ? 6 : 5}">no value</td>`]
              : [
                  `<td${point.marked ? ' class="marked"' : ''}>${escape(Math.round(point.median).toLocaleString('en-US'))}${point.marked ? ' (marked)' : ''}</td>`,
                  `<td>${point.ideal === undefined ? '' : escape(Math.round(point.ideal).toLocaleString('en-US'))}</td>`,
                  `<td>${point.ofIdealPercent === undefined ? '' : `${point.ofIdealPercent.toFixed(1)} %`}</td>`,
                  `<td data-per-node="${point.perNode}">${escape(Math.round(point.perNode!).toLocaleString('en-US'))}</td>`,
                  ...(cost
                    ? [
                        `<td data-cost="${costPerMillionOps(point.perNode!, cost.pricePerNodeHour)}">${escape(formatCost(costPerMillionOps(point.perNode!, cost.pricePerNodeHour), cost.currency))}</td>`,
                      ]
                    : []),
                  `<td class="efficiency">${step ? escape(efficiencyText(step)) : ''}</td>`,
                ];
          return `<tr data-size="${point.size}"><th>${point.size}</th>${cells.join('')}</tr>`;
        });
        const best = bestSizeText(line, cost);
        return `<table class="scaling" data-stack="${escape(line.stack)}"><caption>${escape(label(line.stack))}</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>${best ? `<p class="best-size" data-stack="${escape(line.stack)}">Best performance per price: ${escape(best)}.</p>` : ''}`;
      });
    return `<section class="scaling-group"><h3>${escape(group.title)}</h3><div class="figures"><figure data-metric="scaling">${svg}<figcaption>Throughput (median of the repetitions) by cluster size, run ${escape(runId)}; dashed: the ideal linear line from the smallest size.</figcaption></figure></div>${tables.join('')}</section>`;
  });
  const price = cost ? ` at ${formatCost(cost.pricePerNodeHour, cost.currency)} per node hour` : '';
  return `<section class="scaling-view"><h2 id="scaling">Scaling with the cluster size</h2><p>Ideal: the smallest size's throughput times n over that size. Scaling efficiency of a step a → b: (mean throughput at b / at a) / (b / a), 100 % being linear, with the 95 % interval of the ratio of means when both sizes have 2+ repetitions. Cost${escape(price)}: ops/s per node and the cost of a million operations; the best size per price is the highest ops/s per node, and a size whose difference from it has an interval including 0 % (or no interval) is named as not distinguishable from it.${cost ? '' : ' No price is given (plan: cost), so no cost is shown.'}</p>${groups.join('')}</section>`;
}

function environmentHtml(manifest: RunManifest | undefined, results: readonly CellResult[]): string {
  const environment = manifest?.environment;
  const parts: string[] = ['<h2 id="environment">Environment</h2>'];
  if (!environment || Object.keys(environment.hosts).length === 0)
    parts.push('<p class="muted">The run recorded no environment.</p>');
  else {
    const rows = Object.entries(environment.hosts).map(([host, env]) => {
      const facts: string[] = [];
      // A value that names itself ("Couchbase Server 7.6.2") is not labelled again ("Couchbase Couchbase Server").
      const add = (label: string, value: string | undefined) =>
        value &&
        facts.push(
          value.toLowerCase().startsWith(label.toLowerCase())
            ? `<code>${escape(value)}</code>`
            : `${escape(label)} <code>${escape(value)}</code>`,
        );
      add('kernel', env.kernel);
      add('Couchbase', env.couchbase);
      add('YCSB', env.ycsb);
      add('Java', env.java);
      add('Onload', env.onload);
      for (const [address, nic] of Object.entries(env.interfaces ?? {})) {
        add(
          `interface ${address}`,
          [nic.device, nic.driver, nic.firmware && `firmware ${nic.firmware}`].filter(Boolean).join(', ') || 'unknown',
        );
      }
      return `<tr><td class="text">${escape(host)}</td><td class="text">${escape(env.role)}</td><td class="text facts">${facts.join('; ')}</td></tr>`;
    });
    parts.push(
      `<table class="environment"><caption>Hosts</caption><thead><tr><th>host</th><th>role</th><th>facts</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  // The sampler's own cost: the CPU figures are only worth reading when it is negligible.
  const costs = results
    .flatMap((result) => Object.values(result.evidence?.cpu?.sampler?.selfCostPctOfCore ?? {}))
    .filter(Number.isFinite);
  if (costs.length > 0)
    parts.push(
      `<p class="muted">CPU sampler cost: at most ${escape(Math.max(...costs).toFixed(2))} % of one core on any host.</p>`,
    );
  const profiles = Object.entries(environment?.profiles ?? {});
  parts.push('<h3>Effective Onload settings</h3>');
  if (profiles.length === 0) parts.push('<p class="muted">No Onload profile recorded.</p>');
  for (const [name, options] of profiles) {
    const rows = Object.entries(options).map(
      ([option, value]) =>
        `<tr><td class="text"><code>${escape(option)}</code></td><td class="text"><code>${escape(value)}</code></td></tr>`,
    );
    parts.push(
      `<table class="profile" data-profile="${escape(name)}"><caption>Profile ${escape(name)}</caption><tbody>${rows.join('') || '<tr><td class="text muted">no options (defaults)</td></tr>'}</tbody></table>`,
    );
  }
  return parts.join('\n');
}

function describeKey(key: CellKey): string {
  return cellName(key);
}

function marksHtml(results: readonly CellResult[]): string {
  const marked = results.filter((result) => result.status === 'ok' && cellMarks(result).length > 0);
  if (marked.length === 0) return '';
  const codes = marked.flatMap((result) => cellMarks(result).map((mark) => mark.code));
  const legend = markLegend(codes).map(
    (entry) =>
      `<dt data-mark="${escape(entry.code)}">${escape(entry.label)} <code>${escape(entry.code)}</code></dt><dd>${escape(entry.explanation)}</dd>`,
  );
  // One bullet per reason, listing its cells (each cell's own words in its title), not one per cell.
  const byCode = new Map<string, { cell: string; detail: string }[]>();
  for (const result of marked) {
    for (const mark of cellMarks(result)) {
      const cells = byCode.get(mark.code) ?? [];
      cells.push({ cell: describeKey(result.key), detail: `${mark.host ? `${mark.host}: ` : ''}${mark.message}` });
      byCode.set(mark.code, cells);
    }
  }
  const items = [...byCode].map(([code, cells]) => {
    const details = [...new Set(cells.map((entry) => entry.detail))];
    const example = details.length === 1 ? details[0] : `${details[0]} (and ${details.length - 1} more like it)`;
    return `<li data-mark="${escape(code)}" data-cells="${cells.length}"><span class="mark">${escape(markLabel(code))}</span>, ${cells.length} cell${cells.length === 1 ? '' : 's'}: <span class="cells">${cells.map((entry) => `<span class="cell" title="${escape(entry.detail)}">${escape(entry.cell)}</span>`).join('; ')}</span>. <span class="muted">${escape(example)}</span></li>`;
  });
  return `<h2 id="marks">Marked cells</h2><p>A marked repetition may not measure what its row and column say. It is left out of the median when unmarked repetitions exist (a busy-polling note excepted: it only says how the CPU figures read); a point whose repetitions are all marked is shown with its number, drawn as a cross (×) in the figures as in the panel, and never counted as an improvement.</p><dl class="legend">${legend.join('')}</dl><ul class="marked-cells">${items.join('')}</ul>`;
}

/**
 * The per-thread CPU view (evidence/busiestThreads.ts): per cell, what its CPU covers and each host's busiest threads.
 */
function threadsHtml(results: readonly CellResult[]): string {
  const items = results
    .filter((result) => result.status === 'ok')
    .flatMap((result) => {
      const views = busiestThreads(result);
      if (views.length === 0) return [];
      const { key } = result;
      const window = cpuWindowText(result.evidence?.cpu?.window);
      const rows = views.flatMap((view) =>
        view.threads.map(
          (thread, index) =>
            `<tr${thread.saturated ? ' class="saturated"' : ''}>${index === 0 ? `<th rowspan="${view.threads.length}" scope="rowgroup">${escape(view.host)} (${escape(view.role)}) ${escape(view.process)}${view.more > 0 ? ` <span class="muted">+${view.more} more</span>` : ''}</th>` : ''}<td>${escape(thread.name)}</td><td>${thread.tid}</td><td>${escape(thread.pctOfCore.toFixed(0))} %${thread.saturated ? ' (saturated)' : thread.spinning ? ' (spins by design: couchbase.boost)' : ''}</td></tr>`,
        ),
      );
      return [
        `<li><span class="cells">${escape(cellName(key))}</span>${window ? ` <span class="muted">${escape(window)}</span>` : ''}<table class="threads"><thead><tr><th>host, process</th><th>thread (comm)</th><th>tid</th><th>% of one CPU</th></tr></thead><tbody>${rows.join('')}</tbody></table></li>`,
      ];
    });
  if (items.length === 0) return '';
  return `<h2 id="threads">Busiest threads</h2><p>The busiest threads of memcached (servers) and of the YCSB JVM (clients) over the measured window, from <code>/proc/PID/task/TID/stat</code>, named from their comm; a thread at 90 % of one CPU or more is saturated, and a saturated client thread marks the cell client-bound, except the couchbase2 binding's IO loops (<code>cb-io-*</code>), which spin by design when <code>couchbase.boost</code> &gt; 0 (a note says so).</p><ul class="threads">${items.join('')}</ul>`;
}

/** How each cell's acceleration and interface were proven, or why not (evidence/cellProofs.ts). */
function proofsHtml(results: readonly CellResult[]): string {
  const items = results
    .filter((result) => result.status === 'ok')
    .flatMap((result) => [
      ...cellProofs(result).map(
        (proof) =>
          `<li data-cell="${escape(result.id)}" data-host="${escape(proof.host)}">${escape(describeKey(result.key))}, ${escape(proof.host)}<dl><dt>Acceleration</dt><dd>${escape(proof.acceleration)}</dd><dt>Interface</dt><dd>${escape(proof.interface)}</dd><dt>memcached</dt><dd>${escape(proof.memcached)}</dd></dl></li>`,
      ),
      ...clusterHtml(result),
    ]);
  if (items.length === 0) return '';
  return `<h2 id="proofs">How each cell was proven</h2><p>Acceleration from Onload's own view (<code>onload_stackdump lots</code>: the clients' KV connections in memcached's stack during the run) and the interface from those connections' local addresses; each claim names its source.</p><ul class="proofs">${items.join('')}</ul>`;
}

/** The cell's cluster (evidence/clusterProof.ts): how it was formed, and each node's share of the bucket. */
function clusterHtml(result: CellResult): string[] {
  const cluster = clusterProof(result);
  if (!cluster) return [];
  const rows = cluster.nodes.map(
    (node) =>
      `<tr><td>${escape(node.node)}</td><td>${escape(node.services)}</td><td>${escape(node.vBuckets)}</td><td>${escape(node.items)}</td></tr>`,
  );
  const table =
    rows.length > 0
      ? `<table class="cluster-nodes"><thead><tr><th>node</th><th>services</th><th>vBuckets</th><th>items</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '';
  return [
    `<li data-cell="${escape(result.id)}" data-cluster="${cluster.nodes.length}">${escape(describeKey(result.key))}, cluster<dl><dt>Formed</dt><dd>${escape(cluster.formed)}</dd><dt>Replicas</dt><dd>${escape(cluster.replicas)}</dd></dl>${table}</li>`,
  ];
}

function failuresHtml(results: readonly CellResult[]): string {
  const failed = results.filter((result) => result.status === 'failed');
  if (failed.length === 0) return '';
  const items = failed.map((result) => {
    const error = result.error;
    const why = error
      ? `[${error.code}] ${error.host ? `${error.host}: ` : ''}${error.step}: ${error.message} Next: ${error.action}`
      : 'no error recorded';
    return `<li>${escape(describeKey(result.key))}: ${escape(why)}</li>`;
  });
  return `<h2 id="failures">Failed cells (${failed.length})</h2><ul>${items.join('')}</ul>`;
}

/** One item per verdict line; the cue (▲ better, ▼ worse) is in words and symbols, colour only repeats it. */
function verdictHtml(lines: readonly VerdictLine[]): string {
  const items = lines.map((line) => {
    const at = line.text.indexOf(line.cue);
    const text =
      at < 0
        ? escape(line.text)
        : `${escape(line.text.slice(0, at))}<span class="cue">${escape(line.cue)}</span>${escape(line.text.slice(at + line.cue.length))}`;
    return `<li class="${line.kind}" data-kind="${line.kind}" data-interface="${escape(line.interface)}" data-stack="${escape(line.stack)}">${text}</li>`;
  });
  return `<ul class="verdict">${items.join('')}</ul>`;
}

/** The largest significant improvements over the kernel of the cookbook's metrics, as a list. */
function bestImprovementsHtml(tables: ReadonlyMap<string, ReportTable>, xAxis: AxisId, label: Label): string {
  const best = defaultMetrics.flatMap((id) =>
    (tables.get(id)?.bestImprovements ?? []).map((item) => ({ ...item, title: tables.get(id)!.metric.title })),
  );
  const list =
    best.length > 0
      ? `<ol class="best">${best.map((item) => `<li>${escape(`${item.percent > 0 ? '+' : ''}${item.percent.toFixed(1)} % ${item.title.toLowerCase()}: ${label(item.stack)} at ${axisPointText(xAxis, item.x)}, ${item.group}`)}</li>`).join('')}</ol>`
      : '<p>No significant improvement over the kernel stack.</p>';
  return `<h2 id="summary">Best improvements</h2>${list}`;
}

export function buildHtmlReport(input: HtmlReportInput): string {
  const results = input.results;
  const manifest = input.manifest;
  const runId = manifest?.runId ?? input.runDir.split(/[\\/]/).filter(Boolean).pop() ?? 'run';
  const reportInput = { results, manifest };
  const xAxis = input.xAxis ?? threadsAxis;
  const cost = input.cost ?? planCost(manifest?.plan);
  const measured = new Set(measuredMetrics(results));
  const tableMetrics = [...defaultMetrics, ...cpuTableMetrics.filter((id) => measured.has(id))];
  const figures = figureMetrics.filter((id) => defaultMetrics.includes(id) || measured.has(id));
  const tables = new Map<string, ReportTable>();
  for (const id of new Set([...tableMetrics, ...figures])) {
    const table = buildReportTable(reportInput, id, xAxis);
    if (table) tables.set(id, table);
  }
  const first = tables.get('throughput')!;
  const names = stackDisplayNames(manifest?.plan);
  const label: Label = (stack) => stackLabel(stack, names);
  const stacks = first.stacks;
  const finished = results.length;
  const failed = results.filter((result) => result.status === 'failed').length;
  const total = manifest?.cells.length ?? finished;

  const body: string[] = [];
  body.push(`<h1>Onload Bench report: run ${escape(runId)}</h1>`);
  const meta = [
    manifest?.createdAt && `started ${manifest.createdAt}`,
    manifest?.planPath && `plan ${manifest.planPath}`,
    `stacks: ${stacks.map(label).join(', ') || '–'}`,
    `${finished} of ${total} cells finished${failed > 0 ? `, ${failed} failed` : ''}`,
    input.generatedAt && `report made ${input.generatedAt}`,
  ].filter(Boolean) as string[];
  body.push(`<p class="muted run-meta">${meta.map(escape).join(' · ')}</p>`);
  if ((input.warnings ?? []).length > 0)
    body.push(`<ul class="warnings">${input.warnings!.map((warning) => `<li>${escape(warning)}</li>`).join('')}</ul>`);
  // What the run found, first: the verdict over the cookbook's metrics (the same lines as the panel and the terminal).
  const verdict = buildVerdict(
    defaultMetrics.flatMap((id) => tables.get(id) ?? []),
    names,
  );
  if (verdict.length > 0) body.push(`<h2 id="verdict">Verdict</h2>${verdictHtml(verdict)}`);
  // The cookbook's headline: the best significant improvements.
  body.push(bestImprovementsHtml(tables, xAxis, label));
  body.push(
    `<pre class="legend muted">${escape(reportLegend)}\nError bars in the figures: 95 % interval of each point's mean (2+ repetitions).</pre>`,
  );

  first.groups.forEach((group, groupIndex) => {
    body.push(`<section class="group" data-interface="${escape(group.interface)}"><h2>${escape(group.title)}</h2>`);
    for (const id of tableMetrics) {
      const table = tables.get(id);
      if (table) body.push(tableHtml(table, table.groups[groupIndex], groupIndex, label));
    }
    const drawn = figures.flatMap((id) => {
      const table = tables.get(id);
      const figure = table && metricFigure(table, table.groups[groupIndex], runId, label);
      return figure ? [figure] : [];
    });
    // A spectrum is one point's: drawn when the groups are the cookbook's (threads on x).
    const spectrum = xAxis === threadsAxis ? spectrumFigure(results, stacks, group, runId, label) : undefined;
    if (spectrum) drawn.push(spectrum);
    if (drawn.length > 0) body.push(`<div class="figures">${drawn.join('\n')}</div>`);
    body.push('</section>');
  });
  body.push(otherAxesHtml(reportInput, xAxis, runId, label));
  const scaling = buildScaling(reportInput);
  if (scaling) body.push(scalingHtml(scaling, runId, label, cost));
  body.push(marksHtml(results));
  body.push(proofsHtml(results));
  body.push(threadsHtml(results));
  body.push(failuresHtml(results));
  body.push(environmentHtml(manifest, results));
  const cpuNote = evidenceMetrics.filter((metric) => measured.has(metric.id)).map((metric) => metric.title);
  if (cpuNote.length > 0)
    body.push(
      `<p class="muted">CPU figures (${escape(cpuNote.join(', '))}) come from /proc sampled about once a second over each cell's run phase; CPU per operation is busy core-µs over the operations of the run phase (netperf's service demand).</p>`,
    );

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Onload Bench report: run ${escape(runId)}</title>
<style>${style}</style>
</head>
<body>
${body.filter((part) => part !== '').join('\n')}
</body>
</html>
`;
}
