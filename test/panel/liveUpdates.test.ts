// Live updates and partial files: a sweep's events build the same model as the files they end
// up in, and a torn or damaged line in results.jsonl never loses the rest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SweepEvent } from '../../engine/src/events';
import { applySweepEvent, emptyRunData, liveText, runDataFromFiles } from '../../client/src/panel/runData';
import { loadRunFolder } from '../../client/src/panel/runFolder';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { runTablesCsv } from '../../client/src/panel/tablesCsv';
import { fixtureFiles, fixtureManifest, fixtureResults } from './fixtureRun';

test('events from a sweep give the same charts and tables as the finished files', () => {
  const manifest = fixtureManifest();
  const results = fixtureResults();
  const live = emptyRunData('/runs/run-fixture');
  const events: SweepEvent[] = [{ type: 'run-started', runDir: live.runDir, manifest, resumed: false, alreadyDone: 0 }];
  results.forEach((result, index) => {
    events.push({ type: 'cell-started', id: result.id, key: result.key, index, total: results.length, attempt: 1 });
    events.push({
      type: 'cell-finished',
      result,
      index,
      total: results.length,
      remainingEstimateMs: (results.length - index - 1) * 60000,
    });
  });
  for (const event of events) applySweepEvent(live, event);
  assert.deepEqual(live.running, {
    cell: '25G · latency-best · 20 threads · repetition 2',
    index: 11,
    total: 12,
    remainingEstimateMs: 0,
  });
  applySweepEvent(live, {
    type: 'run-finished',
    outcome: { runDir: live.runDir, completed: 10, failed: 2, total: 12, cancelled: false },
  });
  const fromFiles = runDataFromFiles('/runs/run-fixture', manifest, results);
  assert.deepEqual(buildViewModel([live]).runs[0].groups, buildViewModel([fromFiles]).runs[0].groups);
  assert.deepEqual(buildViewModel([live]).runs[0].progress.outcome, {
    completed: 10,
    failed: 2,
    total: 12,
    cancelled: false,
    error: undefined,
  });
});

test('mid-run: missing cells are marked, progress counts what finished', () => {
  const live = emptyRunData('/runs/run-fixture');
  applySweepEvent(live, {
    type: 'run-started',
    runDir: live.runDir,
    manifest: fixtureManifest(),
    resumed: false,
    alreadyDone: 0,
  });
  const [first] = fixtureResults();
  applySweepEvent(live, { type: 'cell-finished', result: first, index: 0, total: 12 });
  const run = buildViewModel([live]).runs[0];
  assert.equal(run.progress.finished, 1);
  assert.equal(run.progress.total, 12);
  const throughput = run.groups[0].tables.find((table) => table.metric === 'throughput')!;
  assert.equal(throughput.rows[0].kernel.value, 10000);
  assert.deepEqual(throughput.rows[0].kernel.repetitions, { counted: 1, finished: 1, planned: 2, failed: 0 });
  assert.equal(throughput.rows[0].profiles[0].state, 'pending');
  assert.equal(throughput.rows[2].kernel.state, 'pending');
});

test('status events become the live line without a redraw', () => {
  const data = emptyRunData('/r');
  const event: SweepEvent = {
    type: 'status',
    id: 'c',
    host: 'client1',
    phase: 'run',
    status: { elapsedSec: 30, operations: 300000, currentOpsPerSec: 10000.4 },
    line: '...',
  };
  assert.equal(applySweepEvent(data, event), false);
  assert.equal(liveText(event), 'client1, YCSB run: 30 s, 300,000 operations, 10,000 ops/s');
  // A cell's steps read in words, not as the engine's ids.
  assert.equal(liveText({ type: 'phase', id: 'c', phase: 'recreate-bucket' }), 'Recreating the bucket…');
  assert.equal(liveText({ type: 'phase', id: 'c', phase: 'ycsb-load' }), 'Loading the data (YCSB load)…');
  assert.equal(liveText({ type: 'phase', id: 'c', phase: 'warm-up_wait' }), 'Warm up wait…');
});

test('a torn last line and a damaged line are skipped with warnings; the rest shows', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-'));
  try {
    const lines = fixtureFiles().results.trimEnd().split('\n');
    await writeFile(join(dir, 'manifest.json'), fixtureFiles().manifest);
    await writeFile(
      join(dir, 'results.jsonl'),
      [lines[0], '{"kind":"cell", broken', lines[1], lines[2].slice(0, 40)].join('\n'),
    );
    const data = await loadRunFolder(dir);
    assert.deepEqual([...data.results.keys()], ['25G-kernel-t5-r1', '25G-kernel-t5-r2']);
    assert.equal(data.warnings.length, 2);
    assert.match(data.warnings[0], /Line 2 of results\.jsonl is not valid JSON/);
    assert.match(data.warnings[1], /last line of results\.jsonl is incomplete/);
    const run = buildViewModel([data]).runs[0];
    assert.equal(run.warnings.length, 2);
    assert.equal(run.groups[0].tables[0].rows[0].kernel.value, 10500);
    assert.equal(run.groups[0].tables[0].rows[0].profiles[0].state, 'pending');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a folder without a manifest still shows its results, with a warning', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-'));
  try {
    await writeFile(join(dir, 'results.jsonl'), fixtureFiles().results);
    const data = await loadRunFolder(dir);
    assert.equal(data.results.size, 12);
    assert.equal(data.warnings.length, 1);
    assert.match(data.warnings[0], /No manifest\.json in /);
    const run = buildViewModel([data]).runs[0];
    assert.equal(run.groups[0].tables[0].rows[0].kernel.value, 10500);
    await writeFile(join(dir, 'manifest.json'), '{ damaged');
    assert.match((await loadRunFolder(dir)).warnings[0], /manifest\.json is not valid JSON/);
    await rm(join(dir, 'results.jsonl'));
    await rm(join(dir, 'manifest.json'));
    const empty = await loadRunFolder(dir);
    assert.equal(empty.results.size, 0);
    assert.match(empty.warnings[0], /holds neither manifest\.json nor results\.jsonl\. Give the path of a run folder/);
    assert.deepEqual(buildViewModel([empty]).runs[0].groups, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('CSV export is the engine report CSV of every metric the run measured, with intervals and marks', () => {
  const lines = runTablesCsv(runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults())).split('\r\n');
  assert.equal(
    lines[0],
    'metric,unit,interface,address,threads,kernel median,kernel min,kernel max,kernel repetitions,kernel failed,kernel state,kernel marks,kernel percentile source,' +
      'Onload · latency-best median,Onload · latency-best min,Onload · latency-best max,Onload · latency-best repetitions,Onload · latency-best failed,Onload · latency-best state,Onload · latency-best marks,Onload · latency-best percentile source,' +
      'Onload · latency-best vs kernel (%),Onload · latency-best vs kernel low (%),Onload · latency-best vs kernel high (%),Onload · latency-best vs kernel significant,Onload · latency-best vs kernel p,Onload · latency-best vs kernel note',
  );
  assert.equal(
    lines[1],
    'throughput,ops/s,25G,127.0.0.1,5,10500,10000,11000,2,0,ok,,,15500,15000,16000,2,0,ok,,,47.62,16.21,91.97,true,0.0194,',
  );
  assert.equal(
    lines[3],
    'throughput,ops/s,25G,127.0.0.1,20,25000,25000,25000,1,1,ok,,,26000,26000,26000,1,1,marked,not-accelerated:1,,4,,,,,one repetition: no interval; a side is marked',
  );
  assert.equal(
    lines[4],
    'read-latency,µs,25G,127.0.0.1,5,410,400,420,2,0,ok,,,260,250,270,2,0,ok,,,-36.59,-48.39,-23.36,true,0.00877,',
  );
  const metrics = [...new Set(lines.slice(1, -1).map((line) => line.split(',')[0]))];
  assert.deepEqual(metrics.slice(0, 4), ['throughput', 'read-latency', 'read-min', 'read-max']);
  assert.ok(metrics.includes('read-p99') && metrics.includes('update-p95'), metrics.join(' '));
  assert.equal(lines.length, 2 + metrics.length * 3);
  // Issue 10's columns: CPU metrics from the cells' evidence, and where each percentile came from.
  assert.deepEqual(metrics.slice(-5), [
    'server-cpu',
    'client-cpu',
    'server-cpu-per-op',
    'memcached-cpu-per-op',
    'ops-per-busy-core',
  ]);
  const row = (metric: string, threads: number) =>
    lines.find((line) => line.startsWith(`${metric},`) && line.split(',')[4] === String(threads))!.split(',');
  // Server busy: kernel 31 and 32 % (median 31.5), Onload 20.5 and 21.5 % (median 21).
  assert.deepEqual(row('server-cpu', 5).slice(0, 8), ['server-cpu', '%', '25G', '127.0.0.1', '5', '31.5', '31', '32']);
  assert.equal(row('server-cpu', 5)[13], '21');
  // Service demand: 8 cores × 31 % busy over 10 000 ops/s = 248 µs/op; × 32 % over 11 000 = 232.727.
  assert.deepEqual(row('server-cpu-per-op', 5).slice(5, 8), ['240.364', '232.727', '248']);
  assert.equal(row('read-p99', 20)[12], 'client-max', 'the kernel at 20 threads has no HDR logs: an upper bound');
  assert.equal(row('read-p99', 20)[20], 'hdr-merged');
  assert.equal(row('read-p99', 5)[12], 'hdr-merged');
});
