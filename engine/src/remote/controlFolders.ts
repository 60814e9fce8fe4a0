// Local folders of ssh ControlMaster sockets. Each SessionPool makes `ob-<pid>-XXXXXX` under the
// OS temp folder and removes it when closed; an engine or editor killed with -9 leaves its folder
// behind, and its masters live on until ControlPersist (bounded, ssh.ts) runs out. The next pool
// removes the folders whose creating process is gone (same user, same machine: the pid is in the
// name) after asking each master in them to exit. That `ssh -O exit` is a child of the engine like
// any other: the cleaned environment (no password, childEnvironment.ts) and the engine's own ssh
// options (`-F` when the user chose an ssh_config, BatchMode, host-key checking).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment } from './childEnvironment';

/** How the engine runs ssh: the binary, its options (ssh.ts, without the control-socket ones), its environment. */
export interface SshInvocation {
  binary: string;
  options: readonly string[];
  env: NodeJS.ProcessEnv;
}

const prefix = 'ob-';
const pattern = /^ob-(\d+)-[A-Za-z0-9]{6}$/;

/** A fresh private folder (mkdtemp: mode 700) named for this process. */
export function createControlFolder(root = tmpdir()): string {
  return mkdtempSync(join(root, `${prefix}${process.pid}-`));
}

/** True while a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes control folders left by dead processes of this user; returns the removed paths. Each
 * socket's master is told to exit first (`ssh -O exit`, bounded in time), so nothing lingers.
 */
export function cleanStaleControlFolders(
  root = tmpdir(),
  ssh: SshInvocation = { binary: 'ssh', options: [], env: childEnvironment(process.env) },
): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    const folder = join(root, name);
    try {
      const info = statSync(folder);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
      for (const socket of readdirSync(folder)) {
        // ssh takes an option's first value: this socket's path goes before any other
        spawnSync(
          ssh.binary,
          ['-o', `ControlPath=${join(folder, socket)}`, ...ssh.options, '-O', 'exit', 'stale-master'],
          { stdio: 'ignore', timeout: 3000, env: ssh.env },
        );
      }
      rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // another process cleaned it first, or it is not ours
    }
  }
  return removed;
}
