// Issue 11 item 14 on the lab (a host's real sshd): an engine killed with -9 leaves its control
// folder and a live ssh master behind; the next SessionPool removes the folder and the master exits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanStaleControlFolders, processAlive } from '../../../engine/src/remote/controlFolders';
import { startLab, type Lab, labUnavailable } from '../../lab/index';

describe('ssh masters of a killed engine', { skip: labUnavailable() }, () => {
  let lab: Lab;
  const root = mkdtempSync(join(tmpdir(), 'masters-'));
  before(async () => {
    lab = await startLab();
  });
  after(async () => {
    await lab?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('are told to exit and their folder removed at the next start', { timeout: 60_000 }, () => {
    const folder = join(root, `ob-${2 ** 22 + 999}-Dead01`); // the pid of an engine that no longer exists
    mkdirSync(folder, { mode: 0o700 });
    const socket = join(folder, 'master');
    const ssh = (args: string[]) =>
      spawnSync('ssh', ['-F', lab.sshConfigPath, '-o', `ControlPath=${socket}`, ...args], {
        encoding: 'utf8',
        timeout: 20_000,
      });
    const opened = ssh(['-o', 'ControlMaster=auto', '-o', 'ControlPersist=120', 'cb-server', 'true']);
    assert.equal(opened.status, 0, opened.stderr);
    const check = ssh(['-O', 'check', 'cb-server']);
    assert.equal(check.status, 0, 'the master outlived its client, as after kill -9');
    const masterPid = Number(/pid=(\d+)/.exec(check.stderr)?.[1]);
    assert.ok(processAlive(masterPid));
    assert.deepEqual(cleanStaleControlFolders(root), [folder]);
    assert.equal(existsSync(folder), false);
    // `-O exit` returns once the master has been told; give it a moment to go
    for (let waited = 0; processAlive(masterPid) && waited < 50; waited++) spawnSync('sleep', ['0.1']);
    assert.equal(processAlive(masterPid), false, 'the master process is gone');
  });
});
