// How numbers read in the panel: throughput as whole ops/s, latencies to 0.1 µs without a
// trailing ".0" (YCSB's percentiles are whole µs), in ms when the host chose ms for the metric
// (engine/src/report/displayUnits.ts: once per metric, from the run's data), differences with a
// sign. Tables carry the unrounded µs values in data attributes.
import type { DisplayUnit } from '../../client/src/panel/protocol.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const upToOneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const upToTwoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export type { DisplayUnit };

/** A value given in its metric's unit, written in the display unit (µs -> ms divides by 1000). */
export function formatValue(value: number | null | undefined, unit: DisplayUnit): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (unit === 'ops/s') return integer.format(value);
  if (unit === 'ms') return upToTwoDecimals.format(value / 1000);
  return upToOneDecimal.format(value);
}

/** `12.35 ms`, `812.5 µs`, `10,500 ops/s`. */
export function formatWithUnit(value: number | null | undefined, unit: DisplayUnit): string {
  const text = formatValue(value, unit);
  return text === '–' ? text : `${text} ${unit}`;
}

/** A value in the display unit as a plain number (chart axes). */
export function scaled(value: number | null, unit: DisplayUnit): number | null {
  return value === null ? null : unit === 'ms' ? value / 1000 : value;
}

export function formatDelta(delta: number | null | undefined): string {
  if (delta === null || delta === undefined || !Number.isFinite(delta)) return '–';
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `${sign}${oneDecimal.format(Math.abs(delta))} %`;
}

/** A run's start as the reader's local date and time (the manifest holds UTC). */
export function formatLocalTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

/**
 * A percentile to the digits that tell it apart on a nines scale: `36.9`, `50`, `99.9`, `99.99`,
 * `99.997` (HdrHistogram's own are like 36.904266); never more than 6 decimals.
 */
export function formatPercentile(percentile: number): string {
  if (!Number.isFinite(percentile)) return '–';
  const tail = 100 - percentile;
  const decimals = tail <= 0 ? 0 : Math.min(6, Math.max(1, Math.ceil(-Math.log10(tail))));
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals, useGrouping: false }).format(percentile);
}

// How a duration and a thread count read: the same words as the terminal, the report and the notices.
export { formatDuration, threadsText } from '../../engine/src/report/names.js';
