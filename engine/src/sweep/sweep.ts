// The sweep: for each unfinished cell, put Couchbase on the cell's stack, re-create the bucket,
// load, check the item count, run YCSB on every client at once, combine and append the result.
// Results are appended (fsynced) one cell at a time, so stopping at any point loses nothing that
// was written; resume skips the ids already in results.jsonl.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prepareCellBucket, settleAfterLoad } from '../couchbase/cellBucket';
import { cellId, expandCells } from '../plan/cells';
import { combineClientReports } from '../ycsb/combine';
import { EngineFailure, formatEngineError, toEngineError } from '../errors';
import type { RunOutcome, SweepEvent } from '../events';
import type { CellKey, CellResult, EngineError, RunManifest, YcsbReport } from '../model';
import { resultsFormatVersion } from '../model';
import type { RunSweepOptions } from '../options';
import { checkPlanText } from '../plan/plan';
import { withDefaults, type Plan, type ResolvedClient, type ResolvedPlan } from '../plan/planSchema';
import { preflight } from './preflight';
import { bundleProfile, type ProfileBundle } from '../plan/profileBundle';
import { killGroup } from '../remote/remoteProcess';
import { createRunDir, newRunId, readManifest, readResults, ResultsWriter, writeLog, writeManifest, type ResultsIo, realIo } from '../results/resultsStore';
import { secretFileName, staleSecretsCleanup } from '../remote/secrets';
import { bindingCredentials, credentialKeys, type BucketLogin } from '../ycsb/ycsbBinding';
import type { YcsbLauncher } from '../ycsb/ycsbLauncher';
import { effectiveWorkload, phaseOverrides, recordsToLoad, workloadScans } from '../ycsb/ycsbPhaseProperties';
import { profileShapeProblem, workloadShapeProblem } from '../plan/fileShape';
import { logFolderName } from '../results/logFolders';
import { checkLocalPath, checkPlanPaths, resolveLocal, type PathPolicy } from '../plan/pathConfinement';
import { checkManifestCells, recordedPlanDifferences, recordedPlanRefusal } from '../plan/recordedPlan';
import { redactSecrets } from '../remote/redaction';
import { acquireRunLock, describeHolder, type RunLock } from '../results/runLock';
import { acquireRemoteLock } from '../remote/remoteLock';
import { judgeWorkFolder, prepareWorkFolderCommand, workFolderFailure } from '../remote/workFolder';
import { startServer, stopServer, waitForServer, type ServerStart } from '../server/serverControl';
import { remoteProfilePath, serverProfilePath, serviceProfileStagingDir, uploadPathFor } from '../server/serviceProfiles';
import { foregroundProfileReachWarning } from '../server/foregroundProfileReach';
import { ArmsRegister, observeServer, sampleKvConnections, watchInterfaceTraffic } from '../evidence/serverEvidence';
import { proveFresh, proveStopped } from '../server/serverRestartProof';
import { connectionsScript } from '../server/serverProcess';
import { removeDropIn, dropInPath } from '../server/serviceDropIn';
import { SessionPool, type RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';
import { phaseProperties, runYcsbPhase, ycsbCommand, ycsbPidFile, type PhaseOutcome, type YcsbInvocation } from '../ycsb/ycsbRun';
import { applyRunEvidence, fetchHdrFiles, hdrProperties, hdrRemoteDir, prepareHdrDir, samplerPidFile, startCellSamplers } from '../evidence/cellEvidence';
import type { SamplerOutput } from '../evidence/cpuStat';
import { hdrOperationOf, type HdrLogFile } from '../evidence/hdrMerge';
import { addMark } from '../evidence/marks';
import { formatEstimate, initialCells, nextRepetitions, planEstimate, planPoints, possibleExtraCells, type OrderMode } from './schedule';
import type { YcsbStatus } from '../ycsb/ycsbStatus';

/** Test seams: fake sessions instead of OpenSSH, an I/O layer that fails on demand. */
export interface SweepSeams {
  sessionFactory?: (host: string) => RemoteSession;
  resultsIo?: ResultsIo;
  /** Replaces the bucket lifecycle (unit tests without a Couchbase node). */
  bucket?: { recreate(): Promise<void>; itemCount(): Promise<number> };
  /** Skips the server REST wait (unit tests). */
  skipServerWait?: boolean;
  /** Told each step skipped for want of a network (dry run: the REST waits and proofs, the traffic watch). */
  skipped?: (host: string, step: string) => void;
}

const workloadRemoteName = 'workload.properties';
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
  /** `YCSB Client <version>` as printed by each client, for the environment record. */
  readonly ycsbVersions = new Map<string, string>();
  /** The launcher pre-flight chose per client host (ycsbLauncher.ts). */
  launchers = new Map<string, YcsbLauncher>();
  /** YCSB's login for the current cell (bucketUser.ts); its password is redacted like the admin's. */
  private login: BucketLogin | undefined;
  private readonly workloadText: string;
  /** How each server was last started (and the proofs), for the cells' evidence (serverEvidence.ts). */
  private readonly serverStarts = new Map<string, ServerStart & Record<string, unknown>>();
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
    try {
      this.workloadText = readFileSync(resolveLocal(planDir, plan.workload.path), 'utf8');
    } catch {
      this.workloadText = ''; // pre-flight reports the unreadable file
    }
  }

  /** The stack Couchbase runs on now, when known. */
  get serverStack(): string | undefined {
    return this.currentStack;
  }

  get signal(): AbortSignal {
    return this.options.signal;
  }

  log(level: 'info' | 'warn' | 'error' | 'debug', message: string): void {
    this.emit({ type: 'log', level, message: this.redact(message) });
  }

  /** The password never leaves the process in any form the engine writes (redaction.ts), even if a remote tool echoes it. */
  redact(text: string): string {
    return redactSecrets(text, [this.options.password, this.login?.password ?? '']);
  }

  /** Where uploaded local files may come from (pathConfinement.ts). */
  get pathPolicy(): PathPolicy {
    return pathPolicyOf(this.options);
  }

  /** Work folders, leftovers of an earlier crash, uploads of profiles and the workload. */
  async prepareHosts(): Promise<void> {
    const signal = this.signal;
    // absolute work folders: YCSB runs from its own home, so relative paths would break
    for (const host of [...this.plan.servers, ...this.plan.clients]) {
      this.touchedHosts.add(host.host);
      const result = await this.pool.get(host.host).run(prepareWorkFolderCommand(host.workDir), { step: 'prepare', signal });
      const absolute = result.stdout.trim().split('\n').pop() ?? '';
      if (result.exitCode !== 0 || !absolute.startsWith('/')) {
        throw new EngineFailure({ code: 'remote-command', host: host.host, step: 'prepare', message: `Cannot create the work folder ${host.workDir}: ${result.stderr.trim() || `exit ${result.exitCode}`}.`, action: `Check permissions and free space on ${host.host}, or set workDir in the plan.` });
      }
      const verdict = judgeWorkFolder(result.stdout, absolute);
      if (verdict.error) throw workFolderFailure(host.host, verdict.error);
      if (verdict.warning) this.log('warn', `${host.host}: ${verdict.warning}`);
      if (verdict.unchecked) this.log('warn', `${host.host}: could not check who owns the work folder ${absolute} (no GNU stat).`);
      host.workDir = absolute;
      const server = this.plan.servers.find((candidate) => candidate === host);
      const unreachable = server && foregroundProfileReachWarning(server, verdict.closedToOthersAt);
      if (unreachable) this.log('warn', unreachable);
    }
    await this.lockHosts();
    await Promise.all(
      this.plan.servers.map(async (server) => {
        const session = this.pool.get(server.host);
        // a drop-in left by a run that crashed would start the "kernel" arm under Onload
        if (server.serverStart === 'service' && (await removeDropIn(session, server, 'prepare', signal))) {
          this.log('warn', `${server.host}: removed ${dropInPath(server)} left behind by an earlier run that did not finish.`);
        }
        // a fresh staging folder: the service's profiles are installed from all of it (serviceProfiles.ts)
        await session.run(`mkdir -p ${shellQuote(server.workDir)}/profiles && rm -rf -- ${shellQuote(serviceProfileStagingDir(server))}`, { step: 'prepare', signal });
        for (const stack of this.plan.stacks) {
          if (stack.profile === undefined) continue;
          await this.uploadProfile(session, stack.profile, serverProfilePath(server, stack.name), (remotePath) => uploadPathFor(server, remotePath));
        }
      }),
    );
    const workloadPath = resolveLocal(this.planDir, this.plan.workload.path);
    const workload = readFileSync(workloadPath);
    const workloadProblem = workloadShapeProblem(workload);
    if (workloadProblem) throw new EngineFailure({ code: 'upload', step: 'upload-workload', message: `${workloadPath} does not look like a YCSB workload: ${workloadProblem}. It was not uploaded.`, action: 'Point workload.path in the plan at a YCSB workload file.' });
    await Promise.all(
      this.plan.clients.map(async (client) => {
        const session = this.pool.get(client.host);
        for (const phase of ['load', 'run'] as const) await killGroup(session, ycsbPidFile(client, phase), 'prepare', 5, signal);
        await session.run(`mkdir -p ${shellQuote(client.workDir)}/profiles && ${staleSecretsCleanup(client.workDir)}`, { step: 'prepare', signal });
        await session.upload(`${client.workDir}/${workloadRemoteName}`, workload, { step: 'upload-workload', mode: '600', signal });
        const profiles = this.clientProfiles(client);
        for (const [name, path] of profiles) await this.uploadProfile(session, path, remoteProfilePath(client.workDir, name));
      }),
    );
  }

  private readonly hostLocks: { release(): Promise<void> }[] = [];

  /** One run per host work folder (remoteLock.ts), before anything there changes. */
  private async lockHosts(): Promise<void> {
    const owner = { host: hostname(), pid: process.pid, run: basename(this.runDir), since: new Date().toISOString() };
    const seen = new Set<string>();
    for (const host of [...this.plan.servers, ...this.plan.clients]) {
      const key = `${host.host}\0${host.workDir}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const lock = await acquireRemoteLock(this.pool.get(host.host), host.workDir, owner);
      if ('unavailable' in lock) {
        this.log('warn', `${host.host}: the work folder ${host.workDir} is not locked (${lock.unavailable}); make sure no other run uses this host.`);
        continue;
      }
      this.hostLocks.push(lock);
      if (lock.tookOver) this.log('warn', `${host.host}: took over the lock of run ${lock.tookOver.run ?? '?'} (process ${lock.tookOver.pid ?? '?'} on this machine is gone).`);
    }
  }

  async releaseHostLocks(): Promise<void> {
    await Promise.all(this.hostLocks.splice(0).map((lock) => lock.release().catch(() => undefined)));
  }

  /** A profile and the workspace profiles it imports, rewritten so the launcher finds those copies. */
  private async uploadProfile(session: RemoteSession, profile: string, remotePath: string, uploadPath: (remotePath: string) => string = (path) => path): Promise<void> {
    const localPath = resolveLocal(this.planDir, profile);
    let bundle: ProfileBundle;
    try {
      bundle = await bundleProfile(localPath, remotePath, this.options.profilePath ?? []);
    } catch (error) {
      throw new EngineFailure({ code: 'upload', host: session.host, step: 'upload-profile', message: `Cannot prepare the profile ${localPath} for upload: ${(error as Error).message}.`, action: 'Check the profile and the files it imports (onload_import) in the editor.' });
    }
    for (const file of bundle.files) {
      // imports too: each file uploaded must come from a trusted folder and look like a profile
      checkLocalPath(file.localPath, file.localPath === localPath ? profile : `onload_import in ${profile}`, this.planDir, this.pathPolicy);
      const problem = profileShapeProblem(file.content);
      if (problem) throw new EngineFailure({ code: 'upload', host: session.host, step: 'upload-profile', message: `${file.localPath} does not look like an Onload profile: ${problem}. It was not uploaded.`, action: 'Point the plan (stacks[].profile, runUnderOnload) and onload_import at Onload profiles.' });
    }
    // 644: no secret in a profile, and a foreground command that switches user (sudo -u couchbase)
    // must read it; who may enter the folder is the work folder's business (serviceProfiles.ts)
    for (const file of bundle.files) await session.upload(uploadPath(file.remotePath), file.content, { step: 'upload-profile', mode: '644', signal: this.signal });
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
        const serverStartSec = this.options.timeouts?.serverStartSec ?? this.plan.timeouts.serverStartSec;
        this.serverStarts.delete(server.host);
        await stopServer(session, server, signal);
        const killed = await proveStopped(session, server, Math.min(60, serverStartSec), signal);
        if (killed.length > 0) this.log('warn', `${server.host}: killed what the stop left running: ${killed.join(', ')} (killLeftovers).`);
        const remoteProfile = profile !== undefined ? serverProfilePath(server, stack) : undefined;
        const startedAt = Date.now();
        const start = await startServer(session, server, remoteProfile, signal);
        let fresh: Record<string, unknown> = {};
        this.seams.skipped?.(server.host, `REST: GET http://${server.address}:${server.restPort}/pools until it answers (up to ${serverStartSec} s), then GET /pools/default as ${server.adminUser} (password ********): the node's uptime must be below the time since the start`);
        if (!this.seams.skipServerWait) {
          await waitForServer(session, server, server.serverStart === 'foreground', serverStartSec, signal);
          fresh = await proveFresh(session, server, this.options.password, startedAt, signal);
        }
        this.serverStarts.set(server.host, { ...start, ...fresh, ...(killed.length > 0 ? { killedLeftovers: killed } : {}) });
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
    phase('check-acceleration');
    const profileSettings = key.stack === 'kernel' ? undefined : (this.profileSettings[key.stack] ?? {});
    const verdicts = await Promise.all(
      plan.servers.map((server) => observeServer({ session: this.pool.get(server.host), server, key, draft, start: this.serverStarts.get(server.host), profileSettings, log: (level, message) => this.log(level, message), signal })),
    );
    // an unverified check is marked as such (serverEvidence.ts), not as "not accelerated"
    if (key.stack !== 'kernel') draft.accelerated = verdicts.some((verdict) => verdict === false) ? false : verdicts.every((verdict) => verdict === true) ? true : null;
    this.arms.compare(draft, (level, message) => this.log(level, message));
    phase('recreate-bucket');
    const server = plan.servers[0];
    const workload = effectiveWorkload(this.workloadText, plan.workload.properties, key.axes);
    const bucketEvidence: Record<string, unknown> = {};
    const ycsbEvidence: Record<string, unknown> = { binding: [...new Set(plan.clients.map((client) => client.binding))].join(', '), launcher: Object.fromEntries(plan.clients.map((client) => [client.host, this.launchers.get(client.host)?.command ?? '(default)'])), keys: {} };
    draft.evidence = { ...(draft.evidence ?? {}), bucket: bucketEvidence, ycsb: ycsbEvidence };
    const bucketContext = { server, password: this.options.password, bucket: plan.bucket, readySec: this.options.timeouts?.bucketReadySec ?? plan.timeouts.bucketReadySec, ...(signal ? { signal } : {}), ...(this.seams.bucket ? { seam: this.seams.bucket } : {}) };
    this.login = await prepareCellBucket(bucketContext, workloadScans(workload), bucketEvidence);

    // REAL-LAB Y6: the first client loads everything, or each client its slice (workload.splitLoad)
    phase('ycsb-load');
    const loaders = plan.workload.splitLoad ? plan.clients : plan.clients.slice(0, 1);
    const expectedItems = recordsToLoad(workload);
    const loads = await Promise.all(loaders.map(async (client, index) => ({ client, outcome: await this.phase(cell, attempt, client, 'load', draft, phaseOverrides(workload, { phase: 'load', index, count: loaders.length }), workload) })));
    const loadReports = loads.filter((entry) => entry.outcome.report).map((entry) => ({ host: entry.client.host, report: entry.outcome.report as YcsbReport }));
    const loadReport = loadReports.length === 1 ? loadReports[0].report : loadReports.length > 1 ? combineClientReports(loadReports) : undefined;
    draft.load = { report: loadReport as YcsbReport, ...(expectedItems !== undefined ? { expectedItems } : {}) };
    const failedLoad = loads.find((entry) => entry.outcome.error);
    if (failedLoad?.outcome.error) throw failedLoad.outcome.error;

    // REAL-LAB C6: the count is a stats sample: poll it, then let the write queue drain
    phase('item-count');
    const itemCount = await settleAfterLoad(bucketContext, expectedItems, bucketEvidence);
    draft.load.itemCount = itemCount;
    if (expectedItems !== undefined && itemCount !== expectedItems) {
      throw new EngineFailure({ code: 'item-count', host: server.host, step: 'item-count', message: `The bucket holds ${itemCount} items after the load; ${expectedItems} were expected (polled for ${bucketContext.readySec} s).`, action: 'Read the load log for failed inserts; check the bucket quota and eviction policy.' });
    }

    phase('ycsb-run');
    // evidence (cellEvidence.ts): HDR logs into a fresh folder per client, CPU samplers around the phase
    const statusByHost: Record<string, YcsbStatus[]> = {};
    for (const client of plan.clients) await prepareHdrDir(this.pool.get(client.host), hdrRemoteDir(client, id, attempt), signal);
    // REAL-LAB C7: the server's KV connections show which local address carried the traffic
    for (const server of plan.servers) this.seams.skipped?.(server.host, `during the run phase, every 0.5 s: ${connectionsScript(server.kvPort).replace(/\n/g, '; ')}`);
    const baselines = this.seams.skipServerWait ? [] : await Promise.all(plan.servers.map((server) => sampleKvConnections(this.pool.get(server.host), server, signal)));
    const samplers = startCellSamplers(this.pool, plan, key, signal);
    let samplerOutputs: { host: string; role: 'server' | 'client'; output: SamplerOutput }[] = [];
    let runs: { client: ResolvedClient; outcome: PhaseOutcome }[];
    try {
      const running = Promise.all(plan.clients.map(async (client, index) => ({ client, outcome: await this.phase(cell, attempt, client, 'run', draft, phaseOverrides(workload, { phase: 'run', index, count: plan.clients.length }), workload, { properties: hdrProperties(hdrRemoteDir(client, id, attempt)), statuses: (statusByHost[client.host] = []) }) })));
      const watching = this.seams.skipServerWait
        ? Promise.resolve()
        : Promise.all(plan.servers.map((server, index) => watchInterfaceTraffic({ session: this.pool.get(server.host), server, draft, password: this.options.password, baseline: baselines[index] ?? [], running, log: (level, message) => this.log(level, message), signal }))).catch(() => undefined);
      runs = await running.finally(() => watching);
      await watching;
    } finally {
      samplerOutputs = await samplers.stop();
    }
    const reports = runs.filter((entry) => entry.outcome.report).map((entry) => ({ host: entry.client.host, report: entry.outcome.report as YcsbReport }));
    const hdrFiles = await this.fetchHdrLogs(cell, attempt); // also empties the clients' folders
    if (reports.length > 0) {
      draft.clients = reports;
      draft.run = reports.length === 1 ? reports[0].report : combineClientReports(reports);
      for (const mark of applyRunEvidence(draft, { samplers: samplerOutputs, statusByHost, hdrFiles, warmupSec: plan.warmupSec })) addMark(draft, mark);
    }
    const failed = runs.find((entry) => entry.outcome.error);
    if (failed?.outcome.error) throw failed.outcome.error;
  }

  /** Each client's HDR logs of the cell's run phase, copied into the run folder; none when a client has none or cannot be read. */
  private async fetchHdrLogs(cell: Cell, attempt: number): Promise<HdrLogFile[]> {
    const files: HdrLogFile[] = [];
    for (const client of this.plan.clients) {
      try {
        for (const { name, text } of await fetchHdrFiles(this.pool.get(client.host), hdrRemoteDir(client, cell.id, attempt), this.signal)) {
          const file = await writeLog(this.runDir, `${cell.id}/attempt${attempt}-${client.host.replace(/[^A-Za-z0-9._-]/g, '_')}-hdr/${name}`, text, this.io);
          files.push({ host: client.host, operation: hdrOperationOf(name) as string, file, text });
        }
      } catch (error) {
        if (this.signal.aborted) throw error;
        this.log('warn', `${cell.id}: ${client.host}: could not fetch the HDR logs (${(error as Error).message}); percentiles stay the clients' maximum.`);
      }
    }
    return files;
  }

  /** One YCSB phase on one client, with the credentials file and the raw log kept. */
  private async phase(cell: Cell, attempt: number, client: ResolvedClient, name: 'load' | 'run', draft: CellResult, overrides: Record<string, string | number>, workload: Map<string, string>, extra: { properties?: Record<string, string>; statuses?: YcsbStatus[] } = {}): Promise<PhaseOutcome> {
    const session = this.pool.get(client.host);
    const invocation: YcsbInvocation = {
      client,
      server: this.plan.servers[0],
      phase: name,
      key: cell.key,
      bucketName: this.plan.bucket.name,
      workloadRemotePath: `${client.workDir}/${workloadRemoteName}`,
      credentialsRemotePath: '',
      properties: { ...this.plan.workload.properties, ...(extra.properties ?? {}) },
      ...(this.clientProfileFor(client, cell.key.stack) ? { onloadProfileRemotePath: this.clientProfileFor(client, cell.key.stack) as string } : {}),
      ...(this.launchers.has(client.host) ? { launcher: this.launchers.get(client.host) as YcsbLauncher } : {}),
      overrides,
    };
    if (name === 'load') {
      // REAL-LAB Y8: the report must show every record of the client's slice inserted
      const slice = overrides.insertcount !== undefined ? Number(overrides.insertcount) : recordsToLoad(workload);
      if (slice !== undefined) invocation.expectedInserts = slice;
    }
    // the keys each client was given (names and values; the credentials file's keys by name only)
    const keys = (draft.evidence?.ycsb?.keys ?? {}) as Record<string, unknown>;
    keys[`${client.host} ${name}`] = { properties: phaseProperties(invocation), credentialsFile: credentialKeys(client.binding) };
    const step = name === 'load' ? 'ycsb-load' : 'ycsb-run';
    let outcome: PhaseOutcome | undefined;
    let thrown: unknown;
    try {
      invocation.credentialsRemotePath = secretFileName(client.workDir);
      outcome = await runYcsbPhase(session, invocation, {
        timeoutSec: this.options.timeouts?.cellSec ?? this.plan.timeouts.cellSec,
        signal: this.signal,
        // REAL-LAB Y2: YCSB gets the bucket user's generated password, never the admin's
        credentials: bindingCredentials(client.binding, this.login ?? { username: this.plan.bucket.name, password: '' }),
        onStatus: (status, line) => {
          extra.statuses?.push(status);
          this.emit({ type: 'status', id: cell.id, host: client.host, phase: name, status: { elapsedSec: status.elapsedSec, operations: status.operations, currentOpsPerSec: status.currentOpsPerSec }, line: this.redact(line) });
        },
      });
    } catch (error) {
      thrown = error;
    }
    if (outcome || !(thrown instanceof EngineFailure && thrown.error.code === 'cancelled')) {
      const text = [`# ${ycsbCommand(invocation)}`, `# exit ${outcome?.exitCode ?? '-'}`, '# --- stdout', outcome?.stdout ?? '', '# --- stderr', outcome?.stderr ?? '', thrown ? `# --- error\n${formatEngineError(toEngineError(thrown, step, client.host))}` : ''].join('\n');
      const file = `${logFolderName(cell.id)}/attempt${attempt}-${client.host.replace(/[^A-Za-z0-9._-]/g, '_')}-${name}.log`;
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
        await attempt(client.host, () => killGroup(session, samplerPidFile(client.workDir, 'client'), 'cleanup', 1, clientDeadline));
        await attempt(client.host, () => session.run(staleSecretsCleanup(client.workDir), { step: 'cleanup', signal: clientDeadline }));
      }),
    );
    await Promise.all(this.plan.servers.map((server) => attempt(server.host, () => killGroup(this.pool.get(server.host), samplerPidFile(server.workDir, 'server'), 'cleanup', 1, clientDeadline))));
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
    // a run folder is not trusted input: what runs or is uploaded comes from the plan file the
    // user opened unless they accept the recorded one (recordedPlan.ts)
    if (manifest && options.resumeRunDir && !options.acceptRecordedPlan) {
      const differences = recordedPlanDifferences({ plan: rawPlan, planPath }, { plan: options.plan, planPath: options.planPath });
      if (differences.length > 0) throw recordedPlanRefusal(differences, options.resumeRunDir);
    }
    checkPlanPaths(withDefaults(rawPlan), dirname(planPath), pathPolicyOf(options));
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
  let lock: RunLock | undefined;
  const takeLock = async (dir: string): Promise<void> => {
    lock = await acquireRunLock(dir);
    if (lock.replaced) emit({ type: 'log', level: 'warn', message: `Took over the lock of ${describeHolder(lock.replaced)}, which no longer runs.` });
  };
  try {
    if (manifest && options.resumeRunDir) {
      runDir = options.resumeRunDir;
      checkManifestCells(manifest, plan, join(runDir, 'manifest.json'));
      await takeLock(runDir);
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
      // the order and its seed are recorded, so a resume (and a reader) sees the same sequence
      const order = { mode: plan.order, seed: plan.seed ?? Math.floor(Math.random() * 2 ** 32) };
      const keys = initialCells(expandCells(plan), plan.stacks.map((stack) => stack.name), plan.repetitionPolicy, order.mode, order.seed);
      await takeLock(runDir);
      manifest = { kind: 'manifest', formatVersion: resultsFormatVersion, runId: runDir.split(/[\\/]/).pop() as string, createdAt: new Date().toISOString(), plan: rawPlan, planPath, cells: keys.map((key) => ({ id: cellId(key), key })), order };
      await writeManifest(runDir, manifest, seams.resultsIo);
    }
    outcome.runDir = runDir;
    cells = manifest.cells.map((cell, index) => ({ ...cell, index }));
    outcome.total = cells.length;
    writer = await ResultsWriter.open(runDir, seams.resultsIo);
    emit({ type: 'run-started', runDir, manifest, resumed: options.resumeRunDir !== undefined, alreadyDone: cells.filter((cell) => done.has(cell.id)).length });
    run = new SweepRun(plan, planDir, runDir, options, emit, seams);
    const report = await preflight({ plan, planDir, pool: run.pool, password: options.password, resultsRoot: options.resultsRoot, signal: options.signal, profilePath: options.profilePath, onCheck: (check) => emit({ type: 'preflight-check', check }) });
    // older runs (and a damaged field) read as grouped
    const recorded = manifest.order;
    const order: { mode: OrderMode; seed: number } = recorded && ['grouped', 'interleaved', 'randomized'].includes(recorded.mode) && Number.isFinite(recorded.seed) ? recorded : { mode: 'grouped', seed: 0 };
    const stackNames = plan.stacks.map((stack) => stack.name);
    const estimate = planEstimate(planPoints(expandCells(plan)), stackNames, plan.repetitionPolicy, order.mode, order.seed, plan.restartServer);
    report.checks.push({ id: 'plan-size', ok: true, blocking: false, detail: `${formatEstimate(estimate, order.mode)}; order ${order.mode}${order.mode === 'randomized' ? ` (seed ${order.seed})` : ''}` });
    emit({ type: 'preflight', checks: report.checks });
    run.launchers = report.launchers;
    if (report.blockingError) throw new EngineFailure(report.blockingError as EngineError & { code: 'preflight' });
    if (!manifest.environment) {
      manifest.environment = report.environment;
      await writeManifest(runDir, manifest, seams.resultsIo);
    }
    run.profileSettings = manifest.environment?.profiles ?? {};
    if (options.resumeRunDir) for (const result of (await readResults(runDir)).results) run.arms.remember(result);
    if (options.signal.aborted) throw cancelled();
    await run.prepareHosts();

    const durations: number[] = [];
    // every result of the run (earlier sessions' too): run-until-stable decides from them
    const resultsById = new Map((options.resumeRunDir ? (await readResults(runDir)).results : []).map((result) => [result.id, result] as const));
    for (let position = 0; ; position++) {
      if (position >= cells.length) {
        // run until stable: the next round of repetitions, recorded in the manifest before it runs
        const extra = nextRepetitions(manifest.cells.map((entry) => entry.key), resultsById, stackNames, plan.repetitionPolicy, order.mode, order.seed, run.serverStack ?? cells.at(-1)?.key.stack);
        if (extra.length === 0) break;
        for (const key of extra) {
          manifest.cells.push({ id: cellId(key), key, extra: true });
          cells.push({ id: cellId(key), key, index: cells.length });
        }
        await writeManifest(runDir, manifest, seams.resultsIo);
        outcome.total = cells.length;
        emit({ type: 'log', level: 'info', message: `Run until stable: ${extra.length} more cell(s) for ${extra.length / stackNames.length} point(s) whose throughput interval is still wider than ±${plan.repetitionPolicy.targetCi} %.` });
      }
      const cell = cells[position];
      if (done.has(cell.id)) continue;
      if (options.signal.aborted) throw cancelled();
      anyCellStarted = true;
      const started = performance.now(); // monotonic: a wall-clock jump must not skew the estimate
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
      run.arms.remember(result);
      await writer.append(result);
      resultsById.set(result.id, result);
      if (recordYcsbVersions(manifest, run.ycsbVersions)) await writeManifest(runDir, manifest, seams.resultsIo);
      done.add(cell.id);
      if (result.status === 'failed') failedIds.add(cell.id);
      durations.push(performance.now() - started);
      const remaining = cells.filter((candidate) => !done.has(candidate.id)).length;
      // run until stable: up to every point's max repetitions
      const upTo = remaining + possibleExtraCells(manifest.cells.map((entry) => entry.key), resultsById, stackNames, plan.repetitionPolicy);
      const average = durations.reduce((sum, value) => sum + value, 0) / durations.length;
      emit({ type: 'cell-finished', result, index: cell.index, total: cells.length, remainingEstimateMs: Math.round(average * upTo), ...(upTo > remaining ? { remainingEstimateUpTo: true } : {}) });
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
      await run.releaseHostLocks();
      await run.pool.closeAll().catch(() => undefined);
    }
    await writer?.close();
    await (lock as RunLock | undefined)?.release().catch(() => undefined);
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

function pathPolicyOf(options: RunSweepOptions): PathPolicy {
  return { roots: [...(options.allowedRoots ?? []), ...(options.profilePath ?? [])], allowOutside: options.allowOutsidePaths === true };
}
