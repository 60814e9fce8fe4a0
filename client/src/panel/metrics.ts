// The metrics the panel draws, how to read each from a cell's combined YCSB report, and how the
// repetitions of one point reduce to a median and a spread. Pure.
import { summariseRepetitions } from '../../../engine/src/combine';
import type { CellResult } from '../../../engine/src/model';
import type { MetricId, MetricUnit, SeriesPoint } from './protocol';

export interface MetricDefinition {
  id: MetricId;
  title: string;
  unit: MetricUnit;
  higherIsBetter: boolean;
  read(result: CellResult): number | undefined;
}

function latency(operation: string, which: 'average' | string) {
  return (result: CellResult): number | undefined => {
    const stats = result.run?.operations[operation];
    if (!stats || stats.operations === 0) return undefined;
    const value = which === 'average' ? stats.averageUs : stats.percentilesUs[which];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
}

export const metrics: readonly MetricDefinition[] = [
  {
    id: 'throughput',
    title: 'Throughput',
    unit: 'ops/s',
    higherIsBetter: true,
    read: (result) => {
      const value = result.run?.throughputOpsPerSec;
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    },
  },
  { id: 'read-avg', title: 'Read average latency', unit: 'µs', higherIsBetter: false, read: latency('READ', 'average') },
  { id: 'read-p95', title: 'Read p95 latency', unit: 'µs', higherIsBetter: false, read: latency('READ', '95') },
  { id: 'read-p99', title: 'Read p99 latency', unit: 'µs', higherIsBetter: false, read: latency('READ', '99') },
  { id: 'update-avg', title: 'Update average latency', unit: 'µs', higherIsBetter: false, read: latency('UPDATE', 'average') },
  { id: 'update-p95', title: 'Update p95 latency', unit: 'µs', higherIsBetter: false, read: latency('UPDATE', '95') },
  { id: 'update-p99', title: 'Update p99 latency', unit: 'µs', higherIsBetter: false, read: latency('UPDATE', '99') },
];

export function metricDefinition(id: MetricId): MetricDefinition {
  const found = metrics.find((metric) => metric.id === id);
  if (!found) throw new Error(`unknown metric ${id}`);
  return found;
}

/**
 * Reduces the repetitions of one point. Failed cells and Onload cells found running without
 * acceleration give no value (a non-accelerated "Onload" number is really a kernel number) but
 * are counted so the panel can mark them.
 */
export function reducePoint(threads: number, cells: readonly CellResult[], metric: MetricDefinition): SeriesPoint {
  const ordered = [...cells].sort((a, b) => a.key.repetition - b.key.repetition);
  const values: number[] = [];
  let failed = 0;
  let notAccelerated = 0;
  for (const cell of ordered) {
    if (cell.status === 'failed') {
      failed += 1;
      continue;
    }
    if (cell.accelerated === false) {
      notAccelerated += 1;
      continue;
    }
    const value = metric.read(cell);
    if (value !== undefined) values.push(value);
  }
  const summary = summariseRepetitions(values);
  return {
    threads,
    median: summary?.median ?? null,
    min: summary?.min ?? null,
    max: summary?.max ?? null,
    values,
    finished: ordered.length,
    failed,
    notAccelerated,
  };
}
