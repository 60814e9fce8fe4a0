// The difference of differences (engine/src/report/gainChange.ts): did a profile's gain over the
// kernel change between two runs, in percentage points with a 95 % interval?
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareGains } from '../../../engine/src/report/gainChange';

test('a gain that shrank from +20 % to +10 % is a change of −10 points, significant with tight repetitions', () => {
  const change = compareGains([100, 101, 99], [120, 121, 119], [100, 101, 99], [110, 111, 109])!;
  assert.equal(change.gainA.toFixed(1), '20.0');
  assert.equal(change.gainB.toFixed(1), '10.0');
  assert.equal(change.changePoints.toFixed(1), '-10.0');
  assert.ok(change.interval && change.interval.high < 0, JSON.stringify(change.interval));
  assert.equal(change.significant, true);
  // The interval is centred on the change and about ±3 points here (four arms of sd 1 around 100).
  assert.ok(change.interval.halfWidth > 1 && change.interval.halfWidth < 5, String(change.interval.halfWidth));
});

test('noisy arms: the same means are not significant; one repetition or no spread gives no interval', () => {
  const noisy = compareGains([80, 100, 120], [100, 120, 140], [80, 100, 120], [95, 110, 125])!;
  assert.equal(noisy.changePoints.toFixed(1), '-10.0');
  assert.equal(noisy.significant, false);
  assert.ok(noisy.interval!.low < 0 && noisy.interval!.high > 0);
  assert.equal(compareGains([100], [120], [100, 101], [110, 111])!.noInterval, 'single-repetition');
  assert.equal(compareGains([100, 100], [120, 120], [100, 100], [110, 110])!.noInterval, 'no-spread');
  assert.equal(compareGains([], [120], [100], [110]), undefined);
});
