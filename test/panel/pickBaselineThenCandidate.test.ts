// "Compare two runs" picks the baseline, then the candidate: two single picks, each saying which
// it is; the second leaves the baseline out and names it. (Issue 25: a multi-select took the first
// run ticked as the baseline, which its ticked rows never showed, and was swapped by accident.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunSummary } from '../../engine/src/results/resultsStore';
import { fake, installFakeVscode } from './support/fakeVscode';

installFakeVscode();

const { pickBaselineThenCandidate } =
  require('../../client/src/commands/pickRun') as typeof import('../../client/src/commands/pickRun');

const run = (id: string): RunSummary => ({
  runDir: `/runs/${id}`,
  manifest: { kind: 'manifest', formatVersion: 1, runId: id, createdAt: '2026-01-01T10:00:00Z', plan: {}, cells: [] },
  done: 12,
  total: 12,
  finished: true,
});

test('the baseline first, then the candidate from the other runs, each pick named', async () => {
  const answers = ['run-old', 'run-new'];
  fake.quickPicks.length = 0;
  fake.quickPickAnswer = (items) => items.find((item) => item.label === answers[fake.quickPicks.length - 1]);
  const pair = await pickBaselineThenCandidate([run('run-new'), run('run-old'), run('run-other')], 'Compare two runs');
  assert.deepEqual(pair, ['/runs/run-old', '/runs/run-new']);
  const titles = fake.quickPicks.map((pick) => pick.options as { title: string; placeHolder: string });
  assert.deepEqual(
    titles.map((options) => options.title),
    ['Compare two runs (1 of 2): the baseline', 'Compare two runs (2 of 2): the candidate, compared against run-old'],
  );
  assert.equal(titles[1].placeHolder, 'Choose the candidate: the run compared against run-old');
  // The candidate is one of the other runs: the baseline is not offered again.
  assert.deepEqual(
    fake.quickPicks[1].items.map((item) => item.label).filter((label) => label.startsWith('run-')),
    ['run-new', 'run-other'],
  );
  // Escape on either pick compares nothing.
  fake.quickPicks.length = 0;
  fake.quickPickAnswer = (items) =>
    fake.quickPicks.length === 1 ? items.find((item) => item.label === 'run-old') : undefined;
  assert.equal(await pickBaselineThenCandidate([run('run-new'), run('run-old')], 'Compare two runs'), undefined);
  fake.quickPickAnswer = undefined;
});
