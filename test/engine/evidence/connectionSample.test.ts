// The traffic watch's look and the run's baseline in one round trip per server: the
// kernel's view (/proc/net/tcp) and memcached's Onload stack (onload_stackdump lots) from one
// script, run by a real sh over a /proc/net and a stand-in onload_stackdump, each read by its own parser.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseConnectionSample, sampleConnections } from '../../../engine/src/evidence/serverEvidence';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import type { RemoteSession } from '../../../engine/src/remote/ssh';

const server = withDefaults({
  servers: [{ host: 's' }],
  interfaces: { a: '10.0.0.1' },
  clients: [{ host: 'c', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'b' },
  workload: { path: 'w' },
  stacks: ['kernel'],
}).servers[0];

// /proc/net/tcp: the listener and one established kernel connection on 11210 (2BCA), one on 8091
const procNetTcp = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100000A:2BCA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   996        0 100 1 0 100 0 0 10 0',
  '   1: 0100000A:2BCA 0900000A:D431 01 00000000:00000000 00:00000000 00000000   996        0 101 1 0 20 4 30 10 -1',
  '   2: 0100000A:1F9B 0900000A:D432 01 00000000:00000000 00:00000000 00000000   996        0 102 1 0 20 4 30 10 -1',
].join('\n');
// onload_stackdump lots (Onload ef17681's shapes, as in serverChecks.test.ts): memcached 4242's stack
const lots = [
  '============================================================',
  'ci_netif_dump_to_logger: stack=0 name=',
  '  Onload 9.0.1 uid=996 pid=4242 ns_flags=80',
  'pids: 4242',
  'TCP 0:1 lcl=10.0.0.1:11210 rmt=0.0.0.0:0 LISTEN',
  'TCP 0:7 lcl=10.0.0.1:11210 rmt=10.0.0.9:51234 ESTABLISHED',
].join('\n');

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'conn-sample-'));
  mkdirSync(join(dir, 'proc/net'), { recursive: true });
  writeFileSync(join(dir, 'proc/net/tcp'), `${procNetTcp}\n`);
  writeFileSync(join(dir, 'proc/net/tcp6'), 'header\n');
  writeFileSync(join(dir, 'sudo'), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n', { mode: 0o755 });
  writeFileSync(
    join(dir, 'onload_stackdump'),
    `#!/bin/sh\nif [ "$1" = lots ]; then cat <<'X'\n${lots}\nX\nelse printf '#stack-id stack-name      pids\\n0         -               4242 \\n'; fi\n`,
    { mode: 0o755 },
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

function localSession(trips: string[]): RemoteSession {
  return {
    host: 's',
    run: async (command, options) => {
      trips.push(options.step);
      const stdout = execFileSync('sh', ['-c', command.replaceAll('/proc/', `${dir}/proc/`)], {
        env: { PATH: `${dir}:/usr/bin:/bin` },
        encoding: 'utf8',
      });
      return { exitCode: 0, stdout, stderr: '' };
    },
    upload: async () => undefined,
    close: async () => undefined,
  };
}

describe('a connection look in one trip', () => {
  it("an Onload cell: the kernel sockets and the stack's, one trip", async () => {
    const trips: string[] = [];
    const sample = await sampleConnections(localSession(trips), server, { memcachedPid: 4242 });
    assert.deepEqual(sample.kernel, [{ local: '10.0.0.1:11210', remote: '10.0.0.9:54321' }]);
    assert.deepEqual(sample.stack, { connections: [{ local: '10.0.0.1:11210', remote: '10.0.0.9:51234' }] });
    assert.deepEqual(trips, ['ycsb-run']);
  });

  it('a kernel cell: the kernel sockets only; memcached unknown: no stack look, said why', async () => {
    const trips: string[] = [];
    assert.deepEqual(await sampleConnections(localSession(trips), server, undefined), {
      kernel: [{ local: '10.0.0.1:11210', remote: '10.0.0.9:54321' }],
    });
    const unknown = await sampleConnections(localSession(trips), server, { memcachedPid: undefined });
    assert.deepEqual(unknown.stack, { problem: 'memcached was not found' });
    assert.equal(unknown.kernel.length, 1);
    assert.equal(trips.length, 2);
  });

  it('says why the stack could not be read: a failed trip, no tool, no root rights', () => {
    assert.deepEqual(parseConnectionSample('', 11210, { memcachedPid: 1 }, new Error('ssh: timed out')), {
      kernel: [],
      stack: { problem: 'onload_stackdump did not answer (ssh: timed out)' },
    });
    assert.deepEqual(
      parseConnectionSample('@@part kernel 0\n@@part stack 0\n@missing\n', 11210, { memcachedPid: 1 }).stack,
      { problem: 'onload_stackdump is not installed' },
    );
    assert.match(
      parseConnectionSample(
        '@@part kernel 0\n@@part stack 0\n@rights no-sudo: sudo: a password is required\n@list\n@lots\n@end\n',
        11210,
        { memcachedPid: 1 },
      ).stack?.problem ?? '',
      /without root rights \(sudo -n refused: sudo: a password is required\)/,
    );
    assert.deepEqual(parseConnectionSample('garbage', 11210, undefined, new Error('x')), { kernel: [] });
  });
});
