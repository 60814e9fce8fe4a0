// Cell order (grouped, interleaved, randomized with a seed), server restarts, run until stable
// with fake results, and the plan fields that drive them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cellId, expandCells } from '../../../engine/src/plan/cells';
import type { CellKey, CellResult } from '../../../engine/src/model';
import { checkPlanText } from '../../../engine/src/plan/plan';
import { withDefaults, type Plan } from '../../../engine/src/plan/planSchema';
import {
  clusterResizes,
  formatEstimate,
  initialCells,
  nextRepetitions,
  planEstimate,
  planPoints,
  serverRestarts,
} from '../../../engine/src/sweep/schedule';

const plan = (extra: Partial<Plan> = {}): Plan => ({
  servers: [{ host: 's' }],
  interfaces: { '25G': '10.0.0.1' },
  clients: [{ host: 'c', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'b' },
  workload: { path: 'w' },
  stacks: ['kernel', { name: 'p', profile: 'p.opf' }],
  threads: [1, 2, 3],
  ...extra,
});
const short = (keys: CellKey[]): string[] => keys.map((key) => `${key.stack}/t${key.threads}/r${key.repetition}`);

describe('cell order', () => {
  const resolved = withDefaults(plan({ repetitions: 2 }));
  const all = expandCells(resolved);
  const stacks = ['kernel', 'p'];

  it('grouped is the classic order: repetition, then each stack together', () => {
    assert.deepEqual(initialCells(all, stacks, resolved.repetitionPolicy, 'grouped', 0), all);
    assert.equal(serverRestarts(all, 'on-stack-change'), 4);
  });

  it('interleaved alternates the arms point by point, reversing every other point', () => {
    const ordered = initialCells(all, stacks, resolved.repetitionPolicy, 'interleaved', 0);
    assert.deepEqual(short(ordered).slice(0, 8), [
      'kernel/t1/r1',
      'p/t1/r1',
      'p/t2/r1',
      'kernel/t2/r1',
      'kernel/t3/r1',
      'p/t3/r1',
      'p/t1/r2',
      'kernel/t1/r2',
    ]);
    assert.equal(ordered.length, all.length);
    // one restart per point (plus the first): 7 instead of grouped's 4
    assert.equal(serverRestarts(ordered, 'on-stack-change'), 7);
    assert.equal(serverRestarts(ordered, 'every-cell'), 12);
  });

  it('randomized is a permutation fixed by the seed', () => {
    const one = initialCells(all, stacks, resolved.repetitionPolicy, 'randomized', 42);
    const again = initialCells(all, stacks, resolved.repetitionPolicy, 'randomized', 42);
    const other = initialCells(all, stacks, resolved.repetitionPolicy, 'randomized', 43);
    assert.deepEqual(one, again);
    assert.notDeepEqual(short(one), short(other));
    assert.deepEqual(short(one).sort(), short(all).sort());
    assert.notDeepEqual(short(one), short(all));
  });

  it('the plan summary shows the cells, the maximum with run until stable, and the restarts interleaving costs', () => {
    const stable = withDefaults(plan({ repetitions: { min: 2, max: 5, targetCi: 2 } }));
    const points = planPoints(expandCells(stable));
    const estimate = planEstimate(points, stacks, stable.repetitionPolicy, 'interleaved', 0, 'on-stack-change');
    assert.deepEqual(estimate, { cells: 12, maxCells: 30, restarts: 7, maxRestarts: 16, groupedRestarts: 4 });
    assert.equal(
      formatEstimate(estimate, 'interleaved'),
      '12 cells (up to 30 until stable), 7 server restarts (up to 16) (interleaved; grouped would need 4: 3 more)',
    );
  });
});

describe('cell order with cluster sizes', () => {
  const sized = (sizes: number[], repetitions = 1) =>
    withDefaults(
      plan({
        servers: [
          { host: 's' },
          { host: 's2', interfaces: { '25G': '10.0.0.2' } },
          { host: 's3', interfaces: { '25G': '10.0.0.3' } },
        ],
        threads: [1, 2],
        clusterSizes: sizes,
        repetitions,
      }),
    );
  const stacks = ['kernel', 'p'];
  const sizesOf = (keys: CellKey[]): string => keys.map((key) => key.clusterSize).join('');
  const shortSized = (keys: CellKey[]): string[] =>
    keys.map((key) => `n${key.clusterSize}/${key.stack}/t${key.threads}/r${key.repetition}`);

  for (const mode of ['grouped', 'interleaved', 'randomized'] as const) {
    it(`${mode}: each size once per repetition, every cell of a size together`, () => {
      const resolved = sized([1, 2, 3], 2);
      const ordered = initialCells(expandCells(resolved), stacks, resolved.repetitionPolicy, mode, 7);
      assert.equal(ordered.length, 24);
      assert.equal(clusterResizes(ordered), 6, 'three sizes in each of two repetitions');
      assert.deepEqual(shortSized(ordered).sort(), shortSized(expandCells(resolved)).sort());
      if (mode !== 'randomized') assert.equal(sizesOf(ordered), '111122223333111122223333');
    });
  }

  it('grouped: a size starts on the stack the previous size ended on (one restart per size, not two)', () => {
    const resolved = sized([1, 2]);
    const ordered = initialCells(expandCells(resolved), stacks, resolved.repetitionPolicy, 'grouped', 0);
    assert.deepEqual(shortSized(ordered), [
      'n1/kernel/t1/r1',
      'n1/kernel/t2/r1',
      'n1/p/t1/r1',
      'n1/p/t2/r1',
      'n2/p/t1/r1',
      'n2/p/t2/r1',
      'n2/kernel/t1/r1',
      'n2/kernel/t2/r1',
    ]);
    assert.equal(serverRestarts(ordered, 'on-stack-change'), 3);
  });

  it('sizes listed as 3, 1, 2 give the same cells, formed in that order; the summary counts the resizes', () => {
    const a = sized([1, 2, 3]);
    const b = sized([3, 1, 2]);
    const first = initialCells(expandCells(a), stacks, a.repetitionPolicy, 'grouped', 0);
    const second = initialCells(expandCells(b), stacks, b.repetitionPolicy, 'grouped', 0);
    assert.deepEqual(first.map(cellId).sort(), second.map(cellId).sort());
    assert.equal(sizesOf(second), '333311112222');
    const estimate = planEstimate(
      planPoints(expandCells(b)),
      stacks,
      b.repetitionPolicy,
      'grouped',
      0,
      'on-stack-change',
    );
    assert.equal(formatEstimate(estimate, 'grouped'), '12 cells, 4 server restarts, 3 cluster resizes');
  });
});

describe('run until stable', () => {
  const resolved = withDefaults(plan({ threads: [1, 2], repetitions: { min: 2, max: 4, targetCi: 2 } }));
  const stacks = ['kernel', 'p'];
  const policy = resolved.repetitionPolicy;
  const result = (key: CellKey, throughput: number): CellResult => ({
    kind: 'cell',
    id: cellId(key),
    key,
    status: 'ok',
    accelerated: null,
    startedAt: '',
    finishedAt: '',
    attempts: 1,
    logs: [],
    run: { runtimeMs: 1, throughputOpsPerSec: throughput, operations: {}, other: {}, warnings: [] },
  });
  // t1: tight (±0.5 %); t2: noisy (±30 %)
  const throughput = (key: CellKey): number => {
    const base = key.stack === 'kernel' ? 1000 : 1200;
    const wiggle = key.repetition % 2 === 0 ? 1 : -1;
    return base + wiggle * (key.threads === 1 ? 2 : 300);
  };
  const simulate = (): { planned: CellKey[]; rounds: number } => {
    const planned = initialCells(expandCells(resolved), stacks, policy, 'grouped', 0);
    const results = new Map<string, CellResult>();
    let rounds = 0;
    for (;;) {
      for (const key of planned) if (!results.has(cellId(key))) results.set(cellId(key), result(key, throughput(key)));
      const extra = nextRepetitions(planned, results, stacks, policy, 'grouped', 0);
      if (extra.length === 0) return { planned, rounds };
      rounds += 1;
      planned.push(...extra);
    }
  };

  it('adds repetitions only to the point whose interval is wider than the target, and stops at max', () => {
    const { planned, rounds } = simulate();
    const count = (threads: number): number => planned.filter((key) => key.threads === threads).length;
    assert.equal(count(1), 4, 't1 is stable after min (2 repetitions × 2 stacks)');
    assert.equal(count(2), 8, 't2 never gets tight: max (4 repetitions × 2 stacks)');
    assert.equal(rounds, 2);
    assert.deepEqual(short(planned.slice(8)), ['kernel/t2/r3', 'p/t2/r3', 'kernel/t2/r4', 'p/t2/r4']);
  });

  it('waits until every planned cell of a point has a result', () => {
    const planned = initialCells(expandCells(resolved), stacks, policy, 'grouped', 0);
    const results = new Map(planned.slice(0, -1).map((key) => [cellId(key), result(key, throughput(key))] as const));
    assert.deepEqual(
      short(nextRepetitions(planned, results, stacks, policy, 'grouped', 0)),
      [],
      't2 has a missing cell; t1 is stable',
    );
  });

  it('a fixed repetition count never adds cells', () => {
    const fixed = withDefaults(plan({ threads: [2], repetitions: 2 }));
    const planned = expandCells(fixed);
    const results = new Map(planned.map((key) => [cellId(key), result(key, throughput(key))] as const));
    assert.deepEqual(nextRepetitions(planned, results, stacks, fixed.repetitionPolicy, 'grouped', 0), []);
  });

  it('ids stay a pure function of the key: an extra repetition has the id its key gives', () => {
    const { planned } = simulate();
    assert.ok(planned.some((key) => cellId(key) === '25G~kernel~t2~r4'));
  });
});

describe('plan fields', () => {
  const folder = mkdtempSync(join(tmpdir(), 'schedule-plan-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'w'), 'recordcount=10\n');
  writeFileSync(join(folder, 'p.opf'), 'onload_set EF_POLL_USEC 1\n');

  it('accepts run until stable, warm-up, order and seed, with defaults', () => {
    const { errors } = checkPlanText(
      JSON.stringify(
        plan({ repetitions: { min: 2, max: 6, targetCi: 1.5 }, warmupSec: 30, order: 'randomized', seed: 9 }),
      ),
      folder,
    );
    assert.deepEqual(errors, []);
    const defaults = withDefaults(plan());
    assert.deepEqual(
      [defaults.repetitions, defaults.repetitionPolicy, defaults.warmupSec, defaults.order, defaults.seed],
      [1, { min: 1, max: 1 }, 0, 'grouped', undefined],
    );
  });

  it('refuses a run-until-stable minimum of one (no interval) and an unknown order', () => {
    const one = checkPlanText(JSON.stringify(plan({ repetitions: { min: 1, max: 3, targetCi: 2 } })), folder);
    assert.ok(
      one.errors.some((error) => error.path.startsWith('repetitions')),
      JSON.stringify(one.errors),
    );
    const order = checkPlanText(JSON.stringify({ ...plan(), order: 'alphabetical' }), folder);
    assert.ok(
      order.errors.some((error) => error.path === 'order'),
      JSON.stringify(order.errors),
    );
  });
});
