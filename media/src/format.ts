// How numbers read in the panel: throughput as whole ops/s, latencies to 0.1 µs, differences
// with a sign. Tables carry the unrounded values in data attributes.
import type { MetricUnit } from '../../client/src/panel/protocol.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatValue(value: number | null | undefined, unit: MetricUnit): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return unit === 'ops/s' ? integer.format(value) : oneDecimal.format(value);
}

export function formatDelta(delta: number | null | undefined): string {
  if (delta === null || delta === undefined || !Number.isFinite(delta)) return '–';
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `${sign}${oneDecimal.format(Math.abs(delta))} %`;
}

export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
