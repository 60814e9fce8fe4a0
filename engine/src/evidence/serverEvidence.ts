// What a cell's record says about its server (evidence.server[host]) and the marks that follow:
// how it was started and as whom, the limits and cgroup memcached really has (REAL-LAB C1, H3),
// whether it was accelerated and by what evidence (O1, O2, O5), the EF_* settings it runs with
// against the profile's analysis (O4), and which local addresses carried the run's traffic (C7).
// The sweep calls these; each check lives in its own file.
import { checkAcceleration } from './acceleration';
import { armDifferences, pointKey, type ArmFacts } from './armsAlike';
import { localAddresses, wrongInterfaceReason } from './interfaceTraffic';
import { addMark } from './marks';
import type { CellKey, CellResult } from '../model';
import { describeDifferences, environmentDifferences } from './onloadEnvironment';
import type { ResolvedServer } from '../plan/planSchema';
import type { ServerStart } from '../server/serverControl';
import { sleep } from '../server/serverControl';
import { connectionsScript, parseServerProcessFacts, processEvidence, readServerProcess, type TcpEndpoint } from '../server/serverProcess';
import { nodeStatus } from '../server/serverRestartProof';
import type { RemoteSession } from '../remote/ssh';

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
  log: Log;
  signal?: AbortSignal;
}): Promise<boolean | undefined> {
  const { session, server, key, draft, log } = options;
  const host = server.host;
  const record = serverEvidence(draft, host);
  if (options.start) record.start = options.start;
  const facts = await readServerProcess(session, server, 'check-acceleration', options.signal);
  record.process = processEvidence(facts);
  const check = await checkAcceleration(session, server, facts, options.signal);
  record.acceleration = { accelerated: check.accelerated ?? 'unverified', evidence: check.evidence, stacks: check.stacks, rights: check.rights };
  const kernel = options.profileSettings === undefined;
  if (kernel && check.accelerated === true) {
    addMark(draft, { code: 'accelerated-kernel', host, message: `The kernel arm runs on Onload: ${check.evidence}.` });
  }
  if (!kernel && check.accelerated === undefined) {
    addMark(draft, { code: 'acceleration-unverified', host, message: `Could not verify that Couchbase runs on Onload: ${check.evidence}.` });
  }
  const verdict = check.accelerated === true ? (kernel ? 'ACCELERATED although this is the kernel arm' : 'accelerated') : check.accelerated === false ? (kernel ? 'kernel stack' : 'NOT accelerated') : 'acceleration unverified';
  log((check.accelerated === false && !kernel) || (check.accelerated === true && kernel) ? 'warn' : 'info', `${draft.id}: ${host}: ${verdict}: ${check.evidence}`);
  if (!kernel && facts.efEnvironment !== undefined) {
    const differences = environmentDifferences(options.profileSettings ?? {}, facts.efEnvironment);
    record.environmentDifferences = differences;
    if (differences.length > 0) {
      const text = describeDifferences(differences);
      addMark(draft, { code: 'environment-differs', host, message: `memcached does not run with the profile's settings: ${text}.` });
      log('warn', `${draft.id}: ${host}: memcached's EF_* environment differs from the profile ${key.stack}: ${text}`);
    }
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
  log: Log;
  signal?: AbortSignal;
}): Promise<void> {
  const { key, draft } = options;
  const verdicts = await Promise.all(
    options.servers.map((server) => observeServer({ session: options.pool.get(server.host), server, key, draft, start: options.starts.get(server.host), profileSettings: options.profileSettings, log: options.log, ...(options.signal ? { signal: options.signal } : {}) })),
  );
  if (key.stack !== 'kernel') draft.accelerated = verdicts.some((verdict) => verdict === false) ? false : verdicts.every((verdict) => verdict === true) ? true : null;
}

/** Remembers each kernel arm's facts and marks a later arm of the same point that differs (H3). */
export class ArmsRegister {
  private readonly kernelArms = new Map<string, Map<string, ArmFacts>>();

  /** Records a finished cell (also the results read back on resume). */
  remember(result: Pick<CellResult, 'key' | 'evidence'>): void {
    if (result.key.stack !== 'kernel') return;
    const hosts = new Map<string, ArmFacts>();
    for (const [host, value] of Object.entries((result.evidence?.server ?? {}) as Record<string, Record<string, unknown>>)) hosts.set(host, armFacts(value));
    if (hosts.size > 0) this.kernelArms.set(pointKey(result.key), hosts);
  }

  /** Marks `draft` `arms-differ` when its server ran unlike the kernel arm of its point. */
  compare(draft: CellResult, log: Log): void {
    if (draft.key.stack === 'kernel') return;
    const kernel = this.kernelArms.get(pointKey(draft.key));
    if (!kernel) return;
    for (const [host, value] of Object.entries((draft.evidence?.server ?? {}) as Record<string, Record<string, unknown>>)) {
      const reference = kernel.get(host);
      if (!reference) continue;
      const differences = armDifferences(reference, armFacts(value));
      if (differences.length === 0) continue;
      addMark(draft, { code: 'arms-differ', host, message: `The ${draft.key.stack} arm's server differs from the kernel arm in more than the stack: ${differences.join('; ')}.` });
      log('warn', `${draft.id}: ${host}: arms differ: ${differences.join('; ')}`);
    }
  }
}

function armFacts(record: Record<string, unknown>): ArmFacts {
  const process = (record.process ?? {}) as ArmFacts;
  const start = record.start as { mode?: string } | undefined;
  return { ...(process.user !== undefined ? { user: process.user } : {}), ...(process.limits ? { limits: process.limits } : {}), ...(process.cgroup !== undefined ? { cgroup: process.cgroup } : {}), ...(start ? { start } : {}) };
}

/** The KV port's established connections now (before a run: the baseline to leave out). */
export async function sampleKvConnections(session: RemoteSession, server: ResolvedServer, signal?: AbortSignal): Promise<TcpEndpoint[]> {
  const result = await session.run(connectionsScript(server.kvPort), { step: 'ycsb-run', ...(signal ? { signal } : {}) }).catch(() => undefined);
  return result ? parseServerProcessFacts(result.stdout).connections : [];
}

/**
 * Samples the KV port's established connections on the server while `running` is pending (C7),
 * leaving out those open before the run (the engine's own management connections), then records
 * the local addresses and marks the cell when they are not its interface's address.
 */
export async function watchInterfaceTraffic(options: { session: RemoteSession; server: ResolvedServer; draft: CellResult; password: string; baseline: TcpEndpoint[]; running: Promise<unknown>; log: Log; signal?: AbortSignal }): Promise<void> {
  const { session, server, draft } = options;
  const before = new Set(options.baseline.map((connection) => `${connection.local} ${connection.remote}`));
  let finished = false;
  void options.running.finally(() => (finished = true)).catch(() => undefined);
  const samples: TcpEndpoint[][] = [];
  const nodeName = await nodeStatus(server, options.password, options.signal).then((status) => status.hostname).catch(() => undefined);
  for (let round = 0; !finished && round < 10_000; round++) {
    if (options.signal?.aborted) return;
    const sample = await sampleKvConnections(session, server, options.signal);
    samples.push(sample.filter((connection) => !before.has(`${connection.local} ${connection.remote}`)));
    await Promise.race([sleep(500, options.signal), options.running.catch(() => undefined)]);
  }
  const seen = localAddresses(samples);
  const record = serverEvidence(draft, server.host);
  record.traffic = { samples: samples.length, localAddresses: Object.fromEntries(seen), ...(nodeName !== undefined ? { nodeName } : {}) };
  const reason = wrongInterfaceReason(draft.key.address, seen, nodeName);
  if (reason !== undefined) {
    addMark(draft, { code: 'wrong-interface', host: server.host, message: `The run's traffic did not use interface ${draft.key.interface} (${draft.key.address}): ${reason}.` });
    options.log('warn', `${draft.id}: ${server.host}: wrong interface: ${reason}`);
  }
}
