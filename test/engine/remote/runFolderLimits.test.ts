// Issue 11, the small but real ones: where logs may be written and why a write failed, what ssh
// children inherit, how uploads treat planted links and shared work folders, and what a killed
// engine leaves behind. Each test reproduces the fault and asserts the safe outcome.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { childEnvironment } from '../../../engine/src/remote/childEnvironment';
import { cleanStaleControlFolders } from '../../../engine/src/remote/controlFolders';
import { EngineFailure } from '../../../engine/src/errors';
import { passwordForms, redactSecrets } from '../../../engine/src/remote/redaction';
import { writeLog, type ResultsIo } from '../../../engine/src/results/resultsStore';
import { escapePropertiesValue } from '../../../engine/src/remote/secrets';
import { acquireRemoteLock } from '../../../engine/src/remote/remoteLock';
import { SessionPool, uploadScript } from '../../../engine/src/remote/ssh';
import { LocalShell } from '../../support/localShell';
import { judgeWorkFolder } from '../../../engine/src/remote/workFolder';

const root = mkdtempSync(join(tmpdir(), 'run-limits-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<EngineFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EngineFailure, String(error));
    return error;
  }
  assert.fail('expected a failure');
}

describe('log writes stay in the run folder', () => {
  it('"../../../../tmp/x" is refused and nothing is written outside', async () => {
    const runDir = join(root, 'run-a');
    mkdirSync(join(runDir, 'logs'), { recursive: true });
    const target = join(root, 'x');
    const error = await failure(writeLog(runDir, `../../../..${target}`, 'secret'));
    assert.match(error.error.message, /Refused to write the log .* it resolves outside/);
    assert.equal(existsSync(target), false);
  });

  it('a symlinked folder planted in logs/ is not followed', async () => {
    const runDir = join(root, 'run-b');
    const outside = join(root, 'outside-b');
    mkdirSync(join(runDir, 'logs'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(runDir, 'logs', 'cell'));
    const error = await failure(writeLog(runDir, 'cell/attempt1.log', 'text'));
    assert.match(error.error.message, /leads outside the run folder/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('read-only folder, name too long and disk full are three different messages and actions', async () => {
    const runDir = join(root, 'run-c');
    mkdirSync(join(runDir, 'logs'), { recursive: true });
    const failing = (code: string): ResultsIo => ({
      open: async () => {
        throw Object.assign(new Error(code), { code });
      },
    });
    const readOnly = (await failure(writeLog(runDir, 'a.log', 'x', failing('EROFS')))).error;
    const full = (await failure(writeLog(runDir, 'a.log', 'x', failing('ENOSPC')))).error;
    const long = (await failure(writeLog(runDir, `${'n'.repeat(300)}/a.log`, 'x'))).error; // the real file system
    assert.match(readOnly.message, /the file system is read-only/);
    assert.match(readOnly.action, /results folder you can write to/);
    assert.match(full.message, /the disk is full/);
    assert.match(full.action, /Free space/);
    assert.match(long.message, /a file name is too long/);
    assert.match(long.action, /shorter path/);
    assert.equal(new Set([readOnly.action, full.action, long.action]).size, 3);
  });
});

describe('the password', () => {
  it('every form the engine writes is redacted: raw, properties-escaped, JSON-escaped, URL-encoded', () => {
    const password = 'p=ss:w"0rd\\ é';
    const forms = [
      password,
      escapePropertiesValue(password),
      JSON.stringify(password).slice(1, -1),
      encodeURIComponent(password),
    ];
    assert.ok(forms.every((form) => passwordForms(password).includes(form)));
    const text = forms.map((form) => `[${form}]`).join(' ');
    assert.equal(redactSecrets(text, [password], '*'), '[*] [*] [*] [*]');
  });

  it('is stripped from the environment of ssh, by name (CB_PASSWORD) and by value (a configured variable)', async () => {
    const password = 'env-s3cret-value';
    const fakeSsh = join(root, 'fake-ssh');
    const envFile = join(root, 'ssh-env.txt');
    writeFileSync(fakeSsh, `#!/bin/sh\nenv > '${envFile}'\n`);
    chmodSync(fakeSsh, 0o755);
    const saved = { ...process.env };
    process.env.CB_PASSWORD = password;
    process.env.MY_BENCH_PASSWORD = password;
    try {
      const controlDir = mkdtempSync(join(root, 'cd-'));
      const pool = new SessionPool({ binary: fakeSsh, controlDir }, undefined, [password]);
      await pool.get('h').run('true', { step: 'test' });
      await pool.closeAll();
    } finally {
      process.env = saved;
    }
    const env = readFileSync(envFile, 'utf8');
    assert.match(env, /^PATH=/m);
    assert.doesNotMatch(env, /CB_PASSWORD|MY_BENCH_PASSWORD/);
    assert.ok(!env.includes(password));
    assert.deepEqual(childEnvironment({ A: '1', CB_PASSWORD: 'x', OTHER: 'y' }, ['y']), { A: '1' });
  });
});

describe('uploads', () => {
  const upload = (target: string, content: string, mode = '600') =>
    spawnSync('sh', ['-c', uploadScript(target, mode)], { input: content, encoding: 'utf8' });

  it('a symlink planted at the old predictable .part name or at the target is never written through', () => {
    const folder = join(root, 'work');
    mkdirSync(folder);
    const victim = join(root, 'victim');
    writeFileSync(victim, 'original\n');
    const target = join(folder, 'workload.properties');
    symlinkSync(victim, `${target}.part`);
    symlinkSync(victim, target);
    const result = upload(target, 'recordcount=1\n');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(victim, 'utf8'), 'original\n');
    assert.equal(lstatSync(target).isSymbolicLink(), false);
    assert.equal(readFileSync(target, 'utf8'), 'recordcount=1\n');
    assert.equal(statSync(target).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(folder).filter((name) => name.startsWith('.upload-')),
      [],
      'no temporary left',
    );
  });

  it('two uploads use different temporary names', () => {
    assert.notEqual(
      uploadScript('/w/f', '600').match(/\.upload-[0-9a-f]+\.part/)?.[0],
      uploadScript('/w/f', '600').match(/\.upload-[0-9a-f]+\.part/)?.[0],
    );
  });

  it('a directory planted at the target fails the upload instead of receiving the file', () => {
    const folder = join(root, 'work2');
    mkdirSync(join(folder, 'p.opf'), { recursive: true });
    const result = upload(join(folder, 'p.opf'), 'onload_set EF_POLL_USEC 1\n');
    assert.notEqual(result.status, 0);
    assert.deepEqual(readdirSync(join(folder, 'p.opf')), []);
    assert.deepEqual(readdirSync(folder), ['p.opf'], 'temporary removed');
  });

  it('a work folder of another user or writable by others is refused; one under /tmp is a warning', () => {
    assert.match(
      judgeWorkFolder('@me 1000\n@dir 1001 700\n@up 0 755 /home\n/home/u/w', '/home/u/w').error ?? '',
      /belongs to uid 1001, not to the SSH user \(uid 1000\)/,
    );
    assert.match(
      judgeWorkFolder('@me 1000\n@dir 1000 777\n/tmp/w', '/tmp/w').error ?? '',
      /may be written by every user \(mode 777\)/,
    );
    assert.match(judgeWorkFolder('@me 1000\n@dir 1000 775\n/tmp/w', '/tmp/w').error ?? '', /by its group/);
    assert.deepEqual(judgeWorkFolder('@me 1000\n@dir 1000 755\n@up 0 1777 /tmp\n@up 0 755 /\n/tmp/w', '/tmp/w'), {
      warning:
        'The work folder /tmp/w lies under /tmp, which every user may write to; it is private and owned by the SSH user, but a folder in your home is safer.',
    });
    assert.deepEqual(
      judgeWorkFolder('@me 1000\n@dir 1000 755\n@up 1000 755 /home/u\n@up 0 755 /home\n/home/u/w', '/home/u/w'),
      {},
    );
    // (who else may enter it matters to a foreground start as another user: foregroundProfileReach.ts)
    assert.deepEqual(
      judgeWorkFolder('@me 1000\n@dir 1000 700\n@up 1000 755 /home/u\n@up 0 755 /home\n/home/u/w', '/home/u/w'),
      { closedToOthersAt: '/home/u/w' },
    );
  });
});

describe('after kill -9', () => {
  it('control folders of dead engines are removed at the next start; live ones are kept', () => {
    const temp = mkdtempSync(join(root, 'tmp-'));
    const dead = join(temp, `ob-${2 ** 22 + 4321}-AbC123`);
    const live = join(temp, `ob-${process.pid}-XyZ789`);
    const foreign = join(temp, 'ob-notours');
    for (const folder of [dead, live, foreign]) {
      mkdirSync(folder);
      writeFileSync(join(folder, '0123456789abcdef'), '');
    }
    assert.deepEqual(cleanStaleControlFolders(temp, { binary: '/bin/true', options: [], env: {} }), [dead]);
    assert.deepEqual(readdirSync(temp).sort(), [`ob-${process.pid}-XyZ789`, 'ob-notours']);
  });
});

describe('one run per host', () => {
  it(
    'a second run is refused naming the first; after release, or when the holder died on this machine, it gets the lock',
    { timeout: 60_000 },
    async () => {
      const workDir = mkdtempSync(join(root, 'remote-work-'));
      const lockDir = mkdtempSync(join(root, 'lock-dir-'));
      const session = new LocalShell('local', { env: { ONLOAD_BENCH_LOCK_DIR: lockDir } });
      const first = await acquireRemoteLock(
        session,
        workDir,
        { host: 'here', pid: process.pid, run: 'run-one', since: '2026-12-03T08:00:00Z' },
        'here',
      );
      assert.ok('release' in first, JSON.stringify(first));
      const refusal = await failure(
        acquireRemoteLock(
          session,
          workDir,
          { host: 'here', pid: process.pid, run: 'run-two', since: '2026-12-03T08:01:00Z' },
          'here',
        ),
      );
      assert.equal(refusal.error.code, 'run-locked');
      assert.match(
        refusal.error.message,
        new RegExp(
          `in use by run run-one of process ${process.pid} on here \\(user \\w+, work folder ${workDir}, since 2026-12-03T08:00:00Z\\)`,
        ),
      );
      await first.release();
      const second = await acquireRemoteLock(
        session,
        workDir,
        { host: 'here', pid: 2 ** 22 + 77, run: 'run-two', since: '2026-12-03T08:02:00Z' },
        'here',
      );
      assert.ok('release' in second && second.tookOver === undefined);
      // run-two's engine "died" (its pid does not exist) without its remote holder noticing
      const third = await acquireRemoteLock(
        session,
        workDir,
        { host: 'here', pid: process.pid, run: 'run-three', since: '2026-12-03T08:03:00Z' },
        'here',
      );
      assert.ok('release' in third);
      assert.equal(third.tookOver?.run, 'run-two');
      // a holder on another machine is never taken over
      const other = await failure(
        acquireRemoteLock(session, workDir, { host: 'there', pid: 1, run: 'run-four', since: 'x' }, 'there'),
      );
      assert.match(other.error.action, /if it is gone, stop its lock holder on local \("kill \d+"\)/);
      await third.release();
      await (second as { release(): Promise<void> }).release();
      assert.match(
        readFileSync(join(lockDir, 'onload-bench.lock'), 'utf8'),
        /^host=here pid=\d+ run=run-three since=2026-12-03T08%3A03%3A00Z workdir=\S+ user=\w+ remotepid=\d+\n$/,
      );
    },
  );
});
