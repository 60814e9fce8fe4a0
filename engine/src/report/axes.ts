// Exists so every view can put any swept axis on x: YCSB threads (the default and the
// cookbook's), the cluster size (`CellKey.clusterSize`) or a YCSB property of the plan's `axes`
// (`fieldlength`...). One place says what an axis is called, reads a cell's value of it, and
// which axes a table holds within a group (every swept axis that is not on x). Pure.
import type { CellKey } from '../model';

/** `threads`, `clusterSize`, or the name of a YCSB property swept by the plan's `axes`. */
export type AxisId = string;

export interface AxisInfo {
  id: AxisId;
  /** The axis as a chart or a heading names it: `YCSB threads`, `cluster size (nodes)`, `fieldlength`. */
  title: string;
  /** The first column's heading in a text table: `threads`, `nodes`, `fieldlength`. */
  column: string;
}

export const threadsAxis = 'threads';
export const clusterSizeAxis = 'clusterSize';

export function axisInfo(id: AxisId): AxisInfo {
  if (id === threadsAxis) return { id, title: 'YCSB threads', column: 'threads' };
  if (id === clusterSizeAxis) return { id, title: 'cluster size (nodes)', column: 'nodes' };
  return { id, title: id, column: id };
}

/** The cell's value of an axis; undefined when the cell has none (a size on a run without sizes). */
export function axisValue(key: CellKey, axis: AxisId): number | string | undefined {
  if (axis === threadsAxis) return key.threads;
  if (axis === clusterSizeAxis) return key.clusterSize;
  return key.axes?.[axis];
}

/** A key moved to another value of the axis (for looking up a row's cells). */
export function withAxisValue(key: CellKey, axis: AxisId, value: number | string): CellKey {
  if (axis === threadsAxis) return { ...key, threads: Number(value) };
  if (axis === clusterSizeAxis) return { ...key, clusterSize: Number(value) };
  return { ...key, axes: { ...key.axes, [axis]: value } };
}

/** Numbers ascending, then text in code-point order (a property swept as strings). */
export function sortAxisValues<T extends number | string>(values: readonly T[]): T[] {
  return [...new Set(values)].sort((a, b) => {
    const [x, y] = [Number(a), Number(b)];
    if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  });
}

/** `10 threads`, `1 node`, `fieldlength=1024`: one value of an axis in words. */
export function axisPointText(axis: AxisId, value: number | string): string {
  if (axis === threadsAxis) return `${value} thread${Number(value) === 1 ? '' : 's'}`;
  if (axis === clusterSizeAxis) return `${value} node${Number(value) === 1 ? '' : 's'}`;
  return `${axis}=${value}`;
}

/**
 * The axes that vary over these cells, in a stable order: threads (always, the default x), the
 * cluster size, then the YCSB properties in the order met. Only an axis with 2+ values can be x.
 */
export function sweptAxes(keys: readonly CellKey[]): AxisInfo[] {
  const values = new Map<AxisId, Set<string>>();
  const add = (axis: AxisId, value: number | string | undefined) => {
    if (value === undefined) return;
    const set = values.get(axis) ?? new Set<string>();
    set.add(String(value));
    values.set(axis, set);
  };
  for (const key of keys) {
    add(threadsAxis, key.threads);
    add(clusterSizeAxis, key.clusterSize);
    for (const [name, value] of Object.entries(key.axes ?? {})) add(name, value);
  }
  return [...values.entries()]
    .filter(([axis, set]) => axis === threadsAxis || set.size > 1)
    .map(([axis]) => axisInfo(axis));
}

/** What a group holds fixed when `xAxis` is on x: the YCSB axes but x, and threads and the size when they are not x. */
export function heldAxes(
  key: CellKey,
  xAxis: AxisId,
): { axes: Record<string, string | number>; clusterSize?: number; threads?: number } {
  const axes: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(key.axes ?? {})) if (name !== xAxis) axes[name] = value;
  return {
    axes,
    ...(key.clusterSize !== undefined && xAxis !== clusterSizeAxis ? { clusterSize: key.clusterSize } : {}),
    ...(xAxis !== threadsAxis ? { threads: key.threads } : {}),
  };
}

/** A stable id of the group a key belongs to when `xAxis` is on x (interface, address, held axes). */
export function heldId(key: CellKey, xAxis: AxisId): string {
  const held = heldAxes(key, xAxis);
  const axes = Object.keys(held.axes)
    .sort()
    .map((name) => [name, held.axes[name]]);
  return JSON.stringify([key.interface, key.address ?? '', held.clusterSize ?? null, held.threads ?? null, axes]);
}

/** `25G (10.20.128.35), 3 nodes, fieldlength=1024`; with x not threads the held threads come after the size. */
export function groupTitle(key: CellKey, xAxis: AxisId = threadsAxis): string {
  const held = heldAxes(key, xAxis);
  const parts = [key.address ? `${key.interface} (${key.address})` : key.interface];
  if (held.clusterSize !== undefined) parts.push(axisPointText(clusterSizeAxis, held.clusterSize));
  if (held.threads !== undefined) parts.push(axisPointText(threadsAxis, held.threads));
  for (const [name, value] of Object.entries(held.axes)) parts.push(`${name}=${value}`);
  return parts.join(', ');
}
