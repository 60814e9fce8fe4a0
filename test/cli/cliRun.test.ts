// `onload-bench run` end to end on the lab (test/lab), as a user runs it (password from CB_PASSWORD).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLab, writeLabPlan, type Lab, labUnavailable } from '../lab/index';
import { cellId, expandCells } from '../../engine/src/plan/cells';
import { withDefaults, type Plan } from '../../engine/src/plan/planSchema';

const cli = join(__dirname, '..', '..', 'cli', 'src', 'main.ts');

function onloadBench(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('onload-bench run', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cli-run-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('reports plan errors as file:line:col and exits 2', () => {
    const planPath = join(work, 'bad.benchplan.json');
    writeFileSync(planPath, '{\n  "servers": []\n}\n');
    const result = onloadBench(['run', planPath], { CB_PASSWORD: 'x' });
    assert.equal(result.status, 2);
    assert.match(
      result.stderr,
      new RegExp(`${planPath.replace(/[.]/g, '\\.')}:2:14: error schema: servers: must list at least 1 value`),
    );
  });

  it('refuses to run without a password when there is no terminal', () => {
    const planPath = join(work, 'nopass.benchplan.json');
    writeFileSync(join(work, 'w'), 'recordcount=1\n');
    writeFileSync(
      planPath,
      JSON.stringify({
        servers: [{ host: 'h' }],
        interfaces: { a: '127.0.0.9' },
        clients: [{ host: 'c', ycsbHome: '/y' }],
        bucket: { name: 'b' },
        workload: { path: 'w' },
        stacks: ['kernel'],
      }),
    );
    const env = { ...process.env } as Record<string, string>;
    delete env.CB_PASSWORD;
    const result = spawnSync(process.execPath, ['--import', 'tsx', cli, 'run', planPath], {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /set CB_PASSWORD/);
  });

  it('refuses to resume a run folder whose recorded plan runs another kernelStopCommand (exit 2, nothing run)', () => {
    const dir = join(work, 'crafted');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'w'), 'recordcount=1\n');
    const plan = {
      servers: [{ host: 'no-such-host.invalid' }],
      interfaces: { a: '127.0.0.9' },
      clients: [{ host: 'no-such-host.invalid', ycsbHome: '/y' }],
      bucket: { name: 'b' },
      workload: { path: 'w' },
      stacks: ['kernel'],
      threads: [1],
    };
    const planPath = join(dir, 'p.benchplan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    const runDir = join(dir, 'results', '20261203-000000-run');
    mkdirSync(join(runDir, 'logs'), { recursive: true });
    const recorded = { ...plan, servers: [{ host: 'no-such-host.invalid', kernelStopCommand: 'touch /tmp/pwned' }] };
    const cells = expandCells(withDefaults(recorded as Plan)).map((key) => ({ id: cellId(key), key }));
    writeFileSync(
      join(runDir, 'manifest.json'),
      JSON.stringify({
        kind: 'manifest',
        formatVersion: 1,
        runId: '20261203-000000-run',
        createdAt: '2026-12-03T00:00:00.000Z',
        plan: recorded,
        planPath,
        cells,
      }),
    );
    const result = onloadBench(['run', planPath, '--resume', runDir], { CB_PASSWORD: 'x' });
    assert.equal(result.status, 2, result.stderr);
    assert.match(
      result.stderr,
      /\[plan-changed\] resume: The plan recorded in .* differs from the plan file in what it runs or uploads: servers\[0\]\.kernelStopCommand: recorded "touch \/tmp\/pwned", plan file "sudo -n systemctl stop couchbase-server"\. Nothing was run\./,
    );
    assert.match(result.stderr, /--accept-recorded-plan/);
    assert.equal(existsSync(join(runDir, 'run.lock')), false);
    assert.match(onloadBench(['run', '--help']).stdout, /--accept-recorded-plan +resume even if the plan recorded/);
  });

  describe('on the lab', { skip: labUnavailable() }, () => {
    let lab: Lab;
    before(async () => {
      lab = await startLab();
    });
    after(async () => {
      await lab?.stop();
    });

    it('runs a sweep with a progress display, then --resume finds nothing left to do', { timeout: 120_000 }, () => {
      const planPath = writeLabPlan(lab, {
        dir: join(work, 'lab'),
        stacks: ['kernel'],
        threads: [1, 2],
        interfaces: [lab.interfaces[0]],
      });
      const results = join(work, 'results');
      const run = onloadBench(['run', planPath, '--results', results, '--ssh-config', lab.sshConfigPath], {
        CB_PASSWORD: lab.couchbase.password,
      });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^Finished: 2 ok, 0 failed, 2 cells\. Results: /m);
      assert.match(run.stderr, /\[1\/2\] nic-a · kernel · 1 thread · repetition 1/);
      assert.match(run.stderr, /ok {3}reachable cb-server: SSH works/);
      assert.match(run.stderr, /\n {4}ok \d+ ops\/s/);
      assert.ok(!run.stderr.includes(lab.couchbase.password) && !run.stdout.includes(lab.couchbase.password));
      // each host's work folder was checked (owner, mode) and locked for the run (remoteLock.ts)
      assert.doesNotMatch(run.stderr, /is not locked|could not check who owns|may be written by/);
      const [runId] = readdirSync(results);
      assert.equal(
        readFileSync(join(results, runId, 'results.jsonl'), 'utf8')
          .trim()
          .split('\n').length,
        2,
      );
      const resume = onloadBench(
        ['run', planPath, '--resume', '--results', results, '--ssh-config', lab.sshConfigPath],
        { CB_PASSWORD: lab.couchbase.password },
      );
      assert.equal(resume.status, 2);
      assert.match(resume.stderr, /no unfinished run/);
    });
  });
});
