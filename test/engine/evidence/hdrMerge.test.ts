// True combined percentiles: the clients' HDR interval logs (written as YCSB writes them, with
// hdr-histogram-js's HistogramLogWriter) merged into one histogram equal to the histogram of all
// their operations; warm-up intervals left out; the combined report relabelled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, HistogramLogWriter, type Histogram } from 'hdr-histogram-js';
import { parseHdrBundle } from '../../../engine/src/evidence/cellEvidence';
import { combineClientReports } from '../../../engine/src/ycsb/combine';
import {
  applyMergedPercentiles,
  hdrEvidence,
  hdrOperationOf,
  mergeHdrLogs,
  spectrumPercentiles,
  type HdrLogFile,
} from '../../../engine/src/evidence/hdrMerge';
import type { YcsbReport } from '../../../engine/src/model';

const start = 1_700_000_000_000;

/** A log of `intervals` (each a list of latencies in µs, one second long), as YCSB writes it. */
function intervalLog(name: string, intervals: number[][]): string {
  let text = '';
  const writer = new HistogramLogWriter((chunk) => (text += chunk));
  writer.outputComment(`[Logging for: ${name}]`);
  writer.outputLogFormatVersion();
  writer.outputStartTime(start);
  writer.baseTime = start;
  writer.outputLegend();
  intervals.forEach((values, index) => {
    const histogram = build({ numberOfSignificantValueDigits: 3 });
    for (const value of values) histogram.recordValue(value);
    histogram.startTimeStampMsec = start + index * 1000;
    histogram.endTimeStampMsec = start + (index + 1) * 1000;
    writer.outputIntervalHistogram(histogram, undefined, undefined, 1_000_000);
  });
  return text;
}

/** Deterministic latencies: a body around `base` and a tail. */
function latencies(count: number, base: number, seed: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const u = state / 2 ** 31;
    return Math.round(base * (1 + 3 * u * u * u) + (u > 0.995 ? base * 20 : 0));
  });
}

test('the merged histogram of two clients equals the histogram of the union of their operations', () => {
  const a = [latencies(4000, 200, 1), latencies(4000, 210, 2), latencies(1500, 220, 3)];
  const b = [latencies(3000, 450, 4), latencies(3500, 400, 5)];
  const files: HdrLogFile[] = [
    { host: 'c1', operation: 'READ', file: 'logs/x/c1/READ.hdr', text: intervalLog('READ', a) },
    { host: 'c2', operation: 'READ', file: 'logs/x/c2/READ.hdr', text: intervalLog('READ', b) },
  ];
  const merged = mergeHdrLogs(files).get('READ') as Histogram;
  const union = build({ numberOfSignificantValueDigits: 3 });
  for (const value of [...a, ...b].flat()) union.recordValue(value);
  assert.equal(merged.totalCount, union.totalCount);
  assert.equal(merged.totalCount, 16_000);
  // (a decoded histogram knows values to its resolution: compare the largest through p100)
  assert.ok(Math.abs(merged.mean - union.mean) < 1e-9);
  for (const percentile of spectrumPercentiles)
    assert.equal(merged.getValueAtPercentile(percentile), union.getValueAtPercentile(percentile), `p${percentile}`);

  const evidence = hdrEvidence(files);
  assert.deepEqual(evidence?.files, ['logs/x/c1/READ.hdr', 'logs/x/c2/READ.hdr']);
  assert.equal(evidence?.afterWarmup, false);
  assert.deepEqual(Object.keys(evidence?.operations.READ.percentilesUs ?? {}), [
    '50',
    '90',
    '95',
    '99',
    '99.9',
    '99.99',
  ]);
  assert.equal(evidence?.operations.READ.percentilesUs['99'], union.getValueAtPercentile(99));
  assert.equal(evidence?.operations.READ.spectrum.at(-1)?.percentile, 100);
});

test("merged percentiles replace the worst client's, which only bound them, and say so", () => {
  // 10 000 fast reads on one client, 100 slow ones on the other: the true p99 is fast
  const fast = Array.from({ length: 10_000 }, () => 100);
  const slow = Array.from({ length: 100 }, () => 5000);
  const report = (operations: number, p99: number): YcsbReport => ({
    runtimeMs: 1000,
    throughputOpsPerSec: operations,
    operations: {
      READ: { operation: 'READ', operations, percentilesUs: { '95': p99, '99': p99 }, returnCodes: { OK: operations } },
    },
    other: {},
    warnings: [],
  });
  const combined = combineClientReports([
    { host: 'c1', report: report(10_000, 100) },
    { host: 'c2', report: report(100, 5000) },
  ]);
  assert.equal(combined.operations.READ.percentilesSource, 'client-max');
  assert.equal(combined.operations.READ.percentilesUs['99'], 5000);
  const merged = mergeHdrLogs([
    { host: 'c1', operation: 'READ', file: 'a', text: intervalLog('READ', [fast]) },
    { host: 'c2', operation: 'READ', file: 'b', text: intervalLog('READ', [slow]) },
  ]);
  applyMergedPercentiles(combined, merged);
  assert.equal(combined.operations.READ.percentilesSource, 'hdr-merged');
  assert.deepEqual(combined.operations.READ.percentilesUs, { '95': 100, '99': 100 });
});

test('with a warm-up only the intervals that start after it count', () => {
  const text = intervalLog('UPDATE', [
    Array.from({ length: 50 }, () => 9000),
    Array.from({ length: 100 }, () => 300),
    Array.from({ length: 100 }, () => 310),
  ]);
  const all = mergeHdrLogs([{ host: 'c', operation: 'UPDATE', file: 'u', text }]).get('UPDATE')!;
  const after = mergeHdrLogs([{ host: 'c', operation: 'UPDATE', file: 'u', text }], 1).get('UPDATE')!;
  assert.equal(all.totalCount, 250);
  assert.equal(after.totalCount, 200);
  assert.ok(after.maxValue < 400);
  assert.equal(hdrEvidence([{ host: 'c', operation: 'UPDATE', file: 'u', text }], 1)?.afterWarmup, true);
});

test('file names and the fetched bundle', () => {
  assert.equal(hdrOperationOf('READ-MODIFY-WRITE.hdr'), 'READ-MODIFY-WRITE');
  assert.equal(hdrOperationOf('/w/hdr/cell/attempt1/READ-FAILED.hdr'), 'READ-FAILED');
  assert.equal(hdrOperationOf('notes.txt'), undefined);
  const bundle = parseHdrBundle(
    '@@hdr-file READ.hdr\n#[Logging for: READ]\n0.000,1.000,0.1,HIST\n\n@@hdr-file UPDATE.hdr\n#[Logging for: UPDATE]\n\n',
  );
  assert.deepEqual(bundle, [
    { name: 'READ.hdr', text: '#[Logging for: READ]\n0.000,1.000,0.1,HIST\n' },
    { name: 'UPDATE.hdr', text: '#[Logging for: UPDATE]\n' },
  ]);
});
