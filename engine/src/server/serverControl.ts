// Putting Couchbase on the right stack: stop whatever runs, start it on the kernel or under Onload,
// both arms the same way (REAL-LAB C1, H3): through the system service (the Onload arm by a
// temporary drop-in) by default, or as a detached foreground command in its own process group on
// hosts without systemd; then wait until its REST port answers.
import { EngineFailure } from '../errors';
import type { ResolvedServer } from '../plan/planSchema';
import { groupAlive, killGroup, startDetached } from '../remote/remoteProcess';
import type { RemoteSession } from '../remote/ssh';
import { fillTemplate, shellQuote } from '../remote/shellQuote';
import { installDropIn, removeDropIn } from './serviceDropIn';
import { sudoProblem } from '../remote/sudoProblems';
import { pollIntervalMs } from '../remote/pollInterval';

export function serverPidFile(server: ResolvedServer): string {
  return `${server.workDir}/couchbase.pid`;
}
export function serverLogFile(server: ResolvedServer): string {
  return `${server.workDir}/couchbase-server.log`;
}

/** How a cell's server was started, for its evidence (REAL-LAB C1, H3). */
export interface ServerStart {
  mode: 'service' | 'foreground';
  /** The systemd drop-in's start command (service mode, Onload arm). */
  dropIn: boolean;
  command: string;
}

/** Stops Couchbase whichever way it was started (the proof that it stopped is serverRestartProof.ts). */
export async function stopServer(session: RemoteSession, server: ResolvedServer, signal?: AbortSignal): Promise<void> {
  await killGroup(session, serverPidFile(server), 'stop-server', 30, signal);
  if (server.serverStart === 'service')
    await runServiceCommand(session, server.kernelStopCommand, 'stop-server', signal);
}

async function runServiceCommand(
  session: RemoteSession,
  command: string,
  step: 'start-server' | 'stop-server',
  signal?: AbortSignal,
): Promise<void> {
  const result = await session.run(command, { step, ...(signal ? { signal } : {}), timeoutMs: 300_000 });
  if (result.exitCode !== 0) {
    const problem = sudoProblem(result.stderr);
    const setting = step === 'start-server' ? 'kernelStartCommand' : 'kernelStopCommand';
    throw new EngineFailure({
      code: step === 'start-server' ? 'server-start' : 'server-stop',
      host: session.host,
      step,
      message: `"${command}" exited with ${result.exitCode}: ${problem ? problem.explanation : tail(result.stderr || result.stdout)}`,
      action: problem
        ? problem.action
        : `Check that the SSH user may run it without a password (sudo -n), or set ${setting} in the plan.`,
    });
  }
}

/**
 * Starts Couchbase on `stack` (kernel when profile is undefined). Does not wait for REST. Service
 * mode: the unit, for the Onload arm through the temporary drop-in (serviceDropIn.ts), whose
 * absence the kernel arm ensures. Foreground mode: a detached command in its own group.
 */
export async function startServer(
  session: RemoteSession,
  server: ResolvedServer,
  profileRemotePath: string | undefined,
  signal?: AbortSignal,
): Promise<ServerStart> {
  const pidFile = serverPidFile(server);
  const logFile = serverLogFile(server);
  await session.run(`mkdir -p ${shellQuote(server.workDir)}`, { step: 'start-server', ...(signal ? { signal } : {}) });
  const values = {
    couchbaseServerPath: server.couchbaseServerPath,
    ...(profileRemotePath ? { profile: profileRemotePath } : {}),
  };
  if (server.serverStart === 'foreground') {
    const command =
      profileRemotePath !== undefined
        ? fillTemplate(server.onloadRunCommand, values)
        : fillTemplate(server.kernelRunCommand ?? '{couchbaseServerPath} -- -noinput', values);
    await startDetached(session, { command, pidFile, logFile, step: 'start-server', ...(signal ? { signal } : {}) });
    return { mode: 'foreground', dropIn: false, command };
  }
  let command = server.kernelStartCommand;
  let dropIn = false;
  if (profileRemotePath !== undefined) {
    command = (await installDropIn(session, server, profileRemotePath, signal)).command;
    dropIn = true;
  } else {
    await removeDropIn(session, server, 'start-server', signal);
  }
  await runServiceCommand(session, server.kernelStartCommand, 'start-server', signal);
  return {
    mode: 'service',
    dropIn,
    command: dropIn ? `${server.kernelStartCommand} (drop-in ExecStart=${command})` : command,
  };
}

/** Any HTTP answer from the REST port (even 401) means the server is up. */
export async function restAnswers(
  address: string,
  port: number,
  timeoutMs = 2000,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const limit = AbortSignal.timeout(timeoutMs);
    const response = await fetch(`http://${hostForUrl(address)}:${port}/pools`, {
      signal: signal ? AbortSignal.any([signal, limit]) : limit,
    });
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
export async function waitForServer(
  session: RemoteSession,
  server: ResolvedServer,
  detached: boolean,
  timeoutSec: number,
  signal?: AbortSignal,
): Promise<void> {
  const started = performance.now();
  const deadline = started + timeoutSec * 1000;
  // the process (or unit) is looked at about every 2.5 s, the REST port more often (pollInterval.ts)
  let nextLook = started + 2_500;
  while (performance.now() < deadline) {
    throwIfCancelled(signal, session.host, 'start-server');
    if (await restAnswers(server.address, server.restPort, 2000, signal)) return;
    throwIfCancelled(signal, session.host, 'start-server');
    const look = performance.now() >= nextLook;
    if (look) nextLook = performance.now() + 2_500;
    if (detached && look && !(await groupAlive(session, serverPidFile(server), 'start-server', signal))) {
      const log = await session
        .run(`tail -n 20 ${shellQuote(serverLogFile(server))} 2>/dev/null`, {
          step: 'start-server',
          ...(signal ? { signal } : {}),
        })
        .catch(() => undefined);
      throw new EngineFailure({
        code: 'server-start',
        host: session.host,
        step: 'start-server',
        message: `couchbase-server exited before its REST port ${server.restPort} answered. Last output: ${tail(log?.stdout ?? '')}`,
        action: `Look at ${serverLogFile(server)} on ${session.host}; check the start command and the Onload profile.`,
      });
    }
    // service mode: a unit whose start command failed (no Onload drivers, refused data folder) goes inactive
    if (!detached && server.serverStart === 'service' && look) {
      const state = await session
        .run(`systemctl is-active ${shellQuote(server.serviceName)}`, {
          step: 'start-server',
          ...(signal ? { signal } : {}),
        })
        .catch(() => undefined);
      if (state && state.exitCode !== 0 && /^(inactive|failed)\s*$/m.test(state.stdout)) {
        const status = await session
          .run(serviceLastWordsScript(server.serviceName), { step: 'start-server', ...(signal ? { signal } : {}) })
          .catch(() => undefined);
        throw new EngineFailure({
          code: 'server-start',
          host: session.host,
          step: 'start-server',
          message: `${server.serviceName}.service stopped before its REST port ${server.restPort} answered (${state.stdout.trim()}). Last lines: ${tail(status?.stdout ?? '', 6)}`,
          action: `Read "journalctl -u ${server.serviceName}" on ${session.host}; for the Onload arm check that the Onload drivers are loaded (/sys/module/onload) and the profile is readable by the service user.`,
        });
      }
    }
    await sleep(
      Math.min(pollIntervalMs(performance.now() - started), Math.max(0, deadline - performance.now())),
      signal,
    );
  }
  throwIfCancelled(signal, session.host, 'start-server');
  throw new EngineFailure({
    code: 'server-start',
    host: session.host,
    step: 'start-server',
    message: `Couchbase's REST port ${server.address}:${server.restPort} did not answer within ${timeoutSec} s.`,
    action: `Check that couchbase-server starts on ${session.host} (logs in ${serverLogFile(server)}), that the address and restPort in the plan are right, or raise timeouts.serverStartSec.`,
  });
}

/**
 * The unit's last journal lines. `systemctl status` shows them only to root and the journal's
 * groups (systemd-journal, adm), not to a plain SSH user, so: the journal as that user if it may
 * read it, else through `sudo -n sh` (the README's sudoers line), else `systemctl status` (found
 * by the lab's real hosts: the service's own words were missing from the error).
 */
export function serviceLastWordsScript(serviceName: string): string {
  const unit = shellQuote(serviceName);
  const journal = `journalctl -u ${unit} -n 20 --no-pager -o cat 2>/dev/null`;
  return [
    `out=$(${journal})`,
    `case "$out" in ''|'-- No entries --'|*'Hint: You are currently not seeing'*) out=$(sudo -n sh -c ${shellQuote(journal)} 2>/dev/null) ;; esac`,
    `case "$out" in ''|'-- No entries --') systemctl status --no-pager -n 20 ${unit} 2>&1 | tail -n 20 ;; *) printf '%s\n' "$out" | tail -n 20 ;; esac`,
  ].join('\n');
}

export function throwIfCancelled(signal: AbortSignal | undefined, host: string | undefined, step: string): void {
  if (signal?.aborted)
    throw new EngineFailure({
      code: 'cancelled',
      ...(host !== undefined ? { host } : {}),
      step,
      message: 'Cancelled.',
      action: 'Resume the run when ready.',
    });
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
