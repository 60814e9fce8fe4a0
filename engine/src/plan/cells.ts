// The sweep's cells: the cross product of interfaces, stacks, cluster sizes, threads,
// further axes and repetitions, in the order they run, each with a deterministic id that resume
// relies on. A plan without clusterSizes has keys and ids without a size, as before.
import type { CellKey } from '../model';
import type { GeometricRange, LinearRange, ResolvedPlan, SweepValues } from './planSchema';

/** Expands a list or a range into its values; ranges include `to` and tolerate float steps. */
export function expandValues(values: SweepValues | number[]): (string | number)[] {
  if (Array.isArray(values)) return [...values];
  const limit = 10_000; // a range this long is a typo, not a plan
  const out: number[] = [];
  if ('factor' in values) {
    const range = values as GeometricRange;
    if (!(range.factor > 1) || !(range.from > 0)) return out;
    for (let value = range.from; value <= range.to * (1 + 1e-9) && out.length < limit; value *= range.factor)
      out.push(tidy(value));
  } else {
    const range = values as LinearRange;
    const step = range.step ?? 1;
    if (!(step > 0)) return out;
    for (let i = 0; range.from + i * step <= range.to + step * 1e-9 && out.length < limit; i++)
      out.push(tidy(range.from + i * step));
  }
  return out;
}

/** Rounds away float noise (0.1 + 0.2) without touching real fractions. */
function tidy(value: number): number {
  return Number.parseFloat(value.toPrecision(12));
}

/**
 * Every cell in run order: repetition, then stack (so the server restarts only when the stack
 * changes), then cluster size (a resize between sizes, with no bucket), then interface, then
 * further axes, then threads (the innermost, as in the cookbook).
 */
export function expandCells(plan: ResolvedPlan): CellKey[] {
  const threads = expandValues(plan.threads).map(Number);
  const axisNames = Object.keys(plan.axes);
  let axisCombos: Record<string, string | number>[] = [{}];
  for (const name of axisNames) {
    const values = expandValues(plan.axes[name]);
    axisCombos = axisCombos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })));
  }
  const cells: CellKey[] = [];
  for (let repetition = 1; repetition <= plan.repetitions; repetition++) {
    for (const stack of plan.stacks) {
      for (const size of plan.clusterSizes ?? [undefined]) {
        for (const [label, address] of Object.entries(plan.interfaces)) {
          for (const axes of axisCombos) {
            for (const count of threads) {
              cells.push({
                interface: label,
                address,
                stack: stack.name,
                ...(size !== undefined ? { clusterSize: size } : {}),
                threads: count,
                axes,
                repetition,
              });
            }
          }
        }
      }
    }
  }
  return cells;
}

/**
 * A stable id from the key: `25G~redis-balanced~t10~fieldlength=1024~r1`, with the cluster size
 * after the stack when the plan sweeps sizes (`25G~kernel~n3~t10~r1`). Safe as a file name; the
 * address is left out so an interface keeps its results if its address is edited.
 */
export function cellId(key: CellKey): string {
  const axes = Object.keys(key.axes)
    .sort()
    .map((name) => `${encodePart(name)}=${encodePart(String(key.axes[name]))}`);
  return [
    encodePart(key.interface),
    encodePart(key.stack),
    ...(key.clusterSize !== undefined ? [`n${key.clusterSize}`] : []),
    `t${key.threads}`,
    ...axes,
    `r${key.repetition}`,
  ].join('~');
}

function encodePart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
