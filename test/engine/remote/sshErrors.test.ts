import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSshOptions, classifySshFailure, lineSplitter } from '../../../engine/src/remote/ssh';

describe('ssh failures', () => {
  const cases: [string, string, string][] = [
    ['Host key verification failed.', 'ssh-host-key', 'not known'],
    [
      '@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@\nHost key verification failed.',
      'ssh-host-key',
      'CHANGED',
    ],
    ['user@cb-server: Permission denied (publickey).', 'ssh-auth', 'Authentication'],
    ['ssh: connect to host 127.0.0.2 port 2222: Connection refused', 'ssh-unreachable', 'Lost or could not open'],
    ['ssh: Could not resolve hostname nowhere: Name or service not known', 'ssh-unreachable', 'cannot be resolved'],
    ['Timeout, server cb-server not responding.', 'ssh-unreachable', 'Lost'],
    ['Connection to 127.0.0.2 closed by remote host.', 'ssh-unreachable', 'Lost'],
  ];
  for (const [stderr, code, words] of cases) {
    it(`maps "${stderr.split('\n').pop()}" to ${code}`, () => {
      const failure = classifySshFailure('cb-server', 'ycsb-run', 255, stderr);
      assert.ok(failure);
      assert.equal(failure.error.code, code);
      assert.equal(failure.error.host, 'cb-server');
      assert.equal(failure.error.step, 'ycsb-run');
      assert.match(failure.error.message, new RegExp(words));
      assert.ok(failure.error.action.length > 10);
      assert.ok(failure.fatal);
    });
  }

  it('leaves a remote command that exits 255 by itself alone', () => {
    assert.equal(classifySshFailure('h', 's', 255, ''), undefined);
    assert.equal(classifySshFailure('h', 's', 1, 'Permission denied'), undefined);
  });

  it('refuses options that turn host-key checking off', () => {
    for (const bad of [
      ['-o', 'StrictHostKeyChecking=no'],
      ['-oUserKnownHostsFile=/dev/null'],
      ['-o', 'stricthostkeychecking no'],
    ]) {
      assert.throws(() => checkSshOptions(bad), /host-key checking/);
    }
    checkSshOptions(['-o', 'ConnectTimeout=5', '-o', 'StrictHostKeyChecking=yes']);
  });

  it('splits streamed output into lines across chunks', () => {
    const lines: string[] = [];
    const splitter = lineSplitter((line) => lines.push(line));
    splitter.push('10 sec: 5 op');
    splitter.push('erations;\r\n20 sec');
    splitter.push(': 9 operations;\n');
    splitter.push('tail');
    splitter.end();
    assert.deepEqual(lines, ['10 sec: 5 operations;', '20 sec: 9 operations;', 'tail']);
  });
});
