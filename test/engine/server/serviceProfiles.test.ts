// Profiles the service's user can read (serviceProfiles.ts): paths for both start modes, and the
// install/remove scripts run for real by sh against temporary folders with a pass-through sudo.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withDefaults, type PlanServer } from '../../../engine/src/plan/planSchema';
import { fakeHostsPlan } from '../../support/fakeHosts';
import { remoteProfilePath } from '../../../engine/src/remote/workFolder';
import {
  installServiceProfilesScript,
  removeServiceProfilesScript,
  serverProfilePath,
  uploadPathFor,
} from '../../../engine/src/server/serviceProfiles';

const work = mkdtempSync(join(tmpdir(), 'service-profiles-'));
after(() => rmSync(work, { recursive: true, force: true }));

function server(fields: Partial<PlanServer> = {}) {
  return withDefaults(
    fakeHostsPlan({
      servers: [
        {
          host: 'cb',
          workDir: join(work, 'home', 'bench work'),
          serviceDropInDir: join(work, 'etc', 'couchbase-server.service.d'),
          ...fields,
        },
      ],
    }),
  ).servers[0];
}

/** A folder under `work` holding a `sudo` that runs `body`; put it first on PATH. */
function sudoStub(folder: string, body: string): string {
  const bin = join(work, folder);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'sudo'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'sudo'), 0o755);
  return bin;
}

describe('where the Onload arm reads its profile', () => {
  it('through the service: beside the drop-in, uploaded first into a staging copy in the work folder', () => {
    const service = server();
    const installed = serverProfilePath(service, 'latency');
    assert.equal(installed, join(work, 'etc', 'couchbase-server.service.d', 'onload-bench-profiles', 'latency.opf'));
    assert.equal(
      uploadPathFor(service, installed),
      join(work, 'home', 'bench work', 'profiles', 'service', 'latency.opf'),
    );
    assert.equal(
      uploadPathFor(service, installed.replace('latency.opf', 'latency.imports/base.opf')),
      join(work, 'home', 'bench work', 'profiles', 'service', 'latency.imports', 'base.opf'),
    );
  });

  it('in the foreground: the work folder itself, uploaded where it is read', () => {
    const foreground = server({ serverStart: 'foreground' });
    const path = serverProfilePath(foreground, 'latency');
    assert.equal(path, remoteProfilePath(join(work, 'home', 'bench work'), 'latency'));
    assert.equal(uploadPathFor(foreground, path), path);
  });

  it('install replaces the installed tree by the staging copy, world-readable; remove takes it away', () => {
    const service = server();
    // sudo -n CMD... runs CMD as this user: the test checks the files, not the privilege
    const bin = sudoStub('bin', '[ "$1" = -n ] && shift\nexec "$@"');
    const staging = join(work, 'home', 'bench work', 'profiles', 'service');
    mkdirSync(join(staging, 'latency.imports'), { recursive: true });
    writeFileSync(join(staging, 'latency.opf'), 'onload_set EF_POLL_USEC 100000\n', { mode: 0o600 });
    writeFileSync(join(staging, 'latency.imports', "it's base.opf"), 'onload_set EF_TCP_FASTSTART_INIT 0\n', {
      mode: 0o600,
    });
    const target = join(work, 'etc', 'couchbase-server.service.d', 'onload-bench-profiles');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'stale.opf'), 'left by an earlier run\n');
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

    const install = spawnSync('sh', ['-c', installServiceProfilesScript(service)], { env, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    assert.equal(readFileSync(join(target, 'latency.opf'), 'utf8'), 'onload_set EF_POLL_USEC 100000\n');
    assert.equal(
      readFileSync(join(target, 'latency.imports', "it's base.opf"), 'utf8'),
      'onload_set EF_TCP_FASTSTART_INIT 0\n',
    );
    assert.equal(statSync(join(target, 'latency.opf')).mode & 0o777, 0o644);
    assert.equal(statSync(join(target, 'latency.imports', "it's base.opf")).mode & 0o777, 0o644);
    assert.equal(statSync(join(target, 'latency.imports')).mode & 0o005, 0o005, 'others may enter the imports folder');
    assert.equal(existsSync(join(target, 'stale.opf')), false, 'nothing of an earlier run is left');

    const remove = spawnSync('sh', ['-c', removeServiceProfilesScript(service)], { env, encoding: 'utf8' });
    assert.equal(remove.status, 0, remove.stderr);
    assert.equal(existsSync(target), false);
    assert.equal(
      spawnSync('sh', ['-c', removeServiceProfilesScript(service)], { env }).status,
      0,
      'removing nothing is fine',
    );
  });

  it('a failed install (sudo refused) fails the script', () => {
    const service = server();
    const bin = sudoStub('bin-refusing', 'echo "sudo: a password is required" >&2\nexit 1');
    const result = spawnSync('sh', ['-c', installServiceProfilesScript(service)], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /a password is required/);
  });
});
