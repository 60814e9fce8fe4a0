// Is an Onload-vs-kernel difference real? For one metric at one point (interface × threads ×
// axes), the repetitions of each arm are two independent samples. The difference is reported as
// the ratio of the arms' means in percent, with a 95 % confidence interval, and called significant
// only when that interval excludes 0 %. Pure.
//
// Method (Kalibera & Jones, "Rigorous Benchmarking in Reasonable Time", 2013, recommend a ratio
// interval rather than a difference of means):
// - significance: Welch's two-sample t-test (unequal variances), from @stdlib/stats-ttest2;
// - interval of the ratio of means: Fieller's theorem for independent samples at Welch's degrees of
//   freedom, with the t quantile from @stdlib/stats-base-dists-t-quantile. With the same quantile
//   and degrees of freedom the interval excludes a ratio of 1 exactly when Welch's test rejects,
//   so the interval and the verdict never disagree. Fieller's interval is not symmetric; `±` in the
//   tables is half its width, and both bounds are kept.
// - with fewer than two repetitions on either side there is no variance, so no interval can be
//   given and nothing is significant;
// - when every repetition of both arms is identical there is no spread to build an interval on
//   (real measurements always vary; a constant figure is rounded or made up): no interval either;
// - when the baseline's mean is not itself distinguishable from 0 (Fieller's g ≥ 1) the interval
//   is unbounded: reported as no interval.
// Each point is tested on its own at 95 %: among 20 points without any real difference about one
// will read as significant by chance. The report says how many comparisons it made.
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import ttest2 from '@stdlib/stats-ttest2';

export const confidenceLevel = 0.95;

/** Mean, standard deviation and count of one arm's repetitions. */
export interface SampleSummary {
  n: number;
  mean: number;
  /** Sample standard deviation (n - 1); 0 for a single value. */
  sd: number;
}

/** Why a difference carries no interval. */
export type NoIntervalReason = 'single-repetition' | 'no-spread' | 'unbounded' | 'no-data';

/** The candidate arm against the baseline arm, in percent of the baseline's mean. */
export interface Difference {
  baseline: SampleSummary;
  candidate: SampleSummary;
  /** (mean candidate / mean baseline - 1) × 100. */
  percent: number;
  /** The 95 % interval of `percent` (Fieller), when one can be given. */
  interval?: { low: number; high: number; halfWidth: number; level: number };
  /** Why there is no interval. */
  noInterval?: NoIntervalReason;
  /** Welch's two-sided p-value, when the test could be run. */
  pValue?: number;
  /** Welch–Satterthwaite degrees of freedom. */
  df?: number;
  /** The interval excludes 0 %; false when there is no interval. */
  significant: boolean;
}

export function summarise(values: readonly number[]): SampleSummary {
  const n = values.length;
  const mean = n === 0 ? NaN : values.reduce((sum, value) => sum + value, 0) / n;
  const variance = n < 2 ? 0 : values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  return { n, mean, sd: Math.sqrt(variance) };
}

/**
 * The 95 % (or `level`) confidence interval of one arm's mean, as a half-width in percent of the
 * mean (netperf's `-I` criterion); undefined with fewer than two values or a zero mean.
 */
export function relativeHalfWidth(values: readonly number[], level = confidenceLevel): number | undefined {
  const { n, mean, sd } = summarise(values.filter(Number.isFinite));
  if (n < 2 || mean === 0) return undefined;
  return ((tQuantile(1 - (1 - level) / 2, n - 1) * sd) / Math.sqrt(n) / Math.abs(mean)) * 100;
}

/** Compares the candidate arm's repetitions with the baseline arm's (e.g. Onload with the kernel). */
export function compareSamples(
  baselineValues: readonly number[],
  candidateValues: readonly number[],
  level = confidenceLevel,
): Difference {
  const baselineClean = baselineValues.filter(Number.isFinite);
  const candidateClean = candidateValues.filter(Number.isFinite);
  const baseline = summarise(baselineClean);
  const candidate = summarise(candidateClean);
  const difference: Difference = { baseline, candidate, percent: NaN, significant: false };
  if (baseline.n === 0 || candidate.n === 0 || baseline.mean === 0) {
    difference.noInterval = 'no-data';
    return difference;
  }
  const ratio = candidate.mean / baseline.mean;
  difference.percent = ((candidate.mean - baseline.mean) / baseline.mean) * 100;
  if (baseline.n < 2 || candidate.n < 2) {
    difference.noInterval = 'single-repetition';
    return difference;
  }
  const varianceCandidate = candidate.sd ** 2 / candidate.n;
  const varianceBaseline = baseline.sd ** 2 / baseline.n;
  if (varianceCandidate + varianceBaseline === 0) {
    // Identical repetitions on both sides: real measurements always vary, so this is a rounded or
    // fixed figure; without a measured spread no interval (and no verdict) can be given.
    difference.noInterval = 'no-spread';
    return difference;
  }
  const test = ttest2([...candidateClean], [...baselineClean], { alpha: 1 - level, variance: 'unequal' });
  difference.pValue = test.pValue;
  difference.df = test.df;
  const t = tQuantile(1 - (1 - level) / 2, test.df);
  const g = (t * t * varianceBaseline) / (baseline.mean * baseline.mean);
  if (g >= 1) {
    difference.noInterval = 'unbounded';
    return difference;
  }
  const root =
    (t / Math.abs(baseline.mean)) *
    Math.sqrt(varianceCandidate + ratio * ratio * varianceBaseline - g * varianceCandidate);
  const low = ((ratio - root) / (1 - g) - 1) * 100;
  const high = ((ratio + root) / (1 - g) - 1) * 100;
  difference.interval = { low, high, halfWidth: (high - low) / 2, level };
  difference.significant = low > 0 || high < 0;
  return difference;
}

/** `+20.6 % (±2.1)`, `+3.1 % (±4.0, not significant)`, `+20.6 % (1 repetition: no interval)`; never starred here. */
export function formatDifference(difference: Difference): string {
  if (!Number.isFinite(difference.percent)) return '-';
  const rounded = Math.round(difference.percent * 10) / 10;
  const head = `${rounded > 0 ? '+' : ''}${rounded.toFixed(1)} %`;
  if (difference.interval) {
    return `${head} (±${difference.interval.halfWidth.toFixed(1)}${difference.significant ? '' : ', not significant'})`;
  }
  if (difference.noInterval === 'single-repetition') {
    const n = Math.min(difference.baseline.n, difference.candidate.n);
    return `${head} (${n} repetition: no interval)`;
  }
  if (difference.noInterval === 'no-spread') return `${head} (no spread: no interval)`;
  return `${head} (no interval)`;
}
