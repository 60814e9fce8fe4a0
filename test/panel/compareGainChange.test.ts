// The compare view's difference-of-differences table (client/src/panel/comparison.ts over
// engine/src/report/gainChange.ts): run B's kernel 20 % faster, its Onload profile unchanged, so
// Onload's gain over the kernel shrank; the table says by how many points, with its interval.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureManifest, fixtureResults } from './fixtureRun';

test("did Onload's gain over the kernel change: per thread count, both gains and the change in points with its interval", () => {
  const a = runDataFromFiles('/runs/a', fixtureManifest(), fixtureResults());
  const resultsB = fixtureResults().map((result) => {
    if (result.run && result.key.stack === 'kernel') result.run.throughputOpsPerSec *= 1.2;
    return result;
  });
  const manifestB = fixtureManifest();
  manifestB.runId = 'run-b';
  const model = buildViewModel([a, runDataFromFiles('/runs/b', manifestB, resultsB)]);
  const gains = model.comparison!.groups[0].gainChanges!;
  assert.deepEqual(
    gains.map((table) => [table.metric, table.title]),
    [
      ['throughput', "Throughput: did Onload's gain over the kernel change (B against A)?"],
      ['read-latency', "Read average latency: did Onload's gain over the kernel change (B against A)?"],
    ],
  );
  const at5 = gains[0].rows.find((row) => row.threads === 5 && row.stack === 'latency-best')!;
  // A: 15,500 / 10,500 → +47.6 %; B: 15,500 / 12,600 → +23.0 %; −24.6 points.
  assert.deepEqual(
    [at5.gainA.toFixed(1), at5.gainB.toFixed(1), at5.changePoints.toFixed(1)],
    ['47.6', '23.0', '-24.6'],
  );
  // Two repetitions a side, with the fixture's spread: an interval around the change, too wide to call it.
  assert.ok(
    at5.interval && at5.interval.low < at5.changePoints && at5.changePoints < at5.interval.high,
    JSON.stringify(at5.interval),
  );
  assert.equal(at5.significant, false);
  assert.equal(at5.better, false);
  // Read latency did not change in either arm: no change, and not significant.
  const read5 = gains[1].rows.find((row) => row.threads === 5)!;
  assert.equal(read5.changePoints.toFixed(1), '0.0');
  assert.equal(read5.significant, false);
});
