// Issue 26 B6: the host lock covers the server, not one work folder. Two engines with different
// work folders (two SSH users) on one host both ran and restarted each other's server; now the
// second is refused, naming the holder (machine, process, run, user, work folder). The lock is one
// system-wide file every user can lock (a sticky /var/tmp-like folder; ONLOAD_BENCH_LOCK_DIR here),
// created with mode 666, never followed through a planted link. The "host" is the local sh, run
// as root and as `nobody` for the second user.
import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineFailure } from '../../../engine/src/errors';
import { acquireRemoteLock } from '../../../engine/src/remote/remoteLock';
import { LocalShell } from '../../support/localShell';

const root = mkdtempSync(join(tmpdir(), 'host-lock-'));
chmodSync(root, 0o755);
after(() => rmSync(root, { recursive: true, force: true }));

/** The host "srv" is the local sh, with the test's lock folder, as `uid` when given. */
function host(lockDir: string, uid?: number): LocalShell {
  return new LocalShell('srv', { env: { ONLOAD_BENCH_LOCK_DIR: lockDir }, ...(uid !== undefined ? { uid } : {}) });
}

/** The EngineFailure the lock is refused with. */
const refusal = (promise: Promise<unknown>): Promise<EngineFailure> =>
  promise.then(
    () => assert.fail('expected the lock to be refused'),
    (error: unknown) => (assert.ok(error instanceof EngineFailure, String(error)), error),
  );

/** A sticky, world-writable folder like /var/tmp. */
function stickyFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  chmodSync(dir, 0o1777);
  return dir;
}

const nobody = 65534;

/** A work folder that exists (the old lock went into it), owned by `uid`. */
function workFolder(name: string, uid?: number): string {
  const dir = join(root, 'work', name);
  mkdirSync(dir, { recursive: true });
  if (uid !== undefined) chownSync(dir, uid, uid);
  return dir;
}
const canSwitchUser = process.getuid?.() === 0;

describe('one engine per server, whatever its work folder or user', () => {
  it(
    'a second engine with another work folder is refused, naming the first; after release it gets the lock',
    { timeout: 30_000 },
    async () => {
      const lockDir = stickyFolder('var-tmp-a');
      const alice = workFolder('alice');
      const bob = workFolder('bob');
      const first = await acquireRemoteLock(
        host(lockDir),
        alice,
        { host: 'laptop-a', pid: 2 ** 22 + 1, run: 'run-alice', since: '2026-12-03T08:00:00Z' },
        'laptop-a',
      );
      assert.ok('release' in first, JSON.stringify(first));
      const refused = await refusal(
        acquireRemoteLock(
          host(lockDir),
          bob,
          { host: 'laptop-b', pid: process.pid, run: 'run-bob', since: '2026-12-03T08:01:00Z' },
          'laptop-b',
        ),
      );
      assert.equal(refused.error.code, 'run-locked');
      assert.equal(refused.error.host, 'srv');
      assert.match(
        refused.error.message,
        /srv is in use by run run-alice of process \d+ on laptop-a \(user \w+, work folder \S+\/work\/alice, since 2026-12-03T08:00:00Z\)/,
      );
      assert.match(refused.error.message, /two runs on one server would restart Couchbase under each other/);
      await first.release();
      const second = await acquireRemoteLock(
        host(lockDir),
        bob,
        { host: 'laptop-b', pid: process.pid, run: 'run-bob', since: '2026-12-03T08:02:00Z' },
        'laptop-b',
      );
      assert.ok('release' in second);
      await second.release();
    },
  );

  it(
    'two SSH users share the lock: the file is made with mode 666 in the sticky folder and the second user is refused',
    { timeout: 30_000, skip: canSwitchUser ? false : 'needs root to run the second user' },
    async () => {
      const lockDir = stickyFolder('var-tmp-b');
      const first = await acquireRemoteLock(
        host(lockDir, nobody),
        workFolder('nobody', nobody),
        { host: 'laptop-a', pid: process.pid, run: 'run-nobody', since: '2026-12-03T09:00:00Z' },
        'laptop-a',
      );
      assert.ok('release' in first, JSON.stringify(first));
      const lockFile = join(lockDir, 'onload-bench.lock');
      assert.equal(lstatSync(lockFile).mode & 0o777, 0o666);
      assert.equal(lstatSync(lockFile).uid, nobody);
      const refused = await refusal(
        acquireRemoteLock(
          host(lockDir),
          workFolder('root'),
          { host: 'laptop-a', pid: process.pid, run: 'run-root', since: '2026-12-03T09:01:00Z' },
          'laptop-a',
        ),
      );
      assert.match(refused.error.message, /in use by run run-nobody .*user nobody, work folder \S+\/work\/nobody,/);
      await first.release();
    },
  );

  it(
    'a link planted at the lock path is never followed: no lock through it, the target untouched, and the reason said',
    { timeout: 30_000 },
    async () => {
      const lockDir = stickyFolder('var-tmp-c');
      const victim = join(root, 'victim');
      writeFileSync(victim, 'precious\n');
      symlinkSync(victim, join(lockDir, 'onload-bench.lock'));
      const result = await acquireRemoteLock(host(lockDir), workFolder('w'), {
        host: hostname(),
        pid: process.pid,
        run: 'r',
        since: 's',
      });
      assert.ok('unavailable' in result, JSON.stringify(result));
      assert.match(result.unavailable, /onload-bench\.lock is not a regular file/);
      assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    },
  );

  it(
    'the same engine reaching one machine under two names holds it once (no refusal of itself)',
    { timeout: 30_000 },
    async () => {
      const lockDir = stickyFolder('var-tmp-d');
      const owner = { host: hostname(), pid: process.pid, run: 'run-self', since: '2026-12-03T10:00:00Z' };
      const first = await acquireRemoteLock(host(lockDir), workFolder('srv-work'), owner);
      assert.ok('release' in first);
      const again = await acquireRemoteLock(host(lockDir), workFolder('client-work'), owner);
      assert.ok('release' in again, JSON.stringify(again));
      await again.release();
      await first.release();
    },
  );
});
