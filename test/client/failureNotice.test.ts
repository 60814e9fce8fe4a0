// What the editor says when a run fails and which buttons it offers (issue 13 items 2-5): every
// next step is an action that exists, errors are printed once, and the password's source is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunOutcome, SweepEvent } from '../../engine/src/events';
import { failureNotice, hostOffsetInPlan } from '../../client/src/tasks/failureNotice';
import { terminalLinesOnce } from '../../client/src/tasks/eventText';
import {
  describePasswordSource,
  passwordNotUsedWarning,
  passwordSavedMessage,
  passwordSourceOf,
  withPasswordSource,
} from '../../client/src/passwordSource';
import { formatEngineError } from '../../engine/src/errors';

const unreachable: RunOutcome = {
  runDir: '',
  completed: 0,
  failed: 0,
  total: 12,
  cancelled: false,
  error: {
    code: 'ssh-unreachable',
    host: 'cb-server',
    step: 'preflight',
    message:
      'Lost or could not open the SSH connection to cb-server. (ssh: connect to host 127.0.0.2 port 2222: Connection refused)',
    action: 'Check that cb-server is up and sshd is running ("ssh cb-server true"), then run the benchmark again.',
  },
};

test('a run stopped in pre-flight (its folder removed) says what failed and offers Open plan at the host, Retry, Show log: never Resume', () => {
  const notice = failureNotice(unreachable, { planName: 'lab.benchplan.json' })!;
  assert.equal(
    notice.message,
    `Onload Bench: lab.benchplan.json did not start: pre-flight failed on cb-server. ${unreachable.error!.message} Next: ${unreachable.error!.action}`,
  );
  assert.deepEqual(notice.actions, ['open-plan-host', 'retry', 'show-log']);
  assert.doesNotMatch(notice.message, /resume/i);
});

test('a run stopped after some cells offers Resume (its folder is kept) and Open results', () => {
  const notice = failureNotice(
    {
      ...unreachable,
      runDir: '/w/bench-results/lab-1',
      completed: 5,
      failed: 1,
      error: {
        ...unreachable.error!,
        step: 'restart-server',
        action: 'Check that cb-server is up, then resume the run.',
      },
    },
    { planName: 'lab.benchplan.json' },
  )!;
  assert.match(
    notice.message,
    /^Onload Bench: lab\.benchplan\.json stopped on cb-server \(5 of 12 cells done, 1 failed\): /,
  );
  assert.deepEqual(notice.actions, ['resume', 'open-plan-host', 'open-results', 'show-log']);
});

test('a refused password offers to enter it again only when the re-entered one will be used', () => {
  const refused: RunOutcome = {
    ...unreachable,
    error: {
      code: 'bucket-auth',
      host: 'cb-server',
      step: 'preflight',
      message: 'Couchbase refused the credentials.',
      action: 'Check the password.',
    },
  };
  const stored = failureNotice(refused, {
    planName: 'p',
    passwordSource: { kind: 'secret-storage', cluster: 'cb-server:8091' },
  })!;
  assert.deepEqual(stored.actions, ['enter-password', 'show-log']);
  assert.equal(
    stored.message,
    'Onload Bench: Couchbase on cb-server refused the password from VS Code\'s secret storage (cb-server:8091; "Set Couchbase password").',
  );
  const env = failureNotice(refused, { planName: 'p', passwordSource: { kind: 'env', variable: 'CB_PASSWORD' } })!;
  assert.deepEqual(env.actions, ['show-log']);
  assert.match(
    env.message,
    /refused the password from the environment variable CB_PASSWORD \(setting onloadBench\.couchbase\.passwordEnvVar\)\. Correct CB_PASSWORD/,
  );
});

test('cancelled and clean runs get no failure notice', () => {
  assert.equal(failureNotice({ ...unreachable, cancelled: true }, { planName: 'p' }), undefined);
  assert.equal(
    failureNotice({ runDir: '/r', completed: 12, failed: 0, total: 12, cancelled: false }, { planName: 'p' }),
    undefined,
  );
});

test('the host entry of a plan is found at its "host" value, not at another mention', () => {
  const plan =
    '{\n  "name": "cb-server tests",\n  "servers": [ { "host": "cb-server", "address": "127.0.0.2" } ],\n  "clients": [ { "host" : "ycsb-client" } ]\n}\n';
  assert.equal(
    plan.slice(hostOffsetInPlan(plan, 'cb-server'), hostOffsetInPlan(plan, 'cb-server') + 11),
    '"cb-server"',
  );
  assert.ok(hostOffsetInPlan(plan, 'cb-server') > plan.indexOf('"servers"'));
  assert.equal(plan.slice(hostOffsetInPlan(plan, 'ycsb-client')).startsWith('"ycsb-client"'), true);
  assert.equal(hostOffsetInPlan(plan, 'elsewhere'), -1);
});

test('the terminal prints a fatal error once: the engine log line, then only the summary at the end', () => {
  const printed = new Set<string>();
  const logged = terminalLinesOnce(
    { type: 'log', level: 'error', message: formatEngineError(unreachable.error!) },
    printed,
    false,
  );
  const finished = terminalLinesOnce({ type: 'run-finished', outcome: unreachable }, printed, false);
  assert.deepEqual(logged, [formatEngineError(unreachable.error!)]);
  assert.deepEqual(finished, ['Run stopped: 0 of 12 cells done, 0 failed.']);
  const all = [...logged, ...finished].join('\n');
  assert.equal(all.split('Connection refused').length - 1, 1);
  // without the log line first, the end still says what failed
  assert.equal(terminalLinesOnce({ type: 'run-finished', outcome: unreachable }, new Set(), false).length, 2);
});

test('the password source in force: an env var setting wins over SecretStorage, and saying "saved" says so', () => {
  const env = passwordSourceOf({
    variable: 'CB_PASSWORD',
    env: { CB_PASSWORD: 'x' },
    stored: true,
    cluster: 'cb-server:8091',
  });
  assert.deepEqual(env, { kind: 'env', variable: 'CB_PASSWORD' });
  assert.deepEqual(passwordSourceOf({ variable: 'CB_PASSWORD', env: {}, stored: true, cluster: 'c' }), {
    kind: 'secret-storage',
    cluster: 'c',
  });
  assert.match(
    describePasswordSource(passwordSourceOf({ variable: 'CB_PASSWORD', env: {}, stored: false, cluster: 'c' })),
    /CB_PASSWORD is not set/,
  );
  assert.equal(
    passwordSavedMessage(env, 'cb-server:8091'),
    "Onload Bench: password saved in VS Code's secret storage for cb-server:8091, but runs use the environment variable CB_PASSWORD (setting onloadBench.couchbase.passwordEnvVar) while it is set. Clear the setting or unset CB_PASSWORD to use the saved one.",
  );
  assert.match(passwordSavedMessage({ kind: 'secret-storage', cluster: 'c' }, 'c'), /runs use it/);
});

test('pre-flight names the password source after the Couchbase check; a refused password is the password check, never "✓"', () => {
  const event: SweepEvent = {
    type: 'preflight',
    checks: [
      { id: 'reachable', host: 'cb-server', ok: true, detail: 'ssh ok', blocking: true },
      {
        id: 'bucket-quota',
        host: 'cb-server',
        ok: true,
        detail: 'bucket needs 256 MiB, 900 MiB of 1024 MiB free',
        blocking: true,
      },
      { id: 'profile-lint', ok: true, detail: 'clean', blocking: true },
    ],
  };
  const out = withPasswordSource(event, 'the environment variable CB_PASSWORD');
  assert.ok(out.type === 'preflight');
  assert.deepEqual(
    out.checks.map((check) => check.id),
    ['reachable', 'bucket-quota', 'couchbase-password', 'profile-lint'],
  );
  assert.equal(out.checks[2].detail, 'the Couchbase password comes from the environment variable CB_PASSWORD');
  // Refused (engine/src/sweep/preflight.ts reports it as the password's check): one failed line naming the source.
  const refused: SweepEvent = {
    type: 'preflight',
    checks: [
      { id: 'reachable', host: 'cb-server', ok: true, detail: 'ssh ok', blocking: true },
      {
        id: 'couchbase-password',
        host: 'cb-server',
        ok: false,
        detail: 'Couchbase refused GET /pools/default for "Administrator" (HTTP 401).',
        action: 'Check the password.',
        blocking: true,
      },
    ],
  };
  const told = withPasswordSource(refused, 'the environment variable CB_PASSWORD');
  assert.ok(told.type === 'preflight');
  assert.deepEqual(
    told.checks.map((check) => [check.id, check.ok]),
    [
      ['reachable', true],
      ['couchbase-password', false],
    ],
  );
  assert.equal(
    told.checks[1].detail,
    'Couchbase refused GET /pools/default for "Administrator" (HTTP 401). (password from the environment variable CB_PASSWORD)',
  );
  assert.deepEqual(withPasswordSource({ type: 'phase', id: 'c', phase: 'load' }, 'x'), {
    type: 'phase',
    id: 'c',
    phase: 'load',
  });
});

test('Set Couchbase password says before asking when the environment variable wins (a saved one would not be used)', () => {
  assert.equal(
    passwordNotUsedWarning({ kind: 'env', variable: 'CB_PASSWORD' }),
    'Onload Bench: runs take the password from the environment variable CB_PASSWORD (setting onloadBench.couchbase.passwordEnvVar) while it is set, so a password saved here would not be used. Unset CB_PASSWORD or clear the setting to use a saved one.',
  );
  assert.equal(passwordNotUsedWarning({ kind: 'secret-storage', cluster: 'c' }), undefined);
  assert.equal(passwordNotUsedWarning({ kind: 'none', cluster: 'c' }), undefined);
});
