// The order cells run in and how many repetitions a point gets. Pure.
//
// Order (plan `order`, `seed`):
// - grouped: repetition by repetition, each stack's cells together (the server restarts once per
//   stack and repetition; drift during a repetition lands on one arm);
// - interleaved: point by point (interface × axes × threads), every arm of a point one after the
//   other, the arms' order reversed at every other point (A B | B A | A B ...), so drift hits the
//   arms alike and consecutive points share a stack: about one server restart per point;
// - randomized: the (repetition, point) blocks in a random order and the arms in a random order
//   inside each block, from a seeded generator: the same seed gives the same order.
// Run until stable (plan `repetitions: { min, max, targetCi }`): the run starts with `min`
// repetitions of every point; when they are done, a point gets one more repetition of every arm
// while some profile's throughput difference from the kernel (statistics.ts: Fieller's 95 %
// interval) has a half-width of targetCi percent or more (or no interval yet), until `max`.
// Extra cells are decided in rounds from the results alone, so a resumed run decides the same.
// Cluster sizes: inside a repetition, all cells of one size run together (orderBySize).
import { cellId } from '../plan/cells';
import type { CellKey, CellResult } from '../model';
import type { ResolvedPlan } from '../plan/planSchema';
import { compareSamples, relativeHalfWidth } from '../report/statistics';

export type OrderMode = 'grouped' | 'interleaved' | 'randomized';

export interface RepetitionPolicy {
  min: number;
  max: number;
  /** Wanted 95 % CI half-width of the throughput difference, in percent; absent: a fixed count. */
  targetCi?: number;
}

/** A point: the cell id without the stack and the repetition. */
export function pointId(key: CellKey): string {
  return cellId({ ...key, stack: '', repetition: 0 });
}

/** mulberry32: a small seeded generator (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Orders cells (given in expandCells order: repetition, stack, interface, axes, threads) by
 * `mode`. `stacks` is the plan's stack order; `firstStack` (the stack the server runs on now)
 * goes first in grouped and interleaved order, which saves a restart.
 */
export function orderCells(
  keys: CellKey[],
  stacks: string[],
  mode: OrderMode,
  seed: number,
  firstStack?: string,
): CellKey[] {
  if (keys.some((key) => key.clusterSize !== undefined)) return orderBySize(keys, stacks, mode, seed, firstStack);
  return orderWithin(keys, stacks, mode, seed, firstStack);
}

/**
 * Cluster sizes: a size is formed once per repetition, with no bucket (lab README K10),
 * so each repetition runs its sizes one after the other, every cell of a size together; inside a
 * size the cells keep the plan's order mode. The sizes come in the plan's order (randomized: a
 * seeded shuffle per repetition), and each size starts on the stack the previous one ended on,
 * which saves a restart per size. A plan listing its sizes as 3, 1, 2 gets the same cells.
 */
function orderBySize(keys: CellKey[], stacks: string[], mode: OrderMode, seed: number, firstStack?: string): CellKey[] {
  const groups = new Map<string, CellKey[]>();
  for (const key of [...keys].sort((a, b) => a.repetition - b.repetition)) {
    const id = `${key.repetition}|${key.clusterSize ?? ''}`;
    groups.set(id, [...(groups.get(id) ?? []), key]);
  }
  const byRepetition = new Map<number, CellKey[][]>();
  for (const group of groups.values())
    byRepetition.set(group[0].repetition, [...(byRepetition.get(group[0].repetition) ?? []), group]);
  const random = seededRandom(seed ^ 0x5bd1e995);
  const out: CellKey[] = [];
  let stack = firstStack;
  for (const sizes of byRepetition.values()) {
    for (const group of mode === 'randomized' ? shuffle(sizes, random) : sizes) {
      const ordered = orderWithin(group, stacks, mode, seed + (group[0].clusterSize ?? 0), stack);
      out.push(...ordered);
      stack = ordered.at(-1)?.stack ?? stack;
    }
  }
  return out;
}

function orderWithin(keys: CellKey[], stacks: string[], mode: OrderMode, seed: number, firstStack?: string): CellKey[] {
  const shift = firstStack !== undefined && stacks.includes(firstStack) ? stacks.indexOf(firstStack) : 0;
  const stackIndex = (key: CellKey): number => (stacks.indexOf(key.stack) - shift + stacks.length) % stacks.length;
  if (mode === 'grouped') {
    return keys
      .map((key, index) => ({ key, index }))
      .sort((a, b) => a.key.repetition - b.key.repetition || stackIndex(a.key) - stackIndex(b.key) || a.index - b.index)
      .map((entry) => entry.key);
  }
  // blocks of one repetition of one point, in first-seen order
  const blocks = new Map<string, CellKey[]>();
  const sorted = [...keys].sort((a, b) => a.repetition - b.repetition);
  for (const key of sorted) {
    const id = `${key.repetition}|${pointId(key)}`;
    const block = blocks.get(id) ?? [];
    block.push(key);
    blocks.set(id, block);
  }
  const ordered = [...blocks.values()].map((block) => block.sort((a, b) => stackIndex(a) - stackIndex(b)));
  if (mode === 'interleaved')
    return ordered.flatMap((block, index) => (index % 2 === 0 ? block : [...block].reverse()));
  const random = seededRandom(seed);
  return shuffle(ordered, random).flatMap((block) => shuffle(block, random));
}

/** How many times the server starts for this sequence (from an unknown stack). */
export function serverRestarts(keys: CellKey[], restartServer: ResolvedPlan['restartServer']): number {
  if (restartServer === 'every-cell') return keys.length;
  let restarts = 0;
  let current: string | undefined;
  for (const key of keys) {
    if (key.stack !== current) restarts += 1;
    current = key.stack;
  }
  return restarts;
}

/** How many times the cluster is formed for this sequence: each change of size, the first included; 0 without sizes. */
export function clusterResizes(keys: CellKey[]): number {
  let resizes = 0;
  let current: number | undefined;
  for (const key of keys) {
    if (key.clusterSize !== undefined && key.clusterSize !== current) resizes += 1;
    current = key.clusterSize;
  }
  return resizes;
}

/** The cells of repetitions `from`..`to` of `points` (keys of repetition 1), every stack, ordered. */
function repetitionCells(
  points: CellKey[],
  from: number,
  to: number,
  stacks: string[],
  mode: OrderMode,
  seed: number,
): CellKey[] {
  const keys: CellKey[] = [];
  for (let repetition = from; repetition <= to; repetition++)
    for (const stack of stacks) for (const point of points) keys.push({ ...point, stack, repetition });
  return orderCells(keys, stacks, mode, seed);
}

/** The points of a plan (repetition 1, first stack), in expandCells order. */
export function planPoints(allCells: CellKey[]): CellKey[] {
  const seen = new Map<string, CellKey>();
  for (const key of allCells) if (!seen.has(pointId(key))) seen.set(pointId(key), { ...key, repetition: 1 });
  return [...seen.values()];
}

/** What a plan will run: cells and server restarts, at least (min repetitions) and at most (max). */
export interface PlanEstimate {
  cells: number;
  maxCells: number;
  restarts: number;
  maxRestarts: number;
  /** The restarts of the same cells in grouped order, to show what interleaving costs. */
  groupedRestarts: number;
  /** Cluster resizes of the first cells; absent without cluster sizes. */
  resizes?: number;
}

export function planEstimate(
  points: CellKey[],
  stacks: string[],
  policy: RepetitionPolicy,
  mode: OrderMode,
  seed: number,
  restartServer: ResolvedPlan['restartServer'],
): PlanEstimate {
  const first = repetitionCells(points, 1, policy.min, stacks, mode, seed);
  const all =
    policy.max > policy.min
      ? [...first, ...repetitionCells(points, policy.min + 1, policy.max, stacks, mode, seed)]
      : first;
  return {
    cells: first.length,
    maxCells: all.length,
    restarts: serverRestarts(first, restartServer),
    maxRestarts: serverRestarts(all, restartServer),
    groupedRestarts: serverRestarts(repetitionCells(points, 1, policy.min, stacks, 'grouped', seed), restartServer),
    ...(points.some((point) => point.clusterSize !== undefined) ? { resizes: clusterResizes(first) } : {}),
  };
}

/** `12 cells (up to 30 until stable), 4 server restarts (grouped: 2)`. */
export function formatEstimate(estimate: PlanEstimate, mode: OrderMode): string {
  const cells =
    estimate.maxCells > estimate.cells
      ? `${estimate.cells} cells (up to ${estimate.maxCells} until stable)`
      : `${estimate.cells} cells`;
  const restarts =
    estimate.maxRestarts > estimate.restarts
      ? `${estimate.restarts} server restarts (up to ${estimate.maxRestarts})`
      : `${estimate.restarts} server restarts`;
  const extra =
    mode !== 'grouped' && estimate.restarts !== estimate.groupedRestarts
      ? ` (${mode}; grouped would need ${estimate.groupedRestarts}: ${estimate.restarts - estimate.groupedRestarts} more)`
      : '';
  const resizes =
    estimate.resizes !== undefined ? `, ${estimate.resizes} cluster resize${estimate.resizes === 1 ? '' : 's'}` : '';
  return `${cells}, ${restarts}${extra}${resizes}`;
}

/** The first cells of a run: `min` repetitions of every point, in the plan's order. */
export function initialCells(
  allCells: CellKey[],
  stacks: string[],
  policy: RepetitionPolicy,
  mode: OrderMode,
  seed: number,
): CellKey[] {
  return repetitionCells(planPoints(allCells), 1, policy.min, stacks, mode, seed);
}

/** Whether a point's throughput differences are tight enough; false when they cannot be computed yet. */
export function pointIsStable(throughputByStack: Map<string, number[]>, stacks: string[], targetCi: number): boolean {
  const baseline = stacks.includes('kernel') ? (throughputByStack.get('kernel') ?? []) : undefined;
  const others = stacks.filter((stack) => stack !== 'kernel');
  if (baseline === undefined || others.length === 0) {
    // no kernel arm, or only the kernel: each arm's own interval
    return stacks.every((stack) => {
      const width = relativeHalfWidth(throughputByStack.get(stack) ?? []);
      return width !== undefined && width < targetCi;
    });
  }
  return others.every((stack) => {
    const interval = compareSamples(baseline, throughputByStack.get(stack) ?? []).interval;
    return interval !== undefined && interval.halfWidth < targetCi;
  });
}

/**
 * The next round of extra cells: for every point whose planned cells are all finished, that is not
 * stable and has fewer than `max` repetitions, one more repetition of every stack. Empty when
 * nothing is to add (or the policy is a fixed count).
 */
export function nextRepetitions(
  planned: CellKey[],
  results: Map<string, CellResult>,
  stacks: string[],
  policy: RepetitionPolicy,
  mode: OrderMode,
  seed: number,
  currentStack?: string,
): CellKey[] {
  if (policy.targetCi === undefined || policy.max <= policy.min) return [];
  const byPoint = new Map<string, CellKey[]>();
  for (const key of planned) {
    const id = pointId(key);
    byPoint.set(id, [...(byPoint.get(id) ?? []), key]);
  }
  const add: CellKey[] = [];
  let round = 0;
  for (const keys of byPoint.values()) {
    if (!keys.every((key) => results.has(cellId(key)))) continue;
    const repetitions = Math.max(...keys.map((key) => key.repetition));
    if (repetitions >= policy.max) continue;
    const values = new Map<string, number[]>();
    for (const key of keys) {
      const result = results.get(cellId(key));
      if (result?.status === 'ok' && result.run)
        values.set(key.stack, [...(values.get(key.stack) ?? []), result.run.throughputOpsPerSec]);
    }
    if (pointIsStable(values, stacks, policy.targetCi)) continue;
    round = Math.max(round, repetitions + 1);
    for (const stack of stacks) add.push({ ...keys[0], stack, repetition: repetitions + 1 });
  }
  return orderCells(add, stacks, mode, seed + round, currentStack);
}

/**
 * How many cells run until stable may still add: for each point not yet at `max` and not already
 * found stable, the missing repetitions of every stack. For the "up to" time estimate.
 */
export function possibleExtraCells(
  planned: CellKey[],
  results: Map<string, CellResult>,
  stacks: string[],
  policy: RepetitionPolicy,
): number {
  if (policy.targetCi === undefined || policy.max <= policy.min) return 0;
  const byPoint = new Map<string, CellKey[]>();
  for (const key of planned) byPoint.set(pointId(key), [...(byPoint.get(pointId(key)) ?? []), key]);
  let extra = 0;
  for (const keys of byPoint.values()) {
    const repetitions = Math.max(...keys.map((key) => key.repetition));
    if (repetitions >= policy.max) continue;
    if (keys.every((key) => results.has(cellId(key)))) {
      const values = new Map<string, number[]>();
      for (const key of keys) {
        const result = results.get(cellId(key));
        if (result?.status === 'ok' && result.run)
          values.set(key.stack, [...(values.get(key.stack) ?? []), result.run.throughputOpsPerSec]);
      }
      if (pointIsStable(values, stacks, policy.targetCi)) continue;
    }
    extra += (policy.max - repetitions) * stacks.length;
  }
  return extra;
}
