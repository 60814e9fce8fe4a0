// Unit tests of the server-side checks' pure cores (REAL-LAB C1, C2, C3, C7, O1-O5, H1-H3).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { judgeAcceleration, parseStackdump } from '../../engine/src/acceleration';
import { armDifferences } from '../../engine/src/armsAlike';
import { localAddresses, wrongInterfaceReason } from '../../engine/src/interfaceTraffic';
import { environmentDifferences } from '../../engine/src/onloadEnvironment';
import { decodeProcAddress, parseServerProcessFacts } from '../../engine/src/serverProcess';
import { dropInText, parseExecStart } from '../../engine/src/serviceDropIn';
import { sudoProblem } from '../../engine/src/sudoProblems';

const listing = '@rights sudo\n@list\n#stack-id stack-name      pids\n0         -               4242\n1         other           777\n@lots\n============================================================\nci_netif_dump_to_logger: stack=0 name=\n  ver=9.0.1 uid=996 pid=4242 ns_flags=0\nTCP 0:1 lcl=10.0.0.1:11210 rmt=0.0.0.0:0 LISTEN\nTCP 0:7 lcl=10.0.0.1:11210 rmt=10.0.0.9:51234 ESTABLISHED\n@end\n';

describe('server checks', () => {
  it('acceleration needs memcached in a stack AND its KV socket in that stack; libonload alone proves nothing (O1, O2)', () => {
    const memcached = { pid: 4242, name: 'memcached', libonloadMapped: true };
    const proven = judgeAcceleration(memcached, parseStackdump(listing), 11210);
    assert.equal(proven.accelerated, true);
    assert.deepEqual(proven.stacks, ['0']);
    assert.match(proven.evidence, /memcached 4242 \(KV listener\) in Onload stack 0 with 10\.0\.0\.1:11210 LISTEN/);
    // libonload mapped, but no stack: not accelerated (the old check said "accelerated")
    const noStack = judgeAcceleration(memcached, parseStackdump('@rights sudo\n@list\n#stack-id stack-name      pids\n@lots\n@end\n'), 11210);
    assert.equal(noStack.accelerated, false);
    assert.match(noStack.evidence, /in no Onload stack although it maps libonload/);
    // a stack of memcached's, but the KV socket fell back to the kernel
    const fallback = judgeAcceleration(memcached, parseStackdump(listing.replace(/lcl=10\.0\.0\.1:11210/g, 'lcl=10.0.0.1:9999')), 11210);
    assert.equal(fallback.accelerated, false);
    assert.match(fallback.evidence, /not a socket of that stack/);
  });

  it('without root rights stackdump shows only the caller\'s stacks: unverified, with sudo\'s refusal (O5)', () => {
    const check = judgeAcceleration({ pid: 4242, name: 'memcached' }, parseStackdump('@rights no-sudo: sudo: a password is required\n@list\n#stack-id stack-name      pids\n@lots\n@end\n'), 11210);
    assert.equal(check.accelerated, undefined);
    assert.match(check.evidence, /sudo -n refused: sudo: a password is required/);
  });

  it('reads memcached by its listener: pid, user, limits, cgroup, EF_* and connections (C2, H3, O4, C7)', () => {
    assert.equal(decodeProcAddress('0200007F:2BCA'), '127.0.0.2:11210');
    assert.equal(decodeProcAddress('0000000000000000FFFF00000C00007F:2BCA'), '127.0.0.12:11210');
    const facts = parseServerProcessFacts('@rights sudo\n@tcp 0200007F:2BCA 00000000:0000 0A 123\n@tcp 0C00007F:2BCA 0300007F:D431 01 456\n@pid 4242\n@name memcached\n@uid 996\n@user couchbase\n@nofile 200000 200000\n@memlock unlimited unlimited\n@cgroup 0::/system.slice/couchbase-server.service\n@environ readable\n@ef EF_POLL_USEC=100000\n@libonload yes\n');
    assert.equal(facts.pid, 4242);
    assert.equal(facts.user, 'couchbase');
    assert.deepEqual(facts.limits, { nofile: { soft: '200000', hard: '200000' }, memlock: { soft: 'unlimited', hard: 'unlimited' } });
    assert.equal(facts.cgroup, '0::/system.slice/couchbase-server.service');
    assert.deepEqual(facts.efEnvironment, { EF_POLL_USEC: '100000' });
    assert.deepEqual(facts.listeners, ['127.0.0.2:11210']);
    assert.deepEqual(facts.connections, [{ local: '127.0.0.12:11210', remote: '127.0.0.3:54321' }]);
  });

  it('the drop-in keeps the unit\'s own command behind onload (C1, H3)', () => {
    const argv = parseExecStart('ExecStart={ path=/opt/couchbase/bin/couchbase-server ; argv[]=/opt/couchbase/bin/couchbase-server -- -kernel global_enable_tracing false -noinput ; ignore_errors=no ; start_time=[n/a] }');
    assert.deepEqual(argv, ['/opt/couchbase/bin/couchbase-server', '--', '-kernel', 'global_enable_tracing', 'false', '-noinput']);
    const text = dropInText('/usr/bin/onload', '/home/b/.onload-bench/profiles/lat 50%.opf', argv ?? []);
    assert.match(text, /^\[Service\]\nExecStart=\nExecStart=\/usr\/bin\/onload "--profile=\/home\/b\/\.onload-bench\/profiles\/lat 50%%\.opf" \/opt\/couchbase\/bin\/couchbase-server -- -kernel global_enable_tracing false -noinput$/m);
  });

  it('arms that differ in user, limits or cgroup are named; EF_* differences too (H3, O4)', () => {
    const kernel = { user: 'couchbase', limits: { nofile: { soft: '200000', hard: '200000' } }, cgroup: '0::/system.slice/couchbase-server.service', start: { mode: 'service' } };
    assert.deepEqual(armDifferences(kernel, { ...kernel }), []);
    assert.deepEqual(armDifferences(kernel, { user: 'bench', limits: { nofile: { soft: '1024', hard: '4096' } }, cgroup: '0::/user.slice/session-4.scope', start: { mode: 'foreground' } }), [
      'user bench (kernel arm: couchbase)',
      'nofile 1024/4096 (kernel arm: 200000/200000)',
      'cgroup 0::/user.slice/session-4.scope (kernel arm: 0::/system.slice/couchbase-server.service)',
      'started as foreground (kernel arm: service)',
    ]);
    assert.deepEqual(environmentDifferences({ EF_POLL_USEC: '100000', EF_TCP_FASTSTART_INIT: '0' }, { EF_POLL_USEC: '0', EF_NAME: 'x', EF_TCP_FASTSTART_INIT: '0' }), [
      { name: 'EF_NAME', actual: 'x' },
      { name: 'EF_POLL_USEC', profile: '100000', actual: '0' },
    ]);
  });

  it('traffic on another address than the cell\'s interface is explained by the node\'s name (C7)', () => {
    const seen = localAddresses([[{ local: '127.0.0.2:11210', remote: '127.0.0.3:1' }], [{ local: '127.0.0.2:11210', remote: '127.0.0.3:2' }]]);
    assert.equal(wrongInterfaceReason('127.0.0.2', seen, '127.0.0.2:8091'), undefined);
    assert.match(wrongInterfaceReason('127.0.0.12', seen, '127.0.0.2:8091') ?? '', /KV connections used 127\.0\.0\.2 instead of 127\.0\.0\.12; the node is named 127\.0\.0\.2:8091/);
    assert.equal(wrongInterfaceReason('127.0.0.12', new Map(), undefined), undefined);
  });

  it('recognises requiretty and explains the next action (H2)', () => {
    const problem = sudoProblem('sudo: sorry, you must have a tty to run sudo\n', 'bench');
    assert.equal(problem?.kind, 'requiretty');
    assert.match(problem?.action ?? '', /Defaults:bench !requiretty/);
    assert.equal(sudoProblem('systemctl: unit not found'), undefined);
  });
});
