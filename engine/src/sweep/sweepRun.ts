// One sweep's hold on its hosts, from pre-flight's findings to the cleanup: the sessions, the stack
// Couchbase runs on now, the hosts it touched and locked, how each server was last started, the
// kernel arms seen so far, the redaction of every secret. It prepares the hosts, runs each cell
// (retried once; cell.ts tells its story, cellRecord.ts makes its record) and puts the hosts back.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { EngineFailure, formatEngineError, toEngineError } from '../errors';
import type { SweepEvent } from '../events';
import { samplerPidFile } from '../evidence/cellEvidence';
import { ArmsRegister } from '../evidence/serverEvidence';
import type { CellResult } from '../model';
import type { RunSweepOptions } from '../options';
import type { ResolvedPlan } from '../plan/planSchema';
import { redactSecrets } from '../remote/redaction';
import { killGroup } from '../remote/remoteProcess';
import { staleSecretsCleanup } from '../remote/secrets';
import { SessionPool } from '../remote/ssh';
import { realIo, type ResultsIo } from '../results/resultsStore';
import { putServersOnStack, type ServerStartRecord } from '../server/serverOnStack';
import type { BucketLogin } from '../ycsb/ycsbBinding';
import { ycsbPidFile } from '../ycsb/ycsbRun';
import { runCell } from './cell';
import { cellRecord } from './cellRecord';
import { cellSteps, type Cell, type CellRun } from './cellSteps';
import { prepareHosts, type HostLock } from './hostPreparation';
import type { PreflightFindings } from './preflight';
import { pathPolicyOf } from './runOpening';
import type { SweepSeams } from './sweepSeams';

/** How long the cleanup after a cancel or failure may spend per step group (kills, restart). */
const cleanupLimitMs = 60_000;

/** The run's SSH sessions (or the seams' fake ones), with the password kept out of ssh's environment. */
export function openPool(options: RunSweepOptions, seams: SweepSeams): SessionPool {
  const pool = new SessionPool(options.ssh ?? {}, seams.sessionFactory, [options.password]);
  // Each remote command, wait and REST call in flight listens to the run's signal until it ends
  // (remote/remoteProcess.ts, remote/ssh.ts untilAborted, server/serverControl.ts sleep): a cell
  // has a dozen at once per host (samplers, watches, YCSB), more with several servers. Not a leak,
  // so Node's warning at 11 is lifted for this signal; the lab tests check none stays behind.
  setMaxListeners(1000, options.signal);
  return pool;
}

/** Everything a run is built from. */
export interface SweepRunSetup {
  plan: ResolvedPlan;
  planDir: string;
  runDir: string;
  options: RunSweepOptions;
  emit: (event: SweepEvent) => void;
  seams: SweepSeams;
  pool: SessionPool;
  /** The launchers and HDR support pre-flight found on the clients. */
  findings: Pick<PreflightFindings, 'launchers' | 'hdrSupport'>;
  /** The profiles' analysed settings (manifest.environment.profiles). */
  profileSettings: Record<string, Record<string, string>>;
  /** The results a resumed run already has (their kernel arms are the reference of later Onload arms). */
  earlier: CellResult[];
}

export class SweepRun implements CellRun {
  readonly plan: ResolvedPlan;
  readonly planDir: string;
  readonly runDir: string;
  readonly options: RunSweepOptions;
  readonly seams: SweepSeams;
  readonly pool: SessionPool;
  readonly io: ResultsIo;
  readonly emit: (event: SweepEvent) => void;
  /** The launcher pre-flight chose per client host (ycsbLauncher.ts). */
  readonly launchers: CellRun['launchers'];
  /** Clients whose YCSB cannot write HDR logs run without them (ycsbHdrSupport.ts); unknown = try. */
  readonly hdrSupport: CellRun['hdrSupport'];
  readonly profileSettings: Record<string, Record<string, string>>;
  /** Kernel arms' server facts, to mark an Onload arm that differs in more than the stack. */
  readonly arms: ArmsRegister;
  /** How each server was last started (and the proofs), for the cells' evidence (serverEvidence.ts). */
  readonly serverStarts = new Map<string, ServerStartRecord>();
  /** `YCSB Client <version>` as printed by each client, for the environment record. */
  readonly ycsbVersions = new Map<string, string>();
  /** The stack Couchbase runs on now; undefined = unknown (restart before the next cell). */
  private currentStack: string | undefined;
  private serversTouched = false;
  /** Hosts the run has changed anything on (work folder, uploads, processes): only these need cleaning up. */
  private readonly touchedHosts = new Set<string>();
  private readonly hostLocks: HostLock[] = [];
  /** YCSB's login for the current cell (bucketUser.ts); its password is redacted like the admin's. */
  private login: BucketLogin | undefined;
  /** The workload file as uploaded (set when the hosts are prepared). */
  private workload = '';

  constructor(setup: SweepRunSetup) {
    this.plan = setup.plan;
    this.planDir = setup.planDir;
    this.runDir = setup.runDir;
    this.options = setup.options;
    this.seams = setup.seams;
    this.pool = setup.pool;
    this.io = setup.seams.resultsIo ?? realIo;
    this.emit = setup.emit;
    this.launchers = setup.findings.launchers;
    this.hdrSupport = setup.findings.hdrSupport;
    this.profileSettings = setup.profileSettings;
    this.arms = new ArmsRegister(setup.earlier);
  }

  /** The stack Couchbase runs on now, when known. */
  get serverStack(): string | undefined {
    return this.currentStack;
  }

  get workloadText(): string {
    return this.workload;
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

  /**
   * The password never leaves the process in any form the engine writes (redaction.ts), even if a
   * remote tool echoes it.
   */
  redact(text: string): string {
    return redactSecrets(text, [this.options.password, this.login?.password ?? '']);
  }

  useLogin(login: BucketLogin): void {
    this.login = login;
  }

  /** Work folders and their locks, leftovers of an earlier crash, uploads (hostPreparation.ts). */
  async prepareHosts(): Promise<void> {
    const { plan, planDir, runDir, pool, signal } = this;
    this.workload = await prepareHosts({
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
      const outcome = await runCell(cellSteps(this, cell, attempt, logs));
      const record = {
        id: cell.id,
        key: cell.key,
        attempt,
        startedAt: new Date(startedWall).toISOString(),
        finishedAt: new Date(startedWall + (performance.now() - startedMono)).toISOString(),
        logs,
      };
      if (!('failure' in outcome)) return cellRecord(record, outcome.parts);
      const { parts, failure } = outcome;
      if (this.signal.aborted) throw cancelled();
      if (failure instanceof EngineFailure && failure.fatal) throw failure;
      const engineError = toEngineError(failure, 'cell', undefined);
      if (attempt === 1) {
        this.log('warn', `${cell.id}: ${formatEngineError(engineError)} Retrying once.`);
        continue;
      }
      return cellRecord(record, parts, { ...engineError, message: this.redact(engineError.message) });
    }
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

export function cancelled(): EngineFailure {
  return new EngineFailure({
    code: 'cancelled',
    step: 'sweep',
    message: 'The run was cancelled.',
    action: 'Resume it later; finished cells are kept.',
  });
}
