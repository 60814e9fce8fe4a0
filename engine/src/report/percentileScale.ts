// The "nines" scale of HdrHistogram's percentile plots: a percentile p is placed at
// -log10(1 - p/100), so 0 % sits at 0, 90 % at 1, 99 % at 2, 99.9 % at 3... and the tail, where
// the arms of a latency comparison differ most, gets as much room as the body. Pure; used by the
// HTML report's SVG and by the panel host (which sends the webview ready-placed points).

/** The largest position: 100 % itself has no finite place, it is drawn one step past 99.999 %. */
const maxNines = 6;

export function percentileToNines(percentile: number): number {
  if (!(percentile < 100)) return maxNines;
  if (percentile <= 0) return 0;
  return Math.min(maxNines, -Math.log10(1 - percentile / 100));
}

/** `0`, `90`, `99`, `99.9`, `99.99`... for whole positions; `100` at the end of the scale. */
export function ninesLabel(position: number): string {
  if (position >= maxNines) return '100';
  const percentile = 100 * (1 - 10 ** -position);
  return String(Number(percentile.toFixed(Math.max(0, Math.round(position) - 1))));
}

/** The whole positions from 0 up to the smallest that covers `highest` (at least 2: 0, 90, 99). */
export function ninesTicks(highest: number): { position: number; label: string }[] {
  const top = Math.max(2, Math.min(maxNines, Math.ceil(highest - 1e-9)));
  return Array.from({ length: top + 1 }, (_, position) => ({ position, label: ninesLabel(position) }));
}
