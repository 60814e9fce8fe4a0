// One engine at a time per run folder. Two resumes of one run ran the same cells, restarted the
// server under each other and deleted each other's credentials files. `run.lock` in the run folder
// names its holder (pid, host, start time); it is created complete (written to a private file,
// then hard-linked into place: link fails if the lock exists, so there is no half-written lock)
// and removed by its holder at the end. A lock whose holder ran on this machine and whose pid is
// gone (kill -9, power loss) is stale and taken over with a warning; a holder on another machine
// cannot be checked from here, so the message names it and says how to remove the lock by hand.
import { randomBytes } from 'node:crypto';
import { link, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../remote/controlFolders';
import { EngineFailure } from '../errors';
import { readRunFileText } from './runFolderFiles';

export const lockFile = 'run.lock';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
}

export interface RunLock {
  readonly holder: LockHolder;
  /** A stale lock that was taken over, for the log. */
  readonly replaced?: LockHolder;
  release(): Promise<void>;
}

export function describeHolder(holder: Partial<LockHolder>): string {
  return `process ${holder.pid ?? '?'} on ${holder.host ?? 'an unknown host'} (since ${holder.startedAt ?? 'an unknown time'})`;
}

/** The holder a lock names; a lock that is a link, a FIFO or too big names nobody (never followed, never waited on). */
async function readHolder(path: string): Promise<Partial<LockHolder> | undefined> {
  try {
    const text = await readRunFileText(path, 64 * 1024);
    if (text === undefined) return undefined;
    const value = JSON.parse(text) as Partial<LockHolder>;
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** Stale: held on this machine by a process that no longer exists. */
export function isStale(holder: Partial<LockHolder>, here = hostname()): boolean {
  return holder.host === here && typeof holder.pid === 'number' && !processAlive(holder.pid);
}

export async function acquireRunLock(runDir: string, now = new Date()): Promise<RunLock> {
  const path = join(runDir, lockFile);
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: now.toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const draft = join(runDir, `.${lockFile}.${holder.token}`);
  await writeFile(draft, JSON.stringify(holder) + '\n', { mode: 0o644 });
  let replaced: Partial<LockHolder> | undefined;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(draft, path);
        const lock: RunLock = {
          holder,
          ...(replaced ? { replaced: replaced as LockHolder } : {}),
          release: async () => {
            const current = await readHolder(path);
            if (current?.token === holder.token) await rm(path, { force: true });
          },
        };
        return lock;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = await readHolder(path);
      if (current === undefined) continue; // released in between
      if (!isStale(current)) {
        throw new EngineFailure({
          code: 'run-locked',
          step: 'lock',
          message: `${runDir} is in use by ${describeHolder(current)}; two engines on one run folder would run the same cells and restart the server under each other.`,
          action:
            current.host === holder.host
              ? 'Wait for that run to finish or cancel it, then resume.'
              : `Wait for that run to finish; if it is gone (its machine crashed), delete ${path} and resume.`,
        });
      }
      // move the stale lock aside and check it is the one judged stale: two engines taking over
      // at once must not remove the fresh lock the faster one just made
      const aside = `${path}.stale-${holder.token}`;
      try {
        await rename(path, aside);
      } catch {
        continue; // someone else moved it first
      }
      const moved = await readHolder(aside);
      if (moved?.token !== current.token)
        await link(aside, path).catch(() => undefined); // not ours to remove: put it back
      else replaced = current;
      await rm(aside, { force: true });
    }
    throw new EngineFailure({
      code: 'run-locked',
      step: 'lock',
      message: `Could not take the lock ${path}: other processes keep taking it.`,
      action: 'Make sure only one run uses this folder, then resume.',
    });
  } finally {
    await rm(draft, { force: true }).catch(() => undefined);
  }
}
