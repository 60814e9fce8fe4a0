// How each cell's acceleration and interface were proven, or why not, in words a reader of the
// report can check: every claim names its source (`onload_stackdump lots`,
// `/proc/net/tcp`) and how memcached was found. The text report and the HTML report show these
// lines; pure, tolerant of older records (which lack the run-phase view).
import type { CellResult } from '../../model';

export interface CellProof {
  host: string;
  /** The verdict and what it rests on. */
  acceleration: string;
  /** The server addresses the run's KV connections used, per source, or why none is known. */
  interface: string;
  /** How memcached was found (`evidence.server[host].process.foundBy`), or that it was not. */
  memcached: string;
}

type Counts = Record<string, number>;

function addressesText(sources: Record<string, Counts> | undefined, all: Counts | undefined): string {
  const parts = Object.entries(sources ?? {})
    .filter(([, seen]) => Object.keys(seen ?? {}).length > 0)
    .map(([source, seen]) => `${Object.keys(seen).join(', ')} (${source})`);
  if (parts.length > 0) return parts.join('; ');
  if (all && Object.keys(all).length > 0) return `${Object.keys(all).join(', ')} (/proc/net/tcp)`;
  return 'no KV connection of the run was seen: the interface is not proven';
}

/** One proof per server host of a cell that ran. */
export function cellProofs(result: Pick<CellResult, 'key' | 'evidence'>): CellProof[] {
  const servers = (result.evidence?.server ?? {}) as Record<string, Record<string, unknown>>;
  const kernel = result.key.stack === 'kernel';
  return Object.entries(servers).map(([host, record]) => {
    const run = record.runAcceleration as { verdict?: string; evidence?: string } | undefined;
    const before = record.acceleration as { accelerated?: unknown; evidence?: string } | undefined;
    const listener = before
      ? `before the run, onload_stackdump: ${before.accelerated === true ? 'listener in a stack' : before.accelerated === false ? 'not in a stack' : 'unverified'} (${before.evidence ?? 'no evidence'})`
      : 'no acceleration check recorded';
    const acceleration = kernel
      ? `kernel arm; ${listener}`
      : run?.verdict !== undefined
        ? `${run.verdict} during the run: ${run.evidence ?? ''}; ${listener}`
        : `only ${listener}; the run's connections were not looked at in Onload's view (older record): not proven`;
    const traffic = record.traffic as { localAddresses?: Counts; sources?: Record<string, Counts> } | undefined;
    const process = record.process as { pid?: number; foundBy?: string; foundAfterMs?: number } | undefined;
    const memcached =
      process?.pid !== undefined
        ? `memcached ${process.pid} found by ${process.foundBy ?? 'its KV listener'}${process.foundAfterMs ? ` after ${Math.round(process.foundAfterMs / 1000)} s` : ''}`
        : 'memcached not found';
    return {
      host,
      acceleration,
      interface: traffic ? addressesText(traffic.sources, traffic.localAddresses) : 'not observed',
      memcached,
    };
  });
}
