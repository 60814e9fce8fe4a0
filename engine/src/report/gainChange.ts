// Did Onload's gain over the kernel change between two runs? At one point (interface × threads)
// each run gives a gain, the ratio of the profile's mean to the kernel's minus one; the question is
// the difference of the two gains (a difference of differences), in percentage points, with a 95 %
// interval. Pure.
//
// Method: each gain is a ratio of two independent means, R = P / K; its variance by the delta
// method is R² (s_P² / (n_P P²) + s_K² / (n_K K²)). The two runs are independent, so the variance of
// R_B − R_A is the sum of theirs, with Welch–Satterthwaite degrees of freedom over the four arms and
// the t quantile of statistics.ts. Significant when the interval excludes 0 points. As with any
// difference: fewer than two repetitions in an arm, or no spread at all, gives no interval.
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { confidenceLevel, summarise, type NoIntervalReason } from './statistics';

export interface GainChange {
  /** The profile's gain over the kernel in each run, in percent ((P / K − 1) × 100). */
  gainA: number;
  gainB: number;
  /** gainB − gainA, in percentage points. */
  changePoints: number;
  /** Its 95 % interval, in percentage points, when one can be given. */
  interval?: { low: number; high: number; halfWidth: number; level: number };
  noInterval?: NoIntervalReason;
  /** The interval excludes 0 points. */
  significant: boolean;
}

/** The change of the profile's gain over the kernel from run A to run B; undefined without a value in every arm. */
export function compareGains(
  kernelA: readonly number[],
  profileA: readonly number[],
  kernelB: readonly number[],
  profileB: readonly number[],
  level = confidenceLevel,
): GainChange | undefined {
  const arms = [kernelA, profileA, kernelB, profileB].map((values) => summarise(values.filter(Number.isFinite)));
  const [kA, pA, kB, pB] = arms;
  if (arms.some((arm) => arm.n === 0) || kA.mean === 0 || kB.mean === 0) return undefined;
  const ratioA = pA.mean / kA.mean;
  const ratioB = pB.mean / kB.mean;
  const change: GainChange = {
    gainA: (ratioA - 1) * 100,
    gainB: (ratioB - 1) * 100,
    changePoints: (ratioB - ratioA) * 100,
    significant: false,
  };
  if (arms.some((arm) => arm.n < 2)) {
    change.noInterval = 'single-repetition';
    return change;
  }
  // Each arm's share of the variance of R_B − R_A (delta method), in ratio units².
  const shares = [
    { ratio: ratioA, arm: pA },
    { ratio: ratioA, arm: kA },
    { ratio: ratioB, arm: pB },
    { ratio: ratioB, arm: kB },
  ].map(({ ratio, arm }) => ({ n: arm.n, v: (ratio * ratio * arm.sd * arm.sd) / (arm.n * arm.mean * arm.mean) }));
  const variance = shares.reduce((sum, share) => sum + share.v, 0);
  if (variance === 0) {
    change.noInterval = 'no-spread';
    return change;
  }
  const df = (variance * variance) / shares.reduce((sum, share) => sum + (share.v * share.v) / (share.n - 1), 0);
  const halfWidth = tQuantile(1 - (1 - level) / 2, df) * Math.sqrt(variance) * 100;
  change.interval = { low: change.changePoints - halfWidth, high: change.changePoints + halfWidth, halfWidth, level };
  change.significant = change.interval.low > 0 || change.interval.high < 0;
  return change;
}
