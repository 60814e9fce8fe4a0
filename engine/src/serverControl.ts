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
  await killGroup(session, serverPidFile(server), 'stop-server', 30);
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
  await session.run(`mkdir -p ${shellQuote(server.workDir)}`, { step: 'start-server' });
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
export async function restAnswers(address: string, port: number, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(`http://${hostForUrl(address)}:${port}/pools`, { signal: AbortSignal.timeout(timeoutMs) });
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
    if (signal?.aborted) throw new EngineFailure({ code: 'cancelled', host: session.host, step: 'start-server', message: 'Cancelled.', action: 'Resume the run when ready.' });
    if (await restAnswers(server.address, server.restPort)) return;
    if (detached && ++round % 5 === 0 && !(await groupAlive(session, serverPidFile(server), 'start-server'))) {
      const log = await session.run(`tail -n 20 ${shellQuote(serverLogFile(server))} 2>/dev/null`, { step: 'start-server' }).catch(() => undefined);
      throw new EngineFailure({ code: 'server-start', host: session.host, step: 'start-server', message: `couchbase-server exited before its REST port ${server.restPort} answered. Last output: ${tail(log?.stdout ?? '')}`, action: `Look at ${serverLogFile(server)} on ${session.host}; check the start command and the Onload profile.` });
    }
    await sleep(Math.min(500, Math.max(0, deadline - Date.now())), signal);
  }
  throw new EngineFailure({ code: 'server-start', host: session.host, step: 'start-server', message: `Couchbase's REST port ${server.address}:${server.restPort} did not answer within ${timeoutSec} s.`, action: `Check that couchbase-server starts on ${session.host} (logs in ${serverLogFile(server)}), that the address and restPort in the plan are right, or raise timeouts.serverStartSec.` });
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
