// Status lines as a time series, the throughput after the warm-up, and the warm-up-too-short rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noteMarkCodes } from '../../../engine/src/evidence/marks';
import { parseStatusLines } from '../../../engine/src/ycsb/ycsbStatus';
import {
  stillRising,
  throughputAfter,
  timeSeriesEvidence,
  type StatusPoint,
} from '../../../engine/src/ycsb/ycsbTimeSeries';

// YCSB 0.17.0 status lines (hdrhistogram summaries) as the stand-in and a real client print them
const log = [
  '2026-12-03 07:00:00:000 0 sec: 0 operations; est completion in 106751991167300 days 15 hours ',
  '2026-12-03 07:00:01:000 1 sec: 800 operations; 800 current ops/sec; est completion in 10 seconds [READ: Count=400, Max=9000, Min=90, Avg=610.5, 90=900, 99=2000, 99.9=8000, 99.99=9000] [UPDATE: Count=400, Max=12000, Min=120, Avg=820.25, 90=1100, 99=3000, 99.9=11000, 99.99=12000] ',
  '2026-12-03 07:00:02:000 2 sec: 2000 operations; 1200 current ops/sec; est completion in 8 seconds [READ: Count=600, Max=3000, Min=80, Avg=400, 90=600, 99=1000, 99.9=3000, 99.99=3000] [UPDATE: Count=600, Max=4000, Min=100, Avg=500, 90=700, 99=1500, 99.9=4000, 99.99=4000] ',
  '2026-12-03 07:00:03:000 3 sec: 3200 operations; 1200 current ops/sec; est completion in 7 seconds [READ: Count=600, Max=3000, Min=80, Avg=401, 90=600, 99=1000, 99.9=3000, 99.99=3000] [UPDATE: Count=600, Max=4000, Min=100, Avg=499, 90=700, 99=1500, 99.9=4000, 99.99=4000] ',
].join('\n');

test("status lines become points with the interval throughput and each operation's mean latency", () => {
  const { evidence } = timeSeriesEvidence({ c1: parseStatusLines(log) }, undefined);
  assert.deepEqual(evidence.status.c1[1], {
    tSec: 1,
    operations: 800,
    opsPerSec: 800,
    latencyUs: { READ: 610.5, UPDATE: 820.25 },
  });
  assert.deepEqual(evidence.status.c1[0], { tSec: 0, operations: 0, opsPerSec: 0, latencyUs: {} });
  assert.equal(evidence.warmupSec, undefined);
  assert.equal(evidence.throughputAfterWarmupOpsPerSec, undefined);
});

test('throughput after the warm-up: operations between the first status at or after it and the last, summed over clients', () => {
  const { evidence } = timeSeriesEvidence({ c1: parseStatusLines(log), c2: parseStatusLines(log) }, 1);
  // (3200 - 800) / (3 - 1) = 1200 per client
  assert.equal(evidence.throughputAfterWarmupOpsPerSec, 2400);
  assert.equal(evidence.warmupSec, 1);
});

test('warm-up too short: the first quarter of the later intervals more than 10 % below the second half', () => {
  const series = (rates: number[]): StatusPoint[] => {
    let operations = 0;
    const points: StatusPoint[] = [{ tSec: 10, operations: 0, opsPerSec: 0, latencyUs: {} }];
    rates.forEach((rate, index) => {
      operations += rate;
      points.push({ tSec: 11 + index, operations, opsPerSec: rate, latencyUs: {} });
    });
    return points;
  };
  // the last interval is partial and left out of the rule
  assert.deepEqual(stillRising(series([700, 800, 950, 1000, 1000, 1000, 1000, 1000, 1]), 10), {
    first: 750,
    later: 1000,
  });
  assert.equal(stillRising(series([960, 1000, 990, 1010, 1000, 995, 1005, 1000, 1]), 10), undefined, 'a steady run');
  assert.deepEqual(
    stillRising(series([500, 1000, 1]), 10),
    { intervals: 2 },
    'too few intervals to say: said, not passed',
  );
  assert.equal(throughputAfter(series([100]), 50), undefined);
});

test('a client still warming up after warmupSec gets the warmup-too-short mark naming it', () => {
  const lines = (rates: number[]): string => {
    let operations = 0;
    return rates
      .map(
        (rate, index) =>
          `${index} sec: ${(operations += rate)} operations; ${rate} current ops/sec; [READ: Count=${rate}, Max=900, Min=90, Avg=300, 90=400, 99=800, 99.9=900, 99.99=900] `,
      )
      .join('\n');
  };
  const { marks } = timeSeriesEvidence(
    {
      steady: parseStatusLines(lines([0, 1000, 1000, 990, 1010, 1000, 1000, 1000, 1000, 5])),
      slow: parseStatusLines(lines([0, 100, 200, 500, 700, 900, 1000, 1000, 1000, 1000, 5])),
    },
    2,
  );
  assert.deepEqual(
    marks.map((mark) => [mark.code, mark.host]),
    [['warmup-too-short', 'slow']],
  );
  assert.match(marks[0].message, /still rising after the 2 s warm-up/);
});

test('a client with fewer than 4 whole status intervals after the warm-up gets the warmup-unverified note, never a silent pass', () => {
  const lines = (rates: number[]): string => {
    let operations = 0;
    return rates
      .map((rate, index) => `${index} sec: ${(operations += rate)} operations; ${rate} current ops/sec; `)
      .join('\n');
  };
  const { marks } = timeSeriesEvidence(
    {
      short: parseStatusLines(lines([0, 1000, 1000, 1000, 1000, 5])),
      long: parseStatusLines(lines([0, 1000, 1000, 990, 1010, 1000, 1000, 1000, 1000, 5])),
    },
    2,
  );
  assert.deepEqual(
    marks.map((mark) => [mark.code, mark.host]),
    [['warmup-unverified', 'short']],
  );
  assert.equal(
    marks[0].message,
    'short: only 2 whole status intervals after the 2 s warm-up (4 needed): whether throughput was still rising was not checked (lengthen the run or shorten status.interval).',
  );
  assert.ok(noteMarkCodes.has('warmup-unverified'), 'a note: the cell stays in the medians');
});
