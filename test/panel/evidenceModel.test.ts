// Issue 10 in the panel's model, from the checked-in fixture run: CPU charts against threads with
// the numbers of the cells' evidence, error-bar intervals, the percentile caveat, latency spectra
// with the arms overlaid, the marks legend, a point's time series, and the new webview messages.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { timeSeriesView } from '../../client/src/panel/evidenceModel';
import { validateWebviewMessage } from '../../client/src/panel/messageValidation';
import type { ChartModel, PanelViewModel } from '../../client/src/panel/protocol';
import { loadRunFolder } from '../../client/src/panel/runFolder';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { profileName } from './fixtureRun';

const fixtureDir = join(__dirname, 'fixtures', 'run-fixture');

async function fixtureModel(): Promise<PanelViewModel> {
  return buildViewModel([await loadRunFolder(fixtureDir)]);
}

function cpuChart(model: PanelViewModel, metric: string): ChartModel {
  const found = model.runs[0].groups[0].cpuCharts?.find((chart) => chart.metric === metric);
  assert.ok(found, `CPU chart ${metric}`);
  return found;
}

test('CPU charts: server and client busy %, CPU per operation and ops per busy core against threads, kernel vs the profile', async () => {
  const model = await fixtureModel();
  assert.deepEqual(
    model.runs[0].groups[0].cpuCharts?.map((chart) => [chart.id, chart.unit]),
    [
      ['r0-g0-server-cpu', '%'],
      ['r0-g0-client-cpu', '%'],
      ['r0-g0-server-cpu-per-op', 'µs/op'],
      ['r0-g0-ops-per-busy-core', 'ops/s/core'],
    ],
  );
  const server = cpuChart(model, 'server-cpu');
  assert.deepEqual(server.threads, [5, 10, 20]);
  // Kernel: 20 + 2 × threads + repetition %; Onload: 12 + 1.5 × threads + repetition %.
  assert.deepEqual(
    server.series[0].points.map((point) => point.median),
    [31.5, 41.5, 61],
  );
  assert.deepEqual(
    server.series[1].points.map((point) => point.median),
    [21, 28.5, null],
  );
  // The not-accelerated Onload point keeps its value apart: drawn as a marked point, not on the line.
  assert.equal(server.series[1].points[2].markedValue, 43);
  assert.equal(server.series[1].points[2].state, 'marked');
  // Service demand of the kernel at 5 threads: 8 cores × 31 % / 10 000 ops/s = 248 µs, × 32 % / 11 000 = 232.7 µs.
  const perOp = cpuChart(model, 'server-cpu-per-op');
  assert.equal(perOp.series[0].points[0].min!.toFixed(3), '232.727');
  assert.equal(perOp.series[0].points[0].max!.toFixed(3), '248.000');
  // Onload costs less CPU per operation: the difference is negative and carries its interval.
  const delta = perOp.series[1].points[0].delta!;
  assert.ok(delta.percent < -40 && delta.halfWidth !== undefined, JSON.stringify(delta));
});

test('error bars: the 95 % interval of each point mean; the percentile caveat on charts with upper bounds', async () => {
  const model = await fixtureModel();
  const throughput = model.runs[0].groups[0].charts.find((chart) => chart.metric === 'throughput')!;
  // 10 000 and 11 000: mean 10 500, sd 707.1, t(0.975, 1) = 12.706: ± 6 353.
  const interval = throughput.series[0].points[0].interval!;
  assert.equal(Math.round(interval.low), 4147);
  assert.equal(Math.round(interval.high), 16853);
  assert.equal(throughput.series[0].points[2].interval, undefined, 'one repetition: no interval');
  assert.equal(throughput.note, undefined);
  const p99 = model.runs[0].groups[0].charts.find((chart) => chart.metric === 'read-p99')!;
  assert.equal(p99.series[0].points[2].percentilesSource, 'client-max');
  assert.equal(p99.series[0].points[0].percentilesSource, 'hdr-merged');
  assert.equal(p99.note, 'Upper bound (max of clients), no HDR logs to merge: kernel at 20 threads.');
});

test('spectra: every point and operation, the arms overlaid on the nines scale, the source of each', async () => {
  const spectra = (await fixtureModel()).runs[0].groups[0].spectra ?? [];
  assert.deepEqual(
    spectra.map((spectrum) => spectrum.id),
    [
      'r0-g0-spectrum-t5-READ',
      'r0-g0-spectrum-t5-UPDATE',
      'r0-g0-spectrum-t10-READ',
      'r0-g0-spectrum-t10-UPDATE',
      'r0-g0-spectrum-t20-READ',
      'r0-g0-spectrum-t20-UPDATE',
    ],
  );
  const read10 = spectra[2];
  assert.deepEqual(
    read10.series.map((series) => [series.stack, series.repetition, series.source, series.marked]),
    [
      ['kernel', 1, 'hdr-merged', false],
      [profileName, 1, 'hdr-merged', false],
    ],
  );
  // Kernel READ average 500 µs at 10 threads, repetition 1: the 99 % point sits at x = 2 with 500 × (0.5 + 2 × 0.6).
  const p99 = read10.series[0].points.find((point) => point.percentile === 99)!;
  assert.equal(p99.x.toFixed(6), '2.000000');
  assert.equal(p99.valueUs, 850);
  assert.deepEqual(
    read10.ticks.map((tick) => tick.label),
    ['0', '90', '99', '99.9', '99.99', '99.999', '100'],
  );
  // At 20 threads the kernel has no HDR logs (YCSB's percentiles, the max of clients) and the profile's only repetition
  // is marked.
  const read20 = spectra[4];
  assert.deepEqual(
    read20.series.map((series) => [series.stack, series.source, series.marked]),
    [
      ['kernel', 'client-max', false],
      [profileName, 'hdr-merged', true],
    ],
  );
  assert.deepEqual(
    read20.series[0].points.map((point) => point.percentile),
    [0, 95, 99, 100],
  );
});

test('the marks legend explains each code met, with its cell count', async () => {
  const legend = (await fixtureModel()).runs[0].marksLegend;
  assert.equal(legend?.length, 1);
  assert.deepEqual(
    { ...legend![0], explanation: legend![0].explanation.slice(0, 40) },
    {
      code: 'not-accelerated',
      label: 'not accelerated',
      explanation: 'Couchbase was not verified to run on Onl',
      cells: 1,
    },
  );
});

test('a point time series: throughput summed over clients, latency per operation, CPU per host; failed cells listed as missing', async () => {
  const data = await loadRunFolder(fixtureDir);
  const view = timeSeriesView(data, 0, {
    cellIds: ['25G-kernel-t20-r1', '25G-kernel-t20-r2'],
    stack: 'kernel',
    threads: 20,
    title: '25G (127.0.0.1), kernel, 20 threads',
  });
  assert.equal(view.cells.length, 1);
  // The missing cell in words (issue 13's cell labels); every cell asked for stays openable.
  assert.deepEqual(view.missing, ['25G · kernel · 20 threads · repetition 2']);
  assert.deepEqual(view.cellIds, ['25G-kernel-t20-r1', '25G-kernel-t20-r2']);
  const [cell] = view.cells;
  // Status lines every 10 s; the first interval ramps at 80 % of 25 000 ops/s.
  assert.deepEqual(
    cell.throughput.map((point) => [point.tSec, point.opsPerSec]),
    [
      [10, 20000],
      [20, 25000],
      [30, 25000],
      [40, 25000],
      [50, 25000],
      [60, 25000],
    ],
  );
  assert.deepEqual(
    cell.latency.map((series) => [series.operation, series.points[0].latencyUs]),
    [
      ['READ', 960],
      ['UPDATE', 1200],
    ],
  );
  assert.deepEqual(
    cell.cpu.map((host) => [host.host, host.role, host.process, host.points.length, host.points[1].busyPct]),
    [
      ['127.0.0.1', 'server', 'memcached', 12, 61],
      ['127.0.0.2', 'client', 'java', 12, 71],
    ],
  );
});

test('the new webview messages are validated', () => {
  assert.deepEqual(validateWebviewMessage({ type: 'export-report', runIndex: 0, extra: 1 }), {
    ok: true,
    value: { type: 'export-report', runIndex: 0 },
  });
  assert.match((validateWebviewMessage({ type: 'export-report', runIndex: 3 }) as { error: string }).error, /runIndex/);
  const open = { type: 'open-timeseries', runIndex: 0, cellIds: ['a', 'b'], stack: 'kernel', threads: 10, title: 't' };
  assert.deepEqual(validateWebviewMessage({ ...open, x: 1 }), { ok: true, value: open });
  for (const bad of [
    { ...open, cellIds: [] },
    { ...open, cellIds: 'a' },
    { ...open, cellIds: [1] },
    { ...open, cellIds: Array(101).fill('a') },
    { ...open, threads: -1 },
    { ...open, stack: 3 },
    { ...open, runIndex: 2 },
  ]) {
    assert.equal(validateWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
  }
});
