// The marks of a cell: why its numbers may not mean what its key says. One place reads them so
// that the report, the CLI and the panel agree. Records written before marks existed carry only
// `accelerated: false`; that reads as a `not-accelerated` mark, unless a `partly-accelerated` mark
// already says which part was not (then "the numbers are really the kernel stack's" would be wrong).
import type { CellMark, CellResult } from '../model';

export function cellMarks(result: Pick<CellResult, 'marks' | 'accelerated'>): CellMark[] {
  const marks = [...(result.marks ?? [])];
  if (
    result.accelerated === false &&
    !marks.some((mark) => mark.code === 'not-accelerated' || mark.code === 'partly-accelerated')
  ) {
    marks.unshift({
      code: 'not-accelerated',
      message: "Couchbase was not verified to run on Onload: the numbers are really the kernel stack's.",
    });
  }
  return marks;
}

/**
 * Marks that say how a cell's CPU figures read, not that its numbers measure something else: shown
 * with the cell and in the legend, but they do not take the repetition out of the medians nor make
 * a comparison prove nothing. `busy-polling`: memcached spins (CPU per operation counts spinning);
 * both arms' latency and throughput still measure what the key says. `warmup-unverified`: too
 * short a run to check the warm-up; said, not held against the numbers. `client-io-spinning`: the
 * couchbase2 binding's IO loops spin by design (clientIoSpin.ts) and were left out of the
 * client-bound check; said, since their own saturation is not proven.
 */
export const noteMarkCodes: ReadonlySet<string> = new Set(['busy-polling', 'warmup-unverified', 'client-io-spinning']);

/** The marks that make a repetition doubtful (every mark but the notes). */
export function doubtingMarks(result: Pick<CellResult, 'marks' | 'accelerated'>): CellMark[] {
  return cellMarks(result).filter((mark) => !noteMarkCodes.has(mark.code));
}

/** Adds a mark once per code and host. */
export function addMark(result: Pick<CellResult, 'marks'>, mark: CellMark): void {
  const marks = (result.marks ??= []);
  if (!marks.some((existing) => existing.code === mark.code && existing.host === mark.host)) marks.push(mark);
}

/** Short words for a mark code, for badges and legends; an unknown code reads as itself. */
export function markLabel(code: string): string {
  const labels: Record<string, string> = {
    'not-accelerated': 'not accelerated',
    'accelerated-kernel': 'kernel arm accelerated',
    'acceleration-unverified': 'acceleration unverified',
    'memcached-unverified': 'memcached not found',
    'partly-accelerated': 'partly accelerated',
    'client-cpu-unverified': 'client CPU unverified',
    'server-cpu-unverified': 'server CPU unverified',
    'wrong-interface': 'wrong interface',
    'arms-differ': 'arms differ',
    'environment-differs': 'environment differs',
    'client-bound': 'client-bound',
    'warmup-too-short': 'warm-up too short',
    'warmup-unverified': 'warm-up unchecked',
    'hdr-count-differs': 'HDR count differs',
    'cpu-window-unverified': 'CPU window unaligned',
    'busy-polling': 'busy-polling',
    'client-io-spinning': 'client IO spins',
    'interface-unverified': 'interface unverified',
  };
  return labels[code] ?? code;
}
