// One run at a time per server: two engines (two editors, an editor and the CLI, two machines, two
// SSH users with their own work folders) on one host would restart Couchbase under each other and
// delete each other's credentials files. The lock is a kernel lock (`flock`) on one system-wide
// file that every work folder and every user shares, `/var/tmp/onload-bench.lock` (the folder can
// be moved with ONLOAD_BENCH_LOCK_DIR in the host's environment, e.g. for hosts that are
// containers sharing one /var/tmp), held by a small remote shell for as long as the run's SSH
// session to it lives:
//   - it prints `@locked`, then a heartbeat line every 5 s; when the session ends (the run
//     releases it, the engine dies and its ssh client with it, the master connection closes) the
//     next heartbeat fails with EPIPE, the shell exits and the kernel drops the lock. Nothing is
//     left to clean up, and no lock file can be "stale" by itself;
//   - /var/tmp is sticky and everyone's: the file is made once, new (noclobber) with mode 666 so
//     every user can lock it and name themselves in it; it is opened read-only without O_CREAT
//     (fs.protected_regular refuses O_CREAT on another user's file there), a link or a special
//     file at its name is refused, and the holder's line is written through the descriptor that
//     holds the lock (/proc/self/fd/9), never through the name;
//   - the file names the holder (local host, pid, run, start, remote user, work folder, remote
//     pid). If the holder's connection died without the remote side noticing (a network cut,
//     where sshd may wait for TCP keep-alives), a new engine on the same machine sees that the
//     holder's local pid is gone, stops the remote holder by its pid and takes the lock; a holder
//     on another machine is named in the error, with the remote pid to stop if it is gone. The
//     same engine reaching one machine under two names holds it once.
// A host without `flock` (util-linux) gets a warning and no lock.
import { hostname } from 'node:os';
import { processAlive } from './controlFolders';
import { EngineFailure } from '../errors';
import type { RemoteSession } from './ssh';
import { shellQuote } from './shellQuote';

export interface RemoteLockOwner {
  host: string;
  pid: number;
  run: string;
  since: string;
}

export type RemoteLockResult =
  | { kind: 'locked'; release(): Promise<void> }
  | { kind: 'busy'; owner: Record<string, string> }
  | { kind: 'unavailable'; reason: string };

const heartbeatSec = 5;

/** The lock file on the host, as the remote shell spells it. */
export const remoteLockPath = '${ONLOAD_BENCH_LOCK_DIR:-/var/tmp}/onload-bench.lock';

/** Owner values travel as `name=value` words: encoded so a space or `=` cannot split them. */
function ownerWord(name: string, value: string | number): string {
  return `${name}=${encodeURIComponent(String(value))}`;
}

export function remoteLockScript(workDir: string, owner: RemoteLockOwner): string {
  const line = [
    ownerWord('host', owner.host),
    ownerWord('pid', owner.pid),
    ownerWord('run', owner.run),
    ownerWord('since', owner.since),
    ownerWord('workdir', workDir),
  ].join(' ');
  return [
    `f="${remoteLockPath}"`,
    `command -v flock >/dev/null 2>&1 || { echo @noflock; exit 0; }`,
    // a link or a special file planted at the name is never opened
    `if [ -L "$f" ] || { [ -e "$f" ] && [ ! -f "$f" ]; }; then echo "@badlock $f"; exit 0; fi`,
    `[ -e "$f" ] || (umask 0; set -C; : > "$f") 2>/dev/null; chmod 666 "$f" 2>/dev/null`,
    `[ -r "$f" ] || { echo "@unreadable $f"; exit 0; }`,
    `exec 9<"$f"`,
    `[ -f /proc/self/fd/9 ] || [ ! -e /proc/self/fd ] || { echo "@badlock $f"; exit 0; }`,
    `if flock -n 9; then`,
    `  printf '%s user=%s remotepid=%s\\n' ${shellQuote(line)} "$(id -un 2>/dev/null)" "$$" | dd of=/proc/self/fd/9 conv=nocreat status=none 2>/dev/null`,
    `  echo @locked; while echo @held; do sleep ${heartbeatSec} 9>&-; done; exit 0`,
    `fi`,
    `printf '@busy '; head -c 1024 <&9 | tr -d '\\n\\r'; echo`,
  ].join('\n');
}

export function parseOwner(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)=(\S+)/g)) {
    try {
      out[match[1]] = decodeURIComponent(match[2]);
    } catch {
      out[match[1]] = match[2];
    }
  }
  return out;
}

/** Tries once to take the lock; resolves when the remote side answered (or gave up). */
export function tryRemoteLock(
  session: RemoteSession,
  workDir: string,
  owner: RemoteLockOwner,
  waitMs = 30_000,
): Promise<RemoteLockResult> {
  const holder = new AbortController();
  return new Promise<RemoteLockResult>((resolve) => {
    let settled = false;
    const settle = (result: RemoteLockResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result.kind !== 'locked') holder.abort();
      resolve(result);
    };
    const timer = setTimeout(
      () => settle({ kind: 'unavailable', reason: `no answer within ${waitMs / 1000} s` }),
      waitMs,
    );
    const running = session.run(remoteLockScript(workDir, owner), {
      step: 'lock',
      signal: holder.signal,
      onStdoutLine: (line) => {
        if (line === '@locked') {
          settle({
            kind: 'locked',
            release: async () => {
              holder.abort();
              await running.catch(() => undefined);
            },
          });
        } else if (line.startsWith('@busy')) settle({ kind: 'busy', owner: parseOwner(line) });
        else if (line === '@noflock') settle({ kind: 'unavailable', reason: 'flock (util-linux) is not installed' });
        else if (line.startsWith('@badlock '))
          settle({
            kind: 'unavailable',
            reason: `${line.slice(9)} is not a regular file (a link or a special file someone put there); remove it`,
          });
        else if (line.startsWith('@unreadable '))
          settle({
            kind: 'unavailable',
            reason: `${line.slice(12)} cannot be read by the SSH user (another user made it private); remove it or make it mode 666`,
          });
      },
    });
    running.then(
      (result) =>
        settle({
          kind: 'unavailable',
          reason:
            result.exitCode === 0
              ? 'the lock command gave no answer'
              : `the lock command failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
        }),
      (error: unknown) =>
        settle({ kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/**
 * Takes the lock of the session's host (one per server, whatever the work folder or user; `workDir`
 * only names this run in it). Busy: if the holder ran on this machine and its process is gone, its
 * remote holder is stopped and the lock taken; if the holder is this very run (one machine reached
 * under two names), it is already held; otherwise a `run-locked` failure names the holder.
 * Unavailable: the reason (the caller warns).
 */
export async function acquireRemoteLock(
  session: RemoteSession,
  workDir: string,
  owner: RemoteLockOwner,
  here = hostname(),
): Promise<{ release(): Promise<void>; tookOver?: Record<string, string> } | { unavailable: string }> {
  let tookOver: Record<string, string> | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await tryRemoteLock(session, workDir, owner);
    if (result.kind === 'locked') return { release: result.release, ...(tookOver ? { tookOver } : {}) };
    if (result.kind === 'unavailable') return { unavailable: result.reason };
    const holder = result.owner;
    const pid = Number(holder.pid);
    const remotePid = Number(holder.remotepid);
    if (holder.host === owner.host && pid === owner.pid && holder.run === owner.run)
      return { release: async () => undefined };
    if (
      attempt === 0 &&
      holder.host === here &&
      Number.isInteger(pid) &&
      !processAlive(pid) &&
      Number.isInteger(remotePid) &&
      remotePid > 1
    ) {
      await session.run(`kill ${remotePid} 2>/dev/null; sleep 1`, { step: 'lock' });
      tookOver = holder;
      continue;
    }
    throw new EngineFailure({
      code: 'run-locked',
      host: session.host,
      step: 'lock',
      message: `${session.host} is in use by run ${holder.run ?? '?'} of process ${holder.pid ?? '?'} on ${holder.host ?? 'an unknown machine'} (user ${holder.user || '?'}, work folder ${holder.workdir ?? '?'}, since ${holder.since ?? '?'}); two runs on one server would restart Couchbase under each other.`,
      action:
        holder.host === here
          ? 'Wait for that run to finish or cancel it, then start again.'
          : `Wait for that run to finish; if it is gone, stop its lock holder on ${session.host} ("kill ${holder.remotepid ?? 'PID'}") and start again.`,
    });
  }
  throw new EngineFailure({
    code: 'run-locked',
    host: session.host,
    step: 'lock',
    message: `Could not take the lock of ${session.host}.`,
    action: 'Make sure no other run uses this host, then start again.',
  });
}
