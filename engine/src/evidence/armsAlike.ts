// Kernel and Onload arms must differ only in the network stack: same user, same limits (nofile,
// memlock), same cgroup (REAL-LAB H3). A cell is compared with the kernel arm of the same point
// (same interface, threads, axes and repetition) of this run. Pure.
import type { CellKey } from '../model';

/** What is compared, as recorded in `evidence.server.process`. */
export interface ArmFacts {
  user?: string;
  limits?: { nofile?: { soft: string; hard: string }; memlock?: { soft: string; hard: string } };
  cgroup?: string;
  start?: { mode?: string };
}

/** The point a cell measures, without its stack: cells of both arms share it. */
export function pointKey(key: CellKey): string {
  // with cluster sizes, a size's arms are compared with each other, never with another size's (other hosts)
  return JSON.stringify([
    key.interface,
    key.address,
    key.threads,
    key.axes,
    key.repetition,
    ...(key.clusterSize !== undefined ? [key.clusterSize] : []),
  ]);
}

/** What differs between an arm and the kernel arm, one phrase per difference; empty when alike. */
export function armDifferences(kernel: ArmFacts, other: ArmFacts): string[] {
  const out: string[] = [];
  const text = (value: { soft: string; hard: string } | undefined): string =>
    value ? `${value.soft}/${value.hard}` : '(unknown)';
  if (kernel.user !== undefined && other.user !== undefined && kernel.user !== other.user)
    out.push(`user ${other.user} (kernel arm: ${kernel.user})`);
  for (const limit of ['nofile', 'memlock'] as const) {
    const a = kernel.limits?.[limit];
    const b = other.limits?.[limit];
    if (a && b && (a.soft !== b.soft || a.hard !== b.hard)) out.push(`${limit} ${text(b)} (kernel arm: ${text(a)})`);
  }
  if (kernel.cgroup !== undefined && other.cgroup !== undefined && kernel.cgroup !== other.cgroup)
    out.push(`cgroup ${other.cgroup} (kernel arm: ${kernel.cgroup})`);
  if (kernel.start?.mode !== undefined && other.start?.mode !== undefined && kernel.start.mode !== other.start.mode)
    out.push(`started as ${other.start.mode} (kernel arm: ${kernel.start.mode})`);
  return out;
}
