// Failed pre-flights outlive a reload (client/src/runs/preflightFailures.ts): before, the Runs view
// kept them in the RunTracker's memory only, and a reload of the window lost the group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  keptPreflightFailures,
  PreflightFailures,
  preflightFailuresKey,
  type FailureStorage,
} from '../../client/src/runs/preflightFailures';
import { runsTree } from '../../client/src/runs/runHistory';

/** workspaceState as a Map, written only through update, as VS Code's Memento. */
function storage(initial: Record<string, unknown> = {}): FailureStorage & { values: Map<string, unknown> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: (key) => values.get(key),
    update: async (key, value) => void values.set(key, structuredClone(value)),
  };
}

const failure = (at: string, plan = '/w/lab/UNREACHABLE.benchplan.json') => ({
  planPath: plan,
  runDir: '',
  at,
  message:
    'UNREACHABLE.benchplan.json did not start: pre-flight failed on 127.0.0.9. Next: check that 127.0.0.9 is up.',
});

test('a failed pre-flight recorded before a reload is listed after it, with its message', async () => {
  const workspaceState = storage();
  await new PreflightFailures(workspaceState).add(failure('2026-12-04T15:00:00.000Z'));
  // the window reloads: a new store over the same workspace storage
  const afterReload = new PreflightFailures(workspaceState);
  assert.deepEqual(afterReload.list(), [failure('2026-12-04T15:00:00.000Z')]);
  const tree = runsTree([], [], afterReload.list());
  assert.deepEqual(
    tree.failedPreflights.map((entry) => [entry.label, entry.description]),
    [['UNREACHABLE.benchplan.json', 'failed pre-flight · 2026-12-04 15:00 UTC']],
  );
});

test(`only the newest ${keptPreflightFailures} are kept`, async () => {
  const workspaceState = storage();
  const failures = new PreflightFailures(workspaceState);
  for (let minute = 0; minute < keptPreflightFailures + 5; minute++)
    await failures.add(failure(new Date(Date.UTC(2026, 11, 4, 15, minute)).toISOString()));
  const kept = new PreflightFailures(workspaceState).list();
  assert.equal(kept.length, keptPreflightFailures);
  assert.equal(kept[0]!.at, new Date(Date.UTC(2026, 11, 4, 15, 5)).toISOString());
  assert.equal(kept.at(-1)!.at, new Date(Date.UTC(2026, 11, 4, 15, keptPreflightFailures + 4)).toISOString());
});

test('what the storage holds is read, not trusted: entries of another shape are left out', () => {
  const workspaceState = storage({
    [preflightFailuresKey]: [
      failure('2026-12-04T15:00:00.000Z'),
      { planPath: 42 },
      null,
      'text',
      { ...failure('not a time') },
      { ...failure('2026-12-04T16:00:00.000Z'), extra: 'dropped' },
    ],
  });
  assert.deepEqual(new PreflightFailures(workspaceState).list(), [
    failure('2026-12-04T15:00:00.000Z'),
    failure('2026-12-04T16:00:00.000Z'),
  ]);
  assert.deepEqual(new PreflightFailures(storage({ [preflightFailuresKey]: { not: 'a list' } })).list(), []);
});
