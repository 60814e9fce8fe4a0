// Which unit a metric is shown in, chosen once per metric from the run's data (or both runs' when
// comparing) and then used by every heading, axis, caption, table and tooltip of that metric: a
// reader never meets "Read p99 latency (µs)" above an axis in ms, nor one interface in ms and the
// next in µs. Latencies are recorded in µs and read in ms once any value of the metric reaches
// 10,000 µs; other units are shown as recorded. Numbers are written in full with thousands
// separators (never `40k`). Pure.
import type { ReportTable } from './report';

/** A metric's recorded unit (`µs`, `ops/s`, `%`...) or `ms` for latencies shown in milliseconds. */
export type DisplayUnit = string;

/** Latencies read in ms once the largest value of the metric reaches this many µs. */
const msThresholdUs = 10_000;

/** `ms` for a µs metric with any value from 10,000 µs up; otherwise the recorded unit. */
export function displayUnitOf(unit: string, values: Iterable<number | null | undefined>): DisplayUnit {
  if (unit !== 'µs') return unit;
  for (const value of values)
    if (value !== null && value !== undefined && Number.isFinite(value) && Math.abs(value) >= msThresholdUs)
      return 'ms';
  return unit;
}

/** Every value a table of a metric can show: medians, min and max of every group, thread count and stack. */
function tableValues(table: ReportTable): number[] {
  return table.groups.flatMap((group) =>
    group.rows.flatMap((row) =>
      row.cells.flatMap((cell) =>
        [cell.value, cell.min, cell.max].filter((value): value is number => value !== undefined),
      ),
    ),
  );
}

/** The one unit of a metric over its tables (one run's, or the two runs' of a comparison). */
export function metricDisplayUnit(tables: readonly ReportTable[]): DisplayUnit {
  const unit = tables[0]?.metric.unit ?? '';
  return displayUnitOf(unit, tables.flatMap(tableValues));
}

/** A value recorded in its metric's unit, in the display unit (µs → ms divides by 1000). */
export function inDisplayUnit(value: number, unit: DisplayUnit): number {
  return unit === 'ms' ? value / 1000 : value;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const upToOneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const upToTwoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A recorded value written in the display unit: `10,500` ops/s, `812.5` µs, `12.35` ms. */
export function formatInDisplayUnit(value: number, unit: DisplayUnit): string {
  if (!Number.isFinite(value)) return '–';
  if (unit === 'ops/s') return integer.format(value);
  if (unit === 'ms') return upToTwoDecimals.format(value / 1000);
  return upToOneDecimal.format(value);
}

/** An axis tick already in the display unit, written in full: `40,000`, `12.5`, never `40k`. */
export function formatTick(value: number): string {
  return Math.abs(value) >= 100 ? integer.format(value) : upToTwoDecimals.format(value);
}
