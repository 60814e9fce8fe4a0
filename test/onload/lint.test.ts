// `onload-bench lint` as a user runs it: the bundled CLI, its output lines and exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { languageOf } from '../../cli/src/lint';

const scratch = mkdtempSync(join(tmpdir(), 'onload-lint-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function lint(...args: string[]) {
  const result = spawnSync(process.execPath, ['dist/cli.js', 'lint', ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout.trim().split('\n').filter((line) => line.length > 0), stderr: result.stderr };
}

test('errors: one line per finding, file:line:col severity code message, exit code 1', () => {
  const file = join(scratch, 'bad.opf');
  writeFileSync(file, '# deliberate mistakes\nonload_set EF_TX_PUSH 2\nonload_set EF_POLL_USC 5\nonload_import nowhere\n');
  const { status, stdout, stderr } = lint('--root', scratch, file);
  assert.equal(status, 1);
  assert.deepEqual(stdout, [
    `${file}:2:23 error value-truncated EF_TX_PUSH is stored in a 1-bit field: 2 silently becomes 0.`,
    `${file}:3:12 warning unknown-option Unknown Onload option EF_POLL_USC: libonload only logs "Unknown option" and ignores it. Did you mean EF_POLL_USEC, EF_POLL_FAST?`,
    `${file}:4:15 error unresolved-import Cannot find profile 'nowhere' in this folder, the workspace or the profiles Onload ships: the launcher stops with exit code 3.`,
  ]);
  assert.match(stderr, /1 file checked: 2 errors, 1 warning/);
});

test('warnings only exit 0; a folder is searched for profiles; imports resolve against --root', () => {
  const folder = join(scratch, 'profiles');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'base.opf-fragment'), 'onload_set EF_POLL_USEC 30\n');
  writeFileSync(join(folder, 'cb.opf'), 'onload_import base\nonload_set EF_POLL_USEC 10\n');
  writeFileSync(join(folder, 'notes.txt'), 'onload_set EF_BROKEN 1\n');
  const { status, stdout, stderr } = lint('--root', scratch, folder);
  assert.equal(status, 0);
  assert.deepEqual(stdout.map((line) => line.split(' ').slice(0, 3).join(' ')), [`${join(folder, 'cb.opf')}:2:12 warning ineffective-assignment`]);
  assert.match(stderr, /2 files checked: 0 errors, 1 warning/);
});

test('the shipped profiles lint clean of errors', () => {
  const { status, stdout } = lint('--root', 'test/fixtures/onload/profiles', 'test/fixtures/onload/profiles');
  assert.equal(status, 0);
  assert.ok(stdout.every((line) => !line.includes(' error ')));
});

test('the example profiles: the Couchbase one is clean, the mistakes one shows each mistake once', () => {
  const clean = lint('--root', 'examples/profiles', 'examples/profiles/couchbase-latency.opf');
  assert.deepEqual([clean.status, clean.stdout], [0, []]);
  const mistakes = lint('--root', 'examples/profiles', 'examples/profiles/mistakes.opf');
  assert.equal(mistakes.status, 1);
  assert.deepEqual(mistakes.stdout.map((line) => line.split(' ')[2]), [
    'ineffective-assignment', 'unknown-option', 'deprecated-option', 'value-not-accepted', 'value-truncated',
    'value-cut-at-equals', 'unquoted-multiword', 'empty-value', 'ul-epoll0-int-driven0', 'unresolved-import',
  ]);
});

test('usage errors and unreadable files exit 2', () => {
  assert.equal(lint().status, 2);
  const missing = lint(join(scratch, 'missing.opf'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /missing\.opf: cannot read/);
});

test('file types follow the package.json rules', () => {
  assert.equal(languageOf('/x/a.opf'), 'onload-profile');
  assert.equal(languageOf('/x/a.opf-fragment'), 'onload-profile');
  assert.equal(languageOf('/x/a.ycsb'), 'ycsb-workload');
  assert.equal(languageOf('/ycsb/workloads/workloada'), 'ycsb-workload');
  assert.equal(languageOf('/ycsb/other/workloada'), undefined);
  assert.equal(languageOf('/x/notes.txt'), undefined);
});
