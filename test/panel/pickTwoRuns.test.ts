// "Compare two runs" picker: Enter checks the highlighted run, the second Enter compares; run A is
// the run checked first, whatever the list order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installFakeVscode } from './support/fakeVscode';

installFakeVscode();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { acceptTwoRuns, checkedOrder } = require('../../client/src/commands/pickRun') as typeof import('../../client/src/commands/pickRun');

test('Enter on a run checks it; Enter on a second run compares them, A first', () => {
  assert.deepEqual(acceptTwoRuns([], '/runs/a'), { check: ['/runs/a'] });
  assert.deepEqual(acceptTwoRuns(['/runs/a'], '/runs/b'), { pair: ['/runs/a', '/runs/b'] });
  // Enter again on the run already checked changes nothing.
  assert.deepEqual(acceptTwoRuns(['/runs/a'], '/runs/a'), { check: ['/runs/a'] });
  // Two checked with the mouse or Space: Enter compares them, wherever the highlight is.
  assert.deepEqual(acceptTwoRuns(['/runs/b', '/runs/a'], '/runs/c'), { pair: ['/runs/b', '/runs/a'] });
  assert.deepEqual(acceptTwoRuns(['/runs/a', '/runs/b', '/runs/c'], undefined), { check: ['/runs/a', '/runs/b', '/runs/c'] });
});

test('the order runs were checked in is kept although VS Code reports the selection in list order', () => {
  const first = checkedOrder([], ['/runs/old']);
  // The newer run is above in the list: VS Code reports [new, old].
  assert.deepEqual(checkedOrder(first, ['/runs/new', '/runs/old']), ['/runs/old', '/runs/new']);
  assert.deepEqual(checkedOrder(['/runs/old', '/runs/new'], ['/runs/new']), ['/runs/new']);
});
