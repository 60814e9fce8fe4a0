// One unit per metric (engine/src/report/displayUnits.ts through client/src/panel): chosen once from
// the run's data, so two interfaces of a run, and the two runs of a comparison, show a metric in the
// same unit in every chart heading, axis and table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CellResult } from '../../engine/src/model';
import { displayUnitOf, formatInDisplayUnit, formatTick } from '../../engine/src/report/displayUnits';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureResults } from './fixtureRun';

/**
 * The fixture's cells on two interfaces: `slow` with read latencies `factor` times the fixture's, `fast` as they are.
 */
function twoInterfaces(runDir: string, factor: number) {
  const results: CellResult[] = [];
  for (const [name, scale] of [
    ['slow', factor],
    ['fast', 1],
  ] as const) {
    for (const result of fixtureResults()) {
      const copy = structuredClone(result);
      copy.key.interface = name;
      copy.id = `${name}-${copy.id}`;
      const read = copy.run?.operations.READ;
      if (read?.averageUs !== undefined) read.averageUs *= scale;
      results.push(copy);
    }
  }
  return runDataFromFiles(runDir, undefined, results);
}

const unitsOf = (model: ReturnType<typeof buildViewModel>, metric: string) =>
  model.runs.map((run) =>
    run.groups.map((group) => [
      group.interface,
      group.charts.find((chart) => chart.metric === metric)?.displayUnit,
      group.tables.find((table) => table.metric === metric)?.displayUnit,
    ]),
  );

test('a metric in ms on one interface is in ms on every interface of the run, chart and table alike', () => {
  const model = buildViewModel([twoInterfaces('/runs/one', 40)]);
  assert.deepEqual(unitsOf(model, 'read-latency'), [
    [
      ['slow', 'ms', 'ms'],
      ['fast', 'ms', 'ms'],
    ],
  ]);
  // Other metrics keep their own unit: read p95 stays in µs, throughput in ops/s.
  assert.deepEqual(unitsOf(model, 'read-p95'), [
    [
      ['slow', 'µs', undefined],
      ['fast', 'µs', undefined],
    ],
  ]);
  assert.deepEqual(unitsOf(model, 'throughput'), [
    [
      ['slow', 'ops/s', 'ops/s'],
      ['fast', 'ops/s', 'ops/s'],
    ],
  ]);
});

test('compare: run A in µs and run B in ms are both shown in ms', () => {
  const model = buildViewModel([twoInterfaces('/runs/a', 1), twoInterfaces('/runs/b', 40)]);
  const compare = model.comparison!.groups.map((group) => [
    group.interface,
    group.charts.find((chart) => chart.metric === 'read-latency')?.displayUnit,
    group.tables.find((table) => table.metric === 'read-latency')?.displayUnit,
  ]);
  assert.deepEqual(compare, [
    ['slow', 'ms', 'ms'],
    ['fast', 'ms', 'ms'],
  ]);
  // Side by side, the same chart of both runs shares its unit too.
  assert.deepEqual(unitsOf(model, 'read-latency'), [
    [
      ['slow', 'ms', 'ms'],
      ['fast', 'ms', 'ms'],
    ],
    [
      ['slow', 'ms', 'ms'],
      ['fast', 'ms', 'ms'],
    ],
  ]);
});

test('numbers in the display unit are written in full: no "40k"', () => {
  assert.equal(displayUnitOf('µs', [9999.9]), 'µs');
  assert.equal(displayUnitOf('µs', [120, 10_000]), 'ms');
  assert.equal(displayUnitOf('ops/s', [1e6]), 'ops/s');
  assert.equal(formatInDisplayUnit(40_000, 'µs'), '40,000');
  assert.equal(formatInDisplayUnit(40_000, 'ms'), '40');
  assert.equal(formatInDisplayUnit(40_512.4, 'ops/s'), '40,512');
  assert.equal(formatTick(40_000), '40,000');
  assert.equal(formatTick(12.5), '12.5');
});
