import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunSummary } from '../../engine/src/results/resultsStore';
import { describeRun, latestUnfinishedRun, unfinishedRuns } from '../../client/src/tasks/resumeChoice';

const run = (runDir: string, createdAt: string, done: number, total: number, planPath?: string): RunSummary => ({
  runDir,
  done,
  total,
  finished: done >= total,
  manifest: {
    kind: 'manifest',
    formatVersion: 1,
    runId: runDir,
    createdAt,
    plan: {},
    cells: [],
    ...(planPath ? { planPath } : {}),
  },
});

const runs = [
  run('/r/a-1', '2026-12-01T10:00:00Z', 40, 40, '/w/a.benchplan.json'),
  run('/r/a-2', '2026-12-02T09:00:00Z', 12, 40, '/w/a.benchplan.json'),
  run('/r/b-1', '2026-12-02T11:00:00Z', 3, 10, '/w/b.benchplan.json'),
  run('/r/a-3', '2026-12-02T12:00:00.123Z', 0, 40, '/w/./a.benchplan.json'),
  run('/r/old', '2026-11-01T12:00:00Z', 1, 4),
];

test('unfinished runs, newest first; finished runs are never offered', () => {
  assert.deepEqual(
    unfinishedRuns(runs).map((summary) => summary.runDir),
    ['/r/a-3', '/r/b-1', '/r/a-2', '/r/old'],
  );
});

test('resume: true on a plan takes its newest unfinished run, matching the plan path after normalising', () => {
  assert.equal(latestUnfinishedRun(runs, '/w/a.benchplan.json')?.runDir, '/r/a-3');
  assert.equal(latestUnfinishedRun(runs, '/w/b.benchplan.json')?.runDir, '/r/b-1');
  assert.equal(latestUnfinishedRun(runs, '/w/c.benchplan.json'), undefined);
});

test('a run is described by its folder, progress, start time and plan', () => {
  assert.deepEqual(describeRun(runs[1]!), {
    label: 'a-2',
    description: '12/40 cells (unfinished), started 2026-12-02 09:00 UTC',
    detail: '/w/a.benchplan.json',
  });
  assert.deepEqual(describeRun(runs[3]!).description, '0/40 cells (unfinished), started 2026-12-02 12:00 UTC');
  assert.deepEqual(describeRun(runs[0]!), {
    label: 'a-1',
    description: '40/40 cells, started 2026-12-01 10:00 UTC',
    detail: '/w/a.benchplan.json',
  });
});
