// The cookbook's tables: per interface and thread count, the kernel against each Onload profile
// and the difference in percent; the best improvement of each profile column flagged. Pure.
import type { ChartModel, ComparisonTable, SeriesPoint, TableCell } from './protocol';
import { metricDefinition } from './metrics';

function cellOf(point: SeriesPoint | undefined): TableCell {
  if (!point || point.finished === 0) return { value: null, mark: 'missing' };
  const cell: TableCell = {
    value: point.median,
    repetitions: { ok: point.values.length, finished: point.finished },
  };
  if (point.median === null) cell.mark = point.notAccelerated > 0 ? 'not-accelerated' : 'failed';
  else if (point.values.length >= 2 && point.median !== 0 && point.min !== null && point.max !== null) {
    cell.spreadPercent = ((point.max - point.min) / point.median) * 100;
  }
  return cell;
}

export function percentDifference(kernel: number | null, profile: number | null): number | null {
  if (kernel === null || profile === null || kernel === 0) return null;
  return ((profile - kernel) / kernel) * 100;
}

/** Builds the comparison table of one chart (same points, so charts and tables always agree). */
export function comparisonTable(chart: ChartModel): ComparisonTable | undefined {
  const kernel = chart.series.find((series) => series.stack === 'kernel');
  const profiles = chart.series.filter((series) => series.stack !== 'kernel');
  if (!kernel || profiles.length === 0) return undefined;
  const higherIsBetter = metricDefinition(chart.metric).higherIsBetter;
  const rows = chart.threads.map((threads) => {
    const kernelCell = cellOf(kernel.points.find((point) => point.threads === threads));
    const profileCells = profiles.map((series) => {
      const cell = cellOf(series.points.find((point) => point.threads === threads));
      const delta = percentDifference(kernelCell.value, cell.value);
      cell.deltaPercent = delta;
      if (delta !== null) cell.improvement = higherIsBetter ? delta > 0 : delta < 0;
      return cell;
    });
    return { threads, kernel: kernelCell, profiles: profileCells };
  });
  // The best improvement of each profile column: the largest gain in the better direction.
  profiles.forEach((_, column) => {
    let best: TableCell | undefined;
    for (const row of rows) {
      const cell = row.profiles[column];
      if (!cell.improvement || cell.deltaPercent == null) continue;
      if (!best || Math.abs(cell.deltaPercent) > Math.abs(best.deltaPercent ?? 0)) best = cell;
    }
    if (best) best.best = true;
  });
  return {
    id: `${chart.id}-table`,
    metric: chart.metric,
    title: `${chart.title}: kernel vs Onload`,
    unit: chart.unit,
    profiles: profiles.map((series) => series.stack),
    rows,
  };
}
