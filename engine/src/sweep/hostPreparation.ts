// Before the first cell, every host is made ready once: its work folder created and judged (the
// SSH user's, not writable by others, remote/workFolder.ts), locked for this run (one run per host,
// whatever the work folder or user, remote/remoteLock.ts), cleared of what a crashed run left (an Onload drop-in that
// would start the "kernel" arm under Onload, YCSB processes, credentials files), and given the
// run's files: the stacks' profiles on the servers (staged for the service, server/serviceProfiles.ts),
// the workload and any runUnderOnload profiles on the clients.
import { basename } from 'node:path';
import { hostname } from 'node:os';
import { EngineFailure } from '../errors';
import { workloadShapeProblem } from '../plan/fileShape';
import { readLocalFile } from '../plan/localFiles';
import { resolveLocal } from '../plan/pathConfinement';
import type { ResolvedPlan } from '../plan/planSchema';
import { uploadProfile, type ProfileUploadContext } from '../plan/profileUpload';
import { acquireRemoteLock } from '../remote/remoteLock';
import { killGroup } from '../remote/remoteProcess';
import { staleSecretsCleanup } from '../remote/secrets';
import { shellQuote } from '../remote/shellQuote';
import type { RemoteSession } from '../remote/ssh';
import { judgeWorkFolder, prepareWorkFolderCommand, remoteProfilePath, workFolderFailure } from '../remote/workFolder';
import { foregroundProfileReachWarning } from '../server/foregroundProfileReach';
import { dropInPath, removeDropIn } from '../server/serviceDropIn';
import { serverProfilePath, serviceProfileStagingDir, uploadPathFor } from '../server/serviceProfiles';
import { clientProfiles, workloadRemoteName } from '../ycsb/cellPhases';
import { ycsbPidFile } from '../ycsb/ycsbRun';

export interface HostPreparationContext extends ProfileUploadContext {
  pool: { get(host: string): RemoteSession };
  plan: ResolvedPlan;
  runDir: string;
  signal: AbortSignal;
  log: (level: 'info' | 'warn', message: string) => void;
  /** Hosts the run has changed anything on: only these need cleaning up afterwards. */
  touched: Set<string>;
  /** The host locks taken, to release at the end (also when preparing fails half-way). */
  locks: HostLock[];
}

export interface HostLock {
  release(): Promise<void>;
}

/** Work folders, locks, leftovers of an earlier crash, uploads; returns the workload's text as uploaded. */
export async function prepareHosts(context: HostPreparationContext): Promise<string> {
  const { plan, pool, signal } = context;
  // absolute work folders: YCSB runs from its own home, so relative paths would break
  for (const host of [...plan.servers, ...plan.clients]) {
    context.touched.add(host.host);
    const result = await pool.get(host.host).run(prepareWorkFolderCommand(host.workDir), { step: 'prepare', signal });
    const absolute = result.stdout.trim().split('\n').pop() ?? '';
    if (result.exitCode !== 0 || !absolute.startsWith('/')) {
      throw new EngineFailure({
        code: 'remote-command',
        host: host.host,
        step: 'prepare',
        message: `Cannot create the work folder ${host.workDir}: ${result.stderr.trim() || `exit ${result.exitCode}`}.`,
        action: `Check permissions and free space on ${host.host}, or set workDir in the plan.`,
      });
    }
    const verdict = judgeWorkFolder(result.stdout, absolute);
    if (verdict.error) throw workFolderFailure(host.host, verdict.error);
    if (verdict.warning) context.log('warn', `${host.host}: ${verdict.warning}`);
    if (verdict.unchecked)
      context.log('warn', `${host.host}: could not check who owns the work folder ${absolute} (no GNU stat).`);
    host.workDir = absolute;
    const server = plan.servers.find((candidate) => candidate === host);
    const unreachable = server && foregroundProfileReachWarning(server, verdict.closedToOthersAt);
    if (unreachable) context.log('warn', unreachable);
  }
  await lockHosts(context);
  await Promise.all(
    plan.servers.map(async (server) => {
      const session = pool.get(server.host);
      // a drop-in left by a run that crashed would start the "kernel" arm under Onload
      if (server.serverStart === 'service' && (await removeDropIn(session, server, 'prepare', signal))) {
        context.log(
          'warn',
          `${server.host}: removed ${dropInPath(server)} left behind by an earlier run that did not finish.`,
        );
      }
      // a fresh staging folder: the service's profiles are installed from all of it (serviceProfiles.ts)
      await session.run(
        `mkdir -p ${shellQuote(server.workDir)}/profiles && rm -rf -- ${shellQuote(serviceProfileStagingDir(server))}`,
        { step: 'prepare', signal },
      );
      for (const stack of plan.stacks) {
        if (stack.profile === undefined) continue;
        await uploadProfile(session, stack.profile, serverProfilePath(server, stack.name), context, (remotePath) =>
          uploadPathFor(server, remotePath),
        );
      }
    }),
  );
  const workloadPath = resolveLocal(context.planDir, plan.workload.path);
  const read = await readLocalFile(workloadPath);
  if (!read.ok)
    throw new EngineFailure({
      code: 'upload',
      step: 'upload-workload',
      message: `Cannot read the workload ${workloadPath}: ${read.problem}. Nothing was uploaded.`,
      action: 'Point workload.path in the plan at a YCSB workload file.',
    });
  const workload = read.bytes;
  const workloadProblem = workloadShapeProblem(workload);
  if (workloadProblem)
    throw new EngineFailure({
      code: 'upload',
      step: 'upload-workload',
      message: `${workloadPath} does not look like a YCSB workload: ${workloadProblem}. It was not uploaded.`,
      action: 'Point workload.path in the plan at a YCSB workload file.',
    });
  await Promise.all(
    plan.clients.map(async (client) => {
      const session = pool.get(client.host);
      for (const phase of ['load', 'run'] as const)
        await killGroup(session, ycsbPidFile(client, phase), 'prepare', 5, signal);
      await session.run(`mkdir -p ${shellQuote(client.workDir)}/profiles && ${staleSecretsCleanup(client.workDir)}`, {
        step: 'prepare',
        signal,
      });
      await session.upload(`${client.workDir}/${workloadRemoteName}`, workload, {
        step: 'upload-workload',
        mode: '600',
        signal,
      });
      for (const [name, path] of clientProfiles(plan, client))
        await uploadProfile(session, path, remoteProfilePath(client.workDir, name), context);
    }),
  );
  return read.text;
}

/** One run per host, whatever its work folder or SSH user (remoteLock.ts), before anything there changes. */
async function lockHosts(context: HostPreparationContext): Promise<void> {
  const owner = { host: hostname(), pid: process.pid, run: basename(context.runDir), since: new Date().toISOString() };
  const seen = new Set<string>();
  for (const host of [...context.plan.servers, ...context.plan.clients]) {
    if (seen.has(host.host)) continue;
    seen.add(host.host);
    const lock = await acquireRemoteLock(context.pool.get(host.host), host.workDir, owner);
    if ('unavailable' in lock) {
      context.log(
        'warn',
        `${host.host}: the host is not locked for this run (${lock.unavailable}); make sure no other run uses it.`,
      );
      continue;
    }
    context.locks.push(lock);
    if (lock.tookOver)
      context.log(
        'warn',
        `${host.host}: took over the lock of run ${lock.tookOver.run ?? '?'} (process ${lock.tookOver.pid ?? '?'} on this machine is gone).`,
      );
  }
}
