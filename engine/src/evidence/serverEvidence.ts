// What a cell's record says about its server (evidence.server[host]) and the marks that follow:
// how it was started and as whom, the limits and cgroup memcached really has (REAL-LAB C1, H3),
// whether it was accelerated and by what evidence (O1, O2, O5), the EF_* settings it runs with
// against the profile's analysis (O4), and which local addresses carried the run's traffic (C7).
// The sweep calls these; each check lives in its own file.
import { checkAcceleration, parseStackdump, stackdumpScript } from './acceleration';
import {
  judgeRunAcceleration,
  procNetSource,
  stackConnections,
  stackdumpSource,
  type RunAcceleration,
  type RunConnectionSample,
} from './runPhaseAcceleration';
import { armDifferences, pointKey, type ArmFacts } from './armsAlike';
import { localAddresses, wrongInterfaceReason } from './interfaceTraffic';
import { addMark } from './marks';
import type { CellKey, CellMark, CellResult } from '../model';
import { describeDifferences, environmentDifferences } from './onloadEnvironment';
import { busyPolling, busyPollingMessage } from './busyPolling';
import type { ResolvedServer } from '../plan/planSchema';
import { serverAddressOn } from '../plan/clusterSizes';
import type { ServerStart } from '../server/serverControl';
import { sleep } from '../server/serverControl';
import {
  connectionsScript,
  findServerProcess,
  parseServerProcessFacts,
  processEvidence,
  type TcpEndpoint,
} from '../server/serverProcess';
import { nodeStatus } from '../server/serverRestartProof';
import type { RemoteSession } from '../remote/ssh';
import { batchScript, splitBatch } from '../remote/batchScript';

type Log = (level: 'info' | 'warn', message: string) => void;

/** evidence.server[host]: how the server was started and what memcached really ran with. */
export type ServerRecord = Record<string, unknown>;

/** What observing a cell's servers found. */
export interface ServerObservation {
  /** evidence.server, per host: each filled as its checks complete, so a failed look keeps what it saw. */
  servers: Record<string, ServerRecord>;
  marks: CellMark[];
  /** An Onload cell's acceleration (true, false, null = unverified); absent for a kernel cell or a failed look. */
  accelerated?: boolean | null;
  /** The first server that could not be looked at: the cell fails with it. */
  failure?: unknown;
}

/** The pid of memcached each server's look found, for the run phase (its samplers, Onload's view). */
export function memcachedPids(servers: Record<string, ServerRecord>): Record<string, number | undefined> {
  return Object.fromEntries(
    Object.entries(servers).map(([host, record]) => {
      const pid = (record.process as { pid?: unknown } | undefined)?.pid;
      return [host, typeof pid === 'number' ? pid : undefined];
    }),
  );
}

/**
 * Reads memcached's facts and the acceleration proof for one server into `record`, its marks into
 * `marks`. Returns the acceleration verdict (true / false / undefined = unverified).
 */
export async function observeServer(
  options: {
    session: RemoteSession;
    server: ResolvedServer;
    key: CellKey;
    cellId: string;
    /** The profile's analysed settings (manifest.environment.profiles[stack]); undefined for kernel. */
    profileSettings: Record<string, string> | undefined;
    /** How long memcached is looked for after the start proof (REAL-LAB C9). */
    waitSec?: number;
    log: Log;
    signal?: AbortSignal;
  },
  record: ServerRecord,
  marks: CellMark[],
): Promise<boolean | undefined> {
  const { session, server, cellId, log } = options;
  const host = server.host;
  const mark = (found: CellMark): void => addMark({ marks }, found);
  const waitMs = (options.waitSec ?? 60) * 1000;
  // the stack listing runs in the same round trip as the look that finds memcached
  const facts = await findServerProcess(session, server, {
    step: 'check-acceleration',
    waitMs,
    thenScript: stackdumpScript(),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  record.process = {
    ...processEvidence(facts),
    ...(facts.pid !== undefined ? { foundAfterMs: facts.waitedMs } : { lookedForMs: facts.waitedMs }),
    lookups: facts.lookups,
  };
  if (facts.pid === undefined) {
    // what could not be read must not pass for alike or clean (armsAlike skips missing values)
    mark({
      code: 'memcached-unverified',
      host,
      message: `No memcached of this installation (${server.couchbaseServerPath.replace(/\/bin\/couchbase-server$/, '')}/bin/memcached, child of its babysitter) and no process on the KV port ${server.kvPort} was found within ${Math.round(facts.waitedMs / 1000)} s after the start: its user, limits, cgroup and EF_* environment were not read and the arms not compared.`,
    });
    log('warn', `${cellId}: ${host}: memcached not found within ${Math.round(facts.waitedMs / 1000)} s`);
  } else if (facts.waitedMs >= 1000)
    log(
      'info',
      `${cellId}: ${host}: memcached ${facts.pid} found ${Math.round(facts.waitedMs / 1000)} s after the start (by ${facts.foundBy ?? 'its KV listener'})`,
    );
  const check = await checkAcceleration(session, server, facts, options.signal, facts.then);
  record.acceleration = {
    accelerated: check.accelerated ?? 'unverified',
    evidence: check.evidence,
    stacks: check.stacks,
    rights: check.rights,
  };
  const kernel = options.profileSettings === undefined;
  if (kernel && check.accelerated === true) {
    mark({ code: 'accelerated-kernel', host, message: `The kernel arm runs on Onload: ${check.evidence}.` });
  }
  if (!kernel && check.accelerated === undefined) {
    mark({
      code: 'acceleration-unverified',
      host,
      message: `Could not verify that Couchbase runs on Onload: ${check.evidence}.`,
    });
  }
  log(
    (check.accelerated === false && !kernel) || (check.accelerated === true && kernel) ? 'warn' : 'info',
    `${cellId}: ${host}: ${accelerationVerdict(check.accelerated, kernel)}: ${check.evidence}`,
  );
  if (!kernel) observeEnvironment(options, facts, record, mark);
  return check.accelerated;
}

function accelerationVerdict(accelerated: boolean | undefined, kernel: boolean): string {
  if (accelerated === true) return kernel ? 'ACCELERATED although this is the kernel arm' : 'accelerated';
  if (accelerated === false) return kernel ? 'kernel stack' : 'NOT accelerated';
  return 'acceleration unverified';
}

/** An Onload cell: memcached's EF_* settings against the profile's (O4), and whether it busy-polls. */
function observeEnvironment(
  options: { server: ResolvedServer; key: CellKey; cellId: string; profileSettings?: Record<string, string>; log: Log },
  facts: { pid?: number; efEnvironment?: Record<string, string> },
  record: ServerRecord,
  mark: (found: CellMark) => void,
): void {
  const { key, log } = options;
  const host = options.server.host;
  if (facts.efEnvironment !== undefined) {
    const differences = environmentDifferences(options.profileSettings ?? {}, facts.efEnvironment);
    record.environmentDifferences = differences;
    if (differences.length > 0) {
      const text = describeDifferences(differences);
      mark({
        code: 'environment-differs',
        host,
        message: `memcached does not run with the profile's settings: ${text}.`,
      });
      log(
        'warn',
        `${options.cellId}: ${host}: memcached's EF_* environment differs from the profile ${key.stack}: ${text}`,
      );
    }
  }
  // what memcached really runs with when it could be read (REAL-LAB O4), else the profile
  const source =
    facts.efEnvironment !== undefined && facts.pid !== undefined
      ? `memcached's /proc/${facts.pid}/environ`
      : `the profile ${key.stack}'s settings (memcached's environment was not read)`;
  const polling = busyPolling(facts.efEnvironment ?? options.profileSettings ?? {});
  record.busyPolling = polling ? { ...polling, source } : false;
  if (polling) mark({ code: 'busy-polling', host, message: busyPollingMessage(polling, source) });
}

/**
 * Every server of the cell (observeServer), each record opening with how its server was started;
 * then the cell's acceleration: an Onload cell is accelerated when every server is, not when any is
 * not, and unverified otherwise (never "not accelerated" for a check that could not run). The first
 * server that cannot be looked at ends the look with its failure.
 */
export async function observeServers(options: {
  pool: { get(host: string): RemoteSession };
  servers: ResolvedServer[];
  key: CellKey;
  cellId: string;
  starts: Map<string, ServerStart & Record<string, unknown>>;
  profileSettings: Record<string, string> | undefined;
  waitSec?: number;
  log: Log;
  signal?: AbortSignal;
}): Promise<ServerObservation> {
  const { key } = options;
  const servers: Record<string, ServerRecord> = {};
  const marks: CellMark[] = [];
  for (const server of options.servers) {
    const start = options.starts.get(server.host);
    servers[server.host] = start ? { start } : {};
  }
  try {
    const verdicts = await Promise.all(
      options.servers.map((server) =>
        observeServer(
          {
            session: options.pool.get(server.host),
            server,
            key,
            cellId: options.cellId,
            profileSettings: options.profileSettings,
            ...(options.waitSec !== undefined ? { waitSec: options.waitSec } : {}),
            log: options.log,
            ...(options.signal ? { signal: options.signal } : {}),
          },
          servers[server.host],
          marks,
        ),
      ),
    );
    if (key.stack === 'kernel') return { servers, marks };
    const accelerated = verdicts.some((verdict) => verdict === false)
      ? false
      : verdicts.every((verdict) => verdict === true)
        ? true
        : null;
    return { servers, marks, accelerated };
  } catch (failure) {
    return { servers, marks, failure };
  }
}

/** Remembers each kernel arm's facts and marks a later arm of the same point that differs (H3). */
export class ArmsRegister {
  private readonly kernelArms = new Map<string, Map<string, ArmFacts>>();

  /** Starts with the results a resumed run already has. */
  constructor(earlier: Pick<CellResult, 'key' | 'evidence'>[] = []) {
    for (const result of earlier) this.remember(result);
  }

  /** Records a finished cell. */
  remember(result: Pick<CellResult, 'key' | 'evidence'>): void {
    if (result.key.stack !== 'kernel') return;
    const hosts = new Map<string, ArmFacts>();
    for (const [host, value] of Object.entries(
      (result.evidence?.server ?? {}) as Record<string, Record<string, unknown>>,
    ))
      hosts.set(host, armFacts(value));
    if (hosts.size > 0) this.kernelArms.set(pointKey(result.key), hosts);
  }

  /** The `arms-differ` marks of a cell whose servers ran unlike the kernel arm of its point. */
  compare(key: CellKey, cellId: string, servers: Record<string, ServerRecord>, log: Log): CellMark[] {
    if (key.stack === 'kernel') return [];
    const kernel = this.kernelArms.get(pointKey(key));
    if (!kernel) return [];
    const marks: CellMark[] = [];
    for (const [host, value] of Object.entries(servers)) {
      const reference = kernel.get(host);
      if (!reference) continue;
      const differences = armDifferences(reference, armFacts(value));
      if (differences.length === 0) continue;
      marks.push({
        code: 'arms-differ',
        host,
        message: `The ${key.stack} arm's server differs from the kernel arm in more than the stack: ${differences.join('; ')}.`,
      });
      log('warn', `${cellId}: ${host}: arms differ: ${differences.join('; ')}`);
    }
    return marks;
  }
}

function armFacts(record: Record<string, unknown>): ArmFacts {
  const process = (record.process ?? {}) as ArmFacts;
  const start = record.start as { mode?: string } | undefined;
  return {
    ...(process.user !== undefined ? { user: process.user } : {}),
    ...(process.limits ? { limits: process.limits } : {}),
    ...(process.cgroup !== undefined ? { cgroup: process.cgroup } : {}),
    ...(start ? { start } : {}),
  };
}

/**
 * Kernel sockets (/proc/net) and, in Onload cells, memcached's stack (onload_stackdump lots): one
 * look (before a run: the baseline to leave out).
 */
export interface ConnectionSample {
  kernel: TcpEndpoint[];
  /** Only when the stack was asked for: its established KV connections, or why they could not be read. */
  stack?: { connections?: TcpEndpoint[]; problem?: string };
}

/**
 * The KV port's established connections as the kernel sees them and, when `stack` is given (an
 * Onload cell), as memcached's Onload stack does (`onload_stackdump lots` with the server user's
 * rights, sudo -n): both in one round trip, each read by its own parser.
 */
export async function sampleConnections(
  session: RemoteSession,
  server: ResolvedServer,
  stack: { memcachedPid: number | undefined } | undefined,
  signal?: AbortSignal,
  step = 'ycsb-run',
): Promise<ConnectionSample> {
  const withStack = stack !== undefined && stack.memcachedPid !== undefined;
  const script = withStack
    ? batchScript([
        { name: 'kernel', script: connectionsScript(server.kvPort) },
        { name: 'stack', script: stackdumpScript() },
      ])
    : connectionsScript(server.kvPort);
  const result = await session
    .run(script, { step, ...(signal ? { signal } : {}), ...(withStack ? { timeoutMs: 30_000 } : {}) })
    .catch((error: unknown) => ({ stdout: '', error }));
  return parseConnectionSample(result.stdout, server.kvPort, stack, 'error' in result ? result.error : undefined);
}

/** Reads `sampleConnections`' output (`failed`: the trip's own failure). Pure. */
export function parseConnectionSample(
  output: string,
  kvPort: number,
  stack: { memcachedPid: number | undefined } | undefined,
  failed?: unknown,
): ConnectionSample {
  if (stack === undefined) return { kernel: failed === undefined ? parseServerProcessFacts(output).connections : [] };
  if (stack.memcachedPid === undefined)
    return {
      kernel: failed === undefined ? parseServerProcessFacts(output).connections : [],
      stack: { problem: 'memcached was not found' },
    };
  if (failed !== undefined)
    return {
      kernel: [],
      stack: {
        problem: `onload_stackdump did not answer (${failed instanceof Error ? failed.message : String(failed)})`,
      },
    };
  const parts = splitBatch(output);
  const kernel = parseServerProcessFacts(parts.get('kernel')?.text ?? '').connections;
  const dump = parts.get('stack');
  if (dump === undefined) return { kernel, stack: { problem: 'onload_stackdump did not answer (no output)' } };
  const facts = parseStackdump(dump.text);
  if (facts.missing) return { kernel, stack: { problem: 'onload_stackdump is not installed' } };
  if (facts.failure !== undefined) return { kernel, stack: { problem: `onload_stackdump failed: ${facts.failure}` } };
  if (!facts.rights.startsWith('sudo'))
    return {
      kernel,
      stack: {
        problem: `onload_stackdump ran without root rights (sudo -n refused: ${facts.rights.replace(/^no-sudo:?\s*/, '') || 'no reason given'}), so it shows only the caller's stacks`,
      },
    };
  return { kernel, stack: { connections: stackConnections(facts, stack.memcachedPid, kvPort) } };
}

/** What the traffic watch of one server found: evidence.server[host]'s `traffic` and `runAcceleration`. */
export interface TrafficWatch {
  /** Absent when the run was cancelled while the watch looked. */
  record?: { traffic: Record<string, unknown>; runAcceleration?: RunAcceleration };
  marks: CellMark[];
}

/**
 * Samples the KV port's established connections on the server while `running` is pending (C7),
 * leaving out those open before the run (the engine's own management connections), then records
 * the local addresses and marks the cell when they are not its interface's address. In an Onload
 * cell (`onload`) Onload's own view is sampled too (runPhaseAcceleration.ts): accelerated
 * connections are in no /proc/net/tcp (REAL-LAB O6), and the cell is accelerated only when the
 * clients' connections are in memcached's stack; every address and verdict names its source.
 */
export async function watchInterfaceTraffic(options: {
  session: RemoteSession;
  server: ResolvedServer;
  key: CellKey;
  cellId: string;
  password: string;
  baseline: TcpEndpoint[];
  stackBaseline?: TcpEndpoint[];
  onload?: { memcachedPid?: number };
  running: Promise<unknown>;
  log: Log;
  signal?: AbortSignal;
}): Promise<TrafficWatch> {
  let finished = false;
  void options.running.finally(() => (finished = true)).catch(() => undefined);
  const nodeName = await nodeStatus(options.server, options.password, options.signal)
    .then((status) => status.hostname)
    .catch(() => undefined);
  const looks = await lookDuringRun(options, () => finished);
  if (looks === undefined) return { marks: [] };
  return judgeTraffic(options, looks, nodeName);
}

/** The run's connections, one look about every 0.5 s until the run has finished; undefined once cancelled. */
async function lookDuringRun(
  options: {
    session: RemoteSession;
    server: ResolvedServer;
    baseline: TcpEndpoint[];
    stackBaseline?: TcpEndpoint[];
    onload?: { memcachedPid?: number };
    running: Promise<unknown>;
    signal?: AbortSignal;
  },
  finished: () => boolean,
): Promise<{ samples: RunConnectionSample[]; stackdumpProblem?: string } | undefined> {
  const { session, server } = options;
  const before = new Set(
    [...options.baseline, ...(options.stackBaseline ?? [])].map(
      (connection) => `${connection.local} ${connection.remote}`,
    ),
  );
  const fresh = (connections: TcpEndpoint[]): TcpEndpoint[] =>
    connections.filter((connection) => !before.has(`${connection.local} ${connection.remote}`));
  const samples: RunConnectionSample[] = [];
  let stackdumpProblem: string | undefined;
  let stackSeenYet = false;
  for (let round = 0; !finished() && round < 10_000; round++) {
    if (options.signal?.aborted) return undefined;
    // Onload's view at each look until the clients are seen, then every 4th (about every 2 s): the
    // real tool walks every stack; both views in one round trip
    const withStack =
      options.onload !== undefined && stackdumpProblem === undefined && (!stackSeenYet || round % 4 === 0);
    const sampled = await sampleConnections(
      session,
      server,
      withStack ? { memcachedPid: options.onload?.memcachedPid } : undefined,
      options.signal,
      'traffic-watch',
    );
    const kernel = fresh(sampled.kernel);
    let stack: TcpEndpoint[] | undefined;
    if (sampled.stack) {
      if (sampled.stack.problem !== undefined) stackdumpProblem = sampled.stack.problem;
      else stack = fresh(sampled.stack.connections ?? []);
      if ((stack?.length ?? 0) > 0 || kernel.length > 0) stackSeenYet = true;
    }
    samples.push({ kernel, ...(stack !== undefined ? { stack } : {}) });
    await Promise.race([sleep(500, options.signal), options.running.catch(() => undefined)]);
  }
  return { samples, ...(stackdumpProblem !== undefined ? { stackdumpProblem } : {}) };
}

/** The addresses the run's traffic used against the cell's interface, and in an Onload cell Onload's verdict. */
function judgeTraffic(
  options: {
    server: ResolvedServer;
    key: CellKey;
    cellId: string;
    onload?: { memcachedPid?: number };
    log: Log;
    signal?: AbortSignal;
  },
  looks: { samples: RunConnectionSample[]; stackdumpProblem?: string },
  nodeName: string | undefined,
): TrafficWatch {
  const { server, key, cellId } = options;
  const { samples } = looks;
  const marks: CellMark[] = [];
  const mark = (found: CellMark): void => addMark({ marks }, found);
  const kernelSeen = localAddresses(samples.map((sample) => sample.kernel));
  const stackSeen = localAddresses(samples.map((sample) => sample.stack ?? []));
  const seen = new Map(kernelSeen);
  for (const [address, count] of stackSeen) seen.set(address, (seen.get(address) ?? 0) + count);
  const traffic = {
    samples: samples.length,
    localAddresses: Object.fromEntries(seen),
    sources: {
      [procNetSource]: Object.fromEntries(kernelSeen),
      ...(options.onload ? { [stackdumpSource]: Object.fromEntries(stackSeen) } : {}),
    },
    ...(nodeName !== undefined ? { nodeName } : {}),
  };
  if (seen.size === 0 && !options.signal?.aborted) {
    // the interface check could not run: no connection of the run was seen, which must mark the cell, never pass it
    mark({
      code: 'interface-unverified',
      host: server.host,
      message: `No KV connection of the run was seen on ${server.host} in ${samples.length} look${samples.length === 1 ? '' : 's'} (${procNetSource}{,6}${options.onload ? ` and ${stackdumpSource}` : ''}): which interface carried the traffic is not proven.`,
    });
  }
  // each node of a cluster has its own address on the cell's interface
  const expected = serverAddressOn(server, key.interface, key.address);
  const reason = wrongInterfaceReason(expected, seen, nodeName);
  if (reason !== undefined) {
    mark({
      code: 'wrong-interface',
      host: server.host,
      message: `The run's traffic did not use interface ${key.interface} (${expected}): ${reason} (seen in ${[...(kernelSeen.size > 0 ? [`${procNetSource}{,6}`] : []), ...(stackSeen.size > 0 ? [stackdumpSource] : [])].join(' and ')}).`,
    });
    options.log('warn', `${cellId}: ${server.host}: wrong interface: ${reason}`);
  }
  if (!options.onload) return { record: { traffic }, marks };
  const run = judgeRunAcceleration(samples, looks.stackdumpProblem);
  if (run.verdict !== 'accelerated') {
    mark(runAccelerationMark(server.host, run));
    options.log('warn', `${cellId}: ${server.host}: ${run.verdict}: ${run.evidence}`);
  }
  return { record: { traffic, runAcceleration: run }, marks };
}

function runAccelerationMark(host: string, run: RunAcceleration): CellMark {
  if (run.verdict === 'unverified')
    return {
      code: 'acceleration-unverified',
      host,
      message: `The run's traffic could not be shown to be on Onload: ${run.evidence}.`,
    };
  return {
    code: run.verdict,
    host,
    message:
      run.verdict === 'not-accelerated'
        ? `The run's traffic did not go through Onload although memcached's listener is in a stack: ${run.evidence}.`
        : `Only part of the run's traffic went through Onload: ${run.evidence}.`,
  };
}

/**
 * An Onload cell's acceleration once its run's traffic is judged: traffic not (or only partly) on
 * Onload makes it false; traffic that could not be shown to be on Onload leaves an accelerated cell
 * unverified (null). Pure.
 */
export function accelerationAfterRun(
  accelerated: boolean | null,
  verdicts: (RunAcceleration['verdict'] | undefined)[],
): boolean | null {
  if (verdicts.some((verdict) => verdict === 'not-accelerated' || verdict === 'partly-accelerated')) return false;
  if (accelerated === true && verdicts.includes('unverified')) return null;
  return accelerated;
}
