// One run at a time per host work folder: two engines (two editors, an editor and the CLI, two
// machines) on one host would restart Couchbase under each other and delete each other's
// credentials files. The lock is a kernel lock (`flock` on <workDir>/.onload-bench.lock) held by
// a small remote shell for as long as the run's SSH session to it lives:
//   - it prints `@locked`, then a heartbeat line every 5 s; when the session ends (the run
//     releases it, the engine dies and its ssh client with it, the master connection closes) the
//     next heartbeat fails with EPIPE, the shell exits and the kernel drops the lock. Nothing is
//     left to clean up, and no lock file can be "stale" by itself;
//   - <workDir>/.onload-bench.owner names the holder (local host, pid, run, start, remote pid).
//     If the holder's connection died without the remote side noticing (a network cut, where
//     sshd may wait for TCP keep-alives), a new engine on the same machine sees that the
//     holder's local pid is gone, stops the remote holder by its pid and takes the lock; a holder
//     on another machine is named in the error, with the remote pid to stop if it is gone.
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

export function remoteLockScript(workDir: string, owner: RemoteLockOwner): string {
  const line = `host=${owner.host} pid=${owner.pid} run=${owner.run} since=${owner.since}`;
  return [
    `cd ${shellQuote(workDir)} || exit 1`,
    `command -v flock >/dev/null 2>&1 || { echo @noflock; exit 0; }`,
    `exec 9>>.onload-bench.lock`,
    `if flock -n 9; then printf '%s remotepid=%s\\n' ${shellQuote(line)} "$$" > .onload-bench.owner; echo @locked; while echo @held; do sleep ${heartbeatSec} 9>&-; done; exit 0; fi`,
    `printf '@busy '; cat .onload-bench.owner 2>/dev/null || echo`,
  ].join('\n');
}

export function parseOwner(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)=(\S+)/g)) out[match[1]] = match[2];
  return out;
}

/** Tries once to take the lock; resolves when the remote side answered (or gave up). */
export function tryRemoteLock(session: RemoteSession, workDir: string, owner: RemoteLockOwner, waitMs = 30_000): Promise<RemoteLockResult> {
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
    const timer = setTimeout(() => settle({ kind: 'unavailable', reason: `no answer within ${waitMs / 1000} s` }), waitMs);
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
      },
    });
    running.then(
      (result) => settle({ kind: 'unavailable', reason: result.exitCode === 0 ? 'the lock command gave no answer' : `the lock command failed: ${result.stderr.trim() || `exit ${result.exitCode}`}` }),
      (error: unknown) => settle({ kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/**
 * Takes the lock of `workDir` on the session's host. Busy: if the holder ran on this machine and
 * its process is gone, its remote holder is stopped and the lock taken; otherwise a `run-locked`
 * failure names the holder. Unavailable: undefined (the caller warns).
 */
export async function acquireRemoteLock(session: RemoteSession, workDir: string, owner: RemoteLockOwner, here = hostname()): Promise<{ release(): Promise<void>; tookOver?: Record<string, string> } | { unavailable: string }> {
  let tookOver: Record<string, string> | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await tryRemoteLock(session, workDir, owner);
    if (result.kind === 'locked') return { release: result.release, ...(tookOver ? { tookOver } : {}) };
    if (result.kind === 'unavailable') return { unavailable: result.reason };
    const holder = result.owner;
    const pid = Number(holder.pid);
    const remotePid = Number(holder.remotepid);
    if (attempt === 0 && holder.host === here && Number.isInteger(pid) && !processAlive(pid) && Number.isInteger(remotePid) && remotePid > 1) {
      await session.run(`kill ${remotePid} 2>/dev/null; sleep 1`, { step: 'lock' });
      tookOver = holder;
      continue;
    }
    throw new EngineFailure({
      code: 'run-locked',
      host: session.host,
      step: 'lock',
      message: `The work folder ${workDir} on ${session.host} is in use by run ${holder.run ?? '?'} of process ${holder.pid ?? '?'} on ${holder.host ?? 'an unknown machine'} (since ${holder.since ?? '?'}); two runs on one host would restart Couchbase under each other.`,
      action: holder.host === here ? 'Wait for that run to finish or cancel it, then start again.' : `Wait for that run to finish; if it is gone, stop its lock holder on ${session.host} ("kill ${holder.remotepid ?? 'PID'}") and start again.`,
    });
  }
  throw new EngineFailure({ code: 'run-locked', host: session.host, step: 'lock', message: `Could not take the lock of ${workDir} on ${session.host}.`, action: 'Make sure no other run uses this host, then start again.' });
}
