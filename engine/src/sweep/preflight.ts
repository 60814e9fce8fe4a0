// Before any cell: can every host be reached, are the binaries there (and which versions), is each
// interface address configured on a server, does the bucket fit the memory quota, do the profiles
// and the workload pass the language services' checks, and can results be written. Blocking
// failures stop the run before anything is changed on the hosts.
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import { dirname, join } from 'node:path';
import { clusterQuota } from '../couchbase/bucket';
import { interfaceAxisCheck, reachCheck } from './managementReach';
import { EngineFailure, toEngineError } from '../errors';
import type { PreflightCheck } from '../events';
import { clientFacts, serverFacts, type HostFacts } from '../evidence/environment';
import type { EngineError, HostEnvironment, RunEnvironment } from '../model';
import type { PreflightOptions } from '../options';
import { readLocalFile } from '../plan/localFiles';
import { resolveLocal } from '../plan/pathConfinement';
import { withDefaults, type ResolvedPlan } from '../plan/planSchema';
import { effectiveProfileSettings, lintFile } from '../plan/profileFacts';
import { restAnswers, throwIfCancelled } from '../server/serverControl';
import { sameAddress } from '../remote/ipAddress';
import { OpenSshSession, SessionPool } from '../remote/ssh';
import { minimumRamQuotaMB, quotaProblem } from '../couchbase/bucketLifecycle';
import { clusterServices, missingScanServices } from '../couchbase/primaryIndex';
import { chooseLauncher, noLauncherError, type YcsbLauncher } from '../ycsb/ycsbLauncher';
import { hdrSupportAction, probeHdrSupport, type HdrSupport } from '../ycsb/ycsbHdrSupport';
import { effectiveWorkload, workloadScans } from '../ycsb/ycsbPhaseProperties';

export interface PreflightReport {
  checks: PreflightCheck[];
  environment: RunEnvironment;
  /** The error behind the first blocking failure (an SSH error keeps its own code). */
  blockingError?: EngineError;
  /** The YCSB launcher that worked on each client host (ycsbLauncher.ts). */
  launchers: Map<string, YcsbLauncher>;
  /** Whether each client's YCSB can write HDR interval logs (ycsbHdrSupport.ts). */
  hdrSupport: Map<string, HdrSupport>;
}

/** Public entry: the checks only, with its own SSH connections. */
export async function runPreflight(options: PreflightOptions): Promise<PreflightCheck[]> {
  const plan = withDefaults(options.plan);
  const pool = new SessionPool(options.ssh ?? {}, undefined, [options.password]);
  try {
    const report = await preflight({
      plan,
      planDir: dirname(options.planPath),
      pool,
      password: options.password,
      resultsRoot: options.resultsRoot,
      signal: options.signal,
    });
    options.onEvent({ type: 'preflight', checks: report.checks });
    return report.checks;
  } finally {
    await pool.closeAll();
  }
}

export async function preflight(context: {
  plan: ResolvedPlan;
  planDir: string;
  pool: SessionPool;
  password: string;
  resultsRoot: string;
  signal: AbortSignal;
  profilePath?: string[];
  onCheck?: (check: PreflightCheck) => void;
}): Promise<PreflightReport> {
  const { plan, planDir, pool, signal } = context;
  const checks: PreflightCheck[] = [];
  const environment: RunEnvironment = { hosts: {}, profiles: {} };
  const launchers = new Map<string, YcsbLauncher>();
  const hdrSupport = new Map<string, HdrSupport>();
  let blockingError: EngineError | undefined;
  const add = (check: PreflightCheck, error?: EngineError): void => {
    checks.push(check);
    context.onCheck?.(check);
    if (!check.ok && check.blocking && blockingError === undefined) {
      blockingError = error ?? {
        code: 'preflight',
        ...(check.host ? { host: check.host } : {}),
        step: 'preflight',
        message: `${check.id}: ${check.detail}`,
        action: check.action ?? 'Fix the problem and start the run again.',
      };
    }
  };

  // 1. reachability, in parallel
  const hosts = [
    ...new Set([...plan.servers.map((server) => server.host), ...plan.clients.map((client) => client.host)]),
  ];
  const reachable = new Set<string>();
  // allSettled: on a cancel, wait until every connect attempt (and its ssh child) has ended
  const attempts = await Promise.allSettled(
    hosts.map(async (host) => {
      const session = pool.get(host);
      try {
        if (session instanceof OpenSshSession) await session.connect('preflight', signal);
        else await session.run('true', { step: 'preflight', signal });
        reachable.add(host);
        add({ id: 'reachable', host, ok: true, detail: 'SSH works (key login, host key verified)', blocking: true });
      } catch (error) {
        rethrowCancel(error, signal);
        const engineError = toEngineError(error, 'preflight', host);
        add(
          { id: 'reachable', host, ok: false, detail: engineError.message, action: engineError.action, blocking: true },
          engineError,
        );
      }
    }),
  );
  for (const attempt of attempts) if (attempt.status === 'rejected') throw attempt.reason;

  // 2. server facts: binaries, versions, interface addresses
  const onloadStacks = plan.stacks.filter((stack) => stack.profile !== undefined);
  const addresses = Object.values(plan.interfaces);
  const found = new Map<string, string>(); // address -> "host device"
  for (const server of plan.servers) {
    if (!reachable.has(server.host)) continue;
    let facts: HostFacts;
    try {
      facts = await serverFacts(pool.get(server.host), server, addresses, signal);
    } catch (error) {
      rethrowCancel(error, signal);
      const engineError = toEngineError(error, 'preflight', server.host);
      add(
        {
          id: 'server-facts',
          host: server.host,
          ok: false,
          detail: engineError.message,
          action: engineError.action,
          blocking: true,
        },
        engineError,
      );
      continue;
    }
    mergeHost(environment, server.host, facts.environment);
    const needsBinary = onloadStacks.length > 0 || server.kernelRunCommand !== undefined;
    add({
      id: 'couchbase-version',
      host: server.host,
      ok: facts.binaries.couchbase !== false,
      detail:
        facts.binaries.couchbase === false
          ? `${server.couchbaseServerPath} is not an executable file`
          : /^couchbase/i.test(facts.environment.couchbase ?? '')
            ? (facts.environment.couchbase as string)
            : `Couchbase ${facts.environment.couchbase ?? '(version unknown)'}`,
      action: 'Set couchbaseServerPath in the plan to the couchbase-server binary.',
      blocking: needsBinary,
    });
    if (onloadStacks.length > 0) {
      add({
        id: 'onload-version',
        host: server.host,
        ok: facts.binaries.onload === true,
        detail: facts.binaries.onload
          ? onloadLabel(facts.environment.onload)
          : 'onload is not on the PATH of the SSH user',
        action: 'Install Onload on the server or put it on the PATH for non-interactive SSH logins.',
        blocking: true,
      });
    }
    for (const [address, entry] of Object.entries(facts.environment.interfaces ?? {})) {
      if (entry.device) found.set(address, `${server.host} ${entry.device}`);
    }
  }
  for (const [label, address] of Object.entries(plan.interfaces)) {
    if (!plan.servers.some((server) => reachable.has(server.host))) break;
    const where = [...found.entries()].find(([configured]) => sameAddress(configured, address))?.[1];
    add({
      id: 'interface-address',
      ok: where !== undefined,
      detail: where
        ? `${label} ${address} is on ${where}`
        : `${label}: ${address} is not configured on any server (ip -o addr)`,
      action: `Fix the address of "${label}" in the plan or configure it on the server's NIC.`,
      blocking: true,
    });
  }

  // 3. client facts
  throwIfCancelled(signal, undefined, 'preflight');
  for (const client of plan.clients) {
    if (!reachable.has(client.host)) continue;
    try {
      const facts = await clientFacts(pool.get(client.host), client, signal);
      mergeHost(environment, client.host, facts.environment);
      add({
        id: 'ycsb-version',
        host: client.host,
        ok: facts.binaries.ycsb === true,
        detail: facts.binaries.ycsb
          ? ycsbLabel(facts.environment.ycsb, client.ycsbHome)
          : `no bin/ycsb in ${client.ycsbHome}`,
        action: `Set ycsbHome for ${client.host} to the folder that contains bin/ycsb.`,
        blocking: true,
      });
      add({
        id: 'java-version',
        host: client.host,
        ok: facts.binaries.java === true,
        detail: facts.binaries.java ? (facts.environment.java ?? 'java') : 'java is not on the PATH',
        action: 'Install a Java runtime for YCSB.',
        blocking: false,
      });
      // REAL-LAB Y4: run the launcher for real; bin/ycsb alone needs a Python 2
      const probe = await chooseLauncher(pool.get(client.host), client, signal);
      if (probe.launcher) launchers.set(client.host, probe.launcher);
      const launcherError = probe.launcher ? undefined : noLauncherError(client.host, client, probe).error;
      add(
        {
          id: 'ycsb-launcher',
          host: client.host,
          ok: probe.launcher !== undefined,
          detail: probe.launcher
            ? `${probe.launcher.command} starts YCSB${facts.environment.java ? ` (${facts.environment.java})` : ''}${
                probe.tried.length > 1
                  ? `; ${probe.tried
                      .filter((entry) => !entry.ok)
                      .map((entry) => `${entry.launcher.command}: ${entry.detail}`)
                      .join('; ')}`
                  : ''
              }`
            : (launcherError as EngineError).message,
          action: (launcherError ?? { action: '' }).action,
          blocking: true,
        },
        launcherError,
      );
      // HdrHistogram 2.1.4 needs javax.xml.bind for the run's interval logs (ycsbHdrSupport.ts)
      if (probe.launcher) {
        const hdr = await probeHdrSupport(pool.get(client.host), client, probe.launcher, signal);
        hdrSupport.set(client.host, hdr);
        add({
          id: 'ycsb-hdr-log',
          host: client.host,
          ok: hdr.ok,
          detail: hdr.detail,
          ...(hdr.ok ? {} : { action: hdrSupportAction }),
          blocking: false,
        });
      }
      if (client.runUnderOnload !== false) {
        add({
          id: 'onload-version',
          host: client.host,
          ok: facts.binaries.onload === true,
          detail: facts.binaries.onload ? onloadLabel(facts.environment.onload) : 'onload is not on the PATH',
          action: 'Install Onload on the client or set runUnderOnload to false.',
          blocking: true,
        });
      }
    } catch (error) {
      rethrowCancel(error, signal);
      const engineError = toEngineError(error, 'preflight', client.host);
      add(
        {
          id: 'client-facts',
          host: client.host,
          ok: false,
          detail: engineError.message,
          action: engineError.action,
          blocking: true,
        },
        engineError,
      );
    }
  }

  // 4. bucket quota (only when the server already answers; it may legitimately be stopped)
  throwIfCancelled(signal, undefined, 'preflight');
  const first = plan.servers[0];
  if (await restAnswers(first.address, first.restPort, 2000, signal)) {
    try {
      const quota = await clusterQuota(first, context.password, plan.bucket.name, signal);
      if (quota === undefined) {
        add({
          id: 'bucket-quota',
          host: first.host,
          ok: true,
          detail: 'the cluster reports no memory quota; not checked',
          blocking: false,
        });
      } else {
        const free = quota.quotaMB - quota.usedByOthersMB;
        add({
          id: 'bucket-quota',
          host: first.host,
          ok: plan.bucket.ramQuotaMB <= free,
          detail: `bucket needs ${plan.bucket.ramQuotaMB} MiB, ${Math.floor(free)} MiB of ${quota.quotaMB} MiB free`,
          action: 'Lower bucket.ramQuotaMB or raise the cluster memory quota.',
          blocking: true,
        });
      }
    } catch (error) {
      rethrowCancel(error, signal);
      const engineError = toEngineError(error, 'preflight', first.host);
      // A refused password is the password's check, not the quota's (issue 25: "✓ Couchbase
      // password" above "✗ Bucket fits the memory quota: HTTP 401").
      if (engineError.code === 'bucket-auth')
        add(
          {
            id: 'couchbase-password',
            host: first.host,
            ok: false,
            detail: engineError.message,
            action: engineError.action,
            blocking: true,
          },
          engineError,
        );
      else
        add(
          {
            id: 'bucket-quota',
            host: first.host,
            ok: false,
            detail: engineError.message,
            action: engineError.action,
            blocking: false,
          },
          engineError,
        );
    }
  } else {
    add({
      id: 'bucket-quota',
      host: first.host,
      ok: true,
      detail: `Couchbase REST ${first.address}:${first.restPort} does not answer yet; quota checked when the bucket is created`,
      blocking: false,
    });
  }

  // 4b. what the bucket needs whatever the node says (REAL-LAB C5), and the services scans need (Y7)
  const minimum = quotaProblem(plan.bucket.name, plan.bucket.ramQuotaMB);
  if (minimum)
    add({
      id: 'bucket-quota',
      host: first.host,
      ok: false,
      detail: minimum,
      action: `Set bucket.ramQuotaMB to ${minimumRamQuotaMB} or more.`,
      blocking: true,
    });
  // an unreadable workload is reported by the lint check below
  const workload = await readLocalFile(resolveLocal(planDir, plan.workload.path));
  const workloadText = workload.ok ? workload.text : '';
  const scans =
    workloadScans(effectiveWorkload(workloadText, plan.workload.properties, {})) ||
    Object.keys(plan.axes).includes('scanproportion');
  if (scans && (await restAnswers(first.address, first.restPort, 2000, signal))) {
    try {
      const missing = missingScanServices(await clusterServices({ server: first, password: context.password, signal }));
      add({
        id: 'query-services',
        host: first.host,
        ok: missing.length === 0,
        detail:
          missing.length === 0
            ? 'the workload scans (N1QL): the cluster runs the query and index services'
            : `the workload scans, which couchbase2 does through N1QL, but no node runs ${missing.join(' and ')}`,
        action: 'Add the query and index services to the cluster, or use a workload without scans.',
        blocking: true,
      });
    } catch (error) {
      rethrowCancel(error, signal);
      const engineError = toEngineError(error, 'preflight', first.host);
      add({
        id: 'query-services',
        host: first.host,
        ok: false,
        detail: engineError.message,
        action: engineError.action,
        blocking: false,
      });
    }
  }
  // 4b. this workstation's reach to REST and KV, and whether the interface axis means anything (managementReach.ts)
  throwIfCancelled(signal, undefined, 'preflight');
  // (only against real hosts: test sessions have no network behind their addresses)
  const realHosts = plan.servers.every((server) => pool.get(server.host) instanceof OpenSshSession);
  for (const server of realHosts ? plan.servers : []) {
    add(await reachCheck(reachable.has(server.host) ? pool.get(server.host) : undefined, server, signal));
  }
  const axis = realHosts ? await interfaceAxisCheck(plan, context.password, signal).catch(() => undefined) : undefined;
  if (axis) add(axis);

  // 5. local files through the language services
  throwIfCancelled(signal, undefined, 'preflight');
  const lintTargets: { path: string; languageId: 'onload-profile' | 'ycsb-workload'; id: string }[] = [
    ...onloadStacks.map((stack) => ({
      path: resolveLocal(planDir, stack.profile as string),
      languageId: 'onload-profile' as const,
      id: 'profile-lint',
    })),
    { path: resolveLocal(planDir, plan.workload.path), languageId: 'ycsb-workload', id: 'workload-lint' },
  ];
  for (const target of lintTargets) {
    try {
      await access(target.path, fsConstants.R_OK);
    } catch {
      add({
        id: target.id,
        ok: false,
        detail: `${target.path} cannot be read`,
        action: 'Fix the path in the plan (relative paths start at the plan file).',
        blocking: true,
      });
      continue;
    }
    try {
      const problems = await lintFile(target.path, target.languageId, context.profilePath ?? []);
      if (problems === undefined) {
        add({
          id: target.id,
          ok: true,
          detail: `${target.path}: no language service for ${target.languageId}; not checked`,
          blocking: false,
        });
        continue;
      }
      const errors = problems.filter((problem) => problem.severity === 'error');
      const warnings = problems.filter((problem) => problem.severity === 'warning');
      const listed = [...errors, ...warnings]
        .slice(0, 5)
        .map((problem) => `line ${problem.line}: ${problem.message}`)
        .join('; ');
      add({
        id: target.id,
        ok: errors.length === 0,
        detail:
          errors.length + warnings.length === 0
            ? `${target.path}: no problems`
            : `${target.path}: ${errors.length} error(s), ${warnings.length} warning(s): ${listed}`,
        action: `Open ${target.path} and fix the reported problems.`,
        blocking: errors.length > 0,
      });
    } catch (error) {
      add({
        id: target.id,
        ok: true,
        detail: `${target.path}: the checker failed (${(error as Error).message}); not checked`,
        blocking: false,
      });
    }
  }
  for (const stack of onloadStacks) {
    try {
      environment.profiles[stack.name] = await effectiveProfileSettings(
        resolveLocal(planDir, stack.profile as string),
        context.profilePath ?? [],
      );
    } catch {
      // unreadable: already reported by the lint check
    }
  }

  // 6. the results folder takes writes
  try {
    await mkdir(context.resultsRoot, { recursive: true });
    const probe = join(context.resultsRoot, `.write-test-${process.pid}`);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    add({ id: 'results-writable', ok: true, detail: `${context.resultsRoot} is writable`, blocking: true });
  } catch (error) {
    add({
      id: 'results-writable',
      ok: false,
      detail: `${context.resultsRoot} is not writable: ${(error as Error).message}`,
      action: 'Choose another results folder or free space.',
      blocking: true,
    });
  }

  return { checks, environment, launchers, hdrSupport, ...(blockingError ? { blockingError } : {}) };
}

/** A cancel is not a failed check: it ends the pre-flight at once. */
function rethrowCancel(error: unknown, signal: AbortSignal): void {
  if (signal.aborted || (error instanceof EngineFailure && error.error.code === 'cancelled')) {
    throw error instanceof EngineFailure && error.error.code === 'cancelled'
      ? error
      : new EngineFailure({
          code: 'cancelled',
          step: 'preflight',
          message: 'Cancelled.',
          action: 'Start the run again when ready.',
        });
  }
}

function mergeHost(environment: RunEnvironment, host: string, facts: HostEnvironment): void {
  const existing = environment.hosts[host];
  environment.hosts[host] = existing
    ? { ...facts, ...existing, interfaces: { ...(facts.interfaces ?? {}), ...(existing.interfaces ?? {}) } }
    : facts;
}

/** `onload --version` already names itself ("Onload 9.0.1.86", older releases "OpenOnload 8.1.2.26"). */
export function onloadLabel(version: string | undefined): string {
  if (version === undefined || version === '') return 'Onload (version unknown)';
  return /onload/i.test(version) ? version : `Onload ${version}`;
}

/** The version the run records when the client folder does not reveal it comes from YCSB's own first line. */
export function ycsbLabel(version: string | undefined, ycsbHome: string): string {
  return version
    ? `YCSB ${version} in ${ycsbHome}`
    : `YCSB in ${ycsbHome} (version read from its output at the first run)`;
}
