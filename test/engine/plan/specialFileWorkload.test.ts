// A plan's own files are read as the language services read files (plan/localFiles.ts): a workload
// or a plan that is a FIFO or a device is refused with what it is, by the run, the dry run,
// pre-flight and the plan loader alike, instead of hanging them at their first read (each of
// those read it with a plain readFile, which blocks on a FIFO for ever).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SweepEvent } from '../../../engine/src/events';
import { loadPlan } from '../../../engine/src/plan/plan';
import { dryRun } from '../../../engine/src/sweep/dryRun';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan } from '../../support/fakeHosts';

describe('a workload or a plan that is a special file', { timeout: 30_000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-special-workload-'));
    assert.equal(spawnSync('mkfifo', [join(dir, 'workloada'), join(dir, 'fifo.benchplan.json')]).status, 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the run stops before uploading anything, naming the FIFO', async () => {
    const plan = fakeHostsPlan();
    const planPath = join(dir, 'fake.benchplan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    const hosts = new FakeHosts();
    const events: SweepEvent[] = [];
    const outcome = await runSweep(
      {
        planPath,
        plan,
        resultsRoot: join(dir, 'results'),
        password: 'pw',
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
      },
      {
        sessionFactory: hosts.sessionFactory,
        bucket: { recreate: async () => undefined, itemCount: async () => 100 },
        skipServerWait: true,
      },
    );
    assert.equal(outcome.error?.code, 'upload');
    assert.match(
      outcome.error?.message ?? '',
      /Cannot read the workload .*workloada: a FIFO \(named pipe\), not a regular file\. Nothing was uploaded\./,
    );
    assert.deepEqual(
      hosts.uploads().map((call) => call.command),
      [],
    );
  });

  it('the dry run refuses it as the run does, instead of hanging', async () => {
    await assert.rejects(
      dryRun(fakeHostsPlan(), join(dir, 'fake.benchplan.json')),
      /Cannot read the workload .*workloada: a FIFO \(named pipe\), not a regular file/,
    );
  });

  it('a plan that is a FIFO is a read error of the plan', async () => {
    const { errors } = await loadPlan(join(dir, 'fifo.benchplan.json'));
    assert.equal(errors[0]?.code, 'read');
    assert.match(errors[0]?.message ?? '', /fifo\.benchplan\.json: a FIFO \(named pipe\), not a regular file/);
  });
});
