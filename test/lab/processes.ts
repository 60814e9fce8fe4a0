// Processes of this machine through /proc, for the lab and its tests: the lab hosts' processes are
// visible here too (their PID namespaces are children of this one), under this machine's pids;
// what a host's sessions left is asked inside the host instead (index.ts processesLeft).
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

export function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
