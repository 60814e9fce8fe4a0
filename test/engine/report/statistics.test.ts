// The Onload-vs-kernel difference with its interval, on data whose answer is known by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareSamples, formatDifference, relativeHalfWidth, summarise } from '../../../engine/src/report/statistics';

const close = (actual: number | undefined, expected: number, tolerance = 1e-6) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < tolerance, `${actual} is not ${expected}`);

test('a difference with a known interval: Welch degrees of freedom, Fieller bounds of the ratio of means', () => {
  // kernel 100 ± s=2 (n=3), Onload 120 ± s=2 (n=3): df = 4 exactly, t(0.975, 4) = 2.7764451051977987.
  // Fieller with g = t² (4/3) / 100²: ratio bounds (1.2 ± (t/100)·sqrt(4/3 + 1.44·4/3 − g·4/3)) / (1 − g).
  const t = 2.7764451051977987;
  const v = 4 / 3;
  const g = (t * t * v) / 10000;
  const root = (t / 100) * Math.sqrt(v + 1.44 * v - g * v);
  const low = ((1.2 - root) / (1 - g) - 1) * 100;
  const high = ((1.2 + root) / (1 - g) - 1) * 100;
  const difference = compareSamples([100, 102, 98], [120, 122, 118]);
  close(difference.percent, 20);
  close(difference.df, 4);
  close(difference.interval?.low, low);
  close(difference.interval?.high, high);
  close(low, 15.1115, 1e-3);
  close(high, 25.1355, 1e-3);
  assert.equal(difference.significant, true);
  // Welch t = 20 / sqrt(8/3) = 12.247 on 4 df: two-sided p = 2.55e-4.
  close(difference.pValue, 2.5523e-4, 2e-6);
  assert.equal(formatDifference(difference), '+20.0 % (±5.0)');
});

test('noise is not significant, and says so', () => {
  // The simulated lab's ±40 % swings: the means differ by 10 % but the interval spans 0.
  const difference = compareSamples([100, 140, 60], [150, 90, 90]);
  close(difference.percent, 10);
  assert.equal(difference.significant, false);
  assert.ok(difference.interval!.low < 0 && difference.interval!.high > 0);
  assert.ok(difference.pValue! > 0.5);
  assert.match(formatDifference(difference), /^\+10\.0 % \(±\d+\.\d, not significant\)$/);
});

test('one repetition: no interval can be given and nothing is significant', () => {
  const difference = compareSamples([100], [120, 121]);
  close(difference.percent, 20.5);
  assert.equal(difference.interval, undefined);
  assert.equal(difference.noInterval, 'single-repetition');
  assert.equal(difference.significant, false);
  assert.equal(formatDifference(difference), '+20.5 % (1 repetition: no interval)');
  assert.equal(compareSamples([], [1]).noInterval, 'no-data');
  assert.equal(formatDifference(compareSamples([], [1])), '-');
});

test('a lower-is-better metric: a significant drop has an interval below zero', () => {
  const difference = compareSamples([500, 510, 490, 505], [400, 405, 395, 410]);
  assert.equal(difference.significant, true);
  assert.ok(difference.interval!.high < 0);
  close(difference.percent, (402.5 / 501.25 - 1) * 100);
});

test('identical repetitions on both sides have no spread: no interval, no verdict', () => {
  const difference = compareSamples([100, 100], [110, 110]);
  assert.equal(difference.interval, undefined);
  assert.equal(difference.noInterval, 'no-spread');
  assert.equal(difference.significant, false);
  assert.equal(formatDifference(difference), '+10.0 % (no spread: no interval)');
  // One side varying is enough to build an interval.
  assert.ok(compareSamples([100, 100], [110, 112]).interval);
});

test('a baseline whose mean is not distinguishable from zero gives an unbounded ratio: no interval', () => {
  const difference = compareSamples([1, -1, 0.5], [10, 11, 12]);
  assert.equal(difference.noInterval, 'unbounded');
  assert.equal(difference.significant, false);
});

test('the relative half-width of one arm (the run-until-stable criterion) and the summary', () => {
  // mean 100, sd 2, n 3: t(0.975, 2) = 4.302652729749464; half-width = t·2/√3 = 4.968 % of the mean.
  close(relativeHalfWidth([100, 102, 98]), (4.302652729749464 * 2) / Math.sqrt(3));
  assert.equal(relativeHalfWidth([100]), undefined);
  assert.deepEqual(summarise([100, 102, 98]), { n: 3, mean: 100, sd: 2 });
});
