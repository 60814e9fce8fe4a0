// The panel's model built from the checked-in fixture run folder: chart points and table cells
// must carry exactly the numbers of results.jsonl (medians, spreads, differences, marks).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadRunFolder } from '../../client/src/panel/runFolder';
import { buildViewModel } from '../../client/src/panel/viewModel';
import type { ChartModel, ComparisonTable, PanelViewModel } from '../../client/src/panel/protocol';
import { fixtureFiles, profileName } from './fixtureRun';

const fixtureDir = join(__dirname, 'fixtures', 'run-fixture');

async function fixtureModel(): Promise<PanelViewModel> {
  return buildViewModel([await loadRunFolder(fixtureDir)]);
}

function chart(model: PanelViewModel, metric: string): ChartModel {
  const found = model.runs[0].groups[0].charts.find((candidate) => candidate.metric === metric);
  assert.ok(found, `chart ${metric} exists`);
  return found;
}

function table(model: PanelViewModel, metric: string): ComparisonTable {
  const found = model.runs[0].groups[0].tables.find((candidate) => candidate.metric === metric);
  assert.ok(found, `table ${metric} exists`);
  return found;
}

test('the checked-in fixture folder is what fixtureRun.ts builds', async () => {
  const files = fixtureFiles();
  assert.equal(await readFile(join(fixtureDir, 'manifest.json'), 'utf8'), files.manifest);
  assert.equal(await readFile(join(fixtureDir, 'results.jsonl'), 'utf8'), files.results);
});

test('title, groups, stacks, progress and environment come from the run folder', async () => {
  const model = await fixtureModel();
  assert.equal(model.title, 'Onload Bench Results: run-fixture');
  const run = model.runs[0];
  assert.equal(run.runId, 'run-fixture');
  assert.deepEqual(run.stacks, ['kernel', profileName]);
  assert.deepEqual(
    run.groups.map((group) => group.label),
    ['25G (127.0.0.1)'],
  );
  assert.deepEqual(run.progress, { total: 12, finished: 12, failed: 2, running: undefined, outcome: undefined });
  assert.deepEqual(run.warnings, []);
  assert.deepEqual(
    run.bestImprovements.map((best) => [
      best.metric,
      best.items.map((item) => [item.threads, item.stack, item.percent.toFixed(2)]),
    ]),
    [
      [
        'throughput',
        [
          [10, profileName, '59.46'],
          [5, profileName, '47.62'],
        ],
      ],
      [
        'read-latency',
        [
          [10, profileName, '-40.20'],
          [5, profileName, '-36.59'],
        ],
      ],
    ],
  );
  const server = run.environment.find((row) => row.host === '127.0.0.1');
  assert.equal(server?.role, 'server');
  assert.deepEqual(
    server?.facts.find((fact) => fact.label === 'Kernel'),
    { label: 'Kernel', value: '6.1.0-fixture' },
  );
  assert.deepEqual(
    server?.facts.find((fact) => fact.label === 'Interface 127.0.0.1')?.value,
    'sfc0, sfc, firmware 8.2.1',
  );
  assert.deepEqual(run.profiles, [
    {
      name: profileName,
      options: [
        { name: 'EF_POLL_USEC', value: '100000' },
        { name: 'EF_TCP_FASTSTART_INIT', value: '0' },
      ],
    },
  ]);
});

test('throughput chart: one series per stack, medians and min/max of the repetitions', async () => {
  const throughput = chart(await fixtureModel(), 'throughput');
  assert.equal(throughput.id, 'r0-g0-throughput');
  assert.equal(throughput.unit, 'ops/s');
  assert.deepEqual(throughput.threads, [5, 10, 20]);
  assert.deepEqual(
    throughput.series.map((series) => series.stack),
    ['kernel', profileName],
  );
  const [kernel, onload] = throughput.series;
  assert.deepEqual(
    kernel.points.map((point) => [point.threads, point.median, point.min, point.max, point.failed]),
    [
      [5, 10500, 10000, 11000, 0],
      [10, 18500, 18000, 19000, 0],
      [20, 25000, 25000, 25000, 1],
    ],
  );
  assert.deepEqual(
    onload.points.map((point) => point.median),
    [15500, 29500, null],
  );
  // 20 threads: repetition 1 ran without acceleration, repetition 2 failed: the chart draws no
  // Onload point (that number is really the kernel's).
  assert.deepEqual(
    { ...onload.points[2] },
    {
      threads: 20,
      median: null,
      min: null,
      max: null,
      state: 'marked',
      repetitions: 1,
      finished: 2,
      planned: 2,
      failed: 1,
      marked: 1,
      markedLeftOut: 0,
      marks: [
        {
          code: 'not-accelerated',
          label: 'not accelerated',
          message: "Couchbase was not verified to run on Onload: the numbers are really the kernel stack's.",
          repetitions: 1,
        },
      ],
      // Issue 10: the marked value is kept apart (drawn as a marked point, never on the line), the
      // difference says a side is marked, and the point knows its cells for the time-series view.
      markedValue: 26000,
      delta: { percent: 4, significant: false, marked: true },
      cellIds: ['25G-latency-best-t20-r1', '25G-latency-best-t20-r2'],
    },
  );
});

test('latency charts read READ/UPDATE averages and percentiles in µs', async () => {
  const model = await fixtureModel();
  assert.deepEqual(
    model.runs[0].groups[0].charts.map((candidate) => candidate.metric),
    ['throughput', 'read-latency', 'read-p95', 'read-p99', 'update-latency', 'update-p95', 'update-p99'],
  );
  assert.deepEqual(
    chart(model, 'read-latency').series[0].points.map((point) => point.median),
    [410, 510, 800],
  );
  assert.deepEqual(
    chart(model, 'read-p95').series[1].points.map((point) => point.median),
    [520, 610, null],
  );
  assert.deepEqual(
    chart(model, 'read-p99').series[0].points.map((point) => point.median),
    [1230, 1530, 2400],
  );
  assert.deepEqual(
    chart(model, 'update-latency').series[0].points.map((point) => point.median),
    [615, 765, 1200],
  );
  assert.equal(chart(model, 'update-latency').unit, 'µs');
});

test('throughput table: kernel vs profile, percent difference, best improvement, marks', async () => {
  const throughput = table(await fixtureModel(), 'throughput');
  assert.deepEqual(throughput.profiles, [profileName]);
  assert.deepEqual(
    throughput.rows.map((row) => row.threads),
    [5, 10, 20],
  );
  const [row5, row10, row20] = throughput.rows;
  assert.equal(row5.kernel.value, 10500);
  assert.equal(row5.profiles[0].value, 15500);
  assert.ok(Math.abs(row5.profiles[0].deltaPercent! - 47.619047619) < 1e-6);
  assert.equal(row5.profiles[0].improvement, true);
  assert.equal(row5.profiles[0].best, undefined);
  assert.ok(Math.abs(row10.profiles[0].deltaPercent! - 59.459459459) < 1e-6);
  assert.equal(row10.profiles[0].best, true);
  assert.equal(row20.kernel.value, 25000);
  assert.deepEqual(row20.kernel.repetitions, { counted: 1, finished: 2, planned: 2, failed: 1 });
  // Shown with its difference, as the CLI report does, but marked and never an improvement.
  assert.equal(row20.profiles[0].state, 'marked');
  assert.equal(row20.profiles[0].deltaMarked, true);
  assert.deepEqual(
    row20.profiles[0].marks.map((mark) => [mark.code, mark.repetitions]),
    [['not-accelerated', 1]],
  );
  assert.equal(row20.profiles[0].value, 26000);
  assert.equal(row20.profiles[0].deltaPercent, 4);
  assert.equal(row20.profiles[0].improvement, false);
  // Spread: (11000 - 10000) / 10500.
  assert.ok(Math.abs(row5.kernel.spreadPercent! - 9.5238095) < 1e-6);
});

test('read latency table: lower is better, so negative differences are improvements', async () => {
  const latency = table(await fixtureModel(), 'read-latency');
  const [row5, row10] = latency.rows;
  assert.equal(row5.kernel.value, 410);
  assert.equal(row5.profiles[0].value, 260);
  assert.ok(Math.abs(row5.profiles[0].deltaPercent! - -36.585365853) < 1e-6);
  assert.equal(row5.profiles[0].improvement, true);
  assert.ok(Math.abs(row10.profiles[0].deltaPercent! - -40.196078431) < 1e-6);
  assert.equal(row10.profiles[0].best, true);
  assert.equal(row5.profiles[0].best, undefined);
});

test('two runs side by side: title names both, chart ids stay unique', async () => {
  const data = await loadRunFolder(fixtureDir);
  const other = await loadRunFolder(fixtureDir);
  other.manifest = { ...other.manifest!, runId: 'run-other' };
  const model = buildViewModel([data, other]);
  assert.equal(model.title, 'Onload Bench Results: run-other against run-fixture');
  assert.equal(model.runs[1].groups[0].charts[0].id, 'r1-g0-throughput');
  assert.equal(model.runs[1].groups[0].tables[0].id, 'r1-g0-throughput-table');
  // Same chart, same y axis top on both sides: the larger max of the two runs.
  assert.equal(model.runs[0].groups[0].charts[0].sharedMax, 30000);
  assert.equal(model.runs[1].groups[0].charts[0].sharedMax, 30000);
  assert.equal(buildViewModel([data]).runs[0].groups[0].charts[0].sharedMax, undefined);
});
