// The Runs view's core (client/src/runs/runHistory.ts): states, verdict lines, the failed
// pre-flights' group and which folders Delete may remove.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RunSummary } from '../../engine/src/results/resultsStore';
import { readRunFolder } from '../../engine/src/results/resultsFile';
import { deletionRefusal, runsFingerprint, runsTree, verdictOfRun } from '../../client/src/runs/runHistory';

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
  run('/w/bench-results/lab-1', '2026-12-01T10:00:00Z', 24, 24, '/w/lab.benchplan.json'),
  run('/w/bench-results/lab-2', '2026-12-02T09:00:00Z', 12, 24, '/w/lab.benchplan.json'),
  run('/w/bench-results/lab-3', '2026-12-03T11:30:12Z', 3, 24, '/w/lab.benchplan.json'),
];

test('each run says its state: running, complete, stopped and resumable; newest first', () => {
  const tree = runsTree(runs, ['/w/bench-results/./lab-3'], []);
  assert.deepEqual(
    tree.runs.map((entry) => [entry.label, entry.state, entry.contextValue]),
    [
      ['lab-3', 'running', 'onloadBench.run.running'],
      ['lab-2', 'stopped', 'onloadBench.run.stopped'],
      ['lab-1', 'complete', 'onloadBench.run.complete'],
    ],
  );
  assert.equal(tree.runs[0]!.description, 'running · 3/24 cells · 2026-12-03 11:30 UTC');
  assert.equal(tree.runs[1]!.description, 'stopped, resumable · 12/24 cells · 2026-12-02 09:00 UTC');
  assert.match(tree.runs[2]!.tooltip, /Plan: \/w\/lab\.benchplan\.json/);
});

test('failed pre-flights form their own group, newest first, with what failed; the run folders stay apart', () => {
  const tree = runsTree(
    runs,
    [],
    [
      {
        planPath: '/w/lab.benchplan.json',
        runDir: '/w/bench-results/lab-4',
        at: '2026-12-04T08:00:00Z',
        message: 'pre-flight failed on 127.0.0.9: no SSH login.',
      },
      {
        planPath: '/w/other.benchplan.json',
        runDir: '',
        at: '2026-12-04T09:15:00Z',
        message: 'pre-flight failed: the password was refused.',
      },
    ],
  );
  assert.equal(tree.runs.length, 3);
  assert.deepEqual(
    tree.failedPreflights.map((entry) => [entry.label, entry.description, entry.contextValue]),
    [
      ['other.benchplan.json', 'failed pre-flight · 2026-12-04 09:15 UTC', 'onloadBench.run.failed-preflight'],
      ['lab.benchplan.json', 'failed pre-flight · 2026-12-04 08:00 UTC', 'onloadBench.run.failed-preflight'],
    ],
  );
  assert.match(tree.failedPreflights[1]!.tooltip, /no SSH login/);
  assert.notEqual(tree.failedPreflights[0]!.id, tree.failedPreflights[1]!.id);
});

test('a run shows the verdict lines its panel opens with', async () => {
  const folder = join('test', 'panel', 'fixtures', 'run-fixture');
  const read = await readRunFolder(folder);
  assert.ok(read.ok);
  const verdict = verdictOfRun(read.manifest, read.results);
  assert.ok(verdict.length > 0, 'the fixture has a kernel and an Onload stack');
  assert.match(verdict[0]!, /Onload · latency-best/);
  const tree = runsTree(
    [{ runDir: folder, manifest: read.manifest!, done: 12, total: 12, finished: true }],
    [],
    [],
    new Map([[join(process.cwd(), folder), verdict]]),
  );
  assert.deepEqual(tree.runs[0]!.verdict, verdict);
  assert.ok(tree.runs[0]!.tooltip.includes(verdict[0]!));
  assert.deepEqual(verdictOfRun(read.manifest, []), []);
});

test('Delete removes only a run folder right inside a results folder, never a running one', () => {
  const roots = ['/w/bench-results'];
  assert.equal(deletionRefusal(roots, '/w/bench-results/lab-1', []), undefined);
  assert.match(deletionRefusal(roots, '/w/bench-results', [])!, /not a run folder inside the results folder/);
  assert.match(deletionRefusal(roots, '/w/bench-results/lab-1/logs', [])!, /not a run folder/);
  assert.match(deletionRefusal(roots, '/w/bench-results/../src', [])!, /not a run folder/);
  assert.match(deletionRefusal(roots, '/home/user', [])!, /not a run folder/);
  assert.match(deletionRefusal(roots, '/w/bench-results/lab-3', ['/w/bench-results/lab-3'])!, /lab-3 is running/);
});

test("the view's timed look finds the same rows as drawn: no redraw; a cell, a state, a run or a failure more: a redraw", () => {
  const failure = {
    planPath: '/w/lab.benchplan.json',
    runDir: '',
    at: '2026-12-04T08:00:00Z',
    message: 'pre-flight failed on 127.0.0.9.',
  };
  const drawn = runsFingerprint(runs, ['/w/bench-results/lab-3'], [failure]);
  // the same runs found in another order, a running folder named another way
  assert.equal(runsFingerprint([...runs].reverse(), ['/w/bench-results/./lab-3'], [failure]), drawn);
  assert.notEqual(
    runsFingerprint(
      [runs[0]!, runs[1]!, run('/w/bench-results/lab-3', '2026-12-03T11:30:12Z', 4, 24, '/w/lab.benchplan.json')],
      ['/w/bench-results/lab-3'],
      [failure],
    ),
    drawn,
    'one more cell done',
  );
  assert.notEqual(runsFingerprint(runs, [], [failure]), drawn, 'the run ended');
  assert.notEqual(
    runsFingerprint(
      [...runs, run('/w/bench-results/lab-4', '2026-12-04T10:00:00Z', 0, 24)],
      ['/w/bench-results/lab-3'],
      [failure],
    ),
    drawn,
    'a new run folder',
  );
  assert.notEqual(
    runsFingerprint(runs, ['/w/bench-results/lab-3'], [failure, { ...failure, at: '2026-12-04T09:00:00Z' }]),
    drawn,
    'one more failed pre-flight',
  );
  assert.notEqual(runsFingerprint(runs.slice(1), ['/w/bench-results/lab-3'], [failure]), drawn, 'a run folder deleted');
});
