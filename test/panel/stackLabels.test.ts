// Stacks are named as stacks in the panel's model (issue 25: a profile called `latency` read as the
// metric): `kernel`, `Onload · <profile>`, or the display name the run's recorded plan gives it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { stackDisplayNames } from '../../engine/src/report/stackLabels';
import { fixtureManifest, fixtureResults } from './fixtureRun';

test('the model names each stack as a stack; a display name from the recorded plan wins; a hostile one is ignored', () => {
  const plain = buildViewModel([runDataFromFiles('/runs/a', fixtureManifest(), fixtureResults())]);
  assert.deepEqual(plain.stackLabels, { kernel: 'kernel', 'latency-best': 'Onload · latency-best' });

  const manifest = fixtureManifest();
  manifest.plan = {
    name: 'fixture',
    stacks: ['kernel', { name: 'latency-best', profile: 'p.opf', displayName: 'Onload spin' }],
  };
  const named = buildViewModel([runDataFromFiles('/runs/b', manifest, fixtureResults())]);
  assert.deepEqual(named.stackLabels, { kernel: 'kernel', 'latency-best': 'Onload spin' });
  assert.match(named.runs[0].verdict?.[0].text ?? '', /^25G \(127\.0\.0\.1\) · Onload spin vs kernel: ▲ better/);

  assert.deepEqual(
    stackDisplayNames({
      stacks: [
        { name: 'a', displayName: 'x\u001b]0;t\u0007' },
        { name: 'b', displayName: ' ' },
        { name: 'c', displayName: 7 },
        'kernel',
        null,
      ],
    }),
    {},
  );
  assert.deepEqual(stackDisplayNames(undefined), {});
});
