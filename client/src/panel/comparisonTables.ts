// The panel's view of the engine's report tables (engine/src/report/report.ts): the cookbook tables, per
// interface and thread count the kernel against each Onload profile with the difference in percent,
// and the chart series, both from the same computation the CLI's `report` prints. Pure.
import {
  markLabel,
  metricDisplayUnit,
  relativeHalfWidth,
  type ReportGroup,
  type ReportTable,
  type StackCell,
  type StackComparison,
} from '../../../engine/src/report/index';
import type {
  CellMarkView,
  CellState,
  ChartSeries,
  ComparisonTable,
  DisplayUnit,
  MetricId,
  MetricUnit,
  SeriesPoint,
  TableCell,
} from './protocol';

export function unitOf(table: ReportTable): MetricUnit {
  const unit = table.metric.unit;
  return unit === 'ops/s' || unit === '%' || unit === 'µs/op' || unit === 'ops/s/core' ? unit : 'µs';
}

/** The metric's one display unit over the given tables (one run's, or both runs' when comparing). */
export function displayUnitOf(tables: readonly ReportTable[]): DisplayUnit {
  return metricDisplayUnit(tables) === 'ms' ? 'ms' : unitOf(tables[0]);
}

function repetitionsOf(cell: StackCell): TableCell['repetitions'] {
  return { counted: cell.repetitions, finished: cell.finished, planned: cell.planned, failed: cell.failed };
}

export function markViews(cell: StackCell): CellMarkView[] {
  return cell.marks.map((mark) => ({
    code: mark.code,
    label: markLabel(mark.code),
    message: mark.messages.join(' '),
    repetitions: mark.repetitions,
  }));
}

export function tableCell(cell: StackCell): TableCell {
  const value = cell.value ?? null;
  const result: TableCell = {
    value,
    state: cell.state as CellState,
    marks: markViews(cell),
    markedLeftOut: cell.markedLeftOut,
    repetitions: repetitionsOf(cell),
  };
  if (value !== null && value !== 0 && cell.repetitions >= 2 && cell.min !== undefined && cell.max !== undefined) {
    result.spreadPercent = ((cell.max - cell.min) / Math.abs(value)) * 100;
    result.min = cell.min;
    result.max = cell.max;
  }
  if (cell.cellIds.length > 0) result.cellIds = [...cell.cellIds];
  return result;
}

export function seriesPoint(threads: number, cell: StackCell): SeriesPoint {
  const counts = cell.state === 'ok';
  return {
    threads,
    median: counts ? (cell.value ?? null) : null,
    min: counts ? (cell.min ?? null) : null,
    max: counts ? (cell.max ?? null) : null,
    state: cell.state as CellState,
    repetitions: cell.repetitions,
    finished: cell.finished,
    planned: cell.planned,
    failed: cell.failed,
    marked: cell.marked,
    markedLeftOut: cell.markedLeftOut,
    marks: markViews(cell),
    ...evidenceOfPoint(cell),
  };
}

/** Issue 10's additions to a point: the marked value, the mean's interval, the percentile source, the cells. */
function evidenceOfPoint(cell: StackCell): Partial<SeriesPoint> {
  const extra: Partial<SeriesPoint> = { cellIds: [...cell.cellIds] };
  if (cell.state === 'marked' && cell.value !== undefined) extra.markedValue = cell.value;
  const halfWidth = cell.state === 'ok' ? relativeHalfWidth(cell.values) : undefined;
  if (halfWidth !== undefined) {
    const mean = cell.values.reduce((sum, value) => sum + value, 0) / cell.values.length;
    extra.interval = { low: mean * (1 - halfWidth / 100), high: mean * (1 + halfWidth / 100) };
  }
  if (cell.percentilesSource) extra.percentilesSource = cell.percentilesSource;
  return extra;
}

function deltaOf(comparison: StackComparison | undefined): SeriesPoint['delta'] {
  if (!comparison || comparison.percent === undefined) return undefined;
  const delta: NonNullable<SeriesPoint['delta']> = { percent: comparison.percent, significant: comparison.significant };
  if (comparison.difference?.interval) delta.halfWidth = comparison.difference.interval.halfWidth;
  if (comparison.marked) delta.marked = true;
  return delta;
}

/** One series per stack of the table for one of its groups (x = its thread counts, or the table's other axis). */
export function chartSeries(table: ReportTable, group: ReportGroup): ChartSeries[] {
  const byThreads = table.xAxis.id === 'threads';
  return table.stacks.map((stack, index) => ({
    stack,
    points: group.rows.map((row) => {
      const point = seriesPoint(row.threads, row.cells[index]);
      if (!byThreads) point.x = row.x;
      const delta = deltaOf(row.comparisons[table.profiles.indexOf(stack)]);
      if (delta) point.delta = delta;
      return point;
    }),
  }));
}

/** The cookbook table of one group; undefined without a kernel baseline or without profiles. */
export function comparisonTable(table: ReportTable, group: ReportGroup, id: string): ComparisonTable | undefined {
  if (!table.hasBaseline || table.profiles.length === 0) return undefined;
  return {
    id,
    metric: table.metric.id as MetricId,
    title: `${table.metric.title}: kernel vs Onload`,
    unit: unitOf(table),
    displayUnit: displayUnitOf([table]),
    profiles: table.profiles,
    ...(table.xAxis.id === 'threads' ? {} : { xAxis: { id: table.xAxis.id, title: table.xAxis.title } }),
    rows: group.rows.map((row) => ({
      threads: row.threads,
      ...(table.xAxis.id === 'threads' ? {} : { x: row.x }),
      kernel: tableCell(row.cells[0]),
      profiles: table.profiles.map((stack, column) => {
        const cell = tableCell(row.cells[table.stacks.indexOf(stack)]);
        const comparison = row.comparisons[column];
        cell.deltaPercent = comparison.percent ?? null;
        const difference = comparison.difference;
        if (difference) {
          cell.significant = difference.significant;
          cell.deltaInterval = difference.interval
            ? { low: difference.interval.low, high: difference.interval.high, halfWidth: difference.interval.halfWidth }
            : null;
          if (difference.noInterval) cell.deltaNoInterval = difference.noInterval;
          if (difference.pValue !== undefined) cell.pValue = difference.pValue;
        }
        cell.improvement = comparison.improvement;
        if (comparison.marked) cell.deltaMarked = true;
        if (comparison.best) cell.best = true;
        return cell;
      }),
    })),
  };
}
