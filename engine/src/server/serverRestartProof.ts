// Proof that a restart really happened (REAL-LAB C2, C3). An old instance still answers on 8091,
// and the babysitter's children (memcached, the ns_server VM) live in their own process groups, so
// neither a REST answer nor a killed group proves anything. After a stop: nothing listens on the
// REST and KV ports and no memcached/beam.smp of this installation is left (else an error, or a
// kill where the plan allows it). After a start: `/pools/default` reports a node uptime smaller
// than the time since the start. Times and deadlines are monotonic (performance.now()).
import { EngineFailure } from '../errors';
import { couchbaseHome, type ResolvedServer } from '../plan/planSchema';
import { hostForUrl, sleep, throwIfCancelled } from './serverControl';
import type { RemoteSession } from '../remote/ssh';
import { decodeProcAddress } from '../remote/ipAddress';
import { shellQuote } from '../remote/shellQuote';
import { pollIntervalMs } from '../remote/pollInterval';

export interface StopLeftovers {
  /** `address:port` still listening on the REST or KV port. */
  listeners: string[];
  /** `PID NAME` of memcached/beam.smp processes of this installation. */
  processes: string[];
}

/**
 * Prints `@listen PORTHEX` per listening socket on the REST or KV port and `@proc PID NAME` per
 * memcached/beam.smp whose command line names this installation's folder (another Couchbase on
 * the host is not ours). Reads /proc only (world-readable parts), no sudo needed.
 */
export function leftoversScript(server: ResolvedServer): string {
  const ports = [server.restPort, server.kvPort]
    .map((port) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`)
    .join(' ');
  const home = shellQuote(`${couchbaseHome(server.couchbaseServerPath)}/`);
  return [
    `awk -v ports=${shellQuote(ports)} 'FNR > 1 && $4 == "0A" { n = split($2, a, ":"); if (index(ports " ", ":" a[n] " ") > 0) print "@listen", $2 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null`,
    'for d in /proc/[0-9]*; do',
    '  { read -r name < "$d/comm"; } 2>/dev/null || continue',
    '  case "$name" in memcached|beam.smp) ;; *) continue ;; esac',
    `  cmd=$(tr '\\0' ' ' < "$d/cmdline" 2>/dev/null)`,
    `  case "$cmd" in *${home}*) echo "@proc \${d#/proc/} $name" ;; esac`,
    'done',
    'exit 0',
  ].join('\n');
}

/**
 * SIGKILLs `pids` (with sudo -n where allowed), then runs `leftoversScript` every 100 ms until it
 * finds nothing or 5 s have passed, and prints its last output (parseLeftovers reads it).
 */
export function killLeftoversScript(server: ResolvedServer, pids: string): string {
  if (!/^\d+( \d+)*$/.test(pids)) throw new Error(`not a pid list: ${pids}`);
  return [
    `sudo -n kill -KILL ${pids} 2>/dev/null || kill -KILL ${pids} 2>/dev/null`,
    `look() { (
${leftoversScript(server)}
); }`,
    't=0; while out=$(look); [ -n "$out" ] && [ $t -lt 50 ]; do sleep 0.1; t=$((t+1)); done',
    `printf '%s\\n' "$out"`,
    'exit 0',
  ].join('\n');
}

/** Pure. */
export function parseLeftovers(output: string): StopLeftovers {
  const listeners: string[] = [];
  const processes: string[] = [];
  for (const line of output.split('\n')) {
    const listen = /^@listen (\S+)$/.exec(line.trim());
    if (listen) {
      listeners.push(decodeProcAddress(listen[1]));
    }
    const proc = /^@proc (\d+) (\S+)$/.exec(line.trim());
    if (proc) processes.push(`${proc[1]} ${proc[2]}`);
  }
  return { listeners, processes };
}

function describe(leftovers: StopLeftovers): string {
  return [
    leftovers.listeners.length > 0 ? `still listening: ${leftovers.listeners.join(', ')}` : '',
    leftovers.processes.length > 0 ? `still running: ${leftovers.processes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * Waits (up to `graceSec`) until the stop is complete; kills what is left when the plan allows it,
 * else fails naming what is left. Returns what had to be killed (empty when nothing).
 */
export async function proveStopped(
  session: RemoteSession,
  server: ResolvedServer,
  graceSec: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const step = 'stop-server';
  const started = performance.now();
  const deadline = started + graceSec * 1000;
  let leftovers: StopLeftovers;
  for (;;) {
    throwIfCancelled(signal, session.host, step);
    const result = await session.run(leftoversScript(server), { step, ...(signal ? { signal } : {}) });
    leftovers = parseLeftovers(result.stdout);
    if (leftovers.listeners.length === 0 && leftovers.processes.length === 0) return [];
    if (performance.now() >= deadline) break;
    // an SSH look: every 100 ms at first, then less often (pollInterval.ts)
    await sleep(
      Math.min(pollIntervalMs(performance.now() - started, 100), Math.max(0, deadline - performance.now())),
      signal,
    );
  }
  if (server.killLeftovers && leftovers.processes.length > 0) {
    const pids = leftovers.processes.map((entry) => entry.split(' ')[0]).join(' ');
    // the kill and the look at what is left in one round trip, looking until nothing is (at most 5 s), not a fixed
    // second
    const again = parseLeftovers(
      (await session.run(killLeftoversScript(server, pids), { step, ...(signal ? { signal } : {}) })).stdout,
    );
    if (again.listeners.length === 0 && again.processes.length === 0) return leftovers.processes;
    leftovers = again;
  }
  throw new EngineFailure({
    code: 'server-stop',
    host: session.host,
    step,
    message: `Couchbase did not stop within ${graceSec} s: ${describe(leftovers)}. Its children run in their own process groups, so an old memcached would answer the next cell.`,
    action: server.killLeftovers
      ? `Stop them by hand on ${session.host} (sudo kill), then resume.`
      : `Stop them by hand on ${session.host} (sudo kill ${leftovers.processes.map((entry) => entry.split(' ')[0]).join(' ') || '<pid>'}), or set killLeftovers: true for this server in the plan; check kernelStopCommand.`,
  });
}

/** The uptime (s) and name `/pools/default` reports for this node; empty when it does not say. */
export async function nodeStatus(
  server: ResolvedServer,
  password: string,
  signal?: AbortSignal,
): Promise<{ uptimeSec?: number; hostname?: string }> {
  const limit = AbortSignal.timeout(10_000);
  const response = await fetch(`http://${hostForUrl(server.address)}:${server.restPort}/pools/default`, {
    headers: { authorization: `Basic ${Buffer.from(`${server.adminUser}:${password}`).toString('base64')}` },
    signal: signal ? AbortSignal.any([signal, limit]) : limit,
  });
  if (!response.ok) {
    await response.arrayBuffer().catch(() => undefined);
    return {};
  }
  const body = (await response.json()) as {
    nodes?: { uptime?: string | number; thisNode?: boolean; hostname?: string }[];
  };
  const nodes = body.nodes ?? [];
  const node = nodes.find((candidate) => candidate.thisNode) ?? nodes[0];
  const uptime = node?.uptime === undefined ? Number.NaN : Number(node.uptime);
  return {
    ...(Number.isFinite(uptime) ? { uptimeSec: uptime } : {}),
    ...(typeof node?.hostname === 'string' ? { hostname: node.hostname } : {}),
  };
}

/**
 * Fails unless the node's uptime shows a process started after `startedAt`, a `performance.now()`
 * reading taken at the start: a monotonic clock, so a wall-clock step (NTP, a resumed VM) neither
 * fails a fresh start nor passes an old instance as fresh.
 */
export async function proveFresh(
  session: RemoteSession,
  server: ResolvedServer,
  password: string,
  startedAt: number,
  signal?: AbortSignal,
): Promise<{ uptimeSec?: number; sinceStartSec: number }> {
  const sinceStartSec = (performance.now() - startedAt) / 1000;
  let uptimeSec: number | undefined;
  try {
    uptimeSec = (await nodeStatus(server, password, signal)).uptimeSec;
  } catch {
    uptimeSec = undefined;
  }
  if (uptimeSec === undefined) return { sinceStartSec };
  // uptime is whole seconds: allow one for rounding
  if (uptimeSec > sinceStartSec + 1) {
    throw new EngineFailure({
      code: 'server-start',
      host: session.host,
      step: 'start-server',
      message: `The Couchbase answering on ${server.address}:${server.restPort} has been up ${uptimeSec} s, but it was started ${Math.round(sinceStartSec)} s ago: an old instance answers, not the one just started.`,
      action: `Find the old instance on ${session.host} (ss -ltnp sport = :${server.restPort}) and stop it; check kernelStopCommand and the service name.`,
    });
  }
  return { uptimeSec, sinceStartSec };
}
