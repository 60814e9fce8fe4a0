import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPlanFileName, isPlanFile, planChoices, planDisplayName } from '../../client/src/planFiles';

test('plan files are *.benchplan.json, named without the suffix', () => {
  assert.equal(isPlanFile('/w/plans/Lab.BenchPlan.json'), true);
  assert.equal(isPlanFile('/w/plans/lab.json'), false);
  assert.equal(planDisplayName('/w/plans/kernel-vs-onload.benchplan.json'), 'kernel-vs-onload');
});

test('the quick pick lists the active plan first, then by folder and name, without duplicates', () => {
  const choices = planChoices(
    ['/w/plans/b.benchplan.json', '/w/a.benchplan.json', '/w/plans/a.benchplan.json', '/w/plans/b.benchplan.json'],
    ['/w'],
    '/w/plans/b.benchplan.json',
  );
  assert.deepEqual(choices, [
    { planPath: '/w/plans/b.benchplan.json', label: 'b', description: 'plans' },
    { planPath: '/w/a.benchplan.json', label: 'a', description: '.' },
    { planPath: '/w/plans/a.benchplan.json', label: 'a', description: 'plans' },
  ]);
});

test('with several workspace folders the description names the folder; outside, the absolute folder', () => {
  const choices = planChoices(
    ['/w1/x.benchplan.json', '/w2/sub/y.benchplan.json', '/tmp/z.benchplan.json'],
    ['/w1', '/w2'],
  );
  assert.deepEqual(
    choices.map((choice) => choice.description),
    ['/tmp', 'w1', 'w2/sub'],
  );
});

test('a new plan never overwrites an existing file', () => {
  assert.equal(freshPlanFileName('kernel-vs-onload', ['README.md']), 'kernel-vs-onload.benchplan.json');
  assert.equal(
    freshPlanFileName('kernel-vs-onload', ['kernel-vs-onload.benchplan.json', 'Kernel-vs-onload-2.benchplan.json']),
    'kernel-vs-onload-3.benchplan.json',
  );
  assert.equal(freshPlanFileName('my plan/../x', []), 'my-plan-..-x.benchplan.json');
  assert.equal(freshPlanFileName('///', []), 'benchmark.benchplan.json');
});
