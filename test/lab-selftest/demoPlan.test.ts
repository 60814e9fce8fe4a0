// The demo `npm start` runs on the simulated lab (test/e2e/support/simulatedLab.ts demoLabOptions),
// checked without booting it: the plan test/lab writes from those options is valid, every point has
// three repetitions (so an interval), run phases are time-bounded (a time series, not a dot on a
// −1..1 s axis) and throttled (the clients stay far from busy: not client-bound), and the sweep is
// small enough for about five minutes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkPlanText } from '../../engine/src/plan/plan';
import { expandCells } from '../../engine/src/plan/cells';
import { withDefaults } from '../../engine/src/plan/planSchema';
import { writeLabPlan, type Lab } from '../lab/index';
import { demoLabOptions, labPlanSettings } from '../e2e/support/simulatedLab';

test('the demo plan: 3 repetitions, 8 s throttled run phases after a 2 s warm-up, 24 cells', () => {
  const dir = mkdtempSync(join(tmpdir(), 'demo-plan-'));
  try {
    const lab = {
      serverHost: 'lab-server',
      clientHosts: ['lab-client-1'],
      ycsbHome: '/opt/ycsb',
      couchbase: { username: 'Administrator', kvPort: 11210, restPort: 8091 },
      interfaces: [
        { label: 'nic-a', address: '10.0.0.1' },
        { label: 'nic-b', address: '10.0.1.1' },
        { label: 'nic-c', address: '10.0.2.1' },
      ],
    } as unknown as Lab;
    const settings = labPlanSettings(demoLabOptions);
    const path = writeLabPlan(lab, {
      dir,
      stacks: ['kernel', 'latency'],
      interfaces: lab.interfaces.slice(0, 2),
      ...settings,
    });
    const { plan, errors } = checkPlanText(readFileSync(path, 'utf8'), dir);
    assert.deepEqual(errors, []);
    const resolved = withDefaults(plan);
    assert.equal(resolved.repetitions, 3);
    assert.equal(resolved.warmupSec, 2);
    assert.deepEqual(
      [
        resolved.workload.properties.maxexecutiontime,
        resolved.workload.properties.operationcount,
        resolved.workload.properties.target,
      ],
      [8, 0, 400],
    );
    const cells = expandCells(resolved);
    assert.equal(cells.length, 24);
    // About five minutes: each cell's run phase plus a generous 4 s for restart, bucket and load.
    assert.ok(cells.length * (8 + 4) <= 5 * 60, `${cells.length} cells`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
