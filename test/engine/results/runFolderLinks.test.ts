// Issue 26 B4: a crafted run folder must not carry a write (or the panel) outside it. A symlinked
// results.jsonl, a symlinked logs/ and symlinked log files are refused, naming the link, and the
// file they point to keeps every byte; a run whose manifest has no planPath is never resumed by
// itself. Fake hosts (no SSH); the panel's "open log" goes through runFolderFileToOpen.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineFailure } from '../../../engine/src/errors';
import type { RunSweepOptions } from '../../../engine/src/options';
import type { Plan } from '../../../engine/src/plan/planSchema';
import { runFolderFileToOpen } from '../../../engine/src/results/runFolderFiles';
import { listRuns, writeLog } from '../../../engine/src/results/resultsStore';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan, fakeWorkload } from '../../support/fakeHosts';

const root = mkdtempSync(join(tmpdir(), 'run-links-'));
after(() => rmSync(root, { recursive: true, force: true }));

function planFolder(name: string, plan: Partial<Plan> = {}): { planPath: string; plan: Plan } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'workloada'), fakeWorkload);
  const full = fakeHostsPlan(plan);
  const planPath = join(dir, 'p.benchplan.json');
  writeFileSync(planPath, JSON.stringify(full));
  return { planPath, plan: full };
}

async function sweep(setup: { planPath: string; plan: Plan }, extra: Partial<RunSweepOptions> = {}) {
  const hosts = new FakeHosts();
  const outcome = await runSweep(
    {
      planPath: setup.planPath,
      plan: setup.plan,
      resultsRoot: join(dirname(setup.planPath), 'results'),
      password: 'pw',
      signal: new AbortController().signal,
      onEvent: () => undefined,
      ...extra,
    },
    {
      sessionFactory: hosts.sessionFactory,
      bucket: { recreate: async () => undefined, itemCount: async () => 100 },
      skipServerWait: true,
    },
  );
  return { outcome, calls: hosts.calls };
}

/** A run of `setup` with its first cell done and the rest to resume. */
async function interruptedRun(setup: { planPath: string; plan: Plan }): Promise<{ runDir: string; firstLine: string }> {
  const first = await sweep(setup);
  assert.equal(first.outcome.error, undefined, JSON.stringify(first.outcome.error));
  const path = join(first.outcome.runDir, 'results.jsonl');
  const firstLine = readFileSync(path, 'utf8').split('\n')[0];
  writeFileSync(path, `${firstLine}\n`);
  return { runDir: first.outcome.runDir, firstLine };
}

describe('resume never writes through a link in the run folder', () => {
  it('results.jsonl a symlink to another file: refused, naming the link; the other file keeps every byte', async () => {
    const setup = planFolder('linked-results');
    const { runDir, firstLine } = await interruptedRun(setup);
    const victim = join(root, 'victim.jsonl');
    const victimBytes = `${firstLine}\n{"a line the user keeps": true}\n{"kind":"cell","id":"torn`;
    writeFileSync(victim, victimBytes);
    rmSync(join(runDir, 'results.jsonl'));
    symlinkSync(victim, join(runDir, 'results.jsonl'));
    const { outcome, calls } = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(outcome.error?.code, 'results-read', JSON.stringify(outcome.error));
    assert.match(
      outcome.error?.message ?? '',
      /results\.jsonl is a symbolic link; files of a run folder are never followed/,
    );
    assert.equal(readFileSync(victim, 'utf8'), victimBytes, 'not cut, nothing appended');
    assert.deepEqual(calls, [], 'no host was touched');
  });

  it('logs/ a symlink to a folder outside: the log write is refused and nothing is made outside', async () => {
    const runDir = join(root, 'run-logs-link');
    const outside = join(root, 'outside-logs');
    mkdirSync(runDir, { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(runDir, 'logs'));
    await assert.rejects(writeLog(runDir, 'cell-0123456789ab/attempt1-cli-run.log', 'text'), (error: unknown) => {
      assert.ok(error instanceof EngineFailure);
      assert.equal(error.error.code, 'results-write');
      assert.match(error.error.message, /logs is a symbolic link/);
      return true;
    });
    assert.deepEqual(readdirSync(outside), [], 'no folder was created through the link');
  });

  it('a log file planted as a symlink is replaced, never written through', async () => {
    const runDir = join(root, 'run-log-file-link');
    mkdirSync(join(runDir, 'logs', 'cell'), { recursive: true });
    const victim = join(root, 'victim.log');
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, join(runDir, 'logs', 'cell', 'attempt1.log'));
    await writeLog(runDir, 'cell/attempt1.log', 'new log\n');
    assert.equal(readFileSync(victim, 'utf8'), 'keep me\n');
    assert.equal(readFileSync(join(runDir, 'logs', 'cell', 'attempt1.log'), 'utf8'), 'new log\n');
  });
});

describe('the panel opens a log only when it is a regular file of the run folder', () => {
  it('a symlinked log (to /etc/passwd), a symlinked logs/ and a FIFO are refused; a real log opens', async () => {
    const runDir = join(root, 'panel-run');
    mkdirSync(join(runDir, 'logs', 'cell'), { recursive: true });
    writeFileSync(join(runDir, 'logs', 'cell', 'real.log'), 'ok\n');
    symlinkSync('/etc/passwd', join(runDir, 'logs', 'cell', 'passwd.log'));
    const linkedRun = join(root, 'panel-run-linked-logs');
    mkdirSync(linkedRun);
    symlinkSync('/etc', join(linkedRun, 'logs'));
    assert.deepEqual(await runFolderFileToOpen(runDir, 'logs/cell/real.log'), {
      path: join(runDir, 'logs', 'cell', 'real.log'),
    });
    assert.deepEqual(await runFolderFileToOpen(runDir, 'logs/cell/passwd.log'), {
      refused: 'logs/cell/passwd.log is a symbolic link; files of a run folder are never followed',
    });
    assert.match(JSON.stringify(await runFolderFileToOpen(linkedRun, 'logs/passwd')), /logs is a symbolic link/);
    assert.deepEqual(await runFolderFileToOpen(runDir, '../../etc/passwd'), {
      refused: '../../etc/passwd is outside the run folder',
    });
  });
});

describe('resume picks a run by itself only when the run names its plan', () => {
  it('a manifest without planPath (a folder shipped in a repository) is never the run --resume takes', async () => {
    const setup = planFolder('auto-pick');
    const { runDir } = await interruptedRun(setup);
    const manifestPath = join(runDir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    delete manifest.planPath;
    manifest.createdAt = '2099-01-01T00:00:00.000Z'; // the newest
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const resultsRoot = join(dirname(setup.planPath), 'results');
    const runs = await listRuns(resultsRoot);
    assert.equal(runs.length, 1, 'it is listed (a user may still choose it by name)');

    const { latestUnfinishedRun } =
      require('../../../engine/src/results/resumableRuns') as typeof import('../../../engine/src/results/resumableRuns');
    assert.equal(latestUnfinishedRun(runs, setup.planPath), undefined);
    // the CLI, as a user runs it: no run of this plan to resume, nothing connected
    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join('cli', 'src', 'main.ts'),
        'run',
        setup.planPath,
        '--resume',
        '--results',
        resultsRoot,
        '--ssh-config',
        '/dev/null',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, CB_PASSWORD: 'pw' },
        timeout: 60_000,
      },
    );
    assert.equal(cli.status, 2, cli.stderr);
    assert.match(cli.stderr, /no unfinished run of .*p\.benchplan\.json under .*results/);
    assert.doesNotMatch(cli.stderr, /Run folder/);
    assert.equal(
      readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).length,
      1,
      'the run folder was not resumed',
    );
  });
});
