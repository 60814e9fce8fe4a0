// A cell's steps (cell.ts) bound to its run: the sessions, the run's options and seams, what
// pre-flight found, the servers' last starts, the kernel arms seen so far, the cell's log folder and
// the events. A cell of a size sees the plan as its cluster does (plan/clusterSizes.ts planForCell):
// its members as its servers, min(requested, N − 1) replicas.
import { prepareCellBucket, settleAfterLoad, type CellBucketContext } from '../couchbase/cellBucket';
import { formCellCluster, readBucketSpread } from '../couchbase/cellCluster';
import { RebalanceFailure } from '../couchbase/clusterResizeSteps';
import type { SweepEvent } from '../events';
import { runPhaseWithEvidence, type RunPhaseEvidenceContext } from '../evidence/cellEvidence';
import { clientIoSpinOf } from '../evidence/clientIoSpin';
import { memcachedPids, observeServers, type ArmsRegister, type ServerObservation } from '../evidence/serverEvidence';
import type { CellKey, ClusterEvidence } from '../model';
import type { RunSweepOptions } from '../options';
import { planForCell } from '../plan/clusterSizes';
import type { ResolvedPlan } from '../plan/planSchema';
import type { SessionPool } from '../remote/ssh';
import { logFolderName } from '../results/logFolders';
import { writeLog, type ResultsIo } from '../results/resultsStore';
import type { ServerStartRecord } from '../server/serverOnStack';
import { loadClients, runClients, type CellPhasesContext, type RunExtras } from '../ycsb/cellPhases';
import type { BucketLogin } from '../ycsb/ycsbBinding';
import type { HdrSupport } from '../ycsb/ycsbHdrSupport';
import type { YcsbLauncher } from '../ycsb/ycsbLauncher';
import { effectiveWorkload, workloadScans } from '../ycsb/ycsbPhaseProperties';
import type { CellSteps } from './cell';
import { ycsbSetup } from './cellRecord';
import type { SweepSeams } from './sweepSeams';

export interface Cell {
  id: string;
  key: CellKey;
  index: number;
}

/** What a cell's steps use of their run (sweepRun.ts). */
export interface CellRun {
  readonly plan: ResolvedPlan;
  readonly runDir: string;
  readonly options: RunSweepOptions;
  readonly seams: SweepSeams;
  readonly pool: SessionPool;
  readonly io: ResultsIo;
  readonly launchers: Map<string, YcsbLauncher>;
  readonly hdrSupport: Map<string, HdrSupport>;
  /** The profiles' analysed settings (manifest.environment.profiles), to compare memcached's EF_*. */
  readonly profileSettings: Record<string, Record<string, string>>;
  readonly arms: ArmsRegister;
  readonly serverStarts: Map<string, ServerStartRecord>;
  readonly ycsbVersions: Map<string, string>;
  /** The stack Couchbase runs on now, when known. */
  readonly serverStack: string | undefined;
  /** The workload file as uploaded. */
  readonly workloadText: string;
  emit(event: SweepEvent): void;
  log(level: 'info' | 'warn' | 'error' | 'debug', message: string): void;
  redact(text: string): string;
  /** YCSB's login for the current cell: its password is redacted like the admin's. */
  useLogin(login: BucketLogin): void;
  putServersOn(stack: string, signal?: AbortSignal): Promise<void>;
}

/** The cell's log folder: each file written as `attempt<N>-<name>` and listed in `logs`. */
function logFolder(
  run: CellRun,
  cell: Cell,
  attempt: number,
  logs: string[],
): (name: string, text: string) => Promise<string> {
  return async (name, text) => {
    const path = await writeLog(
      run.runDir,
      `${logFolderName(cell.id)}/attempt${attempt}-${name}`,
      run.redact(text),
      run.io,
    );
    logs.push(path);
    return path;
  };
}

/** The steps of one attempt of `cell`; `logs` lists every file it keeps. */
export function cellSteps(run: CellRun, cell: Cell, attempt: number, logs: string[]): CellSteps {
  const { key, id } = cell;
  const { signal } = run.options;
  const plan = planForCell(run.plan, key.clusterSize);
  const log = (level: 'info' | 'warn', message: string): void => run.log(level, message);
  const keep = logFolder(run, cell, attempt, logs);
  const keepLog = (host: string, name: string, text: string): Promise<string> =>
    keep(`${host.replace(/[^A-Za-z0-9._-]/g, '_')}-${name}`, text);
  const workload = effectiveWorkload(run.workloadText, plan.workload.properties, key.axes);
  const bucketContext: CellBucketContext = {
    server: plan.servers[0],
    password: run.options.password,
    bucket: plan.bucket,
    readySec: run.options.timeouts?.bucketReadySec ?? plan.timeouts.bucketReadySec,
    signal,
    ...(run.seams.bucket ? { seam: run.seams.bucket } : {}),
  };
  const phases = (login: BucketLogin | undefined): CellPhasesContext =>
    phasesContext(run, plan, key, id, { workload, login, keepLog });
  return {
    key,
    phase: (name) => run.emit({ type: 'phase', id, phase: name }),
    restartNeeded: plan.restartServer === 'every-cell' || run.serverStack !== key.stack || attempt > 1,
    putServersOnStack: () => run.putServersOn(key.stack, signal),
    ycsbSetup: () => ycsbSetup(plan, run.launchers, run.hdrSupport),
    formCluster: (size) => formCluster(run, id, size, keep),
    observeServers: () =>
      observeServers({
        pool: run.pool,
        servers: plan.servers,
        key,
        cellId: id,
        starts: run.serverStarts,
        profileSettings: key.stack === 'kernel' ? undefined : (run.profileSettings[key.stack] ?? {}),
        // memcached may start well after REST answered (REAL-LAB C9): looked for until the start's
        // own deadline, at most 2 min
        waitSec: Math.min(plan.timeouts.serverStartSec, 120),
        log,
        signal,
      }),
    compareArms: (servers) => run.arms.compare(key, id, servers.servers, log),
    prepareBucket: async () => {
      const bucket = await prepareCellBucket(bucketContext, workloadScans(workload));
      if (bucket.login) run.useLogin(bucket.login);
      return bucket;
    },
    load: (login) => loadClients(phases(login)),
    settle: (expected) => settleAfterLoad(bucketContext, expected, workloadScans(workload)),
    spread: () =>
      run.seams.cluster ? run.seams.cluster.spread() : readBucketSpread(restTarget(run), plan.bucket.name),
    runWithEvidence: (login, servers) => runWithEvidence(run, plan, cell, attempt, phases(login), servers),
  };
}

/** The first server's REST API as the admin: the one every cluster size holds. */
function restTarget(run: CellRun): { server: ResolvedPlan['servers'][number]; password: string; signal: AbortSignal } {
  return { server: run.plan.servers[0], password: run.options.password, signal: run.options.signal };
}

/**
 * Forms the cell's cluster (cellCluster.ts); a rebalance that failed or hung keeps ns_server's
 * report in the cell's logs, and its message is the cell's error.
 */
async function formCluster(
  run: CellRun,
  cellId: string,
  size: number,
  keep: (name: string, text: string) => Promise<string>,
): Promise<ClusterEvidence> {
  if (run.seams.cluster) return run.seams.cluster.form(size);
  try {
    const evidence = await formCellCluster(
      restTarget(run),
      run.plan,
      size,
      run.options.timeouts?.bucketReadySec ?? run.plan.timeouts.bucketReadySec,
      run.seams.resize,
    );
    const rebalance =
      evidence.rebalance.outcome === 'balanced'
        ? `rebalanced in ${Math.round(evidence.rebalance.ms)} ms (added ${evidence.added.length}, ejected ${evidence.ejected.length})`
        : 'already formed';
    run.log('info', `${cellId}: cluster of ${size} node${size === 1 ? '' : 's'} ${rebalance}.`);
    return evidence;
  } catch (error) {
    if (error instanceof RebalanceFailure && error.report !== undefined)
      await keep('rebalance-report.json', error.report);
    throw error;
  }
}

/** What a cell's YCSB phases need from the run: sessions, launchers, the login, events and the cell's log folder. */
function phasesContext(
  run: CellRun,
  plan: ResolvedPlan,
  key: CellKey,
  cellId: string,
  cell: Pick<CellPhasesContext, 'workload' | 'login' | 'keepLog'>,
): CellPhasesContext {
  return {
    plan,
    session: (host) => run.pool.get(host),
    key,
    ...cell,
    launchers: run.launchers,
    timeoutSec: run.options.timeouts?.cellSec ?? run.plan.timeouts.cellSec,
    signal: run.options.signal,
    onStatus: (host, phase, status, line) =>
      run.emit({
        type: 'status',
        id: cellId,
        host,
        phase,
        status: {
          elapsedSec: status.elapsedSec,
          operations: status.operations,
          currentOpsPerSec: status.currentOpsPerSec,
        },
        line: run.redact(line),
      }),
    versions: run.ycsbVersions,
  };
}

/**
 * The run phase on every client with its evidence (cellEvidence.ts); clients whose YCSB cannot write
 * HDR logs (ycsbHdrSupport.ts) run without them.
 */
function runWithEvidence(
  run: CellRun,
  plan: ResolvedPlan,
  cell: Cell,
  attempt: number,
  phases: CellPhasesContext,
  servers: ServerObservation,
): ReturnType<typeof runPhaseWithEvidence> {
  const context: RunPhaseEvidenceContext = {
    pool: run.pool,
    plan,
    cellId: cell.id,
    key: cell.key,
    attempt,
    memcachedPids: memcachedPids(servers.servers),
    password: run.options.password,
    signal: run.options.signal,
    log: (level, message) => run.log(level, message),
    keepLog: phases.keepLog,
    ...(run.seams.skipped ? { skipped: run.seams.skipped } : {}),
    ...(run.seams.skipServerWait ? { skipNetwork: true } : {}),
    clientIoSpin: clientIoSpinOf(
      plan.clients.map((client) => client.binding),
      phases.workload,
    ),
  };
  const withHdrWhereSupported =
    (extrasFor: (client: ResolvedPlan['clients'][number]) => RunExtras) =>
    (client: ResolvedPlan['clients'][number]): RunExtras => {
      const extras = extrasFor(client);
      return run.hdrSupport.get(client.host)?.ok === false ? { ...extras, properties: {} } : extras;
    };
  return runPhaseWithEvidence(context, (extrasFor) => runClients(phases, withHdrWhereSupported(extrasFor)));
}
