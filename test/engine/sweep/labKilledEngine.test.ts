// `kill -9` of the engine while YCSB hangs. Nothing can run in the killed process,
// so what it leaves (the hung YCSB and its wrapper on the client, the bucket user's secret file,
// the local ssh clients and their master) must be cleaned by the next run: the stale control
// folder's master is told to exit (its ssh clients with it), the dead run's host lock is taken
// over, the YCSB process group is killed by its pid file and the secret files removed. The CLI as
// a user runs it, on the lab's real hosts.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { processAlive } from '../../../engine/src/remote/controlFolders';
import { labUnavailable, writeLabPlan, type Lab } from '../../lab/index';
import { allProcesses } from '../../lab/processes';
import { labPerSuite } from '../../support/labSuite';

const cli = join(__dirname, '..', '..', '..', 'cli', 'src', 'main.ts');

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('an engine killed with -9 while YCSB hangs', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  labPerSuite({}, 'killed-engine-', (started) => ({ lab, work } = started));

  it(
    'leaves YCSB, its wrapper, the secret file and its ssh clients behind; the next run removes every one',
    { timeout: 240_000 },
    async () => {
      const planPath = writeLabPlan(lab, {
        dir: join(work, 'plan'),
        stacks: ['kernel'],
        threads: [1],
        interfaces: [lab.interfaces[0]],
        extra: { timeouts: { serverStartSec: 20, bucketReadySec: 20, cellSec: 120 } },
      });
      const results = join(work, 'results');
      const env = { ...process.env, CB_PASSWORD: lab.couchbase.password };
      const args = ['--import', 'tsx', cli, 'run', planPath, '--results', results, '--ssh-config', lab.sshConfigPath];
      const clientWork = lab.hostPath(lab.clientHost, join(lab.hosts[lab.clientHost].home, '.onload-bench'));
      const secretFiles = (): string[] =>
        existsSync(clientWork) ? readdirSync(clientWork).filter((name) => /^secret-.*\.properties$/.test(name)) : [];
      const ycsbLeft = async (): Promise<string[]> =>
        (await lab.processesLeft()).filter((line) => line.includes('ycsb'));

      lab.faults.set({ ycsbHangAfterOps: 20 });
      const engine = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      engine.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      let localSsh: number[] = [];
      try {
        await until(
          async () => (await ycsbLeft()).length > 0 && secretFiles().length > 0,
          `a hung YCSB (engine said: ${stderr})`,
          120_000,
        );
        await new Promise((resolve) => setTimeout(resolve, 1500)); // past its 20 operations: hung
      } finally {
        localSsh = allProcesses()
          .filter((info) => info.ppid === engine.pid && /\bssh\b/.test(info.command))
          .map((info) => info.pid);
        engine.kill('SIGKILL');
        if (engine.exitCode === null) await once(engine, 'exit');
      }
      lab.faults.clear();

      // what kill -9 leaves until the next run
      const left = await lab.processesLeft();
      assert.ok(
        left.some((line) => line.includes('ycsb')),
        `the hung YCSB is still there: ${left.join('; ')}`,
      );
      assert.ok(left.length >= 2, `and its wrapper: ${left.join('; ')}`);
      assert.equal(secretFiles().length, 1, "the bucket user's secret file is still there");
      assert.ok(
        localSsh.length > 0 && localSsh.some((pid) => processAlive(pid)),
        'a local ssh of the killed engine is still there',
      );

      // the next run cleans all of it and runs
      const next = spawnSync(process.execPath, args, {
        env,
        encoding: 'utf8',
        timeout: 180_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(next.status, 0, next.stderr);
      assert.deepEqual(await lab.processesLeft(), [], 'no YCSB, no wrapper');
      assert.deepEqual(secretFiles(), [], 'no secret file');
      await until(() => localSsh.every((pid) => !processAlive(pid)), "the killed engine's ssh clients to end", 10_000);
    },
  );
});
