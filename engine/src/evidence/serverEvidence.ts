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
  type RunConnectionSample,
} from './runPhaseAcceleration';
import { armDifferences, pointKey, type ArmFacts } from './armsAlike';
import { localAddresses, wrongInterfaceReason } from './interfaceTraffic';
import { addMark } from './marks';
import type { CellKey, CellResult } from '../model';
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

/** evidence.server[host], created on first use. */
export function serverEvidence(draft: CellResult, host: string): Record<string, unknown> {
  const evidence = (draft.evidence ??= {});
  const server = (evidence.server ??= {});
  return ((server as Record<string, Record<string, unknown>>)[host] ??= {});
}

/**
 * Reads memcached's facts and the acceleration proof for one server, records them and marks the
 * cell. Returns the acceleration verdict (true / false / undefined = unverified).
 */
export async function observeServer(options: {
  session: RemoteSession;
  server: ResolvedServer;
  key: CellKey;
  draft: CellResult;
  start: (ServerStart & Record<string, unknown>) | undefined;
  /** The profile's analysed settings (manifest.environment.profiles[stack]); undefined for kernel. */
  profileSettings: Record<string, string> | undefined;
  /** How long memcached is looked for after the start proof (REAL-LAB C9). */
  waitSec?: number;
  log: Log;
  signal?: AbortSignal;
}): Promise<boolean | undefined> {
  const { session, server, key, draft, log } = options;
  const host = server.host;
  const record = serverEvidence(draft, host);
  if (options.start) record.start = options.start;
  const waitMs = (options.waitSec ?? 60) * 1000;
  // issue 24: the stack listing runs in the same trip as the look that finds memcached
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
    addMark(draft, {
      code: 'memcached-unverified',
      host,
      message: `No memcached of this installation (${server.couchbaseServerPath.replace(/\/bin\/couchbase-server$/, '')}/bin/memcached, child of its babysitter) and no process on the KV port ${server.kvPort} was found within ${Math.round(facts.waitedMs / 1000)} s after the start: its user, limits, cgroup and EF_* environment were not read and the arms not compared.`,
    });
    log('warn', `${draft.id}: ${host}: memcached not found within ${Math.round(facts.waitedMs / 1000)} s`);
  } else if (facts.waitedMs >= 1000)
    log(
      'info',
      `${draft.id}: ${host}: memcached ${facts.pid} found ${Math.round(facts.waitedMs / 1000)} s after the start (by ${facts.foundBy ?? 'its KV listener'})`,
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
    addMark(draft, { code: 'accelerated-kernel', host, message: `The kernel arm runs on Onload: ${check.evidence}.` });
  }
  if (!kernel && check.accelerated === undefined) {
    addMark(draft, {
      code: 'acceleration-unverified',
      host,
      message: `Could not verify that Couchbase runs on Onload: ${check.evidence}.`,
    });
  }
  const verdict =
    check.accelerated === true
      ? kernel
        ? 'ACCELERATED although this is the kernel arm'
        : 'accelerated'
      : check.accelerated === false
        ? kernel
          ? 'kernel stack'
          : 'NOT accelerated'
        : 'acceleration unverified';
  log(
    (check.accelerated === false && !kernel) || (check.accelerated === true && kernel) ? 'warn' : 'info',
    `${draft.id}: ${host}: ${verdict}: ${check.evidence}`,
  );
  if (!kernel && facts.efEnvironment !== undefined) {
    const differences = environmentDifferences(options.profileSettings ?? {}, facts.efEnvironment);
    record.environmentDifferences = differences;
    if (differences.length > 0) {
      const text = describeDifferences(differences);
      addMark(draft, {
        code: 'environment-differs',
        host,
        message: `memcached does not run with the profile's settings: ${text}.`,
      });
      log('warn', `${draft.id}: ${host}: memcached's EF_* environment differs from the profile ${key.stack}: ${text}`);
    }
  }
  if (!kernel) {
    // what memcached really runs with when it could be read (REAL-LAB O4), else the profile
    const source =
      facts.efEnvironment !== undefined && facts.pid !== undefined
        ? `memcached's /proc/${facts.pid}/environ`
        : `the profile ${key.stack}'s settings (memcached's environment was not read)`;
    const polling = busyPolling(facts.efEnvironment ?? options.profileSettings ?? {});
    record.busyPolling = polling ? { ...polling, source } : false;
    if (polling) addMark(draft, { code: 'busy-polling', host, message: busyPollingMessage(polling, source) });
  }
  return check.accelerated;
}

/**
 * Every server of the cell (observeServer), then the cell's acceleration: an Onload cell is
 * accelerated when every server is, not when any is not, and unverified otherwise (never "not
 * accelerated" for a check that could not run).
 */
export async function observeServers(options: {
  pool: { get(host: string): RemoteSession };
  servers: ResolvedServer[];
  key: CellKey;
  draft: CellResult;
  starts: Map<string, ServerStart & Record<string, unknown>>;
  profileSettings: Record<string, string> | undefined;
  waitSec?: number;
  log: Log;
  signal?: AbortSignal;
}): Promise<void> {
  const { key, draft } = options;
  const verdicts = await Promise.all(
    options.servers.map((server) =>
      observeServer({
        session: options.pool.get(server.host),
        server,
        key,
        draft,
        start: options.starts.get(server.host),
        profileSettings: options.profileSettings,
        ...(options.waitSec !== undefined ? { waitSec: options.waitSec } : {}),
        log: options.log,
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    ),
  );
  if (key.stack !== 'kernel')
    draft.accelerated = verdicts.some((verdict) => verdict === false)
      ? false
      : verdicts.every((verdict) => verdict === true)
        ? true
        : null;
}

/** Remembers each kernel arm's facts and marks a later arm of the same point that differs (H3). */
export class ArmsRegister {
  private readonly kernelArms = new Map<string, Map<string, ArmFacts>>();

  /** Records a finished cell (also the results read back on resume). */
  remember(result: Pick<CellResult, 'key' | 'evidence'>): void {
    if (result.key.stack !== 'kernel') return;
    const hosts = new Map<string, ArmFacts>();
    for (const [host, value] of Object.entries(
      (result.evidence?.server ?? {}) as Record<string, Record<string, unknown>>,
    ))
      hosts.set(host, armFacts(value));
    if (hosts.size > 0) this.kernelArms.set(pointKey(result.key), hosts);
  }

  /** Marks `draft` `arms-differ` when its server ran unlike the kernel arm of its point. */
  compare(draft: CellResult, log: Log): void {
    if (draft.key.stack === 'kernel') return;
    const kernel = this.kernelArms.get(pointKey(draft.key));
    if (!kernel) return;
    for (const [host, value] of Object.entries(
      (draft.evidence?.server ?? {}) as Record<string, Record<string, unknown>>,
    )) {
      const reference = kernel.get(host);
      if (!reference) continue;
      const differences = armDifferences(reference, armFacts(value));
      if (differences.length === 0) continue;
      addMark(draft, {
        code: 'arms-differ',
        host,
        message: `The ${draft.key.stack} arm's server differs from the kernel arm in more than the stack: ${differences.join('; ')}.`,
      });
      log('warn', `${draft.id}: ${host}: arms differ: ${differences.join('; ')}`);
    }
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

/** Kernel sockets (/proc/net) and, in Onload cells, memcached's stack (onload_stackdump lots): one look (before a run: the baseline to leave out). */
export interface ConnectionSample {
  kernel: TcpEndpoint[];
  /** Only when the stack was asked for: its established KV connections, or why they could not be read. */
  stack?: { connections?: TcpEndpoint[]; problem?: string };
}

/**
 * The KV port's established connections as the kernel sees them and, when `stack` is given (an
 * Onload cell), as memcached's Onload stack does (`onload_stackdump lots` with the server user's
 * rights, sudo -n): both in one round trip (issue 24), each read by its own parser.
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
  draft: CellResult;
  password: string;
  baseline: TcpEndpoint[];
  stackBaseline?: TcpEndpoint[];
  onload?: { memcachedPid?: number };
  running: Promise<unknown>;
  log: Log;
  signal?: AbortSignal;
}): Promise<void> {
  const { session, server, draft } = options;
  const before = new Set(
    [...options.baseline, ...(options.stackBaseline ?? [])].map(
      (connection) => `${connection.local} ${connection.remote}`,
    ),
  );
  const fresh = (connections: TcpEndpoint[]): TcpEndpoint[] =>
    connections.filter((connection) => !before.has(`${connection.local} ${connection.remote}`));
  let finished = false;
  void options.running.finally(() => (finished = true)).catch(() => undefined);
  const samples: RunConnectionSample[] = [];
  let stackdumpProblem: string | undefined;
  let stackSeenYet = false;
  const nodeName = await nodeStatus(server, options.password, options.signal)
    .then((status) => status.hostname)
    .catch(() => undefined);
  for (let round = 0; !finished && round < 10_000; round++) {
    if (options.signal?.aborted) return;
    // Onload's view at each look until the clients are seen, then every 4th (about every 2 s): the
    // real tool walks every stack; both views in one round trip (issue 24)
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
  const kernelSeen = localAddresses(samples.map((sample) => sample.kernel));
  const stackSeen = localAddresses(samples.map((sample) => sample.stack ?? []));
  const seen = new Map(kernelSeen);
  for (const [address, count] of stackSeen) seen.set(address, (seen.get(address) ?? 0) + count);
  const record = serverEvidence(draft, server.host);
  record.traffic = {
    samples: samples.length,
    localAddresses: Object.fromEntries(seen),
    sources: {
      [procNetSource]: Object.fromEntries(kernelSeen),
      ...(options.onload ? { [stackdumpSource]: Object.fromEntries(stackSeen) } : {}),
    },
    ...(nodeName !== undefined ? { nodeName } : {}),
  };
  if (seen.size === 0 && !options.signal?.aborted) {
    // the interface check could not run: no connection of the run was seen (issue 21 item 6)
    addMark(draft, {
      code: 'interface-unverified',
      host: server.host,
      message: `No KV connection of the run was seen on ${server.host} in ${samples.length} look${samples.length === 1 ? '' : 's'} (${procNetSource}{,6}${options.onload ? ` and ${stackdumpSource}` : ''}): which interface carried the traffic is not proven.`,
    });
  }
  // issue 23: each node of a cluster has its own address on the cell's interface
  const expected = serverAddressOn(server, draft.key.interface, draft.key.address);
  const reason = wrongInterfaceReason(expected, seen, nodeName);
  if (reason !== undefined) {
    addMark(draft, {
      code: 'wrong-interface',
      host: server.host,
      message: `The run's traffic did not use interface ${draft.key.interface} (${expected}): ${reason} (seen in ${[...(kernelSeen.size > 0 ? [`${procNetSource}{,6}`] : []), ...(stackSeen.size > 0 ? [stackdumpSource] : [])].join(' and ')}).`,
    });
    options.log('warn', `${draft.id}: ${server.host}: wrong interface: ${reason}`);
  }
  if (!options.onload) return;
  const run = judgeRunAcceleration(samples, stackdumpProblem);
  record.runAcceleration = run;
  if (run.verdict === 'accelerated') return;
  if (run.verdict === 'unverified') {
    if (draft.accelerated === true) draft.accelerated = null;
    addMark(draft, {
      code: 'acceleration-unverified',
      host: server.host,
      message: `The run's traffic could not be shown to be on Onload: ${run.evidence}.`,
    });
  } else {
    draft.accelerated = false;
    addMark(draft, {
      code: run.verdict,
      host: server.host,
      message:
        run.verdict === 'not-accelerated'
          ? `The run's traffic did not go through Onload although memcached's listener is in a stack: ${run.evidence}.`
          : `Only part of the run's traffic went through Onload: ${run.evidence}.`,
    });
  }
  options.log('warn', `${draft.id}: ${server.host}: ${run.verdict}: ${run.evidence}`);
}
