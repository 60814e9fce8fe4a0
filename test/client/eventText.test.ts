import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SweepEvent } from '../../engine/src/events';
import type { CellKey, CellResult, RunManifest, YcsbReport } from '../../engine/src/model';
import {
  initialProgress,
  percentDone,
  progressMessage,
  redact,
  reduceProgress,
  statusBarText,
  terminalLines,
  toTerminalText,
} from '../../client/src/tasks/eventText';

const key = (stack: string, threads: number, extra: Partial<CellKey> = {}): CellKey => ({
  interface: '25G',
  address: '10.0.0.1',
  stack,
  threads,
  axes: {},
  repetition: 1,
  ...extra,
});

const manifest = (cells: number): RunManifest => ({
  kind: 'manifest',
  formatVersion: 1,
  runId: 'lab-20261202-1405',
  createdAt: '2026-12-02T14:05:00Z',
  plan: {},
  cells: Array.from({ length: cells }, (_, index) => ({ id: `c${index}`, key: key('kernel', 5 * (index + 1)) })),
});

const report = (throughput: number, readAvg: number, readP99: number): YcsbReport => ({
  runtimeMs: 60000,
  throughputOpsPerSec: throughput,
  other: {},
  warnings: [],
  operations: {
    READ: {
      operation: 'READ',
      operations: 1000,
      averageUs: readAvg,
      percentilesUs: { '99': readP99 },
      returnCodes: { OK: 1000 },
    },
  },
});

const result = (status: 'ok' | 'failed', extra: Partial<CellResult> = {}): CellResult => ({
  kind: 'cell',
  id: 'c0',
  key: key('onload-latency', 10),
  status,
  accelerated: true,
  startedAt: '2026-12-02T14:05:00Z',
  finishedAt: '2026-12-02T14:06:00Z',
  attempts: 1,
  logs: [],
  ...extra,
});

test('progress follows the events: resumed cells count, failures count, the estimate shows', () => {
  const events: SweepEvent[] = [
    { type: 'run-started', runDir: '/r/lab-1', manifest: manifest(4), resumed: true, alreadyDone: 1 },
    { type: 'cell-started', id: 'c1', key: key('kernel', 10), index: 1, total: 4, attempt: 1 },
    { type: 'cell-finished', result: result('ok'), index: 1, total: 4, remainingEstimateMs: 150_000 },
    { type: 'cell-started', id: 'c2', key: key('onload-latency', 15), index: 2, total: 4, attempt: 1 },
    { type: 'cell-finished', result: result('failed'), index: 2, total: 4, remainingEstimateMs: 70_000 },
    { type: 'cell-started', id: 'c3', key: key('onload-latency', 20), index: 3, total: 4, attempt: 1 },
  ];
  const state = events.reduce(reduceProgress, initialProgress);
  assert.deepEqual(state, {
    runDir: '/r/lab-1',
    total: 4,
    done: 3,
    failed: 1,
    currentCell: '25G · onload-latency · 20 threads · repetition 1',
    currentIndex: 3,
    started: true,
    remainingEstimateMs: 70_000,
    finished: false,
  });
  assert.equal(
    progressMessage(state),
    'cell 4/4 — 25G · onload-latency · 20 threads · repetition 1 — about 1 min left — 1 failed',
  );
  assert.equal(statusBarText(state), '$(pulse) Couchbase benchmark 3/4 (1 failed)');
  assert.equal(percentDone(state), 75);

  const finished = reduceProgress(state, {
    type: 'run-finished',
    outcome: { runDir: '/r/lab-1', completed: 3, failed: 1, total: 4, cancelled: false },
  });
  assert.equal(finished.finished, true);
  assert.equal(finished.currentCell, undefined);
  assert.equal(finished.remainingEstimateMs, undefined);
});

test('with run until stable the estimate counts the repetitions that may be added: "up to"', () => {
  const upTo = reduceProgress(initialProgress, {
    type: 'cell-finished',
    result: result('ok'),
    index: 0,
    total: 4,
    remainingEstimateMs: 600_000,
    remainingEstimateUpTo: true,
  });
  assert.equal(progressMessage(upTo), '1/4 cells done — up to 10 min left');
  const line = terminalLines(
    {
      type: 'cell-finished',
      result: result('ok', { run: report(1000, 90, 120) }),
      index: 0,
      total: 4,
      remainingEstimateMs: 600_000,
      remainingEstimateUpTo: true,
    },
    false,
  );
  assert.match(line[0], /\(up to 10 min left\)$/);
  const settled = reduceProgress(upTo, {
    type: 'cell-finished',
    result: result('ok'),
    index: 1,
    total: 4,
    remainingEstimateMs: 60_000,
  });
  assert.equal(progressMessage(settled), '2/4 cells done — about 1 min left');
});

test('the counter and the label agree: pre-flight says so, a running cell is counted as itself, between cells only what is done', () => {
  const opened = reduceProgress(initialProgress, {
    type: 'run-started',
    runDir: '/r/lab-1',
    manifest: manifest(4),
    resumed: false,
    alreadyDone: 0,
  });
  assert.equal(progressMessage(opened), 'pre-flight checks (4 cells planned)');
  const running = reduceProgress(opened, {
    type: 'cell-started',
    id: 'c3',
    key: key('onload-latency', 20),
    index: 3,
    total: 4,
    attempt: 1,
  });
  assert.equal(progressMessage(running), 'cell 4/4 — 25G · onload-latency · 20 threads · repetition 1');
  const done = reduceProgress(running, { type: 'cell-finished', result: result('ok'), index: 3, total: 4 });
  assert.equal(progressMessage(done), '1/4 cells done');
});

test('before anything is known the progress message is empty and percent is 0', () => {
  assert.equal(progressMessage(initialProgress), '');
  assert.equal(percentDone(initialProgress), 0);
  assert.equal(statusBarText(initialProgress), '$(pulse) Couchbase benchmark');
});

test('a finished cell prints throughput and read latency; a failed one its error and next step', () => {
  const ok = terminalLines(
    {
      type: 'cell-finished',
      result: result('ok', { run: report(123456.7, 850.25, 1830) }),
      index: 0,
      total: 20,
      remainingEstimateMs: 600_000,
    },
    false,
  );
  assert.deepEqual(ok, ['  done: 123,457 ops/s, read avg 850.3 µs, p99 1.83 ms (about 10 min left)']);

  const notAccelerated = terminalLines(
    {
      type: 'cell-finished',
      result: result('ok', { run: report(1000, 90, 120), accelerated: false }),
      index: 0,
      total: 2,
    },
    false,
  );
  assert.deepEqual(notAccelerated, ['  done: 1,000 ops/s, read avg 90.0 µs, p99 120.0 µs, NOT accelerated']);

  const failed = terminalLines(
    {
      type: 'cell-finished',
      index: 0,
      total: 2,
      result: result('failed', {
        error: {
          code: 'ycsb-exit',
          host: 'client1',
          step: 'ycsb-run',
          message: 'YCSB exited with status 1.',
          action: 'Look at logs/c0-run.log.',
        },
      }),
    },
    false,
  );
  assert.deepEqual(failed, [
    '  failed: [ycsb-exit] client1: ycsb-run: YCSB exited with status 1. Next: Look at logs/c0-run.log.',
  ]);
});

test('pre-flight lines mark ok, blocking failures and warnings, with the next action', () => {
  const lines = terminalLines(
    {
      type: 'preflight',
      checks: [
        { id: 'reachable', host: 'cb1', ok: true, detail: 'ssh works', blocking: true },
        {
          id: 'couchbase-version',
          host: 'cb1',
          ok: false,
          detail: 'no couchbase-server',
          action: 'Install Couchbase Server.',
          blocking: true,
        },
        { id: 'profile-lint', ok: false, detail: '1 warning in latency.opf', blocking: false },
      ],
    },
    false,
  );
  assert.deepEqual(lines, [
    'Pre-flight checks:',
    '  ok   reachable cb1: ssh works',
    '  FAIL couchbase-version cb1: no couchbase-server Next: Install Couchbase Server.',
    '  warn profile-lint: 1 warning in latency.opf',
    '  Show commands: "Onload Bench: Show commands (dry run)" lists every command and REST step a run takes, without connecting.',
  ]);
});

test("status lines show the host and YCSB's own line; debug logs stay out of the terminal", () => {
  assert.deepEqual(
    terminalLines(
      {
        type: 'status',
        id: 'c0',
        host: 'client1',
        phase: 'run',
        line: '2026-12-02 14:05:10:123 10 sec: 52345 operations; 5234.5 current ops/sec;\n',
        status: { elapsedSec: 10, operations: 52345, currentOpsPerSec: 5234.5 },
      },
      false,
    ),
    ['  client1 run: 2026-12-02 14:05:10:123 10 sec: 52345 operations; 5234.5 current ops/sec;'],
  );
  assert.deepEqual(terminalLines({ type: 'log', level: 'debug', message: "ssh cb1 'couchbase-cli ...'" }, false), []);
  assert.deepEqual(terminalLines({ type: 'log', level: 'info', message: 'one\ntwo' }, false), ['one', 'two']);
});

test('the start of a run names the run, its cell count, what a resume skips and the results folder', () => {
  assert.deepEqual(
    terminalLines(
      { type: 'run-started', runDir: '/r/lab-1', manifest: manifest(40), resumed: true, alreadyDone: 12 },
      false,
    ),
    [
      'Resuming run lab-20261202-1405: 40 cells, 12 already done',
      'Results folder: /r/lab-1',
      'Running pre-flight checks on every host…',
    ],
  );
  assert.equal(
    terminalLines(
      { type: 'run-started', runDir: '/r/lab-1', manifest: manifest(2), resumed: false, alreadyDone: 0 },
      false,
    )[0],
    'Starting run lab-20261202-1405: 2 cells',
  );
});

test('the end of a run says what happened and how to go on', () => {
  const outcome = { runDir: '/r/lab-1', completed: 12, failed: 0, total: 40, cancelled: true };
  assert.deepEqual(terminalLines({ type: 'run-finished', outcome }, false), [
    'Run cancelled: 12 of 40 cells done, 0 failed. Resume it with "Resume interrupted run".',
  ]);
  const stopped = terminalLines(
    {
      type: 'run-finished',
      outcome: {
        ...outcome,
        cancelled: false,
        error: {
          code: 'ssh-unreachable',
          host: 'cb1',
          step: 'connect',
          message: 'No route to host.',
          action: 'Check the network.',
        },
      },
    },
    false,
  );
  assert.deepEqual(stopped, [
    'Run stopped: 12 of 40 cells done, 0 failed.',
    '[ssh-unreachable] cb1: connect: No route to host. Next: Check the network.',
  ]);
  const coloured = terminalLines(
    { type: 'run-finished', outcome: { ...outcome, cancelled: false, completed: 40 } },
    true,
  );
  assert.equal(coloured[0], '\x1b[32mRun finished: 40 of 40 cells done, 0 failed.\x1b[0m');
});

test('terminal text uses CRLF line ends, also inside multi-line lines', () => {
  assert.equal(toTerminalText(['a', 'b\nc']), 'a\r\nb\r\nc\r\n');
});

test('secrets are replaced everywhere they appear; an empty secret changes nothing', () => {
  assert.equal(redact('PASSWORD=s3cr3t and again s3cr3t', ['s3cr3t']), 'PASSWORD=*** and again ***');
  assert.equal(redact('nothing here', ['']), 'nothing here');
});
