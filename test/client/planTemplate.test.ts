import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPlanText } from '../../engine/src/plan/plan';
import { expandCells } from '../../engine/src/plan/cells';
import { withDefaults } from '../../engine/src/plan/planSchema';
import { planTemplateText } from '../../client/src/templates/planTemplate';

test('the template is a valid plan for the engine: kernel and Onload, 5 to 50 threads', () => {
  const text = planTemplateText({ name: 'kernel-vs-onload' });
  const { plan, errors } = checkPlanText(text);
  assert.deepEqual(errors, []);
  assert.equal(plan.name, 'kernel-vs-onload');
  const cells = expandCells(withDefaults(plan));
  assert.deepEqual([...new Set(cells.map((cell) => cell.stack))], ['kernel', 'latency']);
  assert.deepEqual([...new Set(cells.map((cell) => cell.threads))], [5, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
  assert.equal(cells.length, 20);
});

test('the template points at the workspace workload and profile when given, and cleans the name', () => {
  const text = planTemplateText({
    name: 'my lab!',
    workloadPath: 'ycsb/workloads/workloadc',
    profilePath: 'profiles/latency-best.opf',
  });
  const plan = JSON.parse(text);
  assert.equal(plan.name, 'my-lab-');
  assert.equal(plan.workload.path, 'ycsb/workloads/workloadc');
  assert.deepEqual(plan.stacks[1], { name: 'latency', profile: 'profiles/latency-best.opf' });
  assert.equal(text.includes('password'), false);
  assert.deepEqual(checkPlanText(text).errors, []);
});
