// Combining client reports of one cell, and repetitions of a cell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineClientReports, summariseRepetitions } from '../../../engine/src/ycsb/combine';
import type { OperationStats, YcsbReport } from '../../../engine/src/model';

function op(operation: string, fields: Partial<OperationStats>): OperationStats {
  return { operation, operations: 0, percentilesUs: {}, returnCodes: {}, ...fields };
}

function clientReport(fields: Partial<YcsbReport>): YcsbReport {
  return { runtimeMs: 0, throughputOpsPerSec: 0, operations: {}, other: {}, warnings: [], ...fields };
}

test('two clients: throughputs and counts add, runtime is the longest, averages weighted by operations', () => {
  const a = clientReport({
    runtimeMs: 10000,
    throughputOpsPerSec: 1000,
    operations: {
      READ: op('READ', {
        operations: 3000,
        averageUs: 100,
        minUs: 50,
        maxUs: 900,
        percentilesUs: { '95': 200, '99': 400 },
        returnCodes: { OK: 3000, NOT_FOUND: 2 },
      }),
    },
    other: { TOTAL_GCs: { Count: 3 }, 'TOTAL_GC_TIME_%': { 'Time(%)': 0.5 }, MIN_MEM_USED: { MBs: 100 } },
  });
  const b = clientReport({
    runtimeMs: 10500,
    throughputOpsPerSec: 1500,
    operations: {
      READ: op('READ', {
        operations: 1000,
        averageUs: 200,
        minUs: 40,
        maxUs: 700,
        percentilesUs: { '95': 350, '99': 380, '99.9': 900 },
        returnCodes: { OK: 1000, ERROR: 1 },
      }),
      UPDATE: op('UPDATE', { operations: 10, averageUs: 300, returnCodes: { OK: 10 } }),
    },
    other: { TOTAL_GCs: { Count: 4 }, 'TOTAL_GC_TIME_%': { 'Time(%)': 0.25 }, MIN_MEM_USED: { MBs: 80 } },
    warnings: ['READ: something odd.'],
  });
  const combined = combineClientReports([
    { host: 'client1', report: a },
    { host: 'client2', report: b },
  ]);
  assert.equal(combined.throughputOpsPerSec, 2500);
  assert.equal(combined.runtimeMs, 10500);
  assert.deepEqual(combined.operations.READ, {
    operation: 'READ',
    operations: 4000,
    averageUs: 125, // (3000*100 + 1000*200) / 4000
    minUs: 40,
    maxUs: 900,
    percentilesUs: { '95': 350, '99': 400, '99.9': 900 }, // the maximum of the clients' values
    percentilesSource: 'client-max', // labelled as the upper bound it is
    returnCodes: { OK: 4000, NOT_FOUND: 2, ERROR: 1 },
  });
  assert.deepEqual(combined.operations.UPDATE, {
    operation: 'UPDATE',
    operations: 10,
    averageUs: 300,
    percentilesUs: {},
    returnCodes: { OK: 10 },
  });
  assert.deepEqual(combined.other, {
    TOTAL_GCs: { Count: 7 },
    'TOTAL_GC_TIME_%': { 'Time(%)': 0.5 },
    MIN_MEM_USED: { MBs: 80 },
  });
  assert.deepEqual(combined.warnings, ['client2: READ: something odd.']);
  assert.equal(a.operations.READ.operations, 3000, 'inputs are not changed');
});

test('pooled variance and summed histogram buckets are exact', () => {
  // Client A: latencies {1, 3} (mean 2, variance 1); client B: {5, 7, 9} (mean 7, variance 8/3).
  const a = clientReport({
    operations: {
      READ: op('READ', { operations: 2, averageUs: 2, latencyVarianceUs2: 1, histogramCounts: { '0': 2, '>1': 0 } }),
    },
  });
  const b = clientReport({
    operations: {
      READ: op('READ', {
        operations: 3,
        averageUs: 7,
        latencyVarianceUs2: 8 / 3,
        histogramCounts: { '0': 3, '>1': 1 },
      }),
    },
  });
  const read = combineClientReports([
    { host: 'a', report: a },
    { host: 'b', report: b },
  ]).operations.READ;
  // All five values {1,3,5,7,9}: mean 5, population variance 8.
  assert.equal(read.averageUs, 5);
  assert.ok(Math.abs(read.latencyVarianceUs2! - 8) < 1e-12, String(read.latencyVarianceUs2));
  assert.deepEqual(read.histogramCounts, { '0': 5, '>1': 1 });
});

test('a client whose reads all failed adds its failures but not its (absent) latencies', () => {
  const ok = clientReport({
    throughputOpsPerSec: 10,
    operations: {
      READ: op('READ', {
        operations: 100,
        averageUs: 500,
        minUs: 100,
        maxUs: 900,
        percentilesUs: { '99': 800 },
        returnCodes: { OK: 100 },
      }),
    },
  });
  const failed = clientReport({
    throughputOpsPerSec: 5,
    operations: { READ: op('READ', { operations: 0, returnCodes: { ERROR: 50 } }) },
  });
  const read = combineClientReports([
    { host: 'a', report: ok },
    { host: 'b', report: failed },
  ]).operations.READ;
  assert.deepEqual(read, {
    operation: 'READ',
    operations: 100,
    averageUs: 500,
    minUs: 100,
    maxUs: 900,
    percentilesUs: { '99': 800 },
    percentilesSource: 'client-max',
    returnCodes: { OK: 100, ERROR: 50 },
  });
});

test('timeseries are not merged and say so; no client gives an empty report with a warning; one client is returned as is', () => {
  const withSeries = clientReport({
    operations: { READ: op('READ', { operations: 1, averageUs: 1, timeseries: [{ startMs: 0, averageUs: 1 }] }) },
  });
  const combined = combineClientReports([
    { host: 'a', report: withSeries },
    { host: 'b', report: withSeries },
  ]);
  assert.equal(combined.operations.READ.timeseries, undefined);
  assert.match(combined.warnings[0], /READ: the clients' timeseries cannot be merged/);
  assert.deepEqual(combineClientReports([]).warnings, ['No client report to combine.']);
  assert.deepEqual(combineClientReports([{ host: 'a', report: withSeries }]), withSeries);
});

test('repetitions: median (odd and even counts), spread, non-finite values ignored', () => {
  assert.deepEqual(summariseRepetitions([30, 10, 20]), { median: 20, min: 10, max: 30, count: 3 });
  assert.deepEqual(summariseRepetitions([4, 1, 3, 2]), { median: 2.5, min: 1, max: 4, count: 4 });
  assert.deepEqual(summariseRepetitions([5, NaN, Infinity]), { median: 5, min: 5, max: 5, count: 1 });
  assert.equal(summariseRepetitions([]), undefined);
});
