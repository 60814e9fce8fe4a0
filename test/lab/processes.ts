// Finding a lab's processes through /proc. Every process started on a lab host inherits
// ONLOAD_BENCH_LAB_ID (sshd's SetEnv and the stand-ins' wrappers set it), so "what is left" is a
// scan for that variable, whatever process group or session the engine put it in.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  command: string;
  env: Map<string, string>;
}

function readStat(pid: number): { ppid: number; pgid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ..." where comm may contain spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

export function readProcess(pid: number): ProcessInfo | undefined {
  const stat = readStat(pid);
  if (!stat) return undefined;
  let command = '';
  const env = new Map<string, string>();
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
      const equals = entry.indexOf('=');
      if (equals > 0) env.set(entry.slice(0, equals), entry.slice(equals + 1));
    }
  } catch {
    // exited while we looked, or a kernel thread
  }
  return { pid, ppid: stat.ppid, pgid: stat.pgid, state: stat.state, command, env };
}

export function allProcesses(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** Live (non-zombie) processes carrying the lab's id. */
export function labProcesses(labId: string): ProcessInfo[] {
  return allProcesses().filter(
    (info) => info.pid !== process.pid && info.state !== 'Z' && info.env.get('ONLOAD_BENCH_LAB_ID') === labId,
  );
}

/** A process and all its descendants (by parent pid), the root first. */
export function processTree(rootPid: number, processes = allProcesses()): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const info of processes) {
    const list = children.get(info.ppid) ?? [];
    list.push(info);
    children.set(info.ppid, list);
  }
  const out: ProcessInfo[] = [];
  const root = processes.find((info) => info.pid === rootPid);
  if (root) out.push(root);
  const queue = [rootPid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

export function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
