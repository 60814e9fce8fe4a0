// Reader-side views of a cell's evidence (engine/src/report/evidence/evidenceViews.ts): records without evidence
// or with partial groups are tolerated, clients' status lines add up, spectra fall back to YCSB's
// summary percentiles with their source, and long curves are thinned along x.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evidenceMetric } from '../../../engine/src/report/evidence/evidenceMetrics';
import { cellSpectrum, cellTimeSeries, pointSpectra, thinByX } from '../../../engine/src/report/evidence/evidenceViews';
import type { CellResult } from '../../../engine/src/model';

function cell(overrides: Partial<CellResult> = {}): CellResult {
  return {
    kind: 'cell',
    id: 'c',
    key: { interface: '25G', address: '10.0.0.1', stack: 'kernel', threads: 8, axes: {}, repetition: 1 },
    status: 'ok',
    accelerated: null,
    startedAt: '',
    finishedAt: '',
    attempts: 1,
    logs: [],
    run: {
      runtimeMs: 1000,
      throughputOpsPerSec: 1000,
      other: {},
      warnings: [],
      operations: {
        READ: {
          operation: 'READ',
          operations: 10,
          minUs: 50,
          maxUs: 900,
          percentilesUs: { '95': 300, '99': 500 },
          returnCodes: {},
        },
      },
    },
    ...overrides,
  };
}

test('a record without evidence has no time series and no CPU figures; its spectrum is YCSB summary', () => {
  const old = cell();
  assert.equal(cellTimeSeries(old), undefined);
  assert.equal(evidenceMetric('server-cpu')!.read(old), undefined);
  assert.equal(evidenceMetric('server-cpu-per-op')!.read(old), undefined);
  assert.deepEqual(cellSpectrum(old, 'READ'), {
    source: 'ycsb',
    points: [
      { percentile: 0, valueUs: 50 },
      { percentile: 95, valueUs: 300 },
      { percentile: 99, valueUs: 500 },
      { percentile: 100, valueUs: 900 },
    ],
  });
  // Several clients without an HDR source: the worst client's percentiles, an upper bound.
  const combined = cell({
    clients: [
      { host: 'a', report: old.run! },
      { host: 'b', report: old.run! },
    ],
  });
  assert.equal(cellSpectrum(combined, 'READ')?.source, 'client-max');
  assert.equal(cellSpectrum(old, 'UPDATE'), undefined);
});

test('two clients status lines add up per interval, latencies weighted by each client throughput; CPU hosts server first', () => {
  const result = cell({
    evidence: {
      timeseries: {
        status: {
          client2: [{ tSec: 10.2, operations: 3000, opsPerSec: 300, latencyUs: { READ: 200 } }],
          client1: [
            { tSec: 9.9, operations: 1000, opsPerSec: 100, latencyUs: { READ: 600 } },
            { tSec: 20, operations: 2000, opsPerSec: 100, latencyUs: {} },
          ],
        },
        warmupSec: 5,
      },
      cpu: {
        sampler: { intervalMs: 1000, selfCostPctOfCore: {} },
        hosts: {
          client1: {
            role: 'client',
            cores: 4,
            busyPct: 50,
            userPct: 0,
            systemPct: 0,
            softirqPct: 0,
            idlePct: 50,
            maxCoreBusyPct: 60,
            contextSwitchesPerSec: 0,
            interruptsPerSec: 0,
            series: [{ tSec: 1, busyPct: 50 }],
          },
          server1: {
            role: 'server',
            cores: 8,
            busyPct: 20,
            userPct: 0,
            systemPct: 0,
            softirqPct: 0,
            idlePct: 80,
            maxCoreBusyPct: 30,
            contextSwitchesPerSec: 0,
            interruptsPerSec: 0,
            series: [{ tSec: 1, busyPct: 20, processPctOfCore: 90 }],
          },
          client2: {
            role: 'client',
            cores: 4,
            busyPct: 93,
            userPct: 0,
            systemPct: 0,
            softirqPct: 0,
            idlePct: 7,
            maxCoreBusyPct: 99,
            contextSwitchesPerSec: 0,
            interruptsPerSec: 0,
            series: [],
          },
        },
      },
    },
  });
  const series = cellTimeSeries(result)!;
  assert.deepEqual(series.throughput, [
    { tSec: 10, opsPerSec: 400 },
    { tSec: 20, opsPerSec: 100 },
  ]);
  assert.deepEqual(series.latency, [{ operation: 'READ', points: [{ tSec: 10, latencyUs: 300 }] }]);
  assert.deepEqual(
    series.cpu.map((host) => host.host),
    ['server1', 'client1', 'client2'],
  );
  assert.deepEqual(series.cpu[0].points, [{ tSec: 1, busyPct: 20, processPctOfCore: 90 }]);
  assert.equal(series.warmupSec, 5);
  assert.equal(evidenceMetric('server-cpu')!.read(result), 20);
  assert.equal(evidenceMetric('client-cpu')!.read(result), 93, 'the busiest client');
});

test('point spectra prefer an unmarked repetition with merged HDR data', () => {
  const hdr = (valueUs: number) => ({
    files: [],
    afterWarmup: false,
    operations: {
      READ: {
        count: 1,
        meanUs: 1,
        maxUs: 1,
        percentilesUs: {},
        spectrum: [
          { percentile: 50, valueUs },
          { percentile: 99, valueUs: valueUs * 2 },
        ],
      },
    },
  });
  const marked = cell({
    id: 'r1',
    marks: [{ code: 'client-bound', message: 'busy' }],
    evidence: { timeseries: { status: {}, hdr: hdr(100) } },
  });
  const clean = cell({
    id: 'r2',
    key: { ...marked.key, repetition: 2 },
    evidence: { timeseries: { status: {}, hdr: hdr(200) } },
  });
  const other = cell({ id: 'o', key: { ...marked.key, threads: 16 } });
  const [kernel] = pointSpectra([marked, clean, other], marked.key, ['kernel', 'onload'], 'READ');
  assert.deepEqual(
    [kernel.cellId, kernel.repetition, kernel.source, kernel.marked, kernel.points[1].valueUs],
    ['r2', 2, 'hdr-merged', false, 400],
  );
  assert.equal(
    pointSpectra([marked], marked.key, ['kernel'], 'READ')[0].marked,
    true,
    'a marked one only when no other exists',
  );
});

test('thinning keeps the ends and spreads the rest evenly along x', () => {
  const points = Array.from({ length: 1000 }, (_, index) => ({ x: index / 100 }));
  const thinned = thinByX(points, 11);
  assert.deepEqual(
    thinned.map((point) => point.x),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9.99],
  );
  assert.equal(thinByX(points.slice(0, 5), 11).length, 5);
});
