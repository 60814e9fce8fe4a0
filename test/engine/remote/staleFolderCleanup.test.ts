// Issue 26 B8: the cleanup of a killed engine's ssh control folders starts `ssh -O exit` like every
// other child of the engine: with the cleaned environment (no CB_PASSWORD, no variable holding the
// password, so nothing in /proc/PID/environ) and the engine's own ssh options (`-F` when the user
// chose an ssh_config, BatchMode, host-key checking). A recording "ssh" stands in for OpenSSH.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SessionPool } from '../../../engine/src/remote/ssh';

const root = mkdtempSync(join(tmpdir(), 'stale-cleanup-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('the stale control-folder cleanup', () => {
  it("runs ssh -O exit with the cleaned environment and the engine's -F and options", () => {
    const temp = join(root, 'tmp');
    mkdirSync(temp);
    const dead = join(temp, `ob-${2 ** 22 + 4242}-Gone01`);
    mkdirSync(dead, { mode: 0o700 });
    writeFileSync(join(dead, 'a1b2c3'), '');
    const record = join(root, 'ssh-calls');
    const fakeSsh = join(root, 'ssh');
    writeFileSync(fakeSsh, `#!/bin/sh\n{ echo "ARGS $*"; env | sed 's/^/ENV /'; } >> '${record}'\n`);
    chmodSync(fakeSsh, 0o755);
    const configFile = join(root, 'ssh_config');
    writeFileSync(configFile, '');
    const saved = { ...process.env };
    const password = 'Adm1n-s3cret!';
    process.env.CB_PASSWORD = password;
    process.env.MY_CB_PASSWORD = password;
    process.env.TMPDIR = temp; // where the pool looks for (and makes) control folders
    let pool: SessionPool;
    try {
      pool = new SessionPool({ binary: fakeSsh, configFile, extraOptions: ['-o', 'ConnectTimeout=7'] }, undefined, [
        password,
      ]);
    } finally {
      process.env = saved;
    }
    const calls = readFileSync(record, 'utf8');
    assert.match(calls, /^ARGS .*-O exit/m, 'the dead master was told to exit');
    const args = /^ARGS (.*-O exit.*)$/m.exec(calls)?.[1] ?? '';
    for (const option of [
      `-F ${configFile}`,
      '-o BatchMode=yes',
      '-o StrictHostKeyChecking=yes',
      '-o ConnectTimeout=7',
      `-o ControlPath=${dead}/a1b2c3`,
    ])
      assert.ok(args.includes(option), `${option} missing from: ${args}`);
    // ssh takes the first value of an option: the socket's path must come before any other ControlPath
    assert.equal(/ControlPath=(\S+)/.exec(args)?.[1], `${dead}/a1b2c3`);
    assert.doesNotMatch(calls, /CB_PASSWORD|MY_CB_PASSWORD/);
    assert.ok(!calls.includes(password), 'the password is in no child environment');
    assert.match(calls, /^ENV PATH=/m);
    assert.deepEqual(
      readdirSync(temp).filter((name) => name.includes('Gone01')),
      [],
      'the dead folder is gone',
    );
    return pool.closeAll();
  });
});
