// The check-acceleration step in one round trip per server: memcached's look-up and
// onload_stackdump in one script, run here by a real sh with stand-in sudo and onload_stackdump;
// each part's parser reads only its own lines, so the evidence is the same as in two trips.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkAcceleration, stackdumpScript } from '../../../engine/src/evidence/acceleration';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import type { RemoteRunOptions, RemoteSession } from '../../../engine/src/remote/ssh';
import { findServerProcess } from '../../../engine/src/server/serverProcess';

const server = withDefaults({
  servers: [{ host: 's' }],
  interfaces: { a: '10.0.0.1' },
  clients: [{ host: 'c', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'b' },
  workload: { path: 'w' },
  stacks: ['kernel'],
}).servers[0];

/**
 * The script reading an empty /proc (in `dir`): no process or socket of this machine (a lab's memcached, a listener) is
 * found.
 */
function withoutThisMachinesProcesses(command: string, dir: string): string {
  return command.replaceAll('/proc/', `${dir}/proc/`);
}

/** A session running each script in a local sh with `bin` first on PATH; counts the trips. */
function localSession(bin: string): RemoteSession & { trips: string[] } {
  const trips: string[] = [];
  return {
    host: 's',
    trips,
    run: async (command: string, options: RemoteRunOptions) => {
      trips.push(options.step);
      const stdout = execFileSync('sh', ['-c', withoutThisMachinesProcesses(command, bin)], {
        env: { PATH: `${bin}:/usr/bin:/bin` },
        encoding: 'utf8',
      });
      return { exitCode: 0, stdout, stderr: '' };
    },
    upload: async () => undefined,
    close: async () => undefined,
  };
}

describe('check-acceleration in one trip', () => {
  it('a server without memcached: looked for, then the stack listing alone (the rare path keeps its evidence)', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'check-trip-'));
    try {
      writeFileSync(join(bin, 'sudo'), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n', { mode: 0o755 });
      writeFileSync(join(bin, 'onload_stackdump'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      const session = localSession(bin);
      // a port nothing listens on and no memcached of this installation: not found after one look
      const facts = await findServerProcess(
        session,
        { ...server, kvPort: 1 },
        { step: 'check-acceleration', waitMs: 0, thenScript: stackdumpScript() },
      );
      assert.equal(facts.pid, undefined);
      assert.equal(facts.rights, 'sudo');
      assert.equal(facts.then, undefined, 'the stack listing runs only once memcached is found');
      const check = await checkAcceleration(session, server, facts, undefined, facts.then);
      assert.equal(check.accelerated, undefined);
      assert.equal(check.rights, 'sudo');
      assert.deepEqual(session.trips, ['check-acceleration', 'check-acceleration']);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('memcached found: its facts and the stack listing come back from the one look, each part with its own rights', async () => {
    const noDrivers = 'Could not open /dev/onload (rc=-2) - check Onload drivers are loaded';
    let looks = 0;
    // the look-up's own output (as the real script prints it, through sudo) and the real stackdump script's
    const session: RemoteSession & { trips: number } = {
      host: 's',
      trips: 0,
      run: async (command: string) => {
        session.trips++;
        looks++;
        const bin = mkdtempSync(join(tmpdir(), 'check-trip-'));
        try {
          // sudo refuses the look-up's script (no-sudo) but runs onload_stackdump: the two @rights must not mix
          writeFileSync(
            join(bin, 'sudo'),
            '#!/bin/sh\n[ "$1" = -n ] && shift\ncase "$1" in sh) echo "sudo: a password is required" >&2; exit 1;; esac\nexec "$@"\n',
            { mode: 0o755 },
          );
          writeFileSync(join(bin, 'onload_stackdump'), `#!/bin/sh\necho '${noDrivers}' >&2\nexit 255\n`, {
            mode: 0o755,
          });
          // the process script finds memcached on the second look (it starts after REST answers, C9)
          const script = looks === 1 ? command : command.replace(/^pid=""$/gm, 'pid=4242; found="its KV listener"');
          const stdout = execFileSync('sh', ['-c', withoutThisMachinesProcesses(script, bin)], {
            env: { PATH: `${bin}:/usr/bin:/bin` },
            encoding: 'utf8',
          });
          return { exitCode: 0, stdout, stderr: '' };
        } finally {
          rmSync(bin, { recursive: true, force: true });
        }
      },
      upload: async () => undefined,
      close: async () => undefined,
    };
    const facts = await findServerProcess(
      session,
      { ...server, kvPort: 1 },
      { step: 'check-acceleration', waitMs: 5_000, everyMs: 1, thenScript: stackdumpScript() },
    );
    assert.equal(facts.pid, 4242);
    assert.equal(facts.lookups, 2);
    assert.match(facts.rights, /^no-sudo: sudo: a password is required/);
    assert.match(facts.then ?? '', /^@rights sudo\n@list\n/);
    const check = await checkAcceleration(session, server, facts, undefined, facts.then);
    assert.equal(check.accelerated, false);
    assert.equal(check.rights, 'sudo');
    assert.match(check.evidence, /the Onload drivers are not loaded/);
    assert.equal(session.trips, 2, 'two looks, no separate stackdump trip');
  });
});
