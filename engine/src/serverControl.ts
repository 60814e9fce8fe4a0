// Putting Couchbase on the right stack: stop whatever runs, start it on the kernel (the system
// service by default, or a foreground command the engine detaches) or under Onload (always
// detached, in its own process group), then wait until its REST port answers.
import { EngineFailure } from './errors';
import type { ResolvedServer } from './planSchema';
import { groupAlive, killGroup, startDetached } from './remoteProcess';
import type { RemoteSession } from './ssh';
import { fillTemplate, shellQuote } from './shellQuote';

export function serverPidFile(server: ResolvedServer): string {
  return `${server.workDir}/couchbase.pid`;
}
export function serverLogFile(server: ResolvedServer): string {
  return `${server.workDir}/couchbase-server.log`;
}
/** Where a stack's profile is uploaded on a host. */
export function remoteProfilePath(workDir: string, stackName: string): string {
  return `${workDir}/profiles/${stackName}.opf`;
}

/** Stops Couchbase whichever way it was started. */
export async function stopServer(session: RemoteSession, server: ResolvedServer, signal?: AbortSignal): Promise<void> {
  await killGroup(session, serverPidFile(server), 'stop-server', 30, signal);
  if (server.kernelRunCommand === undefined) {
    const result = await session.run(server.kernelStopCommand, { step: 'stop-server', ...(signal ? { signal } : {}), timeoutMs: 300_000 });
    if (result.exitCode !== 0) {
      throw new EngineFailure({ code: 'server-stop', host: session.host, step: 'stop-server', message: `"${server.kernelStopCommand}" exited with ${result.exitCode}: ${tail(result.stderr || result.stdout)}`, action: `Check that the SSH user may run it without a password (sudo -n), or set kernelStopCommand in the plan.` });
    }
  }
}

/** Starts Couchbase on `stack` (kernel when profile is undefined). Does not wait for REST. */
export async function startServer(session: RemoteSession, server: ResolvedServer, profileRemotePath: string | undefined, signal?: AbortSignal): Promise<void> {
  const pidFile = serverPidFile(server);
  const logFile = serverLogFile(server);
  await session.run(`mkdir -p ${shellQuote(server.workDir)}`, { step: 'start-server', ...(signal ? { signal } : {}) });
  const values = { couchbaseServerPath: server.couchbaseServerPath, ...(profileRemotePath ? { profile: profileRemotePath } : {}) };
  if (profileRemotePath !== undefined) {
    await startDetached(session, { command: fillTemplate(server.onloadRunCommand, values), pidFile, logFile, step: 'start-server', ...(signal ? { signal } : {}) });
  } else if (server.kernelRunCommand !== undefined) {
    await startDetached(session, { command: fillTemplate(server.kernelRunCommand, values), pidFile, logFile, step: 'start-server', ...(signal ? { signal } : {}) });
  } else {
    const result = await session.run(server.kernelStartCommand, { step: 'start-server', ...(signal ? { signal } : {}), timeoutMs: 300_000 });
    if (result.exitCode !== 0) {
      throw new EngineFailure({ code: 'server-start', host: session.host, step: 'start-server', message: `"${server.kernelStartCommand}" exited with ${result.exitCode}: ${tail(result.stderr || result.stdout)}`, action: `Check that the SSH user may run it without a password (sudo -n), or set kernelStartCommand in the plan.` });
    }
  }
}

/** Any HTTP answer from the REST port (even 401) means the server is up. */
export async function restAnswers(address: string, port: number, timeoutMs = 2000, signal?: AbortSignal): Promise<boolean> {
  try {
    const limit = AbortSignal.timeout(timeoutMs);
    const response = await fetch(`http://${hostForUrl(address)}:${port}/pools`, { signal: signal ? AbortSignal.any([signal, limit]) : limit });
    await response.arrayBuffer().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

export function hostForUrl(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/** Waits until REST answers; fails early when a detached server process has already died. */
export async function waitForServer(session: RemoteSession, server: ResolvedServer, detached: boolean, timeoutSec: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutSec * 1000;
  let round = 0;
  while (Date.now() < deadline) {
    throwIfCancelled(signal, session.host, 'start-server');
    if (await restAnswers(server.address, server.restPort, 2000, signal)) return;
    throwIfCancelled(signal, session.host, 'start-server');
    if (detached && ++round % 5 === 0 && !(await groupAlive(session, serverPidFile(server), 'start-server', signal))) {
      const log = await session.run(`tail -n 20 ${shellQuote(serverLogFile(server))} 2>/dev/null`, { step: 'start-server', ...(signal ? { signal } : {}) }).catch(() => undefined);
      throw new EngineFailure({ code: 'server-start', host: session.host, step: 'start-server', message: `couchbase-server exited before its REST port ${server.restPort} answered. Last output: ${tail(log?.stdout ?? '')}`, action: `Look at ${serverLogFile(server)} on ${session.host}; check the start command and the Onload profile.` });
    }
    await sleep(Math.min(500, Math.max(0, deadline - Date.now())), signal);
  }
  throwIfCancelled(signal, session.host, 'start-server');
  throw new EngineFailure({ code: 'server-start', host: session.host, step: 'start-server', message: `Couchbase's REST port ${server.address}:${server.restPort} did not answer within ${timeoutSec} s.`, action: `Check that couchbase-server starts on ${session.host} (logs in ${serverLogFile(server)}), that the address and restPort in the plan are right, or raise timeouts.serverStartSec.` });
}

export function throwIfCancelled(signal: AbortSignal | undefined, host: string | undefined, step: string): void {
  if (signal?.aborted) throw new EngineFailure({ code: 'cancelled', ...(host !== undefined ? { host } : {}), step, message: 'Cancelled.', action: 'Resume the run when ready.' });
}

export function tail(text: string, lines = 5): string {
  const kept = text.trim().split('\n').slice(-lines).join(' | ');
  return kept === '' ? '(no output)' : kept;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
