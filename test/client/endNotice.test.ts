// What a run that ended without failing says (client/src/tasks/endNotice.ts): a cancel offers
// Resume run at once; the live step of an acceleration check reads right for kernel cells too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { RunOutcome } from '../../engine/src/events';
import { endNotice } from '../../client/src/tasks/endNotice';
import { phaseText } from '../../client/src/panel/runData';

const outcome: RunOutcome = { runDir: '/runs/r', completed: 5, failed: 0, total: 12, cancelled: false };

test('a cancelled run offers Resume run and its results; a finished one its results', () => {
  assert.deepEqual(endNotice({ ...outcome, cancelled: true }), {
    level: 'warning',
    text: 'Onload Bench: Benchmark cancelled (5 of 12 cells done, 0 failed). Its results so far are kept; Resume run carries on with the cells left.',
    actions: ['Resume run', 'Open results'],
  });
  assert.deepEqual(endNotice({ ...outcome, completed: 12 }), {
    level: 'info',
    text: 'Onload Bench: Benchmark finished: 12 of 12 cells done, 0 failed.',
    actions: ['Open results'],
  });
  assert.equal(endNotice({ ...outcome, runDir: '' }), undefined);
});

test('the acceleration check reads right for a kernel cell as for an Onload one', () => {
  assert.equal(phaseText('check-acceleration'), 'Checking which network stack Couchbase runs on');
  assert.doesNotMatch(phaseText('check-acceleration'), /runs on Onload/);
});

test('every step the sweep announces has words of its own (a new phase without them reads as its id)', () => {
  const source = readdirSync('engine/src/sweep', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(`engine/src/sweep/${file}`, 'utf8'))
    .join('\n');
  const phases = [...new Set([...source.matchAll(/phase\('([a-z-]+)'\)/g)].map((match) => match[1]))];
  assert.ok(phases.length >= 8, phases.join(' '));
  for (const phase of phases)
    assert.notEqual(phaseText(phase), phase.charAt(0).toUpperCase() + phase.slice(1).replace(/-/g, ' '), phase);
  assert.equal(phaseText('resize-cluster'), 'Forming the cluster for this size (add, rebalance)');
});
