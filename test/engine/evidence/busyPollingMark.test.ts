// An Onload profile that busy-polls makes memcached's "CPU per operation" count spinning, which the
// kernel arm does not do (issue 21 item 5): such cells carry a `busy-polling` mark naming the
// options that spin and where they were read, and the CPU tables' legend says so. The mark is a
// note: it does not take the cell out of the medians (its latency and throughput still measure
// what its key says). What spins follows Onload's option facts (../shared/onload/relations.json).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busyPolling, busyPollingMessage } from '../../../engine/src/evidence/busyPolling';
import { markExplanation } from '../../../engine/src/report/evidence/markExplanations';
import type { CellResult } from '../../../engine/src/model';
import { buildReportTable, renderReport } from '../../../engine/src/report/report';
import { pointSpectra } from '../../../engine/src/report/evidence/evidenceViews';
import { cpuCharts, cpuTables } from '../../../client/src/panel/evidenceModel';
import { fixtureManifest, fixtureResults } from '../../panel/fixtureRun';

test("what spins, from Onload's facts: EF_POLL_USEC turns the spin flags on, explicit settings win, EF_INT_DRIVEN=0 alone spins nothing", () => {
  const latency = busyPolling({ EF_POLL_USEC: '100000', EF_TCP_RECV_SPIN: '0', EF_TCP_FASTSTART_INIT: '0' });
  assert.ok(latency);
  assert.equal(latency.spinUsec, 100000);
  assert.equal(latency.spinning[0], 'EF_POLL_USEC=100000');
  assert.ok(latency.spinning.includes('EF_EPOLL_SPIN (implied by EF_POLL_USEC)'));
  assert.ok(latency.spinning.includes('EF_SOCK_LOCK_BUZZ (implied by EF_POLL_USEC)'));
  assert.ok(!latency.spinning.some((entry) => entry.startsWith('EF_TCP_RECV_SPIN')), 'set to 0 explicitly');
  assert.ok(
    !latency.spinning.some((entry) => entry.startsWith('EF_TCP_ACCEPT_SPIN')),
    'not switched on by EF_POLL_USEC',
  );
  assert.equal(busyPolling({ EF_INT_DRIVEN: '0' }), undefined);
  assert.equal(busyPolling({ EF_POLL_USEC: '0' }), undefined);
  assert.equal(busyPolling({ EF_TCP_RECV_SPIN: '1' }), undefined, 'a spin flag without a spin time spins nothing');
  const forever = busyPolling({ EF_SPIN_USEC: '-1', EF_TCP_ACCEPT_SPIN: '1' });
  assert.deepEqual(forever?.spinning, ['EF_SPIN_USEC=-1', 'EF_TCP_ACCEPT_SPIN=1']);
  assert.match(
    busyPollingMessage(forever!, "memcached's /proc/42/environ"),
    /memcached busy-polls \(spinning without a time limit; EF_SPIN_USEC=-1, EF_TCP_ACCEPT_SPIN=1; from memcached's \/proc\/42\/environ\): its CPU and the server's CPU per operation count the spinning/,
  );
});

test('a busy-polling cell stays in the medians and comparisons; the CPU table says CPU per op counts spinning', () => {
  const polling = {
    code: 'busy-polling',
    host: 'server1',
    message: busyPollingMessage(busyPolling({ EF_POLL_USEC: '20' })!, "memcached's /proc/42/environ"),
  };
  const cell = (stack: string, repetition: number, usPerOp: number, marks: CellResult['marks'] = []): CellResult => ({
    kind: 'cell',
    id: `${stack}-${repetition}`,
    status: 'ok',
    accelerated: stack === 'kernel' ? null : true,
    key: { interface: '25G', address: '127.0.0.1', stack, threads: 5, axes: {}, repetition },
    startedAt: '',
    finishedAt: '',
    attempts: 1,
    logs: [],
    marks,
    run: { runtimeMs: 1, throughputOpsPerSec: 1000, operations: {}, other: {}, warnings: [] },
    evidence: { cpu: { sampler: { intervalMs: 1000, selfCostPctOfCore: {} }, hosts: {}, serverCpuUsPerOp: usPerOp } },
  });
  const results = [
    cell('kernel', 1, 10),
    cell('kernel', 2, 11),
    cell('latency', 1, 30, [polling]),
    cell('latency', 2, 31, [polling]),
  ];
  const table = buildReportTable({ results }, 'server-cpu-per-op')!;
  const latency = table.groups[0].rows[0].cells[1];
  assert.deepEqual([latency.state, latency.value, latency.marked, latency.markedLeftOut], ['ok', 30.5, 0, 0]);
  assert.deepEqual(
    latency.marks.map((mark) => [mark.code, mark.repetitions]),
    [['busy-polling', 2]],
    'shown with the cell',
  );
  assert.notEqual(table.groups[0].rows[0].comparisons[0].marked, true);
  const text = renderReport([table], results);
  assert.match(
    text,
    /Busy-polling \(latency\): memcached spins while it waits .* the CPU per operation count spinning, not only work/,
  );
  assert.match(
    text,
    /CPU: \/proc\/stat and \/proc\/PID\/stat .* over YCSB's own run from its status lines with the warm-up left out from its start/,
  );
  assert.match(
    text,
    /\[busy-polling\] server1: memcached busy-polls \(spinning up to 20 µs per wait; EF_POLL_USEC=20, EF_SELECT_SPIN \(implied by EF_POLL_USEC\)/,
  );
  assert.match(markExplanation('busy-polling'), /CPU per operation count spinning/);
});

test("the panel's CPU chart of a group with busy-polling cells says so under it; nothing else of the panel counts the note as a doubt", () => {
  const polling = { code: 'busy-polling', host: 'server1', message: 'memcached busy-polls' };
  const results = fixtureResults().map((result) =>
    result.status === 'ok' && result.key.stack !== 'kernel'
      ? { ...result, accelerated: true, marks: [polling] }
      : result,
  );
  const tables = cpuTables({ results, manifest: fixtureManifest() });
  const charts = cpuCharts(tables, 0, 'g0');
  const perOp = charts.find((chart) => chart.metric === 'server-cpu-per-op');
  assert.match(perOp?.note ?? '', /^Busy-polling \(.+\): memcached spins while it waits .*count spinning/);
  assert.ok(
    perOp?.series.every((series) => series.points.every((point) => point.median !== null || point.markedValue == null)),
    'no point drawn as marked for a note',
  );
  const fixtureOnload = results.find(
    (result) => result.status === 'ok' && result.key.stack !== 'kernel' && result.evidence?.timeseries?.hdr,
  )!;
  const spectra = pointSpectra(
    results,
    fixtureOnload.key,
    [fixtureOnload.key.stack],
    Object.keys(fixtureOnload.evidence!.timeseries!.hdr!.operations)[0],
  );
  assert.equal(spectra[0]?.marked, false, 'the spectrum of a busy-polling cell is not drawn as marked');
});
