// Remote processes in their own process group (setsid) with a pid file holding the group id, so
// cancelling or cleaning up after a crash kills the whole tree (YCSB's JVM, Couchbase's children).
// The scripts are POSIX sh (dash and bash), every value quoted.
import { EngineFailure } from '../errors';
import type { RemoteResult, RemoteRunOptions, RemoteSession } from './ssh';
import { shellQuote } from './shellQuote';

/** The body run inside the new session: records the group id, then runs the command line. */
function groupBody(pidFile: string, command: string): string {
  return `echo $$ > ${shellQuote(pidFile)} && ${command}`;
}

/** Starts `command` detached (output to logFile) and returns once it is running. */
export async function startDetached(
  session: RemoteSession,
  options: { command: string; pidFile: string; logFile: string; step: string; signal?: AbortSignal },
): Promise<void> {
  const body = groupBody(options.pidFile, options.command);
  const script = [
    `rm -f ${shellQuote(options.pidFile)}`,
    `setsid sh -c ${shellQuote(body)} > ${shellQuote(options.logFile)} 2>&1 < /dev/null &`,
    // wait (max 5 s) for the pid file so a later kill finds the group
    `i=0; while [ ! -s ${shellQuote(options.pidFile)} ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done`,
    `[ -s ${shellQuote(options.pidFile)} ]`,
  ].join('\n');
  const result = await session.run(script, {
    step: options.step,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (result.exitCode !== 0) {
    throw new EngineFailure({
      code: 'remote-command',
      host: session.host,
      step: options.step,
      message: `Could not start "${options.command}" on ${session.host}: ${result.stderr.trim() || `exit ${result.exitCode}`}.`,
      action: `Check that setsid exists on ${session.host} and the work folder is writable.`,
    });
  }
}

/**
 * Runs `command` in its own group in the foreground, streaming output; the pid file is removed at
 * the end. On cancel or timeout the remote group is killed over a separate command: with SSH
 * multiplexing the master holds the output pipes, so killing the local ssh alone would leave both
 * the remote process and this call waiting.
 */
export async function runInGroup(
  session: RemoteSession,
  command: string,
  pidFile: string,
  options: RemoteRunOptions & {
    /** Written (mode 600) from this command's stdin before the group starts, removed when it ends. */
    privateFile?: string;
    /**
     * A command run before the group in the same round trip (the run's HDR folder); its
     * failure does not stop the group, its output goes to the command's stderr.
     */
    setup?: string;
  },
): Promise<RemoteResult> {
  // one round trip: write the private file from stdin, run the group, clean up, keep the exit code
  // (its own statement: an asynchronous list's stdin is /dev/null, so `cat` must not be part of it)
  // (the setup first, its stdin not the command's: that carries the private file)
  const prelude = `${options.setup !== undefined ? `(${options.setup}) < /dev/null 1>&2; ` : ''}${options.privateFile !== undefined ? `(umask 077 && cat > ${shellQuote(options.privateFile)}) || exit 1; ` : ''}`;
  const cleanup = [pidFile, ...(options.privateFile !== undefined ? [options.privateFile] : [])]
    .map(shellQuote)
    .join(' ');
  // No `setsid -w` (util-linux 2.24+; RHEL/CentOS 7 ship 2.23, REAL-LAB H1): a background job of
  // a non-interactive shell is no group leader, so setsid execs without forking and `wait` gets
  // the command's own exit status.
  const script = `${prelude}setsid sh -c ${shellQuote(groupBody(pidFile, command))} < /dev/null & wait $!; rc=$?; rm -f ${cleanup}; exit $rc`;
  let killing: Promise<unknown> | undefined;
  let timedOut = false;
  const stop = (): void => {
    // not the run's signal (it may be the reason for this kill); a deadline for a host gone silent
    killing ??= killGroup(session, pidFile, options.step, 5, AbortSignal.timeout(30_000)).catch(() => undefined);
  };
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMs)
    : undefined;
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const result = await session.run(script, {
      ...options,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs + 10_000 } : {}),
    });
    if (timedOut) {
      throw new EngineFailure({
        code: 'remote-command',
        host: session.host,
        step: options.step,
        message: `The command did not finish within ${Math.round((options.timeoutMs ?? 0) / 1000)} s on ${session.host} and was stopped.`,
        action: 'Look at the log for a stuck process, or raise timeouts.cellSec in the plan.',
      });
    }
    return result;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
    await killing;
  }
}

/**
 * Shell function `live PGID`: true while the group has a process that is not a zombie (`kill -0`
 * also sees zombies, which linger where PID 1 does not reap them, e.g. in containers).
 */
const liveFunction = `live() { ps -e -o pgid=,stat= 2>/dev/null | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { n++ } END { exit n == 0 }'; }`;

/** Whether the group of the pid file still has a live process. */
export async function groupAlive(
  session: RemoteSession,
  pidFile: string,
  step: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const quoted = shellQuote(pidFile);
  const result = await session.run(`${liveFunction}\n[ -s ${quoted} ] && live "$(cat ${quoted})"`, {
    step,
    ...(signal ? { signal } : {}),
  });
  return result.exitCode === 0;
}

/**
 * The script of `killGroup`: exits 0 when a group was found and stopped, 3 when there was none, any
 * other status when it could not stop it. For a step that stops a group in the same round trip as
 * other work (remote/batchScript.ts); `killGroupOutcome` reads its status.
 */
export function killGroupScript(pidFile: string, graceSec = 10): string {
  const quoted = shellQuote(pidFile);
  const graceMs = Math.max(200, Math.round(graceSec * 1000));
  return [
    liveFunction,
    `[ -s ${quoted} ] || exit 3`,
    `pg=$(cat ${quoted})`,
    `case "$pg" in ''|*[!0-9]*) rm -f ${quoted}; exit 3;; esac`,
    `live "$pg" || { rm -f ${quoted}; exit 3; }`,
    `kill -TERM -$pg 2>/dev/null`,
    // looked at every 10 ms for the first 200 ms (a TERMed sampler or YCSB is usually gone within
    // it, and the end of a run waits on this), every 50 ms up to a second, then every 200 ms
    `t=0; while live "$pg" && [ $t -lt ${graceMs} ]; do if [ $t -lt 200 ]; then sleep 0.01; t=$((t+10)); elif [ $t -lt 1000 ]; then sleep 0.05; t=$((t+50)); else sleep 0.2; t=$((t+200)); fi; done`,
    `kill -KILL -$pg 2>/dev/null`,
    `rm -f ${quoted}`,
    `exit 0`,
  ].join('\n');
}

/** Whether `killGroupScript` found a group (true) or none (false); throws when it could not stop it. */
export function killGroupOutcome(
  result: { exitCode: number; stderr: string },
  host: string,
  pidFile: string,
  step: string,
): boolean {
  if (result.exitCode !== 0 && result.exitCode !== 3) {
    throw new EngineFailure({
      code: 'remote-command',
      host,
      step,
      message: `Could not stop the process group in ${pidFile} on ${host}: ${result.stderr.trim() || `exit ${result.exitCode}`}.`,
      action: `Stop it by hand on ${host} (kill the process group whose id is in ${pidFile}).`,
    });
  }
  return result.exitCode === 0;
}

/**
 * TERM the group, wait up to `graceSec`, then KILL; removes the pid file. Succeeds when there was
 * nothing to kill. Returns whether a group was found. `signal` is for the run's own steps; the
 * kills that clean up after a cancel pass none (or a deadline) since they must still run.
 */
export async function killGroup(
  session: RemoteSession,
  pidFile: string,
  step: string,
  graceSec = 10,
  signal?: AbortSignal,
): Promise<boolean> {
  const result = await session.run(killGroupScript(pidFile, graceSec), { step, ...(signal ? { signal } : {}) });
  return killGroupOutcome(result, session.host, pidFile, step);
}
