// The files a lab keeps, shared by the lab (test side, this machine) and the stand-ins (run inside
// the lab hosts). On this machine: `<lab folder>/lab.json` (LabConfig: what reaping and cleanup
// need) and `<lab folder>/faults/`, one file per switch, bound read-only into every host at
// `/etc/onload-bench-lab/faults` so a shell stand-in tests a switch with `[ -e ]` and Node reads
// it as JSON. Inside a host: `/etc/onload-bench-lab/host.json` (HostConfig), written into the
// host's overlay before it boots.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestNodeFaults } from './couchbaseTestNode';

/** `lab.json` in the lab folder: what cleanup and the reaping of a killed test's lab need. */
export interface LabConfig {
  labId: string;
  /** The test process that owns the lab; a lab whose owner is gone is reaped by the next startLab. */
  ownerPid?: number;
  labDir: string;
  /** The claimed 198.18.0.0/15 block (labNetwork.ts). */
  block?: number;
  /** Per host: its folder (nspawn.pid, leader.pid, overlay) and nspawn machine name. */
  hosts: { alias: string; dir: string; machine: string }[];
  /** Network objects to remove (labNetwork.ts). */
  network?: { netns: Record<string, string>; bridges: string[]; veths: string[] };
}

/** `/etc/onload-bench-lab/host.json` inside a lab host: what its stand-ins need. */
export interface HostConfig {
  alias: string;
  role: 'server' | 'client';
  /** Where the fault switches are (a read-only bind of the lab's faults folder). */
  faultsDir: string;
  /** Version strings the stand-ins print. */
  versions: { couchbase: string; onload: string; ycsb: string };
}

/** The test node's settings inside the server host (readable by `couchbase` only: it holds the password). */
export interface NodeConfig {
  addresses: string[];
  kvPort: number;
  restPort: number;
  username: string;
  password: string;
  version: string;
  memoryQuotaMB: number;
  /** The node's configured name (REAL-LAB C7); unset: announced as each client's address. */
  nodeName?: string;
  /** IPv4 addresses of the server's Onload NICs (lab option onloadNics); unset: the older stand-in. */
  onloadAddresses?: string[];
}

export const hostConfigPath = '/etc/onload-bench-lab/host.json';
export const hostFaultsDir = '/etc/onload-bench-lab/faults';

/** Every switch the stand-ins understand. Set them with `lab.faults.set({...})`. */
export interface LabFaults extends TestNodeFaults {
  // --- the Couchbase test node: its switches (TestNodeFaults), and its stand-in's
  /** `couchbase-server` starts but never opens its ports ("never comes up"). */
  couchbaseNeverReady?: boolean;
  /** `couchbase-server` waits this long (ms) before opening its ports. */
  couchbaseStartDelayMs?: number;
  /** The babysitter answers REST at once and starts memcached this long (ms) after (REAL-LAB C9). */
  memcachedStartDelayMs?: number;
  // --- onload
  /** `onload` runs the command without acceleration (no marker, not listed by onload_stackdump). */
  onloadNotAccelerating?: boolean;
  /** `onload` preloads libonload (mapped by every child) but no stack is created (REAL-LAB O2). */
  onloadNoStack?: boolean;
  /** The Onload kernel modules are not loaded: `onload` refuses to start anything (REAL-LAB O3). */
  onloadDriversMissing?: boolean;
  // --- hosts
  /** The server's sudoers get `Defaults requiretty`: the real sudo refuses without a terminal (REAL-LAB H2). */
  sudoRequiresTty?: boolean;
  /** The server's sudoers lines lack these commands (by name), REAL-LAB O5; `true`: no sudoers line
   * for the SSH user at all (a host where sudo is refused). The real sudo judges. */
  sudoDenied?: string[] | true;
  // --- ycsb: the real one; its faults (ycsbCrashAfterOps, ycsbHangAfterOps: a signal to its JVM,
  // temporaryFailureEvery: Return=ERROR) are the test node's (TestNodeFaults)
}

export const labConfigFile = 'lab.json';

export function writeFaults(dir: string, faults: LabFaults): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(faults)) {
    const file = join(dir, name);
    if (value === undefined || value === false || value === null) rmSync(file, { force: true });
    else writeFileSync(file, JSON.stringify(value));
  }
}

export function clearFaults(dir: string): void {
  mkdirSync(dir, { recursive: true });
  // the folder itself stays: hosts see it through a bind mount
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
}

export function readFaults(dir: string): LabFaults {
  const faults: Record<string, unknown> = {};
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return {};
  }
  for (const name of names) {
    try {
      faults[name] = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      // a half-written switch is read again next time
    }
  }
  return faults as LabFaults;
}

/** readFaults, at most every `everyMs` (the test node asks for every request). */
export function cachedFaults(dir: string, everyMs = 100): () => LabFaults {
  let readAt = 0;
  let value: LabFaults = {};
  return () => {
    const now = Date.now();
    if (now - readAt >= everyMs) {
      value = readFaults(dir);
      readAt = now;
    }
    return value;
  };
}

/** The host's config, for a stand-in running inside a lab host. */
export function loadHostConfig(): HostConfig {
  return JSON.parse(readFileSync(process.env.ONLOAD_BENCH_LAB_HOST_CONFIG ?? hostConfigPath, 'utf8')) as HostConfig;
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
