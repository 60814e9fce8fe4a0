// Lab hosts as real Linux systems (issue 19): each host is the cached Debian root (scripts/
// lab-root.sh) booted by `systemd-nspawn --boot`, so PID 1 is the real systemd and sshd, sudo,
// systemctl, users and /proc are the real programs'. The root is shared read-only; each host
// writes to its own overlay upper folder (prepared before boot with its per-run files:
// hostFiles.ts), and lives in its own network namespace (labNetwork.ts).
//
// This machine's PID 1 is not systemd (no machined, no system bus), hence `--register=no
// --keep-unit`, and /run/systemd/nspawn must be a tmpfs (nspawn refuses to clean up its
// "propagate" folder on a disk file system), and each host gets a cgroup tree of its own
// (hostCgroupScript). Hosts boot in parallel; a host is ready when `systemctl is-system-running`
// says running (degraded is an error naming the failed units) and ssh.service is active.
// Power off: SIGTERM to the nspawn process (its pid is kept in the host's folder), which asks
// systemd for an orderly shutdown; after a deadline, SIGKILL to the container's init, which ends
// every process of its PID namespace. The synchronous variant (exit handlers, reaping) kills at once.
import { execFile, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isAlive, readPidFile } from './labFiles';
import { killQuietly } from './processes';

export interface HostSpec {
  alias: string;
  /** Unique on this machine (the lab id is in it). */
  machine: string;
  /** The host's own folder: upper/, work/, root/ (the merged view), boot.log, nspawn.pid, leader.pid. */
  dir: string;
  netns: string;
  /** Read-only bind mounts, `source:target`. */
  bindsReadOnly: string[];
  /** Writable bind mounts, `source:target` (the server's folder for the node's requests to the lab). */
  bindsWritable?: string[];
  /** Capabilities beyond nspawn's default set (`--capability=`). */
  capabilities?: string[];
}

export interface BootedHost extends HostSpec {
  nspawnPid: number;
  /** The container's PID 1 (systemd) as this machine sees it. */
  leaderPid: number;
  /** The host's / as a folder of this machine (the overlay's merged view). */
  rootPath: string;
}

export interface ExecOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A synchronous pause (exit handlers cannot await). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The overlay folders of a host; `upper` is where hostFiles.ts writes before boot. */
export function hostFolders(dir: string): { upper: string; work: string; merged: string } {
  return { upper: join(dir, 'upper'), work: join(dir, 'work'), merged: join(dir, 'root') };
}

/**
 * nspawn wants /run/systemd/nspawn on a tmpfs (see the top of this file). Mounted once, never unmounted (other labs use
 * it).
 */
export function ensureNspawnRuntime(): void {
  mkdirSync('/run/systemd/nspawn', { recursive: true });
  try {
    execFileSync('mountpoint', ['-q', '/run/systemd/nspawn']);
  } catch {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', '/run/systemd/nspawn']);
  }
}

function mountOverlay(lower: string, dir: string): string {
  const { upper, work, merged } = hostFolders(dir);
  for (const path of [upper, work, merged]) mkdirSync(path, { recursive: true });
  execFileSync(
    'mount',
    ['-t', 'overlay', 'overlay', '-o', `lowerdir=${lower},upperdir=${upper},workdir=${work}`, merged],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return merged;
}

function unmountQuietly(path: string): void {
  try {
    execFileSync('umount', ['-l', path], { stdio: 'ignore' });
  } catch {
    // not mounted
  }
}

/** The container's init: the child of the nspawn process that runs systemd (nspawn forks an
 * intermediate child first, which exits once the container's init is started). */
function leaderOf(nspawnPid: number): number | undefined {
  try {
    const children = readFileSync(`/proc/${nspawnPid}/task/${nspawnPid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return children.find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'systemd';
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}

/** Runs a command inside a booted host, as root, in all its namespaces (no SSH involved). */
export function hostExec(
  leaderPid: number,
  command: string,
  options: { timeoutMs?: number; input?: string; user?: string } = {},
): Promise<ExecOutcome> {
  const inner = options.user ? ['runuser', '-u', options.user, '--', 'sh', '-c', command] : ['sh', '-c', command];
  return new Promise((resolve) => {
    const child = execFile(
      'nsenter',
      [
        '-t',
        String(leaderPid),
        '-a',
        '--',
        'env',
        '-i',
        'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        'HOME=/root',
        'LANG=C.UTF-8',
        ...inner,
      ],
      { timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 255) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** The same, synchronously (for state a test reads between two steps). */
export function hostExecSync(leaderPid: number, command: string): ExecOutcome {
  try {
    const stdout = execFileSync(
      'nsenter',
      [
        '-t',
        String(leaderPid),
        '-a',
        '--',
        'env',
        '-i',
        'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        'sh',
        '-c',
        command,
      ],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 10_000,
      },
    );
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    return { code: failed.status ?? 255, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/**
 * Mounts the host's overlay and starts `systemd-nspawn --boot` detached (its output in boot.log).
 * Returns at once; `waitUntilBooted` waits for systemd and sshd.
 */
export function startHost(spec: HostSpec, lowerRoot: string): BootedHost {
  const rootPath = mountOverlay(lowerRoot, spec.dir);
  const log = openSync(join(spec.dir, 'boot.log'), 'a');
  const args = [
    '--quiet',
    '-D',
    rootPath,
    '--boot',
    '--register=no',
    '--keep-unit',
    `--machine=${spec.machine}`,
    `--hostname=${spec.alias}`,
    `--network-namespace-path=/run/netns/${spec.netns}`,
    '--console=passive',
    // Limits: the hosts' init inherits this process's. This machine drops CAP_SYS_RESOURCE from every
    // process, so no one can raise a hard limit: a unit's LimitNOFILE=70000 / LimitMEMLOCK=infinity
    // end at this machine's hard limits (20000 files, 8 MiB here); systemd still gives sessions the
    // lower soft nofile (1024) and the unit its own, as on a real host (REAL-LAB H3).
    // a real host's root may change its network; the lab grants it only where a stand-in needs it
    // (the Onload stack's NIC filters, lab option onloadNics)
    ...(spec.capabilities ?? []).map((capability) => `--capability=${capability}`),
    ...spec.bindsReadOnly.map((bind) => `--bind-ro=${bind}`),
    ...(spec.bindsWritable ?? []).map((bind) => `--bind=${bind}`),
  ];
  // nspawn starts in a cgroup of its own (see hostCgroupScript), then execs itself in place
  const child = spawn('sh', ['-c', hostCgroupScript, 'sh', hostCgroupName(spec.machine), 'systemd-nspawn', ...args], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  child.unref();
  if (child.pid === undefined) throw new Error(`${spec.alias}: systemd-nspawn did not start`);
  writeFileSync(join(spec.dir, 'nspawn.pid'), `${child.pid}\n`);
  return { ...spec, nspawnPid: child.pid, leaderPid: 0, rootPath };
}

// Each host's systemd needs a cgroup tree of its own. This machine's PID 1 is not systemd, so
// nspawn (--keep-unit) leaves a container in the cgroup it was started from, and the container's
// cgroup namespace is rooted there: started from the same cgroup, every host's systemd manages the
// same /system.slice/<unit> folders. Two hosts starting the same unit at once (cb-server and
// ycsb-client boot in parallel) then remove each other's unit cgroup: "Failed to attach to cgroup
// /system.slice/systemd-user-sessions.service: No such file or directory", status 219/CGROUP, and a
// host whose systemd-user-sessions failed keeps /run/nologin, so pam_nologin refuses every SSH login
// (seen as ssh exit 255 with nothing said; other runs lost systemd-tmpfiles-setup or a lab's
// couchbase-server.service the same way). So nspawn first moves itself into
// <hierarchy>/<cgroup name> of every writable hierarchy (cgroup v1's name=systemd and unified, or
// a cgroup2-only /sys/fs/cgroup), then execs: same pid, one tree per host.
const cgroupRoots = ['/sys/fs/cgroup/systemd', '/sys/fs/cgroup/unified', '/sys/fs/cgroup'];
const hostCgroupScript = [
  'name=$1; shift',
  `for root in ${cgroupRoots.join(' ')}; do`,
  '  [ -f "$root/cgroup.procs" ] || continue',
  '  [ "$root" = /sys/fs/cgroup ] && [ ! -f /sys/fs/cgroup/cgroup.controllers ] && continue',
  '  mkdir -p "$root/$name" && echo $$ > "$root/$name/cgroup.procs" || echo "lab: could not give the host the cgroup $root/$name" >&2',
  'done',
  'exec "$@"',
].join('\n');

/** The cgroup folder name of a host (under each hierarchy's root). */
function hostCgroupName(machine: string): string {
  return `onload-bench-lab-${machine}`;
}

/** Removes a powered-off host's cgroup trees, deepest first (a cgroup folder goes with rmdir once
 * empty); true when none is left. */
function removeHostCgroups(machine: string): boolean {
  const removeTree = (path: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(path, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return;
    }
    for (const entry of entries) removeTree(join(path, entry));
    try {
      rmdirSync(path);
    } catch {
      // still has a process (it is being killed) or already gone
    }
  };
  const trees = cgroupRoots.map((root) => join(root, hostCgroupName(machine)));
  for (const tree of trees) removeTree(tree);
  return trees.every((tree) => !existsSync(tree));
}

/** Waits until the host's systemd is up and ssh.service is active. A degraded boot (a unit failed)
 * is an error naming the failed units and their last words: a lab host is a healthy host. */
export async function waitUntilBooted(host: BootedHost, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    if (!isAlive(host.nspawnPid))
      throw new Error(`${host.alias}: systemd-nspawn exited during boot: ${tailOf(join(host.dir, 'boot.log'))}`);
    if (host.leaderPid === 0) {
      const leader = leaderOf(host.nspawnPid);
      if (leader !== undefined) {
        host.leaderPid = leader;
        writeFileSync(join(host.dir, 'leader.pid'), `${leader}\n`);
      }
    }
    if (host.leaderPid !== 0) {
      const state = await hostExec(host.leaderPid, 'systemctl is-system-running; systemctl is-active ssh.service', {
        timeoutMs: 5000,
      });
      last = state.stdout.trim().replace(/\n/g, ', ');
      if (/^running\nactive$/.test(state.stdout.trim())) return;
      if (/^degraded\n/.test(state.stdout.trim())) {
        const failed = await hostExec(
          host.leaderPid,
          'systemctl --failed --no-legend --plain --no-pager; journalctl -b --no-pager -p warning -n 12',
          { timeoutMs: 5000 },
        );
        throw new Error(
          `${host.alias}: booted degraded (a unit failed): ${failed.stdout.trim().replace(/\n/g, ' | ')}`,
        );
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `${host.alias}: not booted after ${timeoutMs} ms (${last || 'no answer'}): ${tailOf(join(host.dir, 'boot.log'))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tailOf(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-8).join(' | ');
  } catch {
    return '(no boot log)';
  }
}

/** Whether `pid` is still the nspawn of `machine` (pids are reused). */
function isNspawnOf(pid: number, machine: string): boolean {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return command.startsWith('systemd-nspawn') && command.includes(`--machine=${machine}`);
  } catch {
    return false;
  }
}

/** Orderly power-off by pid (SIGTERM to nspawn), then SIGKILL to init after `graceMs`; unmounts. */
export async function powerOff(host: Pick<BootedHost, 'dir' | 'machine'>, graceMs = 5000): Promise<void> {
  const nspawnPid = readPidFile(join(host.dir, 'nspawn.pid'));
  if (nspawnPid !== undefined && isNspawnOf(nspawnPid, host.machine)) {
    killQuietly(nspawnPid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isAlive(nspawnPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  powerOffSync(host);
}

/** Immediate power-off by pid: SIGKILL to the container's init (its whole PID namespace) and to nspawn; unmounts. */
export function powerOffSync(host: Pick<BootedHost, 'dir' | 'machine'>): void {
  const nspawnPid = readPidFile(join(host.dir, 'nspawn.pid'));
  const leaderPid = readPidFile(join(host.dir, 'leader.pid'));
  const ours = nspawnPid !== undefined && isNspawnOf(nspawnPid, host.machine);
  if (ours && leaderPid !== undefined && leaderOf(nspawnPid) === leaderPid) killQuietly(leaderPid);
  if (ours) killQuietly(nspawnPid);
  if (ours) {
    for (let waited = 0; waited < 3000 && isAlive(nspawnPid); waited += 20) sleepSync(20);
  }
  unmountQuietly(hostFolders(host.dir).merged);
  for (let waited = 0; waited <= 1000; waited += 50) {
    if (removeHostCgroups(host.machine)) break;
    sleepSync(50);
  }
}
