import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definitionForPlan, resolveTaskDefinition, taskName } from '../../client/src/tasks/taskDefinition';

const folder = '/work/lab';

test('a tasks.json entry with a relative plan resolves against its workspace folder', () => {
  const resolved = resolveTaskDefinition({ type: 'couchbase-benchmark', plan: 'plans/25g.benchplan.json' }, folder);
  assert.deepEqual(resolved, {
    ok: true,
    planPath: '/work/lab/plans/25g.benchplan.json',
    resume: { kind: 'new' },
    name: 'Run 25g',
  });
});

test('${workspaceFolder} is expanded and absolute paths are kept', () => {
  const expanded = resolveTaskDefinition(
    { type: 'couchbase-benchmark', plan: '${workspaceFolder}/a.benchplan.json' },
    folder,
  );
  assert.equal(expanded.ok && expanded.planPath, '/work/lab/a.benchplan.json');
  const absolute = resolveTaskDefinition(
    { type: 'couchbase-benchmark', plan: '/srv/plans/b.benchplan.json' },
    undefined,
  );
  assert.equal(absolute.ok && absolute.planPath, '/srv/plans/b.benchplan.json');
});

test('resume: true picks the newest unfinished run, a path names a run folder', () => {
  const latest = resolveTaskDefinition({ type: 'couchbase-benchmark', plan: 'a.benchplan.json', resume: true }, folder);
  assert.deepEqual(latest.ok && latest.resume, { kind: 'latest' });
  assert.equal(latest.ok && latest.name, 'Resume a');
  const dir = resolveTaskDefinition(
    { type: 'couchbase-benchmark', plan: 'a.benchplan.json', resume: 'bench-results/a-20261202-1405' },
    folder,
  );
  assert.deepEqual(dir.ok && dir.resume, { kind: 'runDir', runDir: '/work/lab/bench-results/a-20261202-1405' });
  assert.equal(dir.ok && dir.name, 'Resume a (a-20261202-1405)');
  const off = resolveTaskDefinition({ type: 'couchbase-benchmark', plan: 'a.benchplan.json', resume: false }, folder);
  assert.deepEqual(off.ok && off.resume, { kind: 'new' });
});

test('bad definitions come back with a message the user can act on', () => {
  assert.deepEqual(resolveTaskDefinition({ type: 'couchbase-benchmark' }, folder), {
    ok: false,
    message: 'A couchbase-benchmark task needs "plan": the path of a .benchplan.json file.',
  });
  const unknownVariable = resolveTaskDefinition({ type: 'couchbase-benchmark', plan: '${env:PLAN}' }, folder);
  assert.equal(unknownVariable.ok, false);
  assert.match(!unknownVariable.ok ? unknownVariable.message : '', /\$\{env:PLAN\} is not supported/);
  const noFolder = resolveTaskDefinition({ type: 'couchbase-benchmark', plan: 'a.benchplan.json' }, undefined);
  assert.match(!noFolder.ok ? noFolder.message : '', /relative but the task has no workspace folder/);
  const badResume = resolveTaskDefinition({ type: 'couchbase-benchmark', plan: 'a.benchplan.json', resume: 3 }, folder);
  assert.deepEqual(badResume, { ok: false, message: '"resume" must be true or the path of a run folder.' });
});

test('provided tasks carry the plan relative to the folder, in / form; outside the folder, absolute', () => {
  assert.deepEqual(definitionForPlan('/work/lab/plans/x.benchplan.json', folder), {
    type: 'couchbase-benchmark',
    plan: 'plans/x.benchplan.json',
  });
  assert.deepEqual(definitionForPlan('/elsewhere/x.benchplan.json', folder), {
    type: 'couchbase-benchmark',
    plan: '/elsewhere/x.benchplan.json',
  });
  // What the provider offers resolves back to the same file.
  const roundTrip = resolveTaskDefinition({ ...definitionForPlan('/work/lab/plans/x.benchplan.json', folder) }, folder);
  assert.equal(roundTrip.ok && roundTrip.planPath, '/work/lab/plans/x.benchplan.json');
  assert.equal(taskName('/p/kernel-vs-onload.benchplan.json'), 'Run kernel-vs-onload');
});
