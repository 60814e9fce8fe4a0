// Was the run's traffic really on Onload? A listener in memcached's stack proves only the listener:
// clients that arrive through an interface that is no Onload NIC are served by the listener's
// kernel socket, pure kernel traffic, while the listener stays in the stack (REAL-LAB O6). And an
// accelerated connection is in no /proc/net/tcp, so the kernel's view cannot see Onload's traffic
// at all. The proof for an Onload cell is therefore Onload's own view during the run phase: the
// clients' established KV connections among memcached's stack sockets in `onload_stackdump lots`
// (O2), whose local addresses also prove the interface (C7); a connection seen only in
// /proc/net/tcp{,6} is a kernel one. Pure: the samples come from serverEvidence.ts.
import type { StackdumpFacts } from './acceleration';
import type { TcpEndpoint } from '../server/serverProcess';

export const stackdumpSource = 'onload_stackdump lots';
export const procNetSource = '/proc/net/tcp';

/** One look at the server during the run phase. */
export interface RunConnectionSample {
  /** Established KV connections of /proc/net/tcp{,6} (kernel sockets). */
  kernel: TcpEndpoint[];
  /** Established KV connections among memcached's stack sockets; undefined when not looked at. */
  stack?: TcpEndpoint[];
}

export interface RunAcceleration {
  verdict: 'accelerated' | 'not-accelerated' | 'partly-accelerated' | 'unverified';
  /** Distinct connections of the run seen in memcached's Onload stack / only as kernel sockets. */
  inStack: number;
  inKernel: number;
  /** What was seen, naming each source. */
  evidence: string;
}

const keyOf = (connection: TcpEndpoint): string => `${connection.local} ${connection.remote}`;

/** memcached's established KV connections as `onload_stackdump lots` lists them (its stacks only). */
export function stackConnections(facts: StackdumpFacts, memcachedPid: number, kvPort: number): TcpEndpoint[] {
  const stacks = [...facts.stackPids].filter(([, pids]) => pids.includes(memcachedPid)).map(([id]) => id);
  return stacks.flatMap((id) =>
    (facts.stackSockets.get(id) ?? [])
      .filter((socket) => socket.port === kvPort && socket.state === 'ESTABLISHED' && socket.remote !== undefined)
      .map((socket) => ({ local: `${socket.local}:${socket.port}`, remote: socket.remote as string })),
  );
}

/**
 * The verdict from the run's samples (baseline connections already left out). `stackdumpProblem`
 * says why Onload's view could not be read (sudo refused, tool missing, memcached not found).
 */
export function judgeRunAcceleration(
  samples: RunConnectionSample[],
  stackdumpProblem: string | undefined,
): RunAcceleration {
  const inStack = new Set<string>();
  const kernel = new Set<string>();
  let stackLooks = 0;
  for (const sample of samples) {
    if (sample.stack !== undefined) stackLooks++;
    for (const connection of sample.stack ?? []) inStack.add(keyOf(connection));
    for (const connection of sample.kernel) kernel.add(keyOf(connection));
  }
  // a connection Onload lists is the stack's, even if a reader also met it in /proc/net
  const kernelOnly = [...kernel].filter((key) => !inStack.has(key));
  const counts = { inStack: inStack.size, inKernel: kernelOnly.length };
  const kernelWords = `${kernelOnly.length} as kernel sockets (${procNetSource}{,6})`;
  const stackWords = `${inStack.size} in memcached's Onload stack (${stackdumpSource})`;
  if (stackdumpProblem !== undefined || stackLooks === 0) {
    return {
      verdict: 'unverified',
      ...counts,
      evidence: `Onload's view of the run could not be read (${stackdumpProblem ?? 'no sample taken'}); ${kernelWords}`,
    };
  }
  if (inStack.size === 0 && kernelOnly.length === 0)
    return {
      verdict: 'unverified',
      ...counts,
      evidence: `no client connection to the KV port was seen during the run, neither in ${stackdumpSource} (${stackLooks} looks) nor in ${procNetSource}{,6}`,
    };
  if (kernelOnly.length === 0)
    return {
      verdict: 'accelerated',
      ...counts,
      evidence: `the run's KV connections: ${stackWords}, none a kernel socket (${procNetSource}{,6})`,
    };
  if (inStack.size === 0)
    return {
      verdict: 'not-accelerated',
      ...counts,
      evidence: `the run's KV connections: ${kernelWords}, none in memcached's Onload stack (${stackdumpSource}, ${stackLooks} looks): the traffic ran on the kernel stack`,
    };
  return {
    verdict: 'partly-accelerated',
    ...counts,
    evidence: `the run's KV connections: ${stackWords}, ${kernelWords}`,
  };
}
