// How a cell and a duration are written, wherever a reader meets them: the task terminal and the
// progress notification, the CLI's progress line, `report`, the HTML report and the results panel.
// One function each, so a cell reads the same everywhere (every axis it varies on, the cluster size
// included) and "12 min" means the same thing in the editor and the terminal. Pure; it imports only
// types, so the webview bundle may use it too.
import type { CellKey } from '../model';

/** `1 thread`, `10 threads`. */
export function threadsText(threads: number): string {
  return `${threads} thread${threads === 1 ? '' : 's'}`;
}

/** `1 node`, `3 nodes`. */
export function nodesText(nodes: number): string {
  return `${nodes} node${nodes === 1 ? '' : 's'}`;
}

type NamedKey = Pick<CellKey, 'interface' | 'stack' | 'threads'> & Partial<CellKey>;

/**
 * A point's name, every repetition of it: `25G · Onload-latency · 3 nodes · 10 threads · fieldlength=1024`, in the
 * plan's axis order (interface, stack, cluster size when the plan sweeps sizes, threads, YCSB properties).
 */
export function pointName(key: NamedKey): string {
  const parts = [key.interface, key.stack];
  if (key.clusterSize !== undefined) parts.push(nodesText(key.clusterSize));
  parts.push(threadsText(key.threads));
  for (const [axis, value] of Object.entries(key.axes ?? {})) parts.push(`${axis}=${value}`);
  return parts.join(' · ');
}

/** A cell's name: its point's, then `repetition 2`. */
export function cellName(key: NamedKey & Pick<CellKey, 'repetition'>): string {
  return `${pointName(key)} · repetition ${key.repetition}`;
}

/** `45 s`, `12 min`, `1 h 05 min`: coarse on purpose, since the durations shown are estimates and totals. */
export function formatDuration(ms: number): string {
  const seconds = Number.isFinite(ms) ? Math.max(0, Math.round(ms / 1000)) : 0;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
