// The run phase's evidence for one cell, around YCSB's run phase (runPhaseWithEvidence, what the
// sweep calls): CPU samplers started before it and stopped after it (cpuSampler.ts), YCSB's HDR
// interval logs written into a per-cell folder on each client and fetched back into the cell's log
// folder (hdrMerge.ts), status lines kept per client (ycsbTimeSeries.ts), the server's KV
// connections watched (serverEvidence.ts). Then one pure step turns it all into evidence and marks.
import type { ClientIoSpin } from './clientIoSpin';
import {
  startSampler,
  clientProcessFinder,
  samplerGraceSec,
  serverProcessFinder,
  type RunningSampler,
} from './cpuSampler';
import { cpuEvidence, type SamplerOutput } from './cpuStat';
import {
  applyMergedPercentiles,
  hdrCountMarks,
  hdrEvidence,
  hdrOperationOf,
  mergeHdrLogs,
  type HdrLogFile,
} from './hdrMerge';
import { clockAgreement, clockSpreadLimitMs, cpuAlignment } from './measuredWindow';
import type { CellEvidence, CellKey, CellMark, CpuEvidence, YcsbReport } from '../model';
import type { ResolvedClient, ResolvedPlan, ResolvedServer } from '../plan/planSchema';
import { serverAddressOn } from '../plan/clusterSizes';
import { serverPidFile } from '../server/serverControl';
import { connectionsScript, type TcpEndpoint } from '../server/serverProcess';
import { sampleConnections, watchInterfaceTraffic, type TrafficWatch } from './serverEvidence';
import type { RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';
import { batchScript, splitBatch } from '../remote/batchScript';
import { killGroupScript } from '../remote/remoteProcess';
import { EngineFailure } from '../errors';
import { reportsOf, type ClientPhase, type PhaseKeys, type RunningClients } from '../ycsb/cellPhases';
import { combineClientReports } from '../ycsb/combine';
import { ycsbPidFile } from '../ycsb/ycsbRun';
import type { YcsbStatus } from '../ycsb/ycsbStatus';
import { timeSeriesEvidence } from '../ycsb/ycsbTimeSeries';

/** Where YCSB writes the cell's HDR logs on a client (hdrhistogram.output.path is a prefix: keep the slash). */
export function hdrRemoteDir(client: ResolvedClient, cellId: string, attempt: number): string {
  return `${client.workDir}/hdr/${cellId}/attempt${attempt}`;
}

/** YCSB 0.17 OneMeasurementHdrHistogram: `<path><NAME>.hdr` per measurement when fileoutput is true. */
export function hdrProperties(remoteDir: string): Record<string, string> {
  return { 'hdrhistogram.fileoutput': 'true', 'hdrhistogram.output.path': `${remoteDir}/` };
}

/**
 * A fresh, empty folder: YCSB does not create it (FileOutputStream fails on a missing folder). Run
 * in YCSB's own round trip, before it starts: one round trip fewer per client and cell.
 */
export function hdrDirSetup(remoteDir: string): string {
  return `rm -rf ${shellQuote(remoteDir)} && mkdir -p ${shellQuote(remoteDir)}`;
}

/** Prints every `.hdr` file of the folder (`@@hdr-file NAME` sections), then removes the folder. */
export function hdrFetchScript(remoteDir: string): string {
  const dir = shellQuote(remoteDir);
  return `cd ${dir} 2>/dev/null || exit 0\nfor f in *.hdr; do [ -f "$f" ] || continue; echo "@@hdr-file $f"; cat "$f"; echo; done\ncd / && rm -rf ${dir}`;
}

/**
 * The end of a client's run in one round trip (round trips are much of a cell's time): its CPU
 * sampler's group stopped (killGroupScript) and its HDR logs read, then their folder removed. The
 * sampler's output is still read by its own `finish()`; a stop that failed is left to the sweep's
 * cleanup.
 */
export async function stopSamplerAndFetchHdr(
  session: RemoteSession,
  samplerPidFile: string,
  remoteDir: string,
): Promise<{ name: string; text: string }[]> {
  // not the run's signal: the sampler must be stopped even when the run is being cancelled
  const result = await session.run(
    batchScript([
      { name: 'sampler', script: killGroupScript(samplerPidFile, samplerGraceSec) },
      { name: 'hdr', script: hdrFetchScript(remoteDir) },
    ]),
    { step: 'fetch-hdr', signal: AbortSignal.timeout(30_000) },
  );
  return parseHdrBundle(splitBatch(result.stdout).get('hdr')?.text ?? '');
}

/** Splits `@@hdr-file NAME` sections. Pure. */
export function parseHdrBundle(output: string): { name: string; text: string }[] {
  const files: { name: string; text: string }[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current) files.push({ name: current.name, text: `${current.lines.join('\n').trimEnd()}\n` });
  };
  for (const line of output.split('\n')) {
    if (line.startsWith('@@hdr-file ')) {
      flush();
      current = { name: line.slice('@@hdr-file '.length).trim(), lines: [] };
    } else if (current) current.lines.push(line);
  }
  flush();
  return files.filter((file) => hdrOperationOf(file.name) !== undefined);
}

export interface CellSamplers {
  stop(): Promise<{ host: string; role: 'server' | 'client'; output: SamplerOutput }[]>;
  /**
   * The end of a run: the servers' samplers stopped, each client's in the same round trip as
   * `alongside` (its HDR fetch); resolves once all have finished, with the fetches' outcomes.
   */
  stopWith<T>(alongside: (client: ResolvedClient, samplerPidFile: string) => Promise<T>): Promise<{
    samplers: { host: string; role: 'server' | 'client'; output: SamplerOutput }[];
    alongside: PromiseSettledResult<Awaited<T>>[];
  }>;
}

export function samplerPidFile(workDir: string, role: 'server' | 'client'): string {
  return `${workDir}/cpu-sampler-${role}.pid`;
}

/** Starts one sampler per server and client host for the run phase of `key`. */
export function startCellSamplers(
  pool: { get(host: string): RemoteSession },
  plan: ResolvedPlan,
  key: CellKey,
  signal?: AbortSignal,
  memcachedPids: Record<string, number | undefined> = {},
): CellSamplers {
  const maxSamples = plan.timeouts.cellSec + 120;
  const running: { role: 'server' | 'client'; client?: ResolvedClient; sampler: RunningSampler }[] = [
    ...plan.servers.map((server: ResolvedServer) => ({
      role: 'server' as const,
      sampler: startSampler(
        pool.get(server.host),
        {
          role: 'server',
          address: serverAddressOn(server, key.interface, key.address),
          findProcess: serverProcessFinder(
            serverPidFile(server),
            server.acceleratedProcess,
            server.kvPort,
            memcachedPids[server.host],
          ),
          preferredName: server.acceleratedProcess,
          pidFile: samplerPidFile(server.workDir, 'server'),
          maxSamples,
        },
        signal,
      ),
    })),
    ...plan.clients.map((client) => ({
      role: 'client' as const,
      client,
      sampler: startSampler(
        pool.get(client.host),
        {
          role: 'client',
          address: key.address,
          findProcess: clientProcessFinder(ycsbPidFile(client, 'run')),
          preferredName: 'java',
          pidFile: samplerPidFile(client.workDir, 'client'),
          maxSamples,
        },
        signal,
      ),
    })),
  ];
  return {
    stop: () =>
      Promise.all(
        running.map(async ({ role, sampler }) => ({ host: sampler.host, role, output: await sampler.stop() })),
      ),
    async stopWith(alongside) {
      const ended = await Promise.all(
        running.map(async ({ role, client, sampler }) => {
          if (!client) return { sampler: { host: sampler.host, role, output: await sampler.stop() } };
          const [settled] = await Promise.allSettled([alongside(client, sampler.pidFile)]);
          // the shared trip failed: the sampler is stopped on its own trip
          const output = settled.status === 'fulfilled' ? await sampler.finish() : await sampler.stop();
          return { sampler: { host: sampler.host, role, output }, settled };
        }),
      );
      return {
        samplers: ended.map((entry) => entry.sampler),
        alongside: ended.flatMap((entry) => (entry.settled ? [entry.settled] : [])),
      };
    },
  };
}

/** What the run phase's evidence says: the report with its percentiles' source, evidence.timeseries and .cpu, marks. */
export interface RunEvidence {
  run?: YcsbReport;
  evidence: Pick<CellEvidence, 'timeseries' | 'cpu'>;
  marks: CellMark[];
}

/**
 * The cell's evidence.cpu and evidence.timeseries; the combined run report with the merged HDR
 * percentiles (or labelled as the clients' maximum); the client-bound, warmup-too-short,
 * hdr-count-differs and *-cpu-unverified / cpu-window-unverified marks. The CPU means cover YCSB's
 * own run, placed by its status lines on each host's clock (measuredWindow.ts). Pure: the clients'
 * reports are left as they are.
 */
export function runEvidence(
  reports: { clients: { host: string; report: YcsbReport }[]; run?: YcsbReport },
  inputs: {
    samplers: { host: string; role: 'server' | 'client'; output: SamplerOutput }[];
    statusByHost: Record<string, YcsbStatus[]>;
    hdrFiles: HdrLogFile[];
    warmupSec: number;
    clientIoSpin?: ClientIoSpin;
  },
): RunEvidence {
  const { clients } = reports;
  const marks: CellMark[] = [];
  const warmup = inputs.warmupSec > 0 ? inputs.warmupSec : undefined;
  const series = timeSeriesEvidence(inputs.statusByHost, warmup);
  marks.push(...series.marks);
  const timeseries = series.evidence;
  // each client's logs against its own report: a count the logs miss is recorded and marked, never hidden
  const hdr = hdrEvidence(inputs.hdrFiles, inputs.warmupSec, clients);
  if (hdr) {
    timeseries.hdr = hdr;
    marks.push(...hdrCountMarks(hdr.counts ?? []));
  }
  let run = reports.run;
  if (run && inputs.hdrFiles.length > 0) {
    if (clients.length === 1 && run === clients[0].report) run = structuredClone(run);
    applyMergedPercentiles(run, mergeHdrLogs(inputs.hdrFiles, inputs.warmupSec));
  }
  const throughput = timeseries.throughputAfterWarmupOpsPerSec ?? run?.throughputOpsPerSec;
  // the CPU means over YCSB's own run (its status lines), the warm-up counted from its start
  const clocks = Object.fromEntries(
    inputs.samplers
      .filter((sampler) => sampler.role === 'client')
      .map((sampler) => [sampler.host, sampler.output.clock]),
  );
  const cpu = cpuEvidence(
    inputs.samplers,
    throughput,
    inputs.warmupSec,
    cpuAlignment(inputs.statusByHost, clocks),
    inputs.clientIoSpin,
  );
  marks.push(...cpu.marks, ...clockMarks(inputs.samplers, cpu.evidence));
  return {
    ...(run ? { run } : {}),
    evidence: { timeseries, ...(Object.keys(cpu.evidence.hosts).length > 0 ? { cpu: cpu.evidence } : {}) },
    marks,
  };
}

/**
 * The servers' window is the clients' YCSB clock read on the servers' clocks: measured, not
 * assumed. Records the offsets on `cpu.window`; hosts whose clocks disagree get their servers marked.
 */
function clockMarks(
  samplers: { host: string; role: 'server' | 'client'; output: SamplerOutput }[],
  cpu: CpuEvidence,
): CellMark[] {
  const clocksAgree = clockAgreement(samplers);
  if (!clocksAgree || !cpu.window) return [];
  cpu.window.clockOffsetsMs = clocksAgree.offsetsMs;
  if (clocksAgree.spreadMs <= clockSpreadLimitMs || cpu.window.source !== 'ycsb-status-lines') return [];
  const servers = samplers.filter((sampler) => sampler.role === 'server' && cpu.hosts[sampler.host]);
  const offsets = Object.entries(clocksAgree.offsetsMs)
    .map(([host, offset]) => `${host} ${offset >= 0 ? '+' : ''}${offset} ms`)
    .join(', ');
  return servers.map((server) => ({
    code: 'cpu-window-unverified',
    host: server.host,
    message: `the hosts' clocks disagree by ${(clocksAgree.spreadMs / 1000).toFixed(1)} s (against this workstation's when the samplers started: ${offsets}): ${server.host}'s CPU window, YCSB's run as the clients' clocks stamp it, may be off by that much (synchronise the hosts' clocks, e.g. chrony).`,
  }));
}

export interface RunPhaseEvidenceContext {
  pool: { get(host: string): RemoteSession };
  plan: ResolvedPlan;
  cellId: string;
  key: CellKey;
  attempt: number;
  /** memcached's pid per server, as the servers' look found it (its sampler, Onload's view). */
  memcachedPids: Record<string, number | undefined>;
  /** The Couchbase admin password, for the traffic watch's REST reads. */
  password: string;
  signal: AbortSignal;
  log: (level: 'info' | 'warn', message: string) => void;
  /**
   * Writes a file into the cell's log folder as `attempt<N>-<host>-<name>`, lists it with the
   * cell's logs and returns its path in the run folder.
   */
  keepLog(host: string, name: string, text: string): Promise<string>;
  /** Dry run: told each step it skips for want of a network. */
  skipped?: (host: string, step: string) => void;
  /** Unit tests and the dry run: no KV connection sampling, no traffic watch. */
  skipNetwork?: boolean;
  /** The clients' IO threads that spin by design (clientIoSpin.ts), left out of the client-bound check. */
  clientIoSpin?: ClientIoSpin;
}

/** The run phase's part of a cell. */
export interface RunPhasePart {
  /** The keys each client's run was given (evidence.ycsb.keys). */
  keys: PhaseKeys;
  /** Each client's run report and the combined one: absent when no client reported. */
  clients?: { host: string; report: YcsbReport }[];
  run?: YcsbReport;
  /** evidence.timeseries and evidence.cpu. */
  evidence: Pick<CellEvidence, 'timeseries' | 'cpu'>;
  /** Per server host: what the traffic watch adds to evidence.server[host]. */
  traffic: Record<string, NonNullable<TrafficWatch['record']>>;
  /** The traffic watch's marks, then the run evidence's. */
  marks: CellMark[];
  /** The first client's failure, once the evidence is in. */
  failure?: unknown;
}

/** Starts the run phase on every client (cellPhases.ts runClients) with the extras it is given. */
export type StartRun = (
  extrasFor: (client: ResolvedClient) => { properties: Record<string, string>; statuses: YcsbStatus[]; setup: string },
) => RunningClients;

/**
 * YCSB's run phase on every client (`startRun`) with its evidence around it: HDR logs into a
 * fresh folder per client, the CPU samplers, the server's KV connections watched (REAL-LAB C7);
 * then the combined report, the merged percentiles, the CPU and time-series evidence and their
 * marks. A client's failure comes with the evidence that was gathered.
 */
export async function runPhaseWithEvidence(
  context: RunPhaseEvidenceContext,
  startRun: StartRun,
): Promise<RunPhasePart> {
  const { pool, plan, key, cellId, attempt, signal } = context;
  const statusByHost: Record<string, YcsbStatus[]> = {};
  for (const server of plan.servers)
    context.skipped?.(
      server.host,
      `during the run phase, every 0.5 s: ${connectionsScript(server.kvPort).replace(/\n/g, '; ')}`,
    );
  const baselines = await connectionBaselines(context);
  const samplers = startCellSamplers(pool, plan, key, signal, context.memcachedPids);
  let running: RunningClients | undefined;
  let watching: Promise<ServersTraffic> = Promise.resolve({ traffic: {}, marks: [] });
  let runs: ClientPhase[];
  try {
    running = startRun((client) => ({
      properties: hdrProperties(hdrRemoteDir(client, cellId, attempt)),
      statuses: (statusByHost[client.host] = []),
      setup: hdrDirSetup(hdrRemoteDir(client, cellId, attempt)),
    }));
    watching = watchServers(context, baselines, running.done);
    runs = await running.done;
  } catch (failure) {
    const [traffic] = await Promise.all([watching, samplers.stop()]);
    return { keys: running?.keys ?? {}, evidence: {}, ...traffic, failure };
  }
  // the samplers stopped, the HDR logs fetched and the traffic watch's last look finished
  // together; on each client the sampler's stop and the HDR fetch are one round trip (the fetch
  // also empties the client's folder); the evidence is judged once all are in
  const [stopped, traffic] = await Promise.all([
    samplers
      .stopWith((client, pidFile) =>
        stopSamplerAndFetchHdr(pool.get(client.host), pidFile, hdrRemoteDir(client, cellId, attempt)),
      )
      .then(
        (value) => ({ value }),
        (reason: unknown) => ({ reason }),
      ),
    watching,
  ]);
  if ('reason' in stopped) return { keys: running.keys, evidence: {}, ...traffic, failure: stopped.reason };
  const hdrFiles = await keepHdrLogs(context, stopped.value.alongside);
  const reports = reportsOf(runs);
  const failed = runs.find((entry) => entry.outcome.error)?.outcome.error;
  const part = { keys: running.keys, ...(failed ? { failure: failed } : {}) };
  if (reports.length === 0) return { ...part, evidence: {}, ...traffic };
  const combined = { clients: reports, run: reports.length === 1 ? reports[0].report : combineClientReports(reports) };
  const judged = runEvidence(combined, {
    samplers: stopped.value.samplers,
    statusByHost,
    hdrFiles,
    warmupSec: plan.warmupSec,
    ...(context.clientIoSpin ? { clientIoSpin: context.clientIoSpin } : {}),
  });
  return {
    ...part,
    clients: reports,
    ...(judged.run ? { run: judged.run } : {}),
    evidence: judged.evidence,
    traffic: traffic.traffic,
    marks: [...traffic.marks, ...judged.marks],
  };
}

/**
 * What the run needs first, on every server at once: the KV connections open before it (the
 * kernel's and, in an Onload cell, Onload's view in one round trip per server; accelerated ones
 * are in no /proc/net, REAL-LAB O6). The clients' HDR folders are made in YCSB's own round trip.
 */
async function connectionBaselines(
  context: RunPhaseEvidenceContext,
): Promise<{ kernel: TcpEndpoint[]; stack: TcpEndpoint[] }[]> {
  if (context.skipNetwork) return [];
  const onloadCell = context.key.stack !== 'kernel';
  const sampled = await Promise.all(
    context.plan.servers.map((server) =>
      sampleConnections(
        context.pool.get(server.host),
        server,
        onloadCell ? { memcachedPid: context.memcachedPids[server.host] } : undefined,
        context.signal,
      ),
    ),
  );
  return sampled.map((sample) => ({ kernel: sample.kernel, stack: sample.stack?.connections ?? [] }));
}

/** What the servers' traffic watches found: their records by host, their marks in the order the watches ended. */
interface ServersTraffic {
  traffic: Record<string, NonNullable<TrafficWatch['record']>>;
  marks: CellMark[];
}

/** Each server's traffic watch while the run goes on; watches that fail leave no record. */
async function watchServers(
  context: RunPhaseEvidenceContext,
  baselines: { kernel: TcpEndpoint[]; stack: TcpEndpoint[] }[],
  running: Promise<unknown>,
): Promise<ServersTraffic> {
  const found: ServersTraffic = { traffic: {}, marks: [] };
  if (context.skipNetwork) return found;
  const onloadCell = context.key.stack !== 'kernel';
  await Promise.all(
    context.plan.servers.map(async (server, index) => {
      const memcachedPid = context.memcachedPids[server.host];
      const watch = await watchInterfaceTraffic({
        session: context.pool.get(server.host),
        server,
        key: context.key,
        cellId: context.cellId,
        password: context.password,
        baseline: baselines[index]?.kernel ?? [],
        ...(onloadCell
          ? {
              stackBaseline: baselines[index]?.stack ?? [],
              onload: { ...(memcachedPid !== undefined ? { memcachedPid } : {}) },
            }
          : {}),
        running,
        log: context.log,
        signal: context.signal,
      });
      if (watch.record) found.traffic[server.host] = watch.record;
      found.marks.push(...watch.marks);
    }),
  ).catch(() => undefined);
  return found;
}

/**
 * Each client's HDR logs of the run phase (`fetched`, in the clients' order), kept in the cell's log
 * folder and listed with its logs; none when a client has none or cannot be read.
 */
async function keepHdrLogs(
  context: RunPhaseEvidenceContext,
  fetched: PromiseSettledResult<{ name: string; text: string }[]>[],
): Promise<HdrLogFile[]> {
  if (context.signal.aborted)
    throw new EngineFailure({
      code: 'cancelled',
      step: 'fetch-hdr',
      message: 'Cancelled.',
      action: 'Resume the run when ready.',
    });
  const files: HdrLogFile[] = [];
  for (const [index, entry] of fetched.entries()) {
    const client = context.plan.clients[index];
    try {
      if (entry.status === 'rejected') throw entry.reason;
      for (const { name, text } of entry.value) {
        const file = await context.keepLog(client.host, `hdr/${name}`, text);
        files.push({ host: client.host, operation: hdrOperationOf(name) as string, file, text });
      }
    } catch (error) {
      if (context.signal.aborted) throw error;
      context.log(
        'warn',
        `${context.cellId}: ${client.host}: could not fetch the HDR logs (${(error as Error).message}); percentiles stay the clients' maximum.`,
      );
    }
  }
  return files;
}
