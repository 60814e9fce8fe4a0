// Small timing helpers for the benchmarks. Figures only; no assertions (tests stay deterministic).
import { performance } from 'node:perf_hooks';

export interface Timing {
  medianMs: number;
  p99Ms: number;
  minMs: number;
  runs: number;
}

export function summarise(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { medianMs: at(0.5), p99Ms: at(0.99), minMs: sorted[0], runs: sorted.length };
}

/** Runs `work` `warmup` times unmeasured, then `runs` times measured. */
export async function time(runs: number, work: (i: number) => unknown, warmup = Math.min(3, runs)): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await work(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work(i);
    samples.push(performance.now() - start);
  }
  return summarise(samples);
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
