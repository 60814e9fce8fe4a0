// Why this exists: YCSB 0.17.0's couchbase2 binding spins its SDK IO threads by design, and a
// spinning thread looks saturated. With `couchbase.boost` > 0 (its default is 3,
// Couchbase2Client.java: `props.getProperty("couchbase.boost", "3")`) the binding builds its Netty
// event loops (threads named `cb-io-…`) with its own BackoffSelectStrategy. That strategy's
// `if (counter > 2000) … else if (counter > 3000) …` chain never gets past its first branch: after
// 2,000 empty polls every loop parks for 1 ns and polls again, and never falls back to a blocking
// select. A cb-io thread that holds a connection therefore burns about one CPU whatever the load (a
// 400 ops/s lab run: 92 % of a core). Counting it would mark every cell of a default YCSB run
// client-bound. This file says when the spin applies, so the client-bound check (cpuStat.ts) can
// leave those threads out and say so in a note. Pure.

/** What the client-bound check leaves out, and why; recorded in evidence.cpu.clientIoSpin. */
export interface ClientIoSpin {
  /** The effective `couchbase.boost` (the binding's default 3 when the workload does not set it). */
  boost: number;
  /** Thread names (comm) of the spinning event loops. */
  threadPrefix: 'cb-io-';
  source: string;
}

const source =
  'YCSB 0.17.0 couchbase2 binding (Couchbase2Client.java): couchbase.boost > 0 runs the SDK IO event loops (cb-io-*) with BackoffSelectStrategy, which after 2,000 empty polls parks 1 ns and polls again, never a blocking select';

/** The spin of the cell's clients, or undefined when none uses the couchbase2 binding with boost > 0. */
export function clientIoSpinOf(
  bindings: readonly string[],
  workload: ReadonlyMap<string, string>,
): ClientIoSpin | undefined {
  if (!bindings.includes('couchbase2')) return undefined;
  const text = workload.get('couchbase.boost')?.trim();
  const boost = text === undefined || text === '' ? 3 : Number.parseInt(text, 10);
  // Integer.parseInt would refuse anything else and YCSB would not start: nothing to leave out
  if (!Number.isFinite(boost) || boost <= 0) return undefined;
  return { boost, threadPrefix: 'cb-io-', source };
}

/**
 * Whether a thread of the YCSB JVM is one of the spinning IO loops (`spin` as the cell recorded it,
 * evidence.cpu.clientIoSpin).
 */
export function isSpinningIoThread(spin: { threadPrefix: string } | undefined, name: string): boolean {
  return spin !== undefined && name.startsWith(spin.threadPrefix);
}
