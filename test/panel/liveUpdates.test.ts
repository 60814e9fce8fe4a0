// Live updates and partial files: a sweep's events build the same model as the files they end
// up in, and a torn or damaged line in results.jsonl never loses the rest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SweepEvent } from '../../engine/src/events';
import { applySweepEvent, emptyRunData, liveText, runDataFromFiles } from '../../client/src/panel/runData';
import { parseResultsText } from '../../engine/src/resultsStore';
import { loadRunFolder, manifestWarnings, resultsFromText } from '../../client/src/panel/runFolder';
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
    events.push({ type: 'cell-finished', result, index, total: results.length, remainingEstimateMs: (results.length - index - 1) * 60000 });
  });
  for (const event of events) applySweepEvent(live, event);
  assert.deepEqual(live.running, { cell: '25G latency-best 20 threads #2', index: 11, total: 12, remainingEstimateMs: 0 });
  applySweepEvent(live, { type: 'run-finished', outcome: { runDir: live.runDir, completed: 10, failed: 2, total: 12, cancelled: false } });
  const fromFiles = runDataFromFiles('/runs/run-fixture', manifest, results);
  assert.deepEqual(buildViewModel([live]).runs[0].groups, buildViewModel([fromFiles]).runs[0].groups);
  assert.deepEqual(buildViewModel([live]).runs[0].progress.outcome, { completed: 10, failed: 2, total: 12, cancelled: false, error: undefined });
});

test('mid-run: missing cells are marked, progress counts what finished', () => {
  const live = emptyRunData('/runs/run-fixture');
  applySweepEvent(live, { type: 'run-started', runDir: live.runDir, manifest: fixtureManifest(), resumed: false, alreadyDone: 0 });
  const [first] = fixtureResults();
  applySweepEvent(live, { type: 'cell-finished', result: first, index: 0, total: 12 });
  const run = buildViewModel([live]).runs[0];
  assert.equal(run.progress.finished, 1);
  assert.equal(run.progress.total, 12);
  const throughput = run.groups[0].tables.find((table) => table.metric === 'throughput')!;
  assert.equal(throughput.rows[0].kernel.value, 10000);
  assert.equal(throughput.rows[0].profiles[0].mark, 'missing');
  assert.equal(throughput.rows[2].kernel.mark, 'missing');
});

test('status events become the live line without a redraw', () => {
  const data = emptyRunData('/r');
  const event: SweepEvent = { type: 'status', id: 'c', host: 'client1', phase: 'run', status: { elapsedSec: 30, operations: 300000, currentOpsPerSec: 10000.4 }, line: '...' };
  assert.equal(applySweepEvent(data, event), false);
  assert.equal(liveText(event), 'client1 run: 30 s, 300000 operations, 10000 ops/s');
});

test('a torn last line is skipped silently, damaged lines with one warning', () => {
  const lines = fixtureFiles().results.trimEnd().split('\n');
  const keyless = JSON.stringify({ kind: 'cell', id: 'x', status: 'ok' });
  const text = [lines[0], '{"kind":"cell", broken', lines[1], '{"kind":"other"}', keyless, lines[2].slice(0, 40)].join('\n');
  const parsed = resultsFromText(parseResultsText(text));
  assert.deepEqual(parsed.results.map((result) => result.id), ['25G-kernel-t5-r1', '25G-kernel-t5-r2']);
  assert.deepEqual(parsed.warnings, ['3 damaged lines of results.jsonl skipped.']);
});

test('a folder without a manifest still shows its results, with a warning', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-'));
  try {
    await writeFile(join(dir, 'results.jsonl'), fixtureFiles().results);
    const data = await loadRunFolder(dir);
    assert.equal(data.results.size, 12);
    assert.equal(data.warnings.length, 1);
    assert.match(data.warnings[0], /manifest\.json.*Showing the results without it\./);
    const run = buildViewModel([data]).runs[0];
    assert.equal(run.groups[0].tables[0].rows[0].kernel.value, 10500);
    await writeFile(join(dir, 'manifest.json'), '{ damaged');
    assert.match((await loadRunFolder(dir)).warnings[0], /not a valid run manifest/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a newer manifest format is reported, not fatal', () => {
  assert.deepEqual(manifestWarnings({ ...fixtureManifest(), formatVersion: 99 }), [
    'manifest.json has format version 99, newer than this extension reads (1); some fields may be missing.',
  ]);
  assert.deepEqual(manifestWarnings(fixtureManifest()), []);
});

test('CSV export lists each table with kernel, profile and difference columns', () => {
  const run = buildViewModel([runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults())]).runs[0];
  const lines = runTablesCsv(run).split('\r\n');
  assert.equal(lines[0], 'run,group,metric,unit,threads,kernel,latency-best,latency-best diff %');
  assert.equal(lines[1], 'run-fixture,25G (127.0.0.1),throughput,ops/s,5,10500,15500,47.61904761904761');
  assert.equal(lines[3], 'run-fixture,25G (127.0.0.1),throughput,ops/s,20,25000,not-accelerated,');
  assert.equal(lines[4], '');
  assert.equal(lines[5], 'run,group,metric,unit,threads,kernel,latency-best,latency-best diff %');
  assert.equal(lines[6], 'run-fixture,25G (127.0.0.1),read-avg,µs,5,410,260,-36.58536585365854');
});
