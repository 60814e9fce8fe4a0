// Exists for the scaling view and the cost per node: how throughput grows with the cluster's
// nodes, per interface and held point (threads, YCSB properties) and stack. Pure, from the report
// table drawn against the cluster size (report.ts with x = clusterSize), so its medians, marks and
// repetitions are the cookbook's.
// - ideal line: the smallest measured size's median times n / that size (linear scaling);
// - scaling efficiency of a step a -> b: (mean_b / mean_a) / (b / a), with the 95 % interval of the
//   ratio of means (Fieller, statistics.ts compareSamples) when both sides have 2+ repetitions;
//   100 % is linear, below it each added node brings less than the ones before;
// - ops/s per node: median / n; cost per million operations: price per node hour × n /
//   (median × 3600) × 10^6;
// - the size with the best performance per price of a stack: the highest ops/s per node (a price
//   per node hour is the same for every node, so it ranks the same at any price). Every other size
//   is compared with it on the repetitions' ops/s per node; one whose interval includes 0 %, or
//   that has no interval, is not distinguishable from it and is named beside it.
import type { CellResult, RunManifest } from '../model';
import { clusterSizeAxis } from './axes';
import { buildReportTable, type ReportGroup, type ReportTable } from './report';
import { compareSamples, type Difference, type NoIntervalReason } from './statistics';

/** The plan's optional `cost` (planSchema.ts): a price per server-node hour and its currency. */
export interface CostSettings {
  pricePerNodeHour: number;
  currency: string;
}

/** The run's price from its recorded plan, when it gives a usable one. */
export function planCost(plan: unknown): CostSettings | undefined {
  const cost = (plan as { cost?: unknown } | undefined)?.cost;
  if (typeof cost !== 'object' || cost === null) return undefined;
  const { pricePerNodeHour, currency } = cost as { pricePerNodeHour?: unknown; currency?: unknown };
  if (typeof pricePerNodeHour !== 'number' || !Number.isFinite(pricePerNodeHour) || pricePerNodeHour <= 0)
    return undefined;
  return { pricePerNodeHour, currency: typeof currency === 'string' ? currency.slice(0, 12) : '' };
}

/** Cost of a million operations at `opsPerSecPerNode` on each node, at the price per node hour. */
export function costPerMillionOps(opsPerSecPerNode: number, pricePerNodeHour: number): number {
  return (pricePerNodeHour / (opsPerSecPerNode * 3600)) * 1e6;
}

/** `0.00694 EUR`: three significant figures, whatever the magnitude. */
export function formatCost(value: number, currency: string): string {
  const text = value >= 1000 ? Math.round(value).toLocaleString('en-US') : String(Number(value.toPrecision(3)));
  return currency ? `${text} ${currency}` : text;
}

export interface ScalingPoint {
  size: number;
  /** Median throughput of the counted repetitions (absent: nothing measured yet). */
  median?: number;
  /** Every repetition marked: shown, never used for the ideal line or the ranking. */
  marked: boolean;
  repetitions: number;
  /** Counted repetitions' throughputs. */
  values: number[];
  /** The ideal linear line at this size, from the stack's smallest size with a value. */
  ideal?: number;
  /** median / ideal × 100. */
  ofIdealPercent?: number;
  perNode?: number;
  cellIds: string[];
}

export interface ScalingStep {
  from: number;
  to: number;
  /** (mean to / mean from) / (to / from) × 100. */
  efficiency: number;
  interval?: { low: number; high: number };
  noInterval?: NoIntervalReason;
}

export interface SizeRank {
  size: number;
  perNode: number;
  /** Against the best size's ops/s per node (absent on the best size itself). */
  vsBest?: Difference;
  /** The best size, or a size that cannot be told apart from it (interval includes 0 % or no interval). */
  tiedWithBest: boolean;
}

export interface ScalingSeries {
  stack: string;
  points: ScalingPoint[];
  steps: ScalingStep[];
  /** Sizes by ops/s per node, best first (unmarked points with a value only). */
  ranking: SizeRank[];
}

export interface ScalingGroup {
  /** The group of the report table drawn against the size (interface, threads, held axes). */
  title: string;
  interface: string;
  threads?: number;
  axes: Record<string, string | number>;
  series: ScalingSeries[];
}

export interface ScalingView {
  sizes: number[];
  stacks: string[];
  groups: ScalingGroup[];
}

/** Undefined unless the run has 2+ cluster sizes. */
export function buildScaling(
  input: { results: readonly CellResult[]; manifest?: RunManifest },
  table?: ReportTable,
): ScalingView | undefined {
  const bySize = table ?? buildReportTable(input, 'throughput', clusterSizeAxis);
  if (!bySize) return undefined;
  const sizes = [...new Set(bySize.groups.flatMap((group) => group.rows.map((row) => Number(row.x))))].sort(
    (a, b) => a - b,
  );
  if (sizes.length < 2) return undefined;
  return { sizes, stacks: bySize.stacks, groups: bySize.groups.map((group) => scalingGroup(bySize, group)) };
}

function scalingGroup(table: ReportTable, group: ReportGroup): ScalingGroup {
  const series = table.stacks.map((stack, column): ScalingSeries => {
    const points: ScalingPoint[] = group.rows.map((row) => {
      const cell = row.cells[column];
      const hasValue = (cell.state === 'ok' || cell.state === 'marked') && cell.value !== undefined;
      const size = Number(row.x);
      return {
        size,
        ...(hasValue ? { median: cell.value, perNode: cell.value! / size } : {}),
        marked: cell.state === 'marked',
        repetitions: cell.repetitions,
        values: hasValue ? [...cell.values] : [],
        cellIds: [...cell.cellIds],
      };
    });
    const usable = points.filter((point) => point.median !== undefined && !point.marked);
    const base = usable[0];
    if (base) {
      for (const point of points) {
        if (point.median === undefined) continue;
        point.ideal = (base.median! * point.size) / base.size;
        point.ofIdealPercent = (point.median / point.ideal) * 100;
      }
    }
    const steps: ScalingStep[] = [];
    for (let index = 1; index < usable.length; index++) {
      const [a, b] = [usable[index - 1], usable[index]];
      const difference = compareSamples(a.values, b.values);
      const scale = (percent: number) => (1 + percent / 100) * (a.size / b.size) * 100;
      const step: ScalingStep = { from: a.size, to: b.size, efficiency: scale(difference.percent) };
      if (difference.interval)
        step.interval = { low: scale(difference.interval.low), high: scale(difference.interval.high) };
      else step.noInterval = difference.noInterval;
      steps.push(step);
    }
    const ranked = [...usable].sort((x, y) => y.perNode! - x.perNode!);
    const best = ranked[0];
    const ranking: SizeRank[] = ranked.map((point) => {
      if (point === best) return { size: point.size, perNode: point.perNode!, tiedWithBest: true };
      const vsBest = compareSamples(
        best.values.map((value) => value / best.size),
        point.values.map((value) => value / point.size),
      );
      return { size: point.size, perNode: point.perNode!, vsBest, tiedWithBest: !vsBest.significant };
    });
    return { stack, points, steps, ranking };
  });
  return {
    title: group.title,
    interface: group.interface,
    ...(group.threads !== undefined ? { threads: group.threads } : {}),
    axes: group.axes,
    series,
  };
}

/** `96.2 % (95 % CI 93.1 to 99.4 %)`, `99.0 % (1 repetition: no interval)`. */
export function efficiencyText(step: ScalingStep): string {
  const head = `${step.efficiency.toFixed(1)} %`;
  if (step.interval) return `${head} (95 % CI ${step.interval.low.toFixed(1)} to ${step.interval.high.toFixed(1)} %)`;
  if (step.noInterval === 'single-repetition') return `${head} (1 repetition: no interval)`;
  if (step.noInterval === 'no-spread') return `${head} (no spread: no interval)`;
  return `${head} (no interval)`;
}

/**
 * The best size of a stack in words: `1 node (100,000 ops/s per node); not distinguishable from
 * it: 2 nodes (−1.0 %, 95 % CI −3.4 to +1.4 %)`. Empty without a measured size.
 */
export function bestSizeText(series: ScalingSeries, cost?: CostSettings): string {
  const [best, ...others] = series.ranking;
  if (!best) return '';
  const nodes = (size: number) => `${size} node${size === 1 ? '' : 's'}`;
  const perNode = (rank: SizeRank) =>
    `${Math.round(rank.perNode).toLocaleString('en-US')} ops/s per node${cost ? `, ${formatCost(costPerMillionOps(rank.perNode, cost.pricePerNodeHour), cost.currency)} per million operations` : ''}`;
  const head = `${nodes(best.size)} (${perNode(best)})`;
  if (others.length === 0) return `${head}; the only size measured`;
  const ties = others.filter((rank) => rank.tiedWithBest);
  if (ties.length === 0) return `${head}; every other size is distinguishably lower`;
  const tieText = ties.map((rank) => {
    const difference = rank.vsBest!;
    const percent = `${difference.percent >= 0 ? '+' : '−'}${Math.abs(difference.percent).toFixed(1)} %`;
    const why = difference.interval
      ? `95 % CI ${signed(difference.interval.low)} to ${signed(difference.interval.high)} %`
      : 'no interval';
    return `${nodes(rank.size)} (${percent}, ${why})`;
  });
  return `${head}; not distinguishable from it: ${tieText.join(', ')}`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
}

/**
 * The scaling view for the terminal: per group and stack a table of sizes (throughput, the ideal
 * line, the share of it reached, ops/s per node, with a price the cost of a million operations,
 * and the efficiency of the step to each size), then the best size per price.
 */
export function renderScaling(view: ScalingView, label: (stack: string) => string, cost?: CostSettings): string {
  const lines = [
    `Scaling with the cluster size (throughput; ideal = linear from the smallest size; efficiency of a step = (throughput ratio) / (size ratio))${cost ? `, at ${formatCost(cost.pricePerNodeHour, cost.currency)} per node hour` : ''}:`,
  ];
  for (const group of view.groups) {
    for (const series of group.series) {
      if (!series.points.some((point) => point.median !== undefined)) continue;
      const header = [
        'nodes',
        'ops/s',
        'ideal',
        'of ideal',
        'ops/s per node',
        ...(cost ? [`${cost.currency || 'cost'} per million ops`] : []),
        'step efficiency',
      ];
      const rows = series.points.map((point) => {
        const step = series.steps.find((candidate) => candidate.to === point.size);
        if (point.median === undefined) return [String(point.size), 'no value', '', '', '', ...(cost ? [''] : []), ''];
        return [
          String(point.size),
          `${Math.round(point.median)}${point.marked ? ' !' : ''}`,
          point.ideal === undefined ? '' : String(Math.round(point.ideal)),
          point.ofIdealPercent === undefined ? '' : `${point.ofIdealPercent.toFixed(1)} %`,
          String(Math.round(point.perNode!)),
          ...(cost ? [String(Number(costPerMillionOps(point.perNode!, cost.pricePerNodeHour).toPrecision(3)))] : []),
          step ? efficiencyText(step) : '',
        ];
      });
      lines.push('', `${group.title} · ${label(series.stack)}`, ...alignScalingColumns(header, rows));
      const best = bestSizeText(series, cost);
      if (best) lines.push(`Best performance per price: ${best}.`);
    }
  }
  return lines.join('\n');
}

function alignScalingColumns(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
