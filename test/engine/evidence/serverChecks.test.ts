// Unit tests of the server-side checks' pure cores (REAL-LAB C1, C2, C3, C7, O1-O5, H1-H3).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeAcceleration, parseStackdump, stackdumpScript } from '../../../engine/src/evidence/acceleration';
import { armDifferences } from '../../../engine/src/evidence/armsAlike';
import { localAddresses, wrongInterfaceReason } from '../../../engine/src/evidence/interfaceTraffic';
import { environmentDifferences } from '../../../engine/src/evidence/onloadEnvironment';
import { decodeProcAddress, parseServerProcessFacts } from '../../../engine/src/server/serverProcess';
import { dropInText, parseExecStart } from '../../../engine/src/server/serviceDropIn';
import { sudoProblem } from '../../../engine/src/remote/sudoProblems';

// Real shapes (Onload ef17681: libstack.c:429 listing, highest stack first, each row ending in a
// space; netif_debug.c:852-860 and libstack.c:353 the `lots` header and pids; waitable.c:337 sockets)
const listing = [
  '@rights sudo',
  '@list',
  '#stack-id stack-name      pids',
  '1         other           777 ',
  '0         -               4242 ',
  '@lots',
  '============================================================',
  'ci_netif_dump_to_logger: stack=0 name=',
  '  Onload 9.0.1 uid=996 pid=4242 ns_flags=80',
  'ci_netif_dump_extra_to_logger: stack=0',
  '  in_poll=0 post_poll_list_empty=1 poll_did_wake=0',
  'pids: 4242',
  '--------------------- sockets ------------------------------',
  'TCP 0:1 lcl=10.0.0.1:11210 rmt=0.0.0.0:0 LISTEN',
  '  lock: 0 ',
  '  uid=996 s_flags: REUSE BOUND',
  '  listenq: max=1024 n=0 new=0 buckets=0',
  '------------------------------------------------------------',
  'TCP 0:7 lcl=10.0.0.1:11210 rmt=10.0.0.9:51234 ESTABLISHED',
  '  lock: 0 ',
  '------------------------------------------------------------',
  '--------------------- config opts --------------------------',
  '@end',
  '',
].join('\n');

describe('server checks', () => {
  it('acceleration needs memcached in a stack AND its KV socket in that stack; libonload alone proves nothing (O1, O2)', () => {
    const memcached = { pid: 4242, name: 'memcached', libonloadMapped: true };
    const proven = judgeAcceleration(memcached, parseStackdump(listing), 11210);
    assert.equal(proven.accelerated, true);
    assert.deepEqual(proven.stacks, ['0']);
    assert.match(proven.evidence, /memcached 4242 \(KV listener\) in Onload stack 0 with 10\.0\.0\.1:11210 LISTEN/);
    // libonload mapped, but no stack: not accelerated (the old check said "accelerated")
    const noStack = judgeAcceleration(memcached, parseStackdump('@rights sudo\n@list\n\n@lots\n@end\n'), 11210); // no stacks: silent
    assert.equal(noStack.accelerated, false);
    assert.match(noStack.evidence, /in no Onload stack although it maps libonload/);
    // a stack of memcached's, but the KV socket fell back to the kernel
    const fallback = judgeAcceleration(
      memcached,
      parseStackdump(listing.replace(/lcl=10\.0\.0\.1:11210/g, 'lcl=10.0.0.1:9999')),
      11210,
    );
    assert.equal(fallback.accelerated, false);
    assert.match(fallback.evidence, /not a socket of that stack/);
  });

  it("without root rights stackdump shows only the caller's stacks: unverified, with sudo's refusal (O5)", () => {
    // another user's stack is listed "inaccessible" (no name, no pids) and `lots` says so on stderr
    const output =
      '@rights no-sudo: sudo: a password is required\n@list\n#stack-id stack-name      pids\n5         inaccessible\n@lots\nUser 1000:1000 cannot access full details of stack 5(couchbase) owned by 996:996 share_with=0\n@end\n';
    const facts = parseStackdump(output);
    assert.deepEqual(facts.inaccessible, ['5']);
    assert.equal(facts.stackPids.size, 0);
    const check = judgeAcceleration({ pid: 4242, name: 'memcached' }, facts, 11210);
    assert.equal(check.accelerated, undefined);
    assert.match(
      check.evidence,
      /sudo -n refused: sudo: a password is required\); it lists only the caller's own stacks; stack 5 inaccessible to this user/,
    );
  });

  it("reads the real listing and `lots` in their variations: long names, zombies, wrapped pids, IPv6, Onload's state names", () => {
    const facts = parseStackdump(
      [
        '@rights sudo',
        '@list',
        '#stack-id stack-name      pids',
        '4         couchbase-memcached-kv31337 ', // a 16+ character name runs into its pids
        '3         <zombie>        - ',
        '2         cb              101,102,103 ',
        '@lots',
        '============================================================',
        'ci_netif_dump_to_logger: stack=2 name=cb',
        '  cplane_pid=55',
        '  Onload 9.2.0 uid=996 pid=101 ns_flags=80 INIT_NET_CPLANE',
        'ci_netif_dump_extra_to_logger: stack=2',
        '  readylist: id=0 pid=999 ready=0 unready=0 flags=0',
        'pids: 1000001,1000002,1000003,1000004,1000005,1000006,1000007,',
        '      1000008',
        '--------------------- sockets ------------------------------',
        'TCP 2:1 lcl=[::]:11210 rmt=[::]:0 LISTEN',
        '  lock: 0 ',
        '------------------------------------------------------------',
        'TCP 2:4 lcl=[fe80::1]:11210 rmt=[fe80::9]:40000 CLOSE-WAIT',
        '------------------------------------------------------------',
        'UDP 2:5 lcl=0.0.0.0:11210 rmt=0.0.0.0:0 UDP',
        '------------------------------------------------------------',
        'PIPE 2:6',
        '============================================================',
        'ci_netif_dump_to_logger: stack=7 name=',
        '  Onload 9.2.0 uid=996 pid=4242 ns_flags=80',
        'TCP 7:1 lcl=192.168.0.5:11210 rmt=0.0.0.0:0 LISTEN',
        '@end',
      ].join('\n'),
    );
    assert.deepEqual(facts.stackPids.get('4'), [31337]);
    assert.deepEqual(facts.stackPids.get('3'), []);
    assert.deepEqual(
      facts.stackPids.get('2'),
      [101, 102, 103, 1000001, 1000002, 1000003, 1000004, 1000005, 1000006, 1000007, 1000008],
    );
    // no pids anywhere (--nopids, or the holder is gone): the creator of the header line
    assert.deepEqual(facts.stackPids.get('7'), [4242]);
    assert.deepEqual(facts.stackSockets.get('2'), [
      { local: '[::]', port: 11210, state: 'LISTEN', remote: '[::]:0' },
      { local: '[fe80::1]', port: 11210, state: 'CLOSE-WAIT', remote: '[fe80::9]:40000' },
    ]);
    const check = judgeAcceleration({ pid: 1000008, name: 'memcached' }, facts, 11210);
    assert.equal(check.accelerated, true);
    assert.match(check.evidence, /in Onload stack 2 with \[::\]:11210 LISTEN, \[fe80::1\]:11210 CLOSE-WAIT/);
  });

  it('without the Onload drivers stackdump fails by itself: not accelerated, and not taken for a sudo refusal (O3, O5)', () => {
    const noDrivers = 'Could not open /dev/onload (rc=-2) - check Onload drivers are loaded';
    const check = judgeAcceleration(
      { pid: 4242, name: 'memcached', libonloadMapped: true },
      parseStackdump(`@rights sudo\n@list\n${noDrivers}\n@lots\n${noDrivers}\n@end\n`),
      11210,
    );
    assert.equal(check.accelerated, false);
    assert.match(check.evidence, /^the Onload drivers are not loaded \(Could not open \/dev\/onload \(rc=-2\)/);
    const mismatch = judgeAcceleration(
      { pid: 4242, name: 'memcached' },
      parseStackdump(
        '@rights sudo\n@list\nCould not open /dev/onload (rc=-6) - check Onload driver version matches that of library\n@lots\n@end\n',
      ),
      11210,
    );
    assert.equal(mismatch.accelerated, undefined);
    // the script: sudo runs the tool, which exits 255; that is no refusal by sudo
    const bin = mkdtempSync(join(tmpdir(), 'stackdump-'));
    try {
      writeFileSync(join(bin, 'sudo'), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n', { mode: 0o755 });
      writeFileSync(join(bin, 'onload_stackdump'), `#!/bin/sh\necho '${noDrivers}' >&2\nexit 255\n`, { mode: 0o755 });
      const output = execFileSync('sh', ['-c', stackdumpScript()], {
        env: { PATH: `${bin}:/usr/bin:/bin` },
        encoding: 'utf8',
      });
      assert.equal(output, `@rights sudo\n@list\n${noDrivers}\n@lots\n${noDrivers}\n@end\n`);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('reads memcached by its listener: pid, user, limits, cgroup, EF_* and connections (C2, H3, O4, C7)', () => {
    assert.equal(decodeProcAddress('0200007F:2BCA'), '127.0.0.2:11210');
    assert.equal(decodeProcAddress('0000000000000000FFFF00000C00007F:2BCA'), '127.0.0.12:11210');
    const facts = parseServerProcessFacts(
      '@rights sudo\n@tcp 0200007F:2BCA 00000000:0000 0A 123\n@tcp 0C00007F:2BCA 0300007F:D431 01 456\n@pid 4242\n@name memcached\n@uid 996\n@user couchbase\n@nofile 200000 200000\n@memlock unlimited unlimited\n@cgroup 0::/system.slice/couchbase-server.service\n@environ readable\n@ef EF_POLL_USEC=100000\n@libonload yes\n',
    );
    assert.equal(facts.pid, 4242);
    assert.equal(facts.user, 'couchbase');
    assert.deepEqual(facts.limits, {
      nofile: { soft: '200000', hard: '200000' },
      memlock: { soft: 'unlimited', hard: 'unlimited' },
    });
    assert.equal(facts.cgroup, '0::/system.slice/couchbase-server.service');
    assert.deepEqual(facts.efEnvironment, { EF_POLL_USEC: '100000' });
    assert.deepEqual(facts.listeners, ['127.0.0.2:11210']);
    assert.deepEqual(facts.connections, [{ local: '127.0.0.12:11210', remote: '127.0.0.3:54321' }]);
  });

  it("the drop-in keeps the unit's own command behind onload (C1, H3)", () => {
    const argv = parseExecStart(
      'ExecStart={ path=/opt/couchbase/bin/couchbase-server ; argv[]=/opt/couchbase/bin/couchbase-server -- -kernel global_enable_tracing false -noinput ; ignore_errors=no ; start_time=[n/a] }',
    );
    assert.deepEqual(argv, [
      '/opt/couchbase/bin/couchbase-server',
      '--',
      '-kernel',
      'global_enable_tracing',
      'false',
      '-noinput',
    ]);
    const text = dropInText('/usr/bin/onload', '/home/b/.onload-bench/profiles/lat 50%.opf', argv ?? []);
    assert.match(
      text,
      /^\[Service\]\nExecStart=\nExecStart=\/usr\/bin\/onload "--profile=\/home\/b\/\.onload-bench\/profiles\/lat 50%%\.opf" \/opt\/couchbase\/bin\/couchbase-server -- -kernel global_enable_tracing false -noinput$/m,
    );
  });

  it('arms that differ in user, limits or cgroup are named; EF_* differences too (H3, O4)', () => {
    const kernel = {
      user: 'couchbase',
      limits: { nofile: { soft: '200000', hard: '200000' } },
      cgroup: '0::/system.slice/couchbase-server.service',
      start: { mode: 'service' },
    };
    assert.deepEqual(armDifferences(kernel, { ...kernel }), []);
    assert.deepEqual(
      armDifferences(kernel, {
        user: 'bench',
        limits: { nofile: { soft: '1024', hard: '4096' } },
        cgroup: '0::/user.slice/session-4.scope',
        start: { mode: 'foreground' },
      }),
      [
        'user bench (kernel arm: couchbase)',
        'nofile 1024/4096 (kernel arm: 200000/200000)',
        'cgroup 0::/user.slice/session-4.scope (kernel arm: 0::/system.slice/couchbase-server.service)',
        'started as foreground (kernel arm: service)',
      ],
    );
    assert.deepEqual(
      environmentDifferences(
        { EF_POLL_USEC: '100000', EF_TCP_FASTSTART_INIT: '0' },
        { EF_POLL_USEC: '0', EF_NAME: 'x', EF_TCP_FASTSTART_INIT: '0' },
      ),
      [
        { name: 'EF_NAME', actual: 'x' },
        { name: 'EF_POLL_USEC', profile: '100000', actual: '0' },
      ],
    );
  });

  it("traffic on another address than the cell's interface is explained by the node's name (C7)", () => {
    const seen = localAddresses([
      [{ local: '127.0.0.2:11210', remote: '127.0.0.3:1' }],
      [{ local: '127.0.0.2:11210', remote: '127.0.0.3:2' }],
    ]);
    assert.equal(wrongInterfaceReason('127.0.0.2', seen, '127.0.0.2:8091'), undefined);
    assert.match(
      wrongInterfaceReason('127.0.0.12', seen, '127.0.0.2:8091') ?? '',
      /KV connections used 127\.0\.0\.2 instead of 127\.0\.0\.12; the node is named 127\.0\.0\.2:8091/,
    );
    assert.equal(wrongInterfaceReason('127.0.0.12', new Map(), undefined), undefined);
  });

  it('recognises requiretty and explains the next action (H2)', () => {
    const problem = sudoProblem('sudo: sorry, you must have a tty to run sudo\n', 'bench');
    assert.equal(problem?.kind, 'requiretty');
    assert.match(problem?.action ?? '', /Defaults:bench !requiretty/);
    assert.equal(sudoProblem('systemctl: unit not found'), undefined);
  });
});
