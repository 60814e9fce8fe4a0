// The sweep: for each unfinished cell, put Couchbase on the cell's stack, re-create the bucket,
// load, check the item count, run YCSB on every client at once, combine and append the result.
// Results are appended (fsynced) one cell at a time, so stopping at any point loses nothing that
// was written; resume skips the ids already in results.jsonl.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { bucketItemCount, recreateBucket } from './bucket';
import { cellId, expandCells } from './cells';
import { combineClientReports } from './combine';
import { checkAcceleration } from './acceleration';
import { EngineFailure, formatEngineError, toEngineError } from './errors';
import type { RunOutcome, SweepEvent } from './events';
import type { CellKey, CellResult, EngineError, RunManifest, YcsbReport } from './model';
import { resultsFormatVersion } from './model';
import type { RunSweepOptions } from './options';
import { checkPlanText } from './plan';
import { withDefaults, type Plan, type ResolvedClient, type ResolvedPlan } from './planSchema';
import { preflight, resolveLocal } from './preflight';
import { bundleProfile, type ProfileBundle } from './profileBundle';
import { killGroup } from './remoteProcess';
import { createRunDir, newRunId, readManifest, readResults, ResultsWriter, writeLog, writeManifest, type ResultsIo, realIo } from './resultsStore';
import { credentialsProperties, secretFileName, staleSecretsCleanup } from './secrets';
import { remoteProfilePath, startServer, stopServer, waitForServer } from './serverControl';
import { SessionPool, type RemoteSession } from './ssh';
import { shellQuote } from './shellQuote';
import { runYcsbPhase, ycsbCommand, ycsbPidFile, type PhaseOutcome, type YcsbInvocation } from './ycsbRun';

/** Test seams: fake sessions instead of OpenSSH, an I/O layer that fails on demand. */
export interface SweepSeams {
  sessionFactory?: (host: string) => RemoteSession;
  resultsIo?: ResultsIo;
  /** Replaces the bucket lifecycle (unit tests without a Couchbase node). */
  bucket?: { recreate(): Promise<void>; itemCount(): Promise<number> };
  /** Skips the server REST wait (unit tests). */
  skipServerWait?: boolean;
}

const workloadRemoteName = 'workload.properties';
/** How long the cleanup after a cancel or failure may spend per step group (kills, restart). */
const cleanupLimitMs = 60_000;

interface Cell {
  id: string;
  key: CellKey;
  index: number;
}

class SweepRun {
  readonly pool: SessionPool;
  readonly io: ResultsIo;
  /** The stack Couchbase runs on now; undefined = unknown (restart before the next cell). */
  private currentStack: string | undefined;
  private serversTouched = false;
  /** Hosts the run has changed anything on (work folder, uploads, processes): only these need cleaning up. */
  private readonly touchedHosts = new Set<string>();
  /** `YCSB Client <version>` as printed by each client, for the environment record. */
  readonly ycsbVersions = new Map<string, string>();

  constructor(
    readonly plan: ResolvedPlan,
    readonly planDir: string,
    readonly runDir: string,
    readonly options: RunSweepOptions,
    readonly emit: (event: SweepEvent) => void,
    readonly seams: SweepSeams,
  ) {
    this.pool = new SessionPool(options.ssh ?? {}, seams.sessionFactory);
    this.io = seams.resultsIo ?? realIo;
  }

  get signal(): AbortSignal {
    return this.options.signal;
  }

  log(level: 'info' | 'warn' | 'error' | 'debug', message: string): void {
    this.emit({ type: 'log', level, message: this.redact(message) });
  }

  /** The password never leaves the process, even if a remote tool echoes it. */
  redact(text: string): string {
    const password = this.options.password;
    return password.length >= 3 ? text.split(password).join('********') : text;
  }

  /** Work folders, leftovers of an earlier crash, uploads of profiles and the workload. */
  async prepareHosts(): Promise<void> {
    const signal = this.signal;
    // absolute work folders: YCSB runs from its own home, so relative paths would break
    for (const host of [...this.plan.servers, ...this.plan.clients]) {
      this.touchedHosts.add(host.host);
      const result = await this.pool.get(host.host).run(`mkdir -p ${shellQuote(host.workDir)} && cd ${shellQuote(host.workDir)} && pwd`, { step: 'prepare', signal });
      const absolute = result.stdout.trim().split('\n').pop() ?? '';
      if (result.exitCode !== 0 || !absolute.startsWith('/')) {
        throw new EngineFailure({ code: 'remote-command', host: host.host, step: 'prepare', message: `Cannot create the work folder ${host.workDir}: ${result.stderr.trim() || `exit ${result.exitCode}`}.`, action: `Check permissions and free space on ${host.host}, or set workDir in the plan.` });
      }
      host.workDir = absolute;
    }
    await Promise.all(
      this.plan.servers.map(async (server) => {
        const session = this.pool.get(server.host);
        await session.run(`mkdir -p ${shellQuote(server.workDir)}/profiles`, { step: 'prepare', signal });
        for (const stack of this.plan.stacks) {
          if (stack.profile === undefined) continue;
          await this.uploadProfile(session, stack.profile, remoteProfilePath(server.workDir, stack.name));
        }
      }),
    );
    const workload = readFileSync(resolveLocal(this.planDir, this.plan.workload.path));
    await Promise.all(
      this.plan.clients.map(async (client) => {
        const session = this.pool.get(client.host);
        for (const phase of ['load', 'run'] as const) await killGroup(session, ycsbPidFile(client, phase), 'prepare', 5, signal);
        await session.run(`mkdir -p ${shellQuote(client.workDir)}/profiles && ${staleSecretsCleanup(client.workDir)}`, { step: 'prepare', signal });
        await session.upload(`${client.workDir}/${workloadRemoteName}`, workload, { step: 'upload-workload', mode: '644', signal });
        const profiles = this.clientProfiles(client);
        for (const [name, path] of profiles) await this.uploadProfile(session, path, remoteProfilePath(client.workDir, name));
      }),
    );
  }

  /** A profile and the workspace profiles it imports, rewritten so the launcher finds those copies. */
  private async uploadProfile(session: RemoteSession, profile: string, remotePath: string): Promise<void> {
    const localPath = resolveLocal(this.planDir, profile);
    let bundle: ProfileBundle;
    try {
      bundle = await bundleProfile(localPath, remotePath, this.options.profilePath ?? []);
    } catch (error) {
      throw new EngineFailure({ code: 'upload', host: session.host, step: 'upload-profile', message: `Cannot prepare the profile ${localPath} for upload: ${(error as Error).message}.`, action: 'Check the profile and the files it imports (onload_import) in the editor.' });
    }
    for (const file of bundle.files) await session.upload(file.remotePath, file.content, { step: 'upload-profile', mode: '644', signal: this.signal });
    const imported = bundle.files.slice(1).map((file) => file.localPath);
    if (imported.length > 0) this.log('info', `${session.host}: ${profile} imports ${imported.join(', ')}: uploaded beside it.`);
    if (bundle.standardImports.length > 0) this.log('info', `${session.host}: ${profile} imports Onload's own profile(s) ${bundle.standardImports.join(', ')}: left to the server's Onload.`);
  }

  /** Profiles a client needs when YCSB itself runs under Onload. */
  private clientProfiles(client: ResolvedClient): Map<string, string> {
    const out = new Map<string, string>();
    if (client.runUnderOnload === true) for (const stack of this.plan.stacks) if (stack.profile) out.set(stack.name, stack.profile);
    if (typeof client.runUnderOnload === 'string') out.set('client', client.runUnderOnload);
    return out;
  }

  private clientProfileFor(client: ResolvedClient, stack: string): string | undefined {
    if (client.runUnderOnload === true) return this.plan.stacks.find((candidate) => candidate.name === stack)?.profile ? remoteProfilePath(client.workDir, stack) : undefined;
    if (typeof client.runUnderOnload === 'string') return remoteProfilePath(client.workDir, 'client');
    return undefined;
  }

  /** Stops Couchbase everywhere and starts it on `stack`, waiting until REST answers. */
  async putServersOn(stack: string, signal?: AbortSignal): Promise<void> {
    const profile = this.plan.stacks.find((candidate) => candidate.name === stack)?.profile;
    this.currentStack = undefined;
    this.serversTouched = true;
    await Promise.all(
      this.plan.servers.map(async (server) => {
        const session = this.pool.get(server.host);
        await stopServer(session, server, signal);
        const remoteProfile = profile !== undefined ? remoteProfilePath(server.workDir, stack) : undefined;
        await startServer(session, server, remoteProfile, signal);
        if (!this.seams.skipServerWait) {
          await waitForServer(session, server, remoteProfile !== undefined || server.kernelRunCommand !== undefined, this.options.timeouts?.serverStartSec ?? this.plan.timeouts.serverStartSec, signal);
        }
      }),
    );
    this.currentStack = stack;
  }

  async runCell(cell: Cell, attempt: number, draft: CellResult): Promise<void> {
    const { key, id } = cell;
    const signal = this.signal;
    const plan = this.plan;
    const phase = (name: string): void => this.emit({ type: 'phase', id, phase: name });
    if (plan.restartServer === 'every-cell' || this.currentStack !== key.stack || attempt > 1) {
      phase('restart-server');
      await this.putServersOn(key.stack, signal);
    }
    if (key.stack !== 'kernel') {
      phase('check-acceleration');
      const checks = await Promise.all(plan.servers.map(async (server) => ({ host: server.host, check: await checkAcceleration(this.pool.get(server.host), server, signal) })));
      draft.accelerated = checks.every((entry) => entry.check.accelerated);
      for (const entry of checks) this.log(entry.check.accelerated ? 'info' : 'warn', `${id}: ${entry.host}: ${entry.check.accelerated ? 'accelerated' : 'NOT accelerated'}: ${entry.check.evidence}`);
    }
    phase('recreate-bucket');
    const server = plan.servers[0];
    if (this.seams.bucket) await this.seams.bucket.recreate();
    else await recreateBucket({ server, password: this.options.password, signal }, plan.bucket, this.options.timeouts?.bucketReadySec ?? plan.timeouts.bucketReadySec);

    // load from the first client only: the records must be inserted exactly once
    phase('ycsb-load');
    const loader = plan.clients[0];
    const load = await this.phase(cell, attempt, loader, 'load', draft);
    const expectedItems = expectedRecordCount(plan, key, this.planDir);
    draft.load = { report: load.report as YcsbReport, ...(expectedItems !== undefined ? { expectedItems } : {}) };
    if (load.error) throw load.error;

    phase('item-count');
    const itemCount = this.seams.bucket ? await this.seams.bucket.itemCount() : await bucketItemCount(server, this.options.password, plan.bucket.name, signal);
    draft.load.itemCount = itemCount;
    if (expectedItems !== undefined && itemCount !== expectedItems) {
      throw new EngineFailure({ code: 'item-count', host: server.host, step: 'item-count', message: `The bucket holds ${itemCount} items after the load; ${expectedItems} were expected.`, action: 'Read the load log for failed inserts; check the bucket quota and eviction policy.' });
    }

    phase('ycsb-run');
    const runs = await Promise.all(plan.clients.map(async (client) => ({ client, outcome: await this.phase(cell, attempt, client, 'run', draft) })));
    const reports = runs.filter((entry) => entry.outcome.report).map((entry) => ({ host: entry.client.host, report: entry.outcome.report as YcsbReport }));
    if (reports.length > 0) {
      draft.clients = reports;
      draft.run = reports.length === 1 ? reports[0].report : combineClientReports(reports);
    }
    const failed = runs.find((entry) => entry.outcome.error);
    if (failed?.outcome.error) throw failed.outcome.error;
  }

  /** One YCSB phase on one client, with the credentials file and the raw log kept. */
  private async phase(cell: Cell, attempt: number, client: ResolvedClient, name: 'load' | 'run', draft: CellResult): Promise<PhaseOutcome> {
    const session = this.pool.get(client.host);
    const invocation: YcsbInvocation = {
      client,
      server: this.plan.servers[0],
      phase: name,
      key: cell.key,
      bucketName: this.plan.bucket.name,
      workloadRemotePath: `${client.workDir}/${workloadRemoteName}`,
      credentialsRemotePath: '',
      properties: this.plan.workload.properties,
      ...(this.clientProfileFor(client, cell.key.stack) ? { onloadProfileRemotePath: this.clientProfileFor(client, cell.key.stack) as string } : {}),
    };
    const step = name === 'load' ? 'ycsb-load' : 'ycsb-run';
    const serverUser = this.plan.servers[0].adminUser;
    let outcome: PhaseOutcome | undefined;
    let thrown: unknown;
    try {
      invocation.credentialsRemotePath = secretFileName(client.workDir);
      outcome = await runYcsbPhase(session, invocation, {
        timeoutSec: this.options.timeouts?.cellSec ?? this.plan.timeouts.cellSec,
        signal: this.signal,
        credentials: credentialsProperties(serverUser, this.options.password),
        onStatus: (status, line) =>
          this.emit({ type: 'status', id: cell.id, host: client.host, phase: name, status: { elapsedSec: status.elapsedSec, operations: status.operations, currentOpsPerSec: status.currentOpsPerSec }, line: this.redact(line) }),
      });
    } catch (error) {
      thrown = error;
    }
    if (outcome || !(thrown instanceof EngineFailure && thrown.error.code === 'cancelled')) {
      const text = [`# ${ycsbCommand(invocation)}`, `# exit ${outcome?.exitCode ?? '-'}`, '# --- stdout', outcome?.stdout ?? '', '# --- stderr', outcome?.stderr ?? '', thrown ? `# --- error\n${formatEngineError(toEngineError(thrown, step, client.host))}` : ''].join('\n');
      const file = `${cell.id}/attempt${attempt}-${client.host.replace(/[^A-Za-z0-9._-]/g, '_')}-${name}.log`;
      draft.logs.push(await writeLog(this.runDir, file, this.redact(text), this.io));
    }
    const version = /^YCSB Client (\d\S*)\s*$/m.exec(outcome?.stderr ?? '')?.[1];
    if (version !== undefined) this.ycsbVersions.set(client.host, version);
    if (thrown) throw thrown;
    return outcome as PhaseOutcome;
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
        for (const phase of ['load', 'run'] as const) await attempt(client.host, () => killGroup(session, ycsbPidFile(client, phase), 'cleanup', 5, clientDeadline));
        await attempt(client.host, () => session.run(staleSecretsCleanup(client.workDir), { step: 'cleanup', signal: clientDeadline }));
      }),
    );
    if (this.serversTouched && this.currentStack !== 'kernel' && this.plan.servers.every((server) => usable(server.host))) {
      try {
        const serverStartSec = this.options.timeouts?.serverStartSec ?? this.plan.timeouts.serverStartSec;
        await this.putServersOn('kernel', AbortSignal.timeout(cleanupLimitMs + serverStartSec * 1000));
        this.log('info', 'Couchbase is back on the kernel stack.');
      } catch (error) {
        this.log('error', `Could not put Couchbase back on the kernel stack: ${formatEngineError(toEngineError(error, 'cleanup'))}`);
      }
    }
  }

}

/** recordcount from the cell's axes, the plan's overrides or the workload file; undefined if none. */
export function expectedRecordCount(plan: ResolvedPlan, key: CellKey, planDir: string): number | undefined {
  const direct = key.axes.recordcount ?? plan.workload.properties.recordcount;
  const insertCount = key.axes.insertcount ?? plan.workload.properties.insertcount;
  if (insertCount !== undefined) return Number(insertCount);
  if (direct !== undefined) return Number(direct);
  try {
    const text = readFileSync(resolveLocal(planDir, plan.workload.path), 'utf8');
    const match = /^\s*recordcount\s*[=:]\s*(\d+)\s*$/m.exec(text);
    const insert = /^\s*insertcount\s*[=:]\s*(\d+)\s*$/m.exec(text);
    if (insert) return Number(insert[1]);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
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
  const outcome: RunOutcome = { runDir: options.resumeRunDir ?? '', completed: 0, failed: 0, total: 0, cancelled: false };

  // the plan: on resume, the one recorded in the manifest (the cell list must not change)
  let rawPlan: Plan = options.plan;
  let planPath = options.planPath;
  let manifest: RunManifest | undefined;
  let runDir: string;
  const done = new Set<string>();
  const failedIds = new Set<string>();
  try {
    if (options.resumeRunDir) {
      manifest = await readManifest(options.resumeRunDir);
      rawPlan = manifest.plan as Plan;
      planPath = manifest.planPath ?? options.planPath;
    }
    const check = checkPlanText(JSON.stringify(rawPlan), dirname(planPath));
    if (check.errors.length > 0) {
      throw new EngineFailure({ code: 'plan-invalid', step: 'load-plan', message: `The plan has ${check.errors.length} problem(s): ${check.errors.slice(0, 3).map((error) => error.message).join('; ')}.`, action: `Fix ${planPath} (the editor underlines the problems) and start again.` });
    }
  } catch (error) {
    return finish({ ...outcome, error: toEngineError(error, 'load-plan') });
  }
  const plan = withDefaults(rawPlan);
  const planDir = dirname(planPath);

  let writer: ResultsWriter | undefined;
  let run: SweepRun | undefined;
  let cells: Cell[] = [];
  let createdRunDir: string | undefined;
  let anyCellStarted = false;
  try {
    if (manifest && options.resumeRunDir) {
      runDir = options.resumeRunDir;
      const previous = await readResults(runDir);
      for (const result of previous.results) {
        done.add(result.id);
        if (result.status === 'failed') failedIds.add(result.id);
        else failedIds.delete(result.id);
      }
      if (previous.tornTail) emit({ type: 'log', level: 'warn', message: 'The last line of results.jsonl was incomplete (the run stopped while writing it); that cell will run again.' });
      if (JSON.stringify(options.plan) !== JSON.stringify(manifest.plan)) emit({ type: 'log', level: 'warn', message: 'The plan changed since this run started; resuming with the plan recorded in the run folder.' });
    } else {
      runDir = await createRunDir(options.resultsRoot, newRunId(plan.name));
      createdRunDir = runDir;
      manifest = { kind: 'manifest', formatVersion: resultsFormatVersion, runId: runDir.split(/[\\/]/).pop() as string, createdAt: new Date().toISOString(), plan: rawPlan, planPath, cells: expandCells(plan).map((key) => ({ id: cellId(key), key })) };
      await writeManifest(runDir, manifest, seams.resultsIo);
    }
    outcome.runDir = runDir;
    cells = manifest.cells.map((cell, index) => ({ ...cell, index }));
    outcome.total = cells.length;
    writer = await ResultsWriter.open(runDir, seams.resultsIo);
    emit({ type: 'run-started', runDir, manifest, resumed: options.resumeRunDir !== undefined, alreadyDone: cells.filter((cell) => done.has(cell.id)).length });
    run = new SweepRun(plan, planDir, runDir, options, emit, seams);
    const report = await preflight({ plan, planDir, pool: run.pool, password: options.password, resultsRoot: options.resultsRoot, signal: options.signal, profilePath: options.profilePath, onCheck: (check) => emit({ type: 'preflight-check', check }) });
    emit({ type: 'preflight', checks: report.checks });
    if (report.blockingError) throw new EngineFailure(report.blockingError as EngineError & { code: 'preflight' });
    if (!manifest.environment) {
      manifest.environment = report.environment;
      await writeManifest(runDir, manifest, seams.resultsIo);
    }
    if (options.signal.aborted) throw cancelled();
    await run.prepareHosts();

    const durations: number[] = [];
    for (const cell of cells) {
      if (done.has(cell.id)) continue;
      if (options.signal.aborted) throw cancelled();
      anyCellStarted = true;
      const started = Date.now();
      let result: CellResult | undefined;
      const logs: string[] = []; // every attempt's raw logs stay listed in the final record
      for (let attempt = 1; attempt <= 2 && !result; attempt++) {
        emit({ type: 'cell-started', id: cell.id, key: cell.key, index: cell.index, total: cells.length, attempt });
        const draft: CellResult = { kind: 'cell', id: cell.id, key: cell.key, status: 'ok', accelerated: cell.key.stack === 'kernel' ? null : false, startedAt: new Date().toISOString(), finishedAt: '', attempts: attempt, logs };
        try {
          await run.runCell(cell, attempt, draft);
          result = { ...draft, finishedAt: new Date().toISOString() };
        } catch (error) {
          if (options.signal.aborted) throw cancelled();
          if (error instanceof EngineFailure && error.fatal) throw error;
          const engineError = toEngineError(error, 'cell', undefined);
          if (attempt === 1) {
            emit({ type: 'log', level: 'warn', message: `${cell.id}: ${run.redact(formatEngineError(engineError))} Retrying once.` });
            continue;
          }
          result = { ...draft, status: 'failed', error: { ...engineError, message: run.redact(engineError.message) }, finishedAt: new Date().toISOString() };
        }
      }
      if (!result) continue;
      await writer.append(result);
      if (recordYcsbVersions(manifest, run.ycsbVersions)) await writeManifest(runDir, manifest, seams.resultsIo);
      done.add(cell.id);
      if (result.status === 'failed') failedIds.add(cell.id);
      durations.push(Date.now() - started);
      const remaining = cells.filter((candidate) => !done.has(candidate.id)).length;
      const average = durations.reduce((sum, value) => sum + value, 0) / durations.length;
      emit({ type: 'cell-finished', result, index: cell.index, total: cells.length, remainingEstimateMs: Math.round(average * remaining) });
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
      const unreachable = new Set<string>(outcome.error?.host && sshCodes.has(outcome.error.code) ? [outcome.error.host] : []);
      await run.restoreHosts(unreachable).catch(() => undefined);
      await run.pool.closeAll().catch(() => undefined);
    }
    await writer?.close();
    // a new run that stopped before its first cell (pre-flight, uploads, cancel) leaves no folder
    // behind to be offered for resume
    if (createdRunDir && !anyCellStarted) {
      await rm(createdRunDir, { recursive: true, force: true }).catch(() => undefined);
      outcome.runDir = '';
    }
  }
  outcome.failed = cells.filter((cell) => failedIds.has(cell.id)).length;
  outcome.completed = cells.filter((cell) => done.has(cell.id)).length - outcome.failed;
  return finish(outcome);
}

/** Fills in YCSB versions the client folder did not reveal; true when the manifest changed. */
function recordYcsbVersions(manifest: RunManifest, versions: Map<string, string>): boolean {
  let changed = false;
  for (const [host, version] of versions) {
    const entry = manifest.environment?.hosts[host];
    if (entry && entry.ycsb === undefined) {
      entry.ycsb = version;
      changed = true;
    }
  }
  return changed;
}

function cancelled(): EngineFailure {
  return new EngineFailure({ code: 'cancelled', step: 'sweep', message: 'The run was cancelled.', action: 'Resume it later; finished cells are kept.' });
}
