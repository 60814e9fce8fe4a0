// The run phase judged from Onload's own view (engine/src/evidence/runPhaseAcceleration.ts,
// REAL-LAB O2, O6): the clients' connections in memcached's stack, or only in /proc/net.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStackdump } from '../../../engine/src/evidence/acceleration';
import { judgeRunAcceleration, stackConnections } from '../../../engine/src/evidence/runPhaseAcceleration';

const a = { local: '10.0.0.1:11210', remote: '10.0.0.9:40001' };
const b = { local: '10.0.0.1:11210', remote: '10.0.0.9:40002' };
const k = { local: '10.0.2.1:11210', remote: '10.0.2.9:40003' };

describe('acceleration during the run', () => {
  it("reads memcached's established KV connections from onload_stackdump lots", () => {
    const output = [
      '@rights sudo',
      '@list',
      '#stack-id stack-name      pids',
      '0         -               4242 ',
      '@lots',
      '====',
      'ci_netif_dump_to_logger: stack=0 name=',
      'pids: 4242',
      'TCP 0:1 lcl=10.0.0.1:11210 rmt=0.0.0.0:0 LISTEN',
      'TCP 0:2 lcl=10.0.0.1:11210 rmt=10.0.0.9:40001 ESTABLISHED',
      'TCP 0:3 lcl=10.0.0.1:8091 rmt=10.0.0.9:40009 ESTABLISHED',
      '@end',
    ].join('\n');
    assert.deepEqual(stackConnections(parseStackdump(output), 4242, 11210), [a]);
    assert.deepEqual(
      stackConnections(parseStackdump(output), 999, 11210),
      [],
      "another process's stack is not memcached's",
    );
  });

  it('says accelerated, not accelerated or how many of each, naming its sources', () => {
    assert.equal(
      judgeRunAcceleration([{ kernel: [], stack: [a, b] }, { kernel: [a] }], undefined).verdict,
      'accelerated',
      "a socket Onload lists is the stack's",
    );
    const kernel = judgeRunAcceleration([{ kernel: [k], stack: [] }], undefined);
    assert.equal(kernel.verdict, 'not-accelerated');
    assert.match(
      kernel.evidence,
      /1 as kernel sockets \(\/proc\/net\/tcp\{,6\}\), none in memcached's Onload stack \(onload_stackdump lots, 1 looks\)/,
    );
    const partly = judgeRunAcceleration([{ kernel: [k], stack: [a, b] }], undefined);
    assert.deepEqual([partly.verdict, partly.inStack, partly.inKernel], ['partly-accelerated', 2, 1]);
    assert.match(partly.evidence, /2 in memcached's Onload stack \(onload_stackdump lots\), 1 as kernel sockets/);
  });

  it('a view that could not be read, or saw nothing, is unverified, never accelerated', () => {
    assert.equal(
      judgeRunAcceleration([{ kernel: [k] }], 'onload_stackdump ran without root rights').verdict,
      'unverified',
    );
    assert.equal(judgeRunAcceleration([{ kernel: [] }], undefined).verdict, 'unverified');
    assert.equal(judgeRunAcceleration([{ kernel: [], stack: [] }], undefined).verdict, 'unverified');
  });
});
