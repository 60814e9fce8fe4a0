// The sweep: the run's story. Once: load the plan (on resume, the recorded one), the run folder and
// its lock, pre-flight, the hosts prepared (hostPreparation.ts). Then for each unfinished cell, in
// the schedule's order (schedule.ts): put Couchbase on the cell's stack (server/), observe what
// the server really runs (evidence/), re-create the bucket (couchbase/), load and let it settle,
// run YCSB on every client with the run phase's evidence around it (ycsb/, evidence/), and append
// the result (results/). Results are appended (fsynced) one cell at a time, so stopping at any
// point loses nothing that was written; resume skips the ids already in results.jsonl. At the
// end, or on a cancel or a fatal error, the hosts are put back: nothing left running, kernel stack.
import { setMaxListeners } from 'node:events';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prepareCellBucket, settleAfterLoad, type BucketSeam } from '../couchbase/cellBucket';
import { formCellCluster, readBucketSpread, type CellClusterOptions } from '../couchbase/cellCluster';
import { RebalanceFailure } from '../couchbase/clusterResizeSteps';
import { planForCell } from '../plan/clusterSizes';
import { EngineFailure, formatEngineError, toEngineError } from '../errors';
import type { RunOutcome, SweepEvent } from '../events';
import { runPhaseWithEvidence, samplerPidFile } from '../evidence/cellEvidence';
import { clientIoSpinOf } from '../evidence/clientIoSpin';
import { recordYcsbVersions } from '../evidence/environment';
import { ArmsRegister, observeServers } from '../evidence/serverEvidence';
import type { CellKey, CellResult, ClusterEvidence, EngineError, NodeSpread } from '../model';
import type { RunSweepOptions } from '../options';
import { cellId, expandCells } from '../plan/cells';
import { withDefaults, type ResolvedPlan } from '../plan/planSchema';
import { redactSecrets } from '../remote/redaction';
import { killGroup } from '../remote/remoteProcess';
import { staleSecretsCleanup } from '../remote/secrets';
import { SessionPool, type RemoteSession } from '../remote/ssh';
import { logFolderName } from '../results/logFolders';
import { readResults, ResultsWriter, writeLog, writeManifest, type ResultsIo, realIo } from '../results/resultsStore';
import { putServersOnStack, type ServerStartRecord } from '../server/serverOnStack';
import { loadClients, runClients, type CellPhasesContext } from '../ycsb/cellPhases';
import type { BucketLogin } from '../ycsb/ycsbBinding';
import type { YcsbLauncher } from '../ycsb/ycsbLauncher';
import type { HdrSupport } from '../ycsb/ycsbHdrSupport';
import { effectiveWorkload, workloadScans } from '../ycsb/ycsbPhaseProperties';
import { ycsbPidFile } from '../ycsb/ycsbRun';
import { prepareHosts, type HostLock } from './hostPreparation';
import { preflight } from './preflight';
import { loadRunPlan, openRunFolder, pathPolicyOf, type RunFolderState, type RunPlan } from './runOpening';
import {
  formatEstimate,
  nextRepetitions,
  planEstimate,
  planPoints,
  possibleExtraCells,
  type OrderMode,
} from './schedule';

/** Test seams: fake sessions instead of OpenSSH, an I/O layer that fails on demand. */
export interface SweepSeams {
  sessionFactory?: (host: string) => RemoteSession;
  resultsIo?: ResultsIo;
  /** Replaces the bucket lifecycle (unit tests without a Couchbase node). */
  bucket?: BucketSeam;
  /** Skips the server REST wait (unit tests). */
  skipServerWait?: boolean;
  /** Told each step skipped for want of a network (dry run: the REST waits and proofs, the traffic watch). */
  skipped?: (host: string, step: string) => void;
  /** Replaces the cluster's REST steps (dry run: listed instead of sent). */
  cluster?: { form(size: number): Promise<ClusterEvidence>; spread(): Promise<Record<string, NodeSpread>> };
  /** The resize's clock and poll interval (tests decide time). */
  resize?: CellClusterOptions;
}

/** How long the cleanup after a cancel or failure may spend per step group (kills, restart). */
const cleanupLimitMs = 60_000;

export interface Cell {
  id: string;
  key: CellKey;
  index: number;
}

export class SweepRun {
  readonly pool: SessionPool;
  readonly io: ResultsIo;
  /** The stack Couchbase runs on now; undefined = unknown (restart before the next cell). */
  private currentStack: string | undefined;
  private serversTouched = false;
  /** Hosts the run has changed anything on (work folder, uploads, processes): only these need cleaning up. */
  private readonly touchedHosts = new Set<string>();
  private readonly hostLocks: HostLock[] = [];
  /** `YCSB Client <version>` as printed by each client, for the environment record. */
  readonly ycsbVersions = new Map<string, string>();
  /** The launcher pre-flight chose per client host (ycsbLauncher.ts). */
  launchers = new Map<string, YcsbLauncher>();
  /** Clients whose YCSB cannot write HDR logs run without them (ycsbHdrSupport.ts); unknown = try. */
  hdrSupport = new Map<string, HdrSupport>();
  /** YCSB's login for the current cell (bucketUser.ts); its password is redacted like the admin's. */
  private login: BucketLogin | undefined;
  /** The workload file as uploaded (set when the hosts are prepared). */
  private workloadText = '';
  /** How each server was last started (and the proofs), for the cells' evidence (serverEvidence.ts). */
  private readonly serverStarts = new Map<string, ServerStartRecord>();
  /** Kernel arms' server facts, to mark an Onload arm that differs in more than the stack. */
  readonly arms = new ArmsRegister();
  /** The profiles' analysed settings (manifest.environment.profiles), to compare memcached's EF_*. */
  profileSettings: Record<string, Record<string, string>> = {};

  constructor(
    readonly plan: ResolvedPlan,
    readonly planDir: string,
    readonly runDir: string,
    readonly options: RunSweepOptions,
    readonly emit: (event: SweepEvent) => void,
    readonly seams: SweepSeams,
  ) {
    this.pool = new SessionPool(options.ssh ?? {}, seams.sessionFactory, [options.password]);
    this.io = seams.resultsIo ?? realIo;
    // Each remote command, wait and REST call in flight listens to the run's signal until it ends
    // (remote/remoteProcess.ts, remote/ssh.ts untilAborted, server/serverControl.ts sleep): a cell
    // has a dozen at once per host (samplers, watches, YCSB), more with several servers. Not a leak,
    // so Node's warning at 11 is lifted for this signal; the lab tests check none stays behind.
    setMaxListeners(1000, options.signal);
  }

  /** The stack Couchbase runs on now, when known. */
  get serverStack(): string | undefined {
    return this.currentStack;
  }

  get signal(): AbortSignal {
    return this.options.signal;
  }

  private get serverStartSec(): number {
    return this.options.timeouts?.serverStartSec ?? this.plan.timeouts.serverStartSec;
  }

  log(level: 'info' | 'warn' | 'error' | 'debug', message: string): void {
    this.emit({ type: 'log', level, message: this.redact(message) });
  }

  /** The password never leaves the process in any form the engine writes (redaction.ts), even if a remote tool echoes it. */
  redact(text: string): string {
    return redactSecrets(text, [this.options.password, this.login?.password ?? '']);
  }

  /** Work folders and their locks, leftovers of an earlier crash, uploads (hostPreparation.ts). */
  async prepareHosts(): Promise<void> {
    const { plan, planDir, runDir, pool, signal } = this;
    this.workloadText = await prepareHosts({
      plan,
      planDir,
      runDir,
      pool,
      signal,
      pathPolicy: pathPolicyOf(this.options),
      profilePath: this.options.profilePath ?? [],
      log: (level, message) => this.log(level, message),
      touched: this.touchedHosts,
      locks: this.hostLocks,
    });
  }

  async releaseHostLocks(): Promise<void> {
    await Promise.all(this.hostLocks.splice(0).map((lock) => lock.release().catch(() => undefined)));
  }

  /** Stops Couchbase everywhere and starts it on `stack`, proving both (serverOnStack.ts). */
  async putServersOn(stack: string, signal?: AbortSignal): Promise<void> {
    this.currentStack = undefined;
    this.serversTouched = true;
    const context = {
      pool: this.pool,
      plan: this.plan,
      password: this.options.password,
      serverStartSec: this.serverStartSec,
      log: (level: 'info' | 'warn', message: string) => this.log(level, message),
      ...(this.seams.skipped ? { skipped: this.seams.skipped } : {}),
      ...(this.seams.skipServerWait ? { skipServerWait: true } : {}),
    };
    await putServersOnStack(context, stack, this.serverStarts, signal);
    this.currentStack = stack;
  }

  /** A cell, retried once after a failure that is neither a cancel nor fatal; the failed record after the second. */
  async attempts(cell: Cell, total: number): Promise<CellResult> {
    const logs: string[] = []; // every attempt's raw logs stay listed in the final record
    for (let attempt = 1; ; attempt++) {
      this.emit({ type: 'cell-started', id: cell.id, key: cell.key, index: cell.index, total, attempt });
      // the wall clock only stamps the start; the finish is the start plus the monotonic time taken,
      // so a clock step during the cell never makes it finish before it started
      const startedWall = Date.now();
      const startedMono = performance.now();
      const finishedAt = (): string => new Date(startedWall + (performance.now() - startedMono)).toISOString();
      const draft: CellResult = {
        kind: 'cell',
        id: cell.id,
        key: cell.key,
        status: 'ok',
        accelerated: cell.key.stack === 'kernel' ? null : false,
        startedAt: new Date(startedWall).toISOString(),
        finishedAt: '',
        attempts: attempt,
        logs,
      };
      try {
        await this.runCell(cell, attempt, draft);
        return { ...draft, finishedAt: finishedAt() };
      } catch (error) {
        if (this.signal.aborted) throw cancelled();
        if (error instanceof EngineFailure && error.fatal) throw error;
        const engineError = toEngineError(error, 'cell', undefined);
        if (attempt === 1) {
          this.log('warn', `${cell.id}: ${formatEngineError(engineError)} Retrying once.`);
          continue;
        }
        return {
          ...draft,
          status: 'failed',
          error: { ...engineError, message: this.redact(engineError.message) },
          finishedAt: finishedAt(),
        };
      }
    }
  }

  /** One cell, step by step: its stack, the server's evidence, the bucket, the load, the run with its evidence. */
  async runCell(cell: Cell, attempt: number, draft: CellResult): Promise<void> {
    const { key, id } = cell;
    const { signal } = this;
    // issue 23: a cell of a size sees the members of its cluster as its servers and its replicas
    const plan = planForCell(this.plan, key.clusterSize);
    const phase = (name: string): void => this.emit({ type: 'phase', id, phase: name });
    const log = (level: 'info' | 'warn', message: string): void => this.log(level, message);
    if (plan.restartServer === 'every-cell' || this.currentStack !== key.stack || attempt > 1) {
      phase('restart-server');
      await this.putServersOn(key.stack, signal);
    }

    const workload = effectiveWorkload(this.workloadText, plan.workload.properties, key.axes);
    const bucketEvidence: Record<string, unknown> = {};
    const withoutHdr = plan.clients.filter((client) => this.hdrSupport.get(client.host)?.ok === false);
    const ycsbEvidence: Record<string, unknown> = {
      ...(withoutHdr.length > 0
        ? {
            hdrLogs: Object.fromEntries(
              withoutHdr.map((client) => [client.host, this.hdrSupport.get(client.host)?.detail]),
            ),
          }
        : {}),
      binding: [...new Set(plan.clients.map((client) => client.binding))].join(', '),
      launcher: Object.fromEntries(
        plan.clients.map((client) => [client.host, this.launchers.get(client.host)?.command ?? '(default)']),
      ),
      keys: {},
    };
    draft.evidence = { ...(draft.evidence ?? {}), bucket: bucketEvidence, ycsb: ycsbEvidence };
    let clusterEvidence: ClusterEvidence | undefined;
    if (key.clusterSize !== undefined) {
      phase('resize-cluster');
      clusterEvidence = await this.formCluster(cell, attempt, draft, key.clusterSize);
      draft.evidence.cluster = clusterEvidence;
    }

    // issue 24: the servers are checked over SSH while the bucket is re-created over REST and the
    // SDK; neither waits on the other (the check reads memcached's process and its Onload stack's
    // listener, which a bucket does not change), and the cell goes on once both are done
    phase('check-acceleration');
    const profileSettings = key.stack === 'kernel' ? undefined : (this.profileSettings[key.stack] ?? {});
    // memcached may start well after REST answered (REAL-LAB C9): looked for until the start's own deadline, at most 2 min
    const observed = observeServers({
      pool: this.pool,
      servers: plan.servers,
      key,
      draft,
      starts: this.serverStarts,
      profileSettings,
      waitSec: Math.min(plan.timeouts.serverStartSec, 120),
      log,
      signal,
    }).then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    let serversChecked = false;
    void observed.then(() => (serversChecked = true));

    phase('recreate-bucket');
    const bucketContext = {
      server: plan.servers[0],
      password: this.options.password,
      bucket: plan.bucket,
      readySec: this.options.timeouts?.bucketReadySec ?? plan.timeouts.bucketReadySec,
      signal,
      ...(this.seams.bucket ? { seam: this.seams.bucket } : {}),
    };
    const bucket = await prepareCellBucket(bucketContext, workloadScans(workload), bucketEvidence).then(
      (login) => ({ ok: true as const, login }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    // still checking once the bucket is ready: the wait is the check's, and the panel says so
    if (!serversChecked) phase('check-acceleration');
    const servers = await observed;
    if (!servers.ok) throw servers.error;
    this.arms.compare(draft, (level, message) => this.log(level, message));
    if (!bucket.ok) throw bucket.error;
    this.login = bucket.login;

    const phases = this.cellPhases(plan, cell, attempt, draft, workload);
    phase('ycsb-load');
    await loadClients(phases);

    // REAL-LAB C6, C10, C11: the count is a stats sample: poll it, let the write queues drain, and the index catch up
    phase('item-count');
    await settleAfterLoad(
      bucketContext,
      draft.load as NonNullable<CellResult['load']>,
      bucketEvidence,
      workloadScans(workload),
    );
    if (clusterEvidence) {
      // K13: active and replica vBuckets and items per node, once the load is in
      phase('cluster-spread');
      clusterEvidence.nodes = this.seams.cluster
        ? await this.seams.cluster.spread()
        : await readBucketSpread(this.restTarget(), plan.bucket.name);
    }

    phase('ycsb-run');
    const evidence = {
      pool: this.pool,
      plan,
      cellId: id,
      key,
      attempt,
      draft,
      password: this.options.password,
      signal,
      log,
      keepLog: phases.keepLog,
      ...(this.seams.skipped ? { skipped: this.seams.skipped } : {}),
      ...(this.seams.skipServerWait ? { skipNetwork: true } : {}),
      clientIoSpin: clientIoSpinOf(
        plan.clients.map((client) => client.binding),
        workload,
      ),
    };
    // a client whose YCSB cannot write HDR logs runs without them (ycsbHdrSupport.ts)
    const withHdrWhereSupported =
      (
        extrasFor: Parameters<Parameters<typeof runPhaseWithEvidence>[1]>[0],
      ): Parameters<Parameters<typeof runPhaseWithEvidence>[1]>[0] =>
      (client) => {
        const extras = extrasFor(client);
        return this.hdrSupport.get(client.host)?.ok === false ? { ...extras, properties: {} } : extras;
      };
    await runPhaseWithEvidence(evidence, (extrasFor) => runClients(phases, withHdrWhereSupported(extrasFor)));
  }

  /** The first server's REST API as the admin: the one every cluster size holds. */
  private restTarget(): { server: ResolvedPlan['servers'][number]; password: string; signal: AbortSignal } {
    return { server: this.plan.servers[0], password: this.options.password, signal: this.signal };
  }

  /**
   * Forms the cell's cluster (cellCluster.ts); a rebalance that failed or hung keeps ns_server's
   * report in the cell's logs, and its message is the cell's error.
   */
  private async formCluster(cell: Cell, attempt: number, draft: CellResult, size: number): Promise<ClusterEvidence> {
    if (this.seams.cluster) return this.seams.cluster.form(size);
    try {
      const evidence = await formCellCluster(
        this.restTarget(),
        this.plan,
        size,
        this.options.timeouts?.bucketReadySec ?? this.plan.timeouts.bucketReadySec,
        this.seams.resize,
      );
      const rebalance =
        evidence.rebalance.outcome === 'balanced'
          ? `rebalanced in ${Math.round(evidence.rebalance.ms)} ms (added ${evidence.added.length}, ejected ${evidence.ejected.length})`
          : 'already formed';
      this.log('info', `${cell.id}: cluster of ${size} node${size === 1 ? '' : 's'} ${rebalance}.`);
      return evidence;
    } catch (error) {
      if (error instanceof RebalanceFailure && error.report !== undefined) {
        draft.logs.push(
          await writeLog(
            this.runDir,
            `${logFolderName(cell.id)}/attempt${attempt}-rebalance-report.json`,
            this.redact(error.report),
            this.io,
          ),
        );
      }
      throw error;
    }
  }

  /** What a cell's YCSB phases need from the run: sessions, launchers, the login, events and the cell's log folder. */
  private cellPhases(
    plan: ResolvedPlan,
    cell: Cell,
    attempt: number,
    draft: CellResult,
    workload: Map<string, string>,
  ): CellPhasesContext {
    return {
      plan,
      session: (host) => this.pool.get(host),
      cellId: cell.id,
      key: cell.key,
      attempt,
      draft,
      workload,
      login: this.login,
      launchers: this.launchers,
      timeoutSec: this.options.timeouts?.cellSec ?? this.plan.timeouts.cellSec,
      signal: this.signal,
      onStatus: (host, phase, status, line) =>
        this.emit({
          type: 'status',
          id: cell.id,
          host,
          phase,
          status: {
            elapsedSec: status.elapsedSec,
            operations: status.operations,
            currentOpsPerSec: status.currentOpsPerSec,
          },
          line: this.redact(line),
        }),
      keepLog: (host, name, text) =>
        writeLog(
          this.runDir,
          `${logFolderName(cell.id)}/attempt${attempt}-${host.replace(/[^A-Za-z0-9._-]/g, '_')}-${name}`,
          this.redact(text),
          this.io,
        ),
      versions: this.ycsbVersions,
    };
  }

  /** Best effort after a cancel or a fatal error, and at the end: nothing left running, kernel stack back. */
  async restoreHosts(unreachable: Set<string>): Promise<void> {
    // Only hosts the run has touched (a cancel during the pre-flight leaves nothing to undo), and
    // not those that failed at the SSH level, now or during this cleanup: each try would wait out
    // ConnectTimeout (a later resume cleans them up through their pid files). The cleanup runs
    // after a cancel, so it cannot use the run's signal; a deadline bounds it instead.
    const sshCodes = new Set(['ssh-unreachable', 'ssh-auth', 'ssh-host-key', 'cancelled']);
    const usable = (host: string): boolean => this.touchedHosts.has(host) && !unreachable.has(host);
    const attempt = async (host: string, action: () => Promise<unknown>): Promise<void> => {
      if (!usable(host)) return;
      try {
        await action();
      } catch (error) {
        if (error instanceof EngineFailure && sshCodes.has(error.error.code)) unreachable.add(host);
      }
    };
    const clientDeadline = AbortSignal.timeout(cleanupLimitMs);
    await Promise.all(
      this.plan.clients.map(async (client) => {
        const session = this.pool.get(client.host);
        for (const phase of ['load', 'run'] as const)
          await attempt(client.host, () =>
            killGroup(session, ycsbPidFile(client, phase), 'cleanup', 5, clientDeadline),
          );
        await attempt(client.host, () =>
          killGroup(session, samplerPidFile(client.workDir, 'client'), 'cleanup', 1, clientDeadline),
        );
        await attempt(client.host, () =>
          session.run(staleSecretsCleanup(client.workDir), { step: 'cleanup', signal: clientDeadline }),
        );
      }),
    );
    await Promise.all(
      this.plan.servers.map((server) =>
        attempt(server.host, () =>
          killGroup(this.pool.get(server.host), samplerPidFile(server.workDir, 'server'), 'cleanup', 1, clientDeadline),
        ),
      ),
    );
    if (
      this.serversTouched &&
      this.currentStack !== 'kernel' &&
      this.plan.servers.every((server) => usable(server.host))
    ) {
      try {
        await this.putServersOn('kernel', AbortSignal.timeout(cleanupLimitMs + this.serverStartSec * 1000));
        this.log('info', 'Couchbase is back on the kernel stack.');
      } catch (error) {
        this.log(
          'error',
          `Could not put Couchbase back on the kernel stack: ${formatEngineError(toEngineError(error, 'cleanup'))}`,
        );
      }
    }
  }
}

export async function runSweep(options: RunSweepOptions, seams: SweepSeams = {}): Promise<RunOutcome> {
  const emit = (event: SweepEvent): void => {
    try {
      options.onEvent(event);
    } catch {
      // a broken listener must not stop a benchmark
    }
  };
  const finish = (outcome: RunOutcome): RunOutcome => {
    emit({ type: 'run-finished', outcome });
    return outcome;
  };
  const outcome: RunOutcome = {
    runDir: options.resumeRunDir ?? '',
    completed: 0,
    failed: 0,
    total: 0,
    cancelled: false,
  };

  // the plan: on resume, the one recorded in the manifest (the cell list must not change)
  let runPlan: RunPlan;
  try {
    runPlan = await loadRunPlan(options);
  } catch (error) {
    return finish({ ...outcome, error: toEngineError(error, 'load-plan') });
  }
  const plan = withDefaults(runPlan.rawPlan);
  const planDir = dirname(runPlan.planPath);

  let writer: ResultsWriter | undefined;
  let run: SweepRun | undefined;
  let cells: Cell[] = [];
  let anyCellStarted = false;
  const folderState: RunFolderState = {};
  const done = new Set<string>();
  const failedIds = new Set<string>();
  try {
    const opened = await openRunFolder(options, runPlan, plan, folderState, emit, seams.resultsIo);
    const { runDir, manifest } = opened;
    for (const id of opened.done) done.add(id);
    for (const id of opened.failedIds) failedIds.add(id);
    outcome.runDir = runDir;
    cells = manifest.cells.map((cell, index) => ({ ...cell, index }));
    outcome.total = cells.length;
    writer = await ResultsWriter.open(runDir, seams.resultsIo);
    emit({
      type: 'run-started',
      runDir,
      manifest,
      resumed: options.resumeRunDir !== undefined,
      alreadyDone: cells.filter((cell) => done.has(cell.id)).length,
    });
    run = new SweepRun(plan, planDir, runDir, options, emit, seams);
    const report = await preflight({
      plan,
      planDir,
      pool: run.pool,
      password: options.password,
      resultsRoot: options.resultsRoot,
      signal: options.signal,
      profilePath: options.profilePath,
      onCheck: (check) => emit({ type: 'preflight-check', check }),
    });
    // older runs (and a damaged field) read as grouped
    const recorded = manifest.order;
    const order: { mode: OrderMode; seed: number } =
      recorded && ['grouped', 'interleaved', 'randomized'].includes(recorded.mode) && Number.isFinite(recorded.seed)
        ? recorded
        : { mode: 'grouped', seed: 0 };
    const stackNames = plan.stacks.map((stack) => stack.name);
    const estimate = planEstimate(
      planPoints(expandCells(plan)),
      stackNames,
      plan.repetitionPolicy,
      order.mode,
      order.seed,
      plan.restartServer,
    );
    report.checks.push({
      id: 'plan-size',
      ok: true,
      blocking: false,
      detail: `${formatEstimate(estimate, order.mode)}; order ${order.mode}${order.mode === 'randomized' ? ` (seed ${order.seed})` : ''}`,
    });
    emit({ type: 'preflight', checks: report.checks });
    run.launchers = report.findings.launchers;
    run.hdrSupport = report.findings.hdrSupport;
    if (report.blockingError) throw new EngineFailure(report.blockingError as EngineError & { code: 'preflight' });
    if (!manifest.environment) {
      manifest.environment = report.findings.environment;
      await writeManifest(runDir, manifest, seams.resultsIo);
    }
    run.profileSettings = manifest.environment?.profiles ?? {};
    if (options.resumeRunDir) for (const result of (await readResults(runDir)).results) run.arms.remember(result);
    if (options.signal.aborted) throw cancelled();
    await run.prepareHosts();

    const durations: number[] = [];
    // every result of the run (earlier sessions' too): run-until-stable decides from them
    const resultsById = new Map(
      (options.resumeRunDir ? (await readResults(runDir)).results : []).map((result) => [result.id, result] as const),
    );
    for (let position = 0; ; position++) {
      if (position >= cells.length) {
        // run until stable: the next round of repetitions, recorded in the manifest before it runs
        const extra = nextRepetitions(
          manifest.cells.map((entry) => entry.key),
          resultsById,
          stackNames,
          plan.repetitionPolicy,
          order.mode,
          order.seed,
          run.serverStack ?? cells.at(-1)?.key.stack,
        );
        if (extra.length === 0) break;
        for (const key of extra) {
          manifest.cells.push({ id: cellId(key), key, extra: true });
          cells.push({ id: cellId(key), key, index: cells.length });
        }
        await writeManifest(runDir, manifest, seams.resultsIo);
        outcome.total = cells.length;
        emit({
          type: 'log',
          level: 'info',
          message: `Run until stable: ${extra.length} more cell(s) for ${extra.length / stackNames.length} point(s) whose throughput interval is still wider than ±${plan.repetitionPolicy.targetCi} %.`,
        });
      }
      const cell = cells[position];
      if (done.has(cell.id)) continue;
      if (options.signal.aborted) throw cancelled();
      anyCellStarted = true;
      const started = performance.now(); // monotonic: a wall-clock jump must not skew the estimate
      const result = await run.attempts(cell, cells.length);
      run.arms.remember(result);
      await writer.append(result);
      resultsById.set(result.id, result);
      if (recordYcsbVersions(manifest, run.ycsbVersions)) await writeManifest(runDir, manifest, seams.resultsIo);
      done.add(cell.id);
      if (result.status === 'failed') failedIds.add(cell.id);
      durations.push(performance.now() - started);
      const remaining = cells.filter((candidate) => !done.has(candidate.id)).length;
      // run until stable: up to every point's max repetitions
      const upTo =
        remaining +
        possibleExtraCells(
          manifest.cells.map((entry) => entry.key),
          resultsById,
          stackNames,
          plan.repetitionPolicy,
        );
      const average = durations.reduce((sum, value) => sum + value, 0) / durations.length;
      emit({
        type: 'cell-finished',
        result,
        index: cell.index,
        total: cells.length,
        remainingEstimateMs: Math.round(average * upTo),
        ...(upTo > remaining ? { remainingEstimateUpTo: true } : {}),
      });
    }
  } catch (error) {
    if (options.signal.aborted || (error instanceof EngineFailure && error.error.code === 'cancelled')) {
      outcome.cancelled = true;
    } else {
      const engineError = toEngineError(error, 'sweep');
      outcome.error = run ? { ...engineError, message: run.redact(engineError.message) } : engineError;
      emit({ type: 'log', level: 'error', message: formatEngineError(outcome.error) });
    }
  } finally {
    if (run) {
      const sshCodes = new Set(['ssh-unreachable', 'ssh-auth', 'ssh-host-key']);
      const unreachable = new Set<string>(
        outcome.error?.host && sshCodes.has(outcome.error.code) ? [outcome.error.host] : [],
      );
      await run.restoreHosts(unreachable).catch(() => undefined);
      await run.releaseHostLocks();
      await run.pool.closeAll().catch(() => undefined);
    }
    await writer?.close();
    await folderState.lock?.release().catch(() => undefined);
    // a new run that stopped before its first cell (pre-flight, uploads, cancel) leaves no folder
    // behind to be offered for resume
    if (folderState.createdRunDir && !anyCellStarted) {
      await rm(folderState.createdRunDir, { recursive: true, force: true }).catch(() => undefined);
      outcome.runDir = '';
    }
  }
  outcome.failed = cells.filter((cell) => failedIds.has(cell.id)).length;
  outcome.completed = cells.filter((cell) => done.has(cell.id)).length - outcome.failed;
  return finish(outcome);
}

function cancelled(): EngineFailure {
  return new EngineFailure({
    code: 'cancelled',
    step: 'sweep',
    message: 'The run was cancelled.',
    action: 'Resume it later; finished cells are kept.',
  });
}
