// The files one lab run keeps under its folder, shared by the lab (test side) and the stand-in
// executables (run on the "hosts" through sshd). Faults are one file per switch in `state/faults/`
// so a shell script can test them with `[ -e ]` and Node reads them as JSON.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestNodeFaults } from './couchbaseTestNode';

/** `lab.json`: what the stand-ins need to know about the run (mode 600: it holds the password). */
export interface LabConfig {
  labId: string;
  /** The test process that owns the lab; a lab whose owner is gone is reaped by the next startLab. */
  ownerPid?: number;
  labDir: string;
  hostRoot: string;
  stateDir: string;
  couchbase: {
    addresses: string[];
    kvPort: number;
    restPort: number;
    username: string;
    password: string;
    version: string;
    memoryQuotaMB: number;
    /** The node's configured name (REAL-LAB C7); unset: announced as each client's address. */
    nodeName?: string;
  };
  /** Version strings the stand-ins print. */
  versions: { onload: string; ycsb: string };
}

/** Every switch the stand-ins understand. Set them with `lab.faults.set({...})`. */
export interface LabFaults extends TestNodeFaults {
  // --- the Couchbase test node: its switches (TestNodeFaults), and its stand-in's
  /** `couchbase-server` starts but never opens its ports ("never comes up"). */
  couchbaseNeverReady?: boolean;
  /** `couchbase-server` waits this long (ms) before opening its ports. */
  couchbaseStartDelayMs?: number;
  // --- onload
  /** `onload` runs the command without acceleration (no marker, not listed by onload_stackdump). */
  onloadNotAccelerating?: boolean;
  /** `onload` preloads libonload (mapped by every child) but no stack is created (REAL-LAB O2). */
  onloadNoStack?: boolean;
  /** The Onload kernel modules are not loaded: `onload` refuses to start anything (REAL-LAB O3). */
  onloadDriversMissing?: boolean;
  // --- hosts
  /** `sudo` refuses everything without a terminal ("you must have a tty"), REAL-LAB H2. */
  sudoRequiresTty?: boolean;
  /** `sudo` refuses these commands (by name) as sudoers would ("not allowed to execute"), REAL-LAB O5. */
  sudoDenied?: string[];
  // --- ycsb: the real one; its faults (ycsbCrashAfterOps, ycsbHangAfterOps: a signal to its JVM,
  // temporaryFailureEvery: Return=ERROR) are the test node's (TestNodeFaults)
}

export const labConfigFile = 'lab.json';

export function faultsDir(stateDir: string): string {
  return join(stateDir, 'faults');
}

export function writeFaults(stateDir: string, faults: LabFaults): void {
  const dir = faultsDir(stateDir);
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(faults)) {
    const file = join(dir, name);
    if (value === undefined || value === false || value === null) rmSync(file, { force: true });
    else writeFileSync(file, JSON.stringify(value));
  }
}

export function clearFaults(stateDir: string): void {
  rmSync(faultsDir(stateDir), { recursive: true, force: true });
  mkdirSync(faultsDir(stateDir), { recursive: true });
}

export function readFaults(stateDir: string): LabFaults {
  const faults: Record<string, unknown> = {};
  let names: string[];
  try {
    names = readdirSync(faultsDir(stateDir));
  } catch {
    return {};
  }
  for (const name of names) {
    try {
      faults[name] = JSON.parse(readFileSync(join(faultsDir(stateDir), name), 'utf8'));
    } catch {
      // a half-written switch is read again next time
    }
  }
  return faults as LabFaults;
}

/** readFaults, at most every `everyMs` (the test node asks for every request). */
export function cachedFaults(stateDir: string, everyMs = 100): () => LabFaults {
  let readAt = 0;
  let value: LabFaults = {};
  return () => {
    const now = Date.now();
    if (now - readAt >= everyMs) {
      value = readFaults(stateDir);
      readAt = now;
    }
    return value;
  };
}

/** The lab config the stand-ins run under (from $ONLOAD_BENCH_LAB, set by their wrapper scripts). */
export function loadLabConfigFromEnv(): LabConfig {
  const labDir = process.env.ONLOAD_BENCH_LAB;
  if (!labDir) throw new Error('ONLOAD_BENCH_LAB is not set: this is a loopback-lab stand-in, run it through the lab');
  return JSON.parse(readFileSync(join(labDir, labConfigFile), 'utf8')) as LabConfig;
}

/** Whether pid runs. A zombie counts as gone: this machine's pid 1 may never reap orphans. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function fileExists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
