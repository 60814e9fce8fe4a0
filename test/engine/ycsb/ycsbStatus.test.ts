// YCSB `-s` status lines: the real YCSB 0.17.0's (captured in the lab, lab_*), YCSB master's, and the
// shapes listed in shared/ycsb/OUTPUT.md §3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStatusLine, parseStatusLines, StatusLineReader } from '../../../engine/src/ycsb/ycsbStatus';

const fixture = (name: string) => readFileSync(join('test', 'fixtures', 'ycsb-output', name), 'utf8');

test('hdrhistogram status lines of a real stderr: progress, interval figures, FAILED intervals', () => {
  const statuses = parseStatusLines(
    fixture('lab_ycsb-0.17.0_workloadb_run_hdrhistogram-fileoutput_failures.stderr.txt'),
  );
  assert.ok(statuses.length >= 2);
  assert.deepEqual(
    { ...statuses[0], timestamp: '' },
    { elapsedSec: 0, operations: 0, currentOpsPerSec: 0, estimatedRemainingSec: 0, timestamp: '', perOperation: {} },
  );
  assert.equal(statuses.at(-1)?.operations, 600);
  for (const status of statuses.slice(1)) {
    for (const [name, figures] of Object.entries(status.perOperation)) {
      if (figures.count === 0) continue;
      assert.deepEqual(Object.keys(figures.percentilesUs), ['90', '99', '99.9', '99.99'], name);
      assert.ok(
        (figures.minUs ?? 0) <= (figures.averageUs ?? 0) && (figures.averageUs ?? 0) <= (figures.maxUs ?? 0),
        name,
      );
    }
  }
  assert.ok(statuses.some((status) => (status.perOperation['READ-FAILED']?.count ?? 0) > 0));
});

test('two-in-one summaries (hdrhistogram+histogram) are read into one status', () => {
  const statuses = parseStatusLines(
    fixture('lab_ycsb-0.17.0_workloade_run_hdrhistogram-plus-histogram_scan.stderr.txt'),
  );
  const busy = statuses.find((status) => 'HdrSCAN' in status.perOperation);
  assert.ok(busy, JSON.stringify(statuses.at(-1)));
  assert.ok('BucketSCAN' in busy.perOperation);
  assert.ok((busy.perOperation.HdrSCAN.percentilesUs['99.99'] ?? 0) > 0);
  assert.ok((busy.perOperation.BucketSCAN.averageUs ?? 0) > 0);
});

test('histogram/timeseries summaries, Intended- names, 50th percentile of YCSB master', () => {
  const histogram = parseStatusLines(
    fixture('lab_ycsb-0.17.0_workloada_run_histogram-verbose_interval-both_target.stderr.txt'),
  );
  assert.ok(histogram.length >= 2);
  assert.ok(histogram.some((status) => 'Intended-READ' in status.perOperation));
  assert.ok(
    histogram.some((status) => (status.currentOpsPerSec ?? 0) > 0 && (status.currentOpsPerSec ?? 0) <= 110),
    '-target 100',
  );
  assert.equal(histogram.at(-1)?.estimatedRemainingSec, undefined, 'nothing left to do: no estimate');
  const master = parseStatusLines(fixture('constructed_ycsb-master-2026_workloade_run_hdrhistogram-p50_scan.txt'));
  assert.deepEqual(master[1].perOperation.INSERT.percentilesUs, {
    '50': 713,
    '90': 1067,
    '99': 1680,
    '99.9': 4679,
    '99.99': 5407,
  });
});

test('locale and edge values: label, decimal commas, ∞, U+FFFD, stalled estimate, remaining time units', () => {
  const status = parseStatusLine(
    'run-a 2024-08-28 21:45:12:568 10 sec: 0 operations; est completion in 106751991167300 days 15 hours ',
  );
  assert.deepEqual(status, {
    elapsedSec: 10,
    operations: 0,
    currentOpsPerSec: 0,
    timestamp: '2024-08-28 21:45:12:568',
    label: 'run-a',
    perOperation: {},
  });

  const german = parseStatusLine(
    '2026-12-02 11:43:44:326 10 sec: 230734 operations; 23073,4 current ops/sec; est completion in 1 hour 2 minutes [READ: Count=5, Max=900, Min=100, Avg=577,18, 90=806, 99=900, 99.9=900, 99.99=900] [X: Count=0, Max=0, Min=9223372036854775807, Avg=\ufffd, 90=0, 99=0, 99.9=0, 99.99=0] ',
  );
  assert.equal(german?.currentOpsPerSec, 23073.4);
  assert.equal(german?.estimatedRemainingSec, 3720);
  assert.equal(german?.perOperation.READ.averageUs, 577.18);
  assert.deepEqual(german?.perOperation.X, { count: 0, percentilesUs: {} });

  const infinite = parseStatusLine(
    '2026-12-02 11:43:44:326 0 sec: 16 operations; ∞ current ops/sec; est completion in 5 second [READ: Count=16, Max=5, Min=1, Avg=2, 90=3, 99=5, 99.9=5, 99.99=5] ',
  );
  assert.equal(infinite?.currentOpsPerSec, 0);
  assert.equal(infinite?.estimatedRemainingSec, 5);
  assert.equal(parseStatusLine('0.1.4 label 10 sec: 5 operations; 0.5 current ops/sec; ')?.operations, 5);

  const raw = parseStatusLine(
    '2026-12-02 11:43:44:326 10 sec: 20 operations; 2 current ops/sec; READ count: 12, average latency(us): 612.50 UPDATE count: 8, average latency(us): 700,25 ',
  );
  assert.deepEqual(raw?.perOperation, {
    READ: { count: 12, averageUs: 612.5, percentilesUs: {} },
    UPDATE: { count: 8, averageUs: 700.25, percentilesUs: {} },
  });

  assert.equal(parseStatusLine('DBWrapper: report latency for each error is false'), undefined);
  assert.equal(parseStatusLine('[OVERALL], RunTime(ms), 10'), undefined);
});

test('streaming reader: chunks split anywhere, CRLF, a status is given as soon as its line is whole', () => {
  const text = fixture('lab_ycsb-0.17.0_workloade_run_hdrhistogram-plus-histogram_scan.stderr.txt').replace(
    /\n/g,
    '\r\n',
  );
  const whole = parseStatusLines(text);
  const reader = new StatusLineReader();
  const streamed = [];
  for (let at = 0; at < text.length; at += 7) streamed.push(...reader.push(text.slice(at, at + 7)));
  streamed.push(...reader.end());
  assert.deepEqual(streamed, whole);
  assert.ok(streamed.length >= 2);

  // A single-line status ending with YCSB's trailing space is complete at once (no wait for the next line).
  const live = new StatusLineReader();
  const got = live.push(
    '2026-12-02 11:43:44:326 10 sec: 230734 operations; 23073.4 current ops/sec; [READ: Count=1, Max=1, Min=1, Avg=1, 90=1, 99=1, 99.9=1, 99.99=1] \n',
  );
  assert.equal(got.length, 1);
  assert.equal(got[0].operations, 230734);
  assert.deepEqual(live.end(), []);
});
