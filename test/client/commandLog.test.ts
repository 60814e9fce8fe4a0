import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatCommandLogLine,
  loggingSession,
  redactor,
  type CommandLogLine,
} from '../../client/src/engineHost/commandLog';
import { FakeHosts } from '../support/fakeHosts';

test('every command is logged with host and step, the password redacted, and non-zero exits noted', async () => {
  const lines: CommandLogLine[] = [];
  const hosts = new FakeHosts({ answer: () => ({ exitCode: 2, stdout: 'out', stderr: '' }) });
  const session = loggingSession(hosts.session('cb-server'), (line) => lines.push(line), redactor('hunter22'));
  const result = await session.run('curl -u Administrator:hunter22 http://127.0.0.1:8091/pools', {
    step: 'bucket-ready',
  });
  assert.equal(result.exitCode, 2);
  assert.deepEqual(
    hosts.calls.map((call) => call.command),
    ['curl -u Administrator:hunter22 http://127.0.0.1:8091/pools'],
    'the command itself is passed on unchanged',
  );
  assert.deepEqual(lines.map(formatCommandLogLine), [
    'cb-server [bucket-ready] $ curl -u Administrator:******** http://127.0.0.1:8091/pools',
    'cb-server [bucket-ready] exit 2',
  ]);
});

test('uploads are logged by path and size only, never their content', async () => {
  const lines: CommandLogLine[] = [];
  const session = loggingSession(
    new FakeHosts().session('ycsb-client'),
    (line) => lines.push(line),
    redactor('hunter22'),
  );
  await session.upload('.onload-bench/cb.properties', 'couchbase.password=hunter22\n', {
    step: 'ycsb-load',
    mode: '600',
  });
  assert.deepEqual(lines.map(formatCommandLogLine), [
    'ycsb-client [ycsb-load] upload .onload-bench/cb.properties (28 bytes, mode 600)',
  ]);
});

test('ssh-level failures are logged and still thrown to the engine', async () => {
  const lines: CommandLogLine[] = [];
  const session = loggingSession(
    new FakeHosts({
      answer: () => {
        throw new Error('Connection refused');
      },
    }).session('cb-server'),
    (line) => lines.push(line),
    redactor('x'),
  );
  await assert.rejects(session.run('true', { step: 'preflight' }), /Connection refused/);
  assert.deepEqual(lines.map(formatCommandLogLine), [
    'cb-server [preflight] $ true',
    'cb-server [preflight] failed: Connection refused',
  ]);
});

test('a very short password is not redacted (it would garble every line)', () => {
  assert.equal(redactor('ab')('table'), 'table');
  assert.equal(redactor('secret')('a secret and secret'), 'a ******** and ********');
});

test('the password as written in the credentials file (properties-escaped) and URL-encoded is redacted too', () => {
  const redact = redactor('pa=ss:word!');
  assert.equal(
    redact('couchbase.password=pa\\=ss\\:word\\! and pa%3Dss%3Aword!'),
    'couchbase.password=******** and ********',
  );
});
