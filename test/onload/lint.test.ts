// `onload-bench lint` as a user runs it: the bundled CLI, its output lines and exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import AjvDraft04 from 'ajv-draft-04';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { languageOf } from '../../cli/src/lint';

const scratch = mkdtempSync(join(tmpdir(), 'onload-lint-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function lint(...args: string[]) {
  const result = spawnSync(process.execPath, ['dist/cli.js', 'lint', ...args], { encoding: 'utf8', timeout: 30_000 });
  return {
    status: result.status,
    stdout: result.stdout
      .trim()
      .split('\n')
      .filter((line) => line.length > 0),
    stderr: result.stderr,
  };
}

test('errors: one line per finding, file:line:col severity code message, exit code 1', () => {
  const file = join(scratch, 'bad.opf');
  writeFileSync(
    file,
    '# deliberate mistakes\nonload_set EF_TX_PUSH 2\nonload_set EF_POLL_USC 5\nonload_import nowhere\n',
  );
  const { status, stdout, stderr } = lint('--root', scratch, file);
  assert.equal(status, 1);
  assert.deepEqual(stdout, [
    `${file}:2:23 error value-truncated EF_TX_PUSH is stored in a 1-bit field: 2 silently becomes 0.`,
    `${file}:3:12 warning unknown-option Unknown Onload option EF_POLL_USC: libonload only logs "Unknown option" and ignores it. Did you mean EF_POLL_USEC, EF_POLL_FAST?`,
    `${file}:4:15 error unresolved-import Cannot find profile 'nowhere' beside this profile, in the onloadBench.profilePath folders or among the profiles Onload ships: the launcher stops with exit code 3.`,
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
  assert.deepEqual(
    stdout.map((line) => line.split(' ').slice(0, 3).join(' ')),
    [`${join(folder, 'cb.opf')}:2:12 warning ineffective-assignment`],
  );
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
  assert.deepEqual(
    mistakes.stdout.map((line) => line.split(' ')[2]),
    [
      'ineffective-assignment',
      'unknown-option',
      'deprecated-option',
      'value-not-accepted',
      'value-truncated',
      'value-cut-at-equals',
      'unquoted-multiword',
      'empty-value',
      'ul-epoll0-int-driven0',
      'unresolved-import',
    ],
  );
});

test('usage errors and unreadable files exit 2', () => {
  assert.equal(lint().status, 2);
  const unknownFlag = lint('--strict', 'examples/profiles');
  assert.equal(unknownFlag.status, 2);
  assert.deepEqual(unknownFlag.stdout, []);
  assert.match(unknownFlag.stderr, /Unknown option '--strict'[\s\S]*usage: onload-bench lint/);
  const badFormat = lint('--format', 'xml', 'examples/profiles');
  assert.equal(badFormat.status, 2);
  assert.match(badFormat.stderr, /--format must be text, json or sarif, not 'xml'/);
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

test('--format json: one array of findings with 1-based ranges, the same exit code', () => {
  const file = join(scratch, 'json.opf');
  writeFileSync(file, 'onload_set EF_TX_PUSH 2\n');
  const { status, stdout } = lint('--format', 'json', file);
  assert.equal(status, 1);
  assert.deepEqual(JSON.parse(stdout.join('\n')), [
    {
      file,
      line: 1,
      column: 23,
      endLine: 1,
      endColumn: 24,
      severity: 'error',
      code: 'value-truncated',
      message: 'EF_TX_PUSH is stored in a 1-bit field: 2 silently becomes 0.',
      uses: '0',
    },
  ]);
});

test('--format sarif: a SARIF 2.1.0 log that validates against the SARIF schema, paths relative to --root', () => {
  const schema = JSON.parse(
    readFileSync('node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', 'utf8'),
  );
  const validate = new AjvDraft04({
    allErrors: true,
    strict: false,
    validateFormats: false,
    unicodeRegExp: false,
  }).compile(schema);
  const { status, stdout } = lint(
    '--format',
    'sarif',
    '--root',
    '.',
    'examples/profiles/mistakes.opf',
    'examples/plans/cookbook.benchplan.json',
  );
  assert.equal(status, 1);
  const log = JSON.parse(stdout.join('\n'));
  assert.equal(validate(log), true, JSON.stringify(validate.errors, null, 2));
  assert.equal(validate({ runs: [{ results: [] }] }), false, 'the schema rejects a log without version and tool');
  assert.equal(log.version, '2.1.0');
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, 'onload-bench');
  const truncated = run.results.find((result: { ruleId: string }) => result.ruleId === 'value-truncated');
  assert.deepEqual(truncated.locations[0].physicalLocation, {
    artifactLocation: { uri: 'examples/profiles/mistakes.opf', uriBaseId: 'SRCROOT' },
    region: { startLine: 21, startColumn: 23, endLine: 21, endColumn: 24 },
  });
  assert.equal(truncated.level, 'error');
  assert.equal(run.tool.driver.rules[truncated.ruleIndex].id, 'value-truncated');
  assert.equal(run.results.filter((result: { level: string }) => result.level === 'warning').length, 5);
  // A tool with nothing to say still writes a valid log.
  const clean = lint('--format', 'sarif', 'examples/profiles/couchbase-latency.opf');
  assert.equal(clean.status, 0);
  const empty = JSON.parse(clean.stdout.join('\n'));
  assert.equal(validate(empty), true);
  assert.deepEqual(empty.runs[0].results, []);
});

test('benchmark plans are checked against the plan schema, at the line of the mistake', () => {
  const good = lint('examples/plans');
  assert.equal(good.status, 0);
  assert.match(good.stderr, /checked: 0 errors/);
  const plan = join(scratch, 'broken.benchplan.json');
  writeFileSync(
    plan,
    JSON.stringify(
      {
        servers: [{ host: 'cb', restPort: 99999 }],
        interfaces: { nic: '10.0.0.1' },
        clients: [{ host: 'c', ycsbHome: '/y' }],
        bucket: { name: 'b' },
        workload: { path: 'nowhere/workloada' },
        stacks: ['kernel'],
      },
      null,
      2,
    ),
  );
  const { status, stdout } = lint(plan);
  assert.equal(status, 1);
  assert.deepEqual(stdout, [`${plan}:5:19 error plan-schema servers[0].restPort: must be <= 65535`]);
  const missing = join(scratch, 'missing-workload.benchplan.json');
  writeFileSync(missing, readFileSync(plan, 'utf8').replace('99999', '8091'));
  const second = lint(missing);
  assert.equal(second.status, 1);
  assert.match(
    second.stdout.join('\n'),
    /:21:13 error plan-file-missing workload\.path: workload file not found: .*nowhere\/workloada/,
  );
});

test("imports resolve the same with and without --root: beside the profile, then --profile-path, then Onload's own", () => {
  // The simulated lab's two-line latency.opf elsewhere in the workspace must not stand in for Onload's latency.
  mkdirSync(join(scratch, 'ws', 'profiles'), { recursive: true });
  mkdirSync(join(scratch, 'ws', 'lab'), { recursive: true });
  mkdirSync(join(scratch, 'ws', 'mine'), { recursive: true });
  writeFileSync(join(scratch, 'ws', 'lab', 'latency.opf'), 'onload_set EF_POLL_USEC 7\n');
  writeFileSync(
    join(scratch, 'ws', 'profiles', 'cb.opf'),
    'onload_import latency\nonload_set EF_POLL_USEC 5\nonload_import tuning\n',
  );
  writeFileSync(join(scratch, 'ws', 'mine', 'tuning.opf-fragment'), 'onload_set EF_SPIN_USEC 1\n');
  const profile = join(scratch, 'ws', 'profiles', 'cb.opf');
  const codes = (result: ReturnType<typeof lint>) => result.stdout.map((line) => line.split(' ').slice(0, 3).join(' '));
  const expected = [`${profile}:2:12 warning ineffective-assignment`, `${profile}:3:15 error unresolved-import`];
  assert.deepEqual(codes(lint(profile)), expected);
  assert.deepEqual(codes(lint('--root', join(scratch, 'ws'), profile)), expected);
  assert.match(lint(profile).stdout[0]!, /already set to '100000' by shipped profile latency/);
  assert.deepEqual(codes(lint('--root', join(scratch, 'ws'), '--profile-path', 'mine', profile)), expected.slice(0, 1));
});
