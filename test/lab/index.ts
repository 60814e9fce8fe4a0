// The lab: real Linux hosts on this machine for the engine's integration and fault tests and for
// `npm start` (issue 19).
//
//   const lab = await startLab();            // boots cb-server and ycsb-client (~2-4 s when the root is cached)
//   try {
//     // lab.sshConfigPath: ssh_config with hosts `cb-server` and `ycsb-client` (their real sshd, per-run
//     //   host and user keys, StrictHostKeyChecking yes, BatchMode yes, user bench). Give it to the
//     //   engine as SshOptions.configFile.
//     // lab.couchbase: { kvPort 11210, restPort 8091, username, password, version } of the test node.
//     // lab.interfaces: [{ label, address }] the server's three NICs (198.18.x.y); lab.ipv6Interface.
//     const planPath = writeLabPlan(lab, { dir, stacks: ['kernel', 'latency'], threads: [1, 2] });
//     ... run the engine with planPath, password lab.couchbase.password, ssh.configFile ...
//     lab.faults.set({ ycsbCrashAfterOps: 100 });   // or killSshd, swapHostKey, killCouchbase...
//     assert.deepEqual(await lab.processesLeft(), []);
//   } finally {
//     await lab.stop();                      // powers every host off (by pid), removes the network
//   }
//
// What runs where. Each host is the cached Debian 12 root (scripts/lab-root.sh, built on first use)
// booted by `systemd-nspawn --boot` (labHosts.ts): PID 1 is the real systemd, and sshd, sudo,
// systemctl, users, limits, cgroups and /proc are the real programs'. Hosts share the root read-only
// with a writable overlay each (hostFiles.ts writes the run's files into it before boot), boot in
// parallel, and each lives in its own network namespace (labNetwork.ts): the server `cb-server` has
// three interfaces eth0..eth2 with one 198.18.0.0/15 address each (IPv6 from 2001:2::/48 as well on
// eth2), every client (`ycsb-client`, with `clients: N` also `ycsb-client-2` ...) a leg on each of
// those three networks, and this machine an address on each; nothing is routed elsewhere. With
// `servers: N` (issue 23) `cb-server-2` ... are server hosts like `cb-server` on the same three
// networks, each with its own test node; they reach each other, so their nodes form one cluster
// when the engine resizes (lab.serverHosts; writeLabPlan's `servers`).
// - SSH user `bench` (0700 home), key login only; `sudo` is the real one with exactly the sudoers
//   lines README.md tells users to write (server only; clients have none).
// - The server carries the Couchbase unit as the packages install it (REAL-LAB C12), run by its
//   systemd; `/opt/couchbase/bin/couchbase-server` is the stand-in (the Couchbase test node as
//   `memcached`, under a babysitter whose children sit in their own process groups, C2), run as
//   `couchbase`, data folder owned by `couchbase` (C1). startLab starts the service (unless
//   `startCouchbase: false`) and leaves it running. The node listens on all of the server's
//   addresses, KV 11210, REST 8091, as a real node does.
// - Stand-ins, only where nothing real can run here: `onload`, `onload_stackdump` (no drivers on
//   this machine) and a util-linux 2.23 `setsid` first on PATH (RHEL 7: no -w, REAL-LAB H1). Node
//   stand-ins run with this machine's node, bound read-only into the hosts. Facts and tests per
//   REAL-LAB row: test/lab/README.md.
// - Clients run the real YCSB 0.17.0 (realYcsb.ts: the release scripts/ycsb-release.sh assembles
//   in the tools cache, bound read-only at /opt/ycsb, the JAXB jar at /opt/ycsb-extras) with
//   Debian's Java 17 from the root filesystem; none on the hosts named in `withoutJava` (Java is
//   hidden by their overlay); a real Python 2.7 as `python2` only with `python2: true` (REAL-LAB
//   Y4). couchbase2 logs in as the bucket-named RBAC user, which must exist on the node; every
//   writeLabPlan client gets `labJavaOptions` (the JAXB API for HDR logs on Java 17). The node
//   acts on YCSB's real JVM (ycsbCrashAfterOps: SIGKILL, ycsbHangAfterOps: SIGSTOP of the JVM that
//   sent the Nth operation; clientSignals.ts carries the request from the server host to the
//   client host's process) and fails operations (temporaryFailureEvery). `binds` adds read-only
//   bind mounts.
//
// Faults: `lab.faults.set({...})` (LabFaults in labFiles.ts) takes effect within ~100 ms in the
// running stand-ins; `sudoRequiresTty` and `sudoDenied` rewrite the server's real sudoers.
// `killSshd(alias)` stops the host's sshd (and drops its live connections), `startSshd` starts it,
// `freezeSshd` SIGSTOPs the listener (connections are accepted, never answered); `swapHostKey(alias)`
// restarts it with a key not in known_hosts; `unknownHost` is an alias whose key is not pinned;
// `killCouchbase()` SIGKILLs memcached; `killYcsb()` every YCSB JVM. `processesLeft()` lists
// processes the SSH sessions left on the hosts (the couchbase service excluded unless asked).
// `smallDisk(kb)` mounts a tiny tmpfs on this machine (results-disk-full tests).
// `root(alias, command)` runs a command as root inside a host without SSH (test setup);
// `hostPath(alias, path)` is a host's file as a path of this machine.
//
// Cleanup: stop() powers every host off by pid (orderly, then SIGKILL of its init after 5 s),
// unmounts, removes the network and the folder (keep the folder with `keep: true` or
// ONLOAD_BENCH_LAB_KEEP=1). If the test process exits or gets SIGINT/SIGTERM without stop(), the
// hosts are killed synchronously; a lab whose owner was SIGKILLed is reaped by the next startLab.
// Needs root, systemd-container, debootstrap (scripts/setup-system.sh).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import {
  HostWriter,
  hostNode,
  hostPythonPrefix,
  nodeLogInHost,
  labLibDir,
  requireTtyPath,
  sshdHostKeyConfig,
  sshdSnippetPath,
  sshUser,
  sudoersLines,
  sudoersPath,
  userIds,
  writeHostFiles,
  couchbaseServerPathInHost,
  onloadStackNetnsInHost,
} from './hostFiles';
import {
  ensureNspawnRuntime,
  hostExec,
  hostExecSync,
  hostFolders,
  powerOff,
  powerOffSync,
  startHost,
  waitUntilBooted,
  type BootedHost,
} from './labHosts';
import {
  clearFaults,
  isAlive,
  labConfigFile,
  readFaults,
  writeFaults,
  type LabConfig,
  type LabFaults,
  type NodeConfig,
} from './labFiles';
import { hostSignalsDir, serveClientSignals } from './clientSignals';
import {
  claimBlock,
  createNetwork,
  createOnloadStack,
  destroyNetwork,
  destroyNetworkById,
  reapStaleClaims,
  releaseBlock,
  type LabNetwork,
} from './labNetwork';
import { hostYcsbExtras, hostYcsbHome, labJavaOptions, python27, ycsbExtrasHome, ycsbReleaseHome } from './realYcsb';
import { makeSshFiles } from './sshKeys';

export type { LabFaults } from './labFiles';

const repoRoot = resolve(__dirname, '..', '..');

export interface LabInterface {
  label: string;
  address: string;
}

export interface LabOptions {
  /** Couchbase admin; the password defaults to a random one. */
  username?: string;
  password?: string;
  /** The test node's cluster RAM quota (MiB). Default 1024. */
  memoryQuotaMB?: number;
  /** How many YCSB client hosts (`ycsb-client`, `ycsb-client-2`, ...). Default 1. */
  clients?: number;
  /** How many server hosts (`cb-server`, `cb-server-2`, ...; issue 23's clusters). Default 1. Each
   * is a host like `cb-server`: its three interfaces on the same three networks (addresses .10,
   * .11, ... of each), the packaged unit, sudoers and a test node of its own (its data folder keeps
   * its cluster membership, K14), started at lab start; the nodes are not joined: the engine's
   * resize forms the cluster. The faults, `couchbaseState` and the Onload stack act on `cb-server`. */
  servers?: number;
  /** The node's configured name (REAL-LAB C7): clients are sent to it whatever address they used.
   * `{ interface: N }` names it by the server's Nth interface address. Default: unset, a fresh node
   * announced as the address each client bootstrapped through. */
  nodeName?: string | { interface: number };
  /** Start couchbase-server as the system service at lab start (default true). */
  startCouchbase?: boolean;
  /** Client hosts (aliases) with no Java at all: their overlay hides the JRE (a host without one). */
  withoutJava?: string[];
  /**
   * Give the clients a real Python 2.7 as `python2` so `python2 bin/ycsb` works (REAL-LAB Y4; default: none, like
   * current distributions). Throws when this machine has none.
   */
  python2?: boolean;
  faults?: LabFaults;
  /** Read-only bind mounts into the hosts: `source` on this machine at `target` inside. */
  binds?: { source: string; target: string; hosts?: 'server' | 'clients' | 'all' }[];
  /** The server's NICs that are Onload NICs (REAL-LAB O6, O7; test/lab/README.md "The Onload stack"):
   * under the stand-in `onload`, memcached's IPv4 KV listener is then accelerated the way Onload's is:
   * connections through these NICs live in an Onload stack invisible to /proc/net, the others stay
   * kernel sockets, the IPv6 listener stays the kernel's. Default: unset, the older stand-in whose
   * "accelerated" sockets are all kernel sockets. */
  onloadNics?: Array<'eth0' | 'eth1' | 'eth2'>;
  /** Whether the node listens on the server's IPv6 address as well (kv_engine's default interfaces
   * are `0.0.0.0` and `::`). Default true; false: an IPv4-only node. */
  nodeIpv6?: boolean;
  /** Keep the lab folder after stop (also with env ONLOAD_BENCH_LAB_KEEP=1), for debugging. */
  keep?: boolean;
  /** sshd LogLevel on the hosts (default ERROR; the journal keeps it: `lab.root(alias, 'journalctl -u ssh')`). */
  sshdLogLevel?: string;
}

export interface LabHost {
  alias: string;
  /** The address SSH uses (the first network's). */
  address: string;
  /** Every address of the host: IPv4 per interface and the IPv6 one. */
  addresses: { eth0: string; eth1: string; eth2: string; ipv6: string };
  /** The SSH user's home inside the host. */
  home: string;
}

export interface RemoteOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Lab {
  id: string;
  /** The lab's folder on this machine (temporary; removed by stop()). */
  dir: string;
  sshConfigPath: string;
  knownHostsPath: string;
  identityPath: string;
  /** The SSH user on every host (`bench`). */
  sshUser: string;
  serverHost: string;
  /** Every server host (`cb-server` first). */
  serverHosts: string[];
  /** The first client host; `clientHosts` lists all of them. */
  clientHost: string;
  clientHosts: string[];
  /** An alias that resolves to the server but whose host key is unknown. */
  unknownHost: string;
  hosts: Record<string, LabHost>;
  couchbase: { kvPort: number; restPort: number; username: string; password: string; version: string };
  /** The server's three NICs (IPv4), `nic-a` (eth0, also SSH), `nic-b` (eth1), `nic-c` (eth2). */
  interfaces: LabInterface[];
  /** The server's IPv6 address (on eth2) as an interface `nic-c6`. */
  ipv6Interface: LabInterface;
  /** Paths inside the hosts. */
  couchbaseServerPath: string;
  ycsbHome: string;
  versions: { couchbase: string; onload: string; ycsb: string };
  faults: LabFaultControls;
  /** Runs a command on a lab host through the real ssh client and the lab's ssh_config (as bench). */
  ssh(alias: string, command: string, options?: { timeoutMs?: number }): Promise<RemoteOutcome>;
  /** Runs a command as root inside a host, without SSH (test setup and inspection). */
  root(alias: string, command: string, options?: { timeoutMs?: number; input?: string }): Promise<RemoteOutcome>;
  /** A path inside a host as a path of this machine (the host's overlay). */
  hostPath(alias: string, path: string): string;
  /** The test node's log (one ISO-timestamped line per event) as a path of this machine. */
  nodeLogPath: string;
  /** Writes a file into a host (default owner: the SSH user, mode 600). */
  writeFile(alias: string, path: string, text: string, options?: { mode?: number; owner?: string }): void;
  /** Whether the test node runs, its pid inside the server, whether the service runs it, whether under onload. */
  couchbaseState(): { running: boolean; pid?: number; service: boolean; accelerated: boolean };
  /** A process's environment inside a host (read as root), or undefined when it is gone. */
  processEnvironment(alias: string, pid: number): Map<string, string> | undefined;
  /**
   * A folder on a tiny tmpfs of `sizeKb` KiB on this machine (for "results disk full" tests), or
   * undefined when this machine does not allow mounting. Unmounted by stop().
   */
  smallDisk(sizeKb?: number): { path: string; unmount(): void } | undefined;
  /**
   * Processes the SSH sessions left on the hosts, as `ALIAS PID COMMAND` (the couchbase service excluded unless asked).
   */
  processesLeft(options?: { includeService?: boolean }): Promise<string[]>;
  /** Milliseconds the hosts took to boot (each, from nspawn to sshd active), for the README's figures. */
  bootTimes: Record<string, number>;
  stop(): Promise<void>;
}

export interface LabFaultControls {
  /** Sets switches (undefined/false clears one). */
  set(faults: LabFaults): void;
  clear(): void;
  current(): LabFaults;
  /** Stops the host's sshd; with `sessions` (default) also drops its live connections. */
  killSshd(alias: string, options?: { sessions?: boolean }): void;
  startSshd(alias: string): Promise<void>;
  /** SIGSTOPs (or SIGCONTs) the host's sshd listener: connections are accepted, never answered. */
  freezeSshd(alias: string, frozen?: boolean): void;
  /** Restarts the host's sshd with a host key that is not the one in known_hosts (`false` restores). */
  swapHostKey(alias: string, swapped?: boolean): Promise<void>;
  /** SIGKILLs the running memcached (the test node). Returns whether one was running. */
  killCouchbase(): boolean;
  /** SIGKILLs every running YCSB JVM. Returns how many. */
  killYcsb(): number;
}

const couchbaseVersion = '7.6.2-3721-enterprise';
const onloadVersion = '9.0.1.86';
const ycsbVersion = '0.17.0';
const labPrefix = 'obl-';

/**
 * Why the lab cannot run on this machine (for a test's `skip`), or false. It needs root (network
 * namespaces, mounts), systemd-nspawn (systemd-container) and debootstrap or an already cached root.
 */
export function labUnavailable(): string | false {
  if (process.getuid?.() !== 0) return 'the lab needs root (network namespaces, overlay mounts, systemd-nspawn)';
  const onPath = (name: string): boolean =>
    (process.env.PATH ?? '/usr/bin:/usr/sbin')
      .split(':')
      .concat(['/usr/sbin', '/usr/bin'])
      .some((folder) => existsSync(join(folder, name)));
  if (!onPath('systemd-nspawn'))
    return 'systemd-nspawn is not installed (scripts/setup-system.sh installs systemd-container)';
  if (!onPath('debootstrap')) return 'debootstrap is not installed (scripts/setup-system.sh installs it)';
  if (!onPath('ssh')) return 'the OpenSSH client is not installed (scripts/setup-system.sh)';
  return false;
}

/** The cached root (scripts/lab-root.sh builds it on first use, with one retry). */
async function labRoot(): Promise<string> {
  const script = join(repoRoot, 'scripts', 'lab-root.sh');
  return new Promise((resolvePromise, reject) => {
    execFile(
      'bash',
      [script],
      { encoding: 'utf8', timeout: 15 * 60_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const root = /^LAB_ROOT=(.+)$/m.exec(stdout)?.[1];
        if (error || !root)
          reject(
            new Error(
              `lab: the hosts' root filesystem could not be built (scripts/lab-root.sh): ${stderr.trim() || error?.message}`,
            ),
          );
        else resolvePromise(root);
      },
    );
  });
}

/** Bundles the Node stand-ins into `dir` (bound read-only into the hosts). Well under a second. */
async function buildBundles(dir: string): Promise<void> {
  await build({
    entryPoints: {
      'couchbase-server': join(__dirname, 'standins', 'couchbaseServer.ts'),
      'onload-stackdump': join(__dirname, 'standins', 'onloadStackdump.ts'),
      'onload-stack': join(__dirname, 'standins', 'onloadStack.ts'),
    },
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'error',
  });
}

/** Processes left by SSH sessions (ssh.service's cgroup, not sshd itself), optionally the couchbase service's. */
function processesLeftScript(includeService: boolean): string {
  const wanted = includeService
    ? '/system.slice/ssh.service|/system.slice/couchbase-server.service|/user.slice'
    : '/system.slice/ssh.service|/user.slice';
  return [
    'for d in /proc/[0-9]*; do',
    '  pid=${d#/proc/}',
    '  [ "$pid" = 1 ] && continue',
    '  comm=$(cat "$d/comm" 2>/dev/null) || continue',
    '  [ "$comm" = sshd ] && continue',
    '  state=$(sed \'s/.*) //\' "$d/stat" 2>/dev/null | cut -c1); [ "$state" = Z ] && continue',
    '  group=$(sed -n \'s/^[0-9]*:name=systemd://p; s/^0:://p\' "$d/cgroup" 2>/dev/null | head -n 1)',
    `  case "$group" in ${wanted
      .split('|')
      .map((path) => `${path}*`)
      .join('|')}) echo "$pid $(tr '\\0' ' ' < "$d/cmdline" 2>/dev/null)" ;; esac`,
    'done',
  ].join('\n');
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const clientCount = options.clients ?? 1;
  if (!Number.isInteger(clientCount) || clientCount < 1 || clientCount > 8)
    throw new Error('lab: clients must be 1..8');
  const serverCount = options.servers ?? 1;
  if (!Number.isInteger(serverCount) || serverCount < 1 || serverCount > 4)
    throw new Error('lab: servers must be 1..4');
  if (serverCount > 1 && options.onloadNics !== undefined)
    throw new Error('lab: the Onload stack (onloadNics) is built for one server host');
  if (serverCount > 1 && typeof options.nodeName === 'string')
    throw new Error('lab: a nodeName for several server hosts is { interface: N }');
  reapStaleLabs();
  const lowerRoot = await labRoot();
  ensureNspawnRuntime();

  let id = randomBytes(3).toString('hex');
  while (existsSync(join(tmpdir(), `${labPrefix}${id}`))) id = randomBytes(3).toString('hex');
  const dir = join(tmpdir(), `${labPrefix}${id}`);
  mkdirSync(dir, { mode: 0o700 });
  const faultsDir = join(dir, 'faults');
  clearFaults(faultsDir);
  if (options.faults) writeFaults(faultsDir, options.faults);
  const keep = options.keep === true || process.env.ONLOAD_BENCH_LAB_KEEP === '1';
  const clientAliases = Array.from({ length: clientCount }, (_, index) =>
    index === 0 ? 'ycsb-client' : `ycsb-client-${index + 1}`,
  );
  const serverAliases = Array.from({ length: serverCount }, (_, index) =>
    index === 0 ? 'cb-server' : `cb-server-${index + 1}`,
  );
  const aliases = [...serverAliases, ...clientAliases];
  const config: LabConfig = {
    labId: id,
    ownerPid: process.pid,
    labDir: dir,
    hosts: aliases.map((alias) => ({ alias, dir: join(dir, 'hosts', alias), machine: `ob${id}-${alias}` })),
  };
  const saveConfig = (): void =>
    writeFileSync(join(dir, labConfigFile), JSON.stringify(config, null, 2), { mode: 0o600 });
  saveConfig();

  let network: LabNetwork | undefined;
  let block: number | undefined;
  let stopSignals: (() => void) | undefined;
  const booted: BootedHost[] = [];
  const mounts = new Set<string>();
  const unmount = (path: string): void => {
    if (!mounts.delete(path)) return;
    try {
      execFileSync('umount', ['-l', path], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  // If the test process ends without stop() (uncaught error, process.exit, SIGINT/SIGTERM from a
  // runner's timeout), kill the hosts synchronously on the way out.
  const cleanupSync = (): void => {
    stopSignals?.();
    for (const path of [...mounts]) unmount(path);
    for (const host of config.hosts) powerOffSync(host);
    if (network) destroyNetwork(network);
    if (block !== undefined) releaseBlock(block, dir);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    cleanupSync();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('exit', cleanupSync);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let stopped = false;
  const cleanup = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.off('exit', cleanupSync);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopSignals?.();
    for (const path of [...mounts]) unmount(path);
    await Promise.all(config.hosts.map((host) => powerOff(host)));
    if (network) destroyNetwork(network);
    if (block !== undefined) releaseBlock(block, dir);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };

  const bootTimes: Record<string, number> = {};
  let ssh: ReturnType<typeof makeSshFiles>;
  let node: NodeConfig;
  const nodeName = typeof options.nodeName === 'object' ? undefined : options.nodeName;
  try {
    block = claimBlock(dir);
    config.block = block;
    network = createNetwork(id, block, aliases, serverCount);
    const onloadNics = (options.onloadNics ?? []).map((nic) => Number(nic.slice(3)));
    if (options.onloadNics !== undefined)
      network.netns['onload-stack'] = createOnloadStack(
        id,
        network.netns['cb-server'],
        onloadNics,
        network.addresses['cb-server'],
      );
    config.network = { netns: network.netns, bridges: network.bridges, veths: network.veths };
    saveConfig();
    ssh = makeSshFiles(
      join(dir, 'ssh'),
      aliases.map((alias) => ({ alias, address: network!.addresses[alias].ipv4.a })),
      sshUser,
    );
    await buildBundles(join(dir, 'lib'));
    const nodeOf = (alias: string): NodeConfig => {
      const server = network!.addresses[alias];
      return {
        addresses: [
          server.ipv4.a,
          server.ipv4.b,
          server.ipv4.c,
          ...(options.nodeIpv6 === false ? [] : [server.ipv6]),
          '127.0.0.1',
        ],
        kvPort: 11210,
        restPort: 8091,
        username: options.username ?? 'Administrator',
        password: options.password ?? `lab-${randomBytes(9).toString('base64url')}`,
        version: couchbaseVersion,
        memoryQuotaMB: options.memoryQuotaMB ?? 1024,
        ...(typeof options.nodeName === 'object'
          ? { nodeName: [server.ipv4.a, server.ipv4.b, server.ipv4.c][options.nodeName.interface] }
          : nodeName !== undefined
            ? { nodeName }
            : {}),
        ...(options.onloadNics !== undefined
          ? { onloadAddresses: onloadNics.map((index) => [server.ipv4.a, server.ipv4.b, server.ipv4.c][index]) }
          : {}),
      };
    };
    node = nodeOf('cb-server');
    const nodeBinary = realpathSync(process.execPath);
    // the real YCSB (assembled once in the tools cache) and, when asked for, a real Python 2.7
    const ycsbRelease = ycsbReleaseHome();
    const python = options.python2 ? python27() : undefined;
    if (options.python2 && !python)
      throw new Error(
        'lab: the python2 option needs a Python 2.7 on this machine (none in /usr/bin, /usr/local/bin or pyenv)',
      );
    const signalsDir = join(dir, 'signals');
    mkdirSync(signalsDir);
    chmodSync(signalsDir, 0o1777); // the node writes as couchbase
    const started = Date.now();
    for (const [index, alias] of aliases.entries()) {
      const hostDir = config.hosts[index].dir;
      const role = index < serverCount ? 'server' : 'client';
      const writer = new HostWriter(lowerRoot, hostFolders(hostDir).upper);
      mkdirSync(hostFolders(hostDir).upper, { recursive: true });
      writeHostFiles(writer, {
        alias,
        role,
        versions: { couchbase: couchbaseVersion, onload: onloadVersion, ycsb: ycsbVersion },
        hostKey: ssh.hostKey(alias, 'main'),
        otherHostKey: ssh.hostKey(alias, 'other'),
        userPublicKey: ssh.userPublicKey,
        labHosts: Object.fromEntries(aliases.map((each) => [each, network!.addresses[each].ipv4.a])),
        ...(role === 'server'
          ? { node: index === 0 ? node : { ...nodeOf(alias), username: node.username, password: node.password } }
          : {}),
        ...(options.python2 ? { python2: true } : {}),
        ...((options.withoutJava ?? []).includes(alias) ? { withoutJava: true } : {}),
        ...(options.sshdLogLevel ? { sshdLogLevel: options.sshdLogLevel } : {}),
      });
      const binds = [
        `${nodeBinary}:${hostNode}`,
        `${join(dir, 'lib')}:${labLibDir}/lib`,
        `${faultsDir}:/etc/onload-bench-lab/faults`,
        ...(role === 'server' && network.netns['onload-stack']
          ? [`/run/netns/${network.netns['onload-stack']}:${onloadStackNetnsInHost}`]
          : []),
        ...(role === 'client' ? [`${ycsbRelease}:${hostYcsbHome}`, `${ycsbExtrasHome()}:${hostYcsbExtras}`] : []),
        ...(role === 'client' && python ? [`${dirname(dirname(python))}:${hostPythonPrefix}`] : []),
        ...(options.binds ?? [])
          .filter((bind) => (bind.hosts ?? 'all') === 'all' || (bind.hosts === 'server') === (role === 'server'))
          .map((bind) => `${bind.source}:${bind.target}`),
      ];
      const writable = role === 'server' ? [`${signalsDir}:${hostSignalsDir}`] : [];
      booted.push(
        startHost(
          {
            alias,
            machine: config.hosts[index].machine,
            dir: hostDir,
            netns: network.netns[alias],
            bindsReadOnly: binds,
            bindsWritable: writable,
            ...(role === 'server' && network.netns['onload-stack'] ? { capabilities: ['CAP_NET_ADMIN'] } : {}),
          },
          lowerRoot,
        ),
      );
    }
    await Promise.all(
      booted.map(async (host) => {
        await waitUntilBooted(host);
        bootTimes[host.alias] = Date.now() - started;
      }),
    );
  } catch (error) {
    await cleanup();
    throw error;
  }
  const addresses = network.addresses;
  const hostOf = (alias: string): BootedHost => {
    const host = booted.find((candidate) => candidate.alias === alias);
    if (!host) throw new Error(`no lab host ${alias}`);
    return host;
  };
  // the node's requests to signal a client's YCSB (clientSignals.ts), served while the lab runs
  const signalLog = join(dir, 'client-signals.log');
  stopSignals = serveClientSignals(
    join(dir, 'signals'),
    (clientAddress) =>
      booted.find(
        (host) =>
          clientAliases.includes(host.alias) && Object.values(addresses[host.alias].ipv4).includes(clientAddress),
      )?.leaderPid,
    (line) => appendFileSync(signalLog, `${new Date().toISOString()} ${line}\n`),
  );
  const hosts: Record<string, LabHost> = {};
  for (const alias of aliases) {
    const each = addresses[alias];
    hosts[alias] = {
      alias,
      address: each.ipv4.a,
      addresses: { eth0: each.ipv4.a, eth1: each.ipv4.b, eth2: each.ipv4.c, ipv6: each.ipv6 },
      home: `/home/${sshUser}`,
    };
  }
  const serverAddresses = addresses['cb-server'];
  const interfaces: LabInterface[] = [
    { label: 'nic-a', address: serverAddresses.ipv4.a },
    { label: 'nic-b', address: serverAddresses.ipv4.b },
    { label: 'nic-c', address: serverAddresses.ipv4.c },
  ];

  const runSsh = (alias: string, command: string, runOptions: { timeoutMs?: number } = {}): Promise<RemoteOutcome> =>
    new Promise((resolvePromise) => {
      execFile(
        'ssh',
        ['-F', ssh.sshConfigPath, alias, command],
        { timeout: runOptions.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 255) : 0;
          resolvePromise({ code, stdout, stderr });
        },
      );
    });
  const runRoot = (
    alias: string,
    command: string,
    runOptions: { timeoutMs?: number; input?: string } = {},
  ): Promise<RemoteOutcome> => hostExec(hostOf(alias).leaderPid, command, runOptions);
  const rootSync = (alias: string, command: string): RemoteOutcome => hostExecSync(hostOf(alias).leaderPid, command);
  const hostPath = (alias: string, path: string): string => join(hostOf(alias).rootPath, path);

  const couchbaseState = (): { running: boolean; pid?: number; service: boolean; accelerated: boolean } => {
    const out = rootSync(
      'cb-server',
      [
        'pid=$(cat /opt/couchbase/var/lib/couchbase/lab-memcached.pid 2>/dev/null)',
        '[ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || exit 0',
        '[ "$(sed \'s/.*) //\' /proc/$pid/stat | cut -c1)" = Z ] && exit 0',
        'echo "pid $pid"',
        'grep -q "couchbase-server\\.service" /proc/$pid/cgroup && echo service',
        "tr '\\0' '\\n' < /proc/$pid/environ | grep -qx ONLOAD_BENCH_LAB_ACCELERATED=1 && echo accelerated",
        'exit 0',
      ].join('\n'),
    ).stdout;
    const pid = /^pid (\d+)$/m.exec(out)?.[1];
    if (pid === undefined) return { running: false, service: false, accelerated: false };
    return {
      running: true,
      pid: Number(pid),
      service: /^service$/m.test(out),
      accelerated: /^accelerated$/m.test(out),
    };
  };

  // sudo switches are the server's real sudoers (REAL-LAB H2, O5): rewritten through its overlay
  const applySudoFaults = (faults: LabFaults): void => {
    const sudoers = hostPath('cb-server', sudoersPath);
    const denied = faults.sudoDenied;
    if (denied === true) rmSync(sudoers, { force: true });
    else {
      const note = denied && denied.length > 0 ? ` (lab fault: without ${denied.join(', ')})` : '';
      writeFileSync(
        sudoers,
        `# What README.md ("What the server host needs") tells users to write${note}.\n${sudoersLines(sshUser, denied ?? []).join('\n')}\n`,
        { mode: 0o440 },
      );
    }
    const requireTty = hostPath('cb-server', requireTtyPath);
    if (faults.sudoRequiresTty)
      writeFileSync(requireTty, '# lab fault sudoRequiresTty (REAL-LAB H2)\nDefaults requiretty\n', { mode: 0o440 });
    else rmSync(requireTty, { force: true });
  };
  const setFaults = (faults: LabFaults): void => {
    writeFaults(faultsDir, faults);
    if ('sudoDenied' in faults || 'sudoRequiresTty' in faults) applySudoFaults(readFaults(faultsDir));
  };

  const sshdListening = async (alias: string): Promise<void> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const state = await runRoot(alias, 'systemctl is-active ssh.service');
      if (state.stdout.trim() === 'active') return;
      if (Date.now() > deadline)
        throw new Error(
          `${alias}: sshd did not start: ${(await runRoot(alias, 'journalctl -u ssh -n 5 --no-pager')).stdout}`,
        );
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
    }
  };
  // the listener stops; each connection's own sshd (what a network drop ends) goes too
  const killSessions = 'for p in $(ps -C sshd -o pid=); do kill -KILL "$p" 2>/dev/null; done';

  const lab: Lab = {
    id,
    dir,
    sshConfigPath: ssh.sshConfigPath,
    knownHostsPath: ssh.knownHostsPath,
    identityPath: ssh.identityPath,
    sshUser,
    serverHost: 'cb-server',
    serverHosts: serverAliases,
    clientHost: clientAliases[0],
    clientHosts: clientAliases,
    unknownHost: ssh.unknownHostAlias,
    hosts,
    couchbase: {
      kvPort: 11210,
      restPort: 8091,
      username: node.username,
      password: node.password,
      version: couchbaseVersion,
    },
    interfaces,
    ipv6Interface: { label: 'nic-c6', address: serverAddresses.ipv6 },
    couchbaseServerPath: couchbaseServerPathInHost,
    ycsbHome: hostYcsbHome,
    versions: { couchbase: couchbaseVersion, onload: onloadVersion, ycsb: ycsbVersion },
    faults: {
      set: setFaults,
      clear: () => {
        const hadSudo = (() => {
          const current = readFaults(faultsDir);
          return current.sudoDenied !== undefined || current.sudoRequiresTty !== undefined;
        })();
        clearFaults(faultsDir);
        if (hadSudo) applySudoFaults({});
      },
      current: () => readFaults(faultsDir),
      killSshd: (alias, killOptions = {}) => {
        rootSync(alias, `systemctl stop ssh.service${killOptions.sessions === false ? '' : `; ${killSessions}`}`);
      },
      startSshd: async (alias) => {
        await runRoot(alias, 'systemctl start ssh.service');
        await sshdListening(alias);
      },
      freezeSshd: (alias, frozen = true) => {
        rootSync(alias, `kill -${frozen ? 'STOP' : 'CONT'} "$(systemctl show -p MainPID --value ssh.service)"`);
      },
      swapHostKey: async (alias, swapped = true) => {
        writeFileSync(
          hostPath(alias, sshdSnippetPath),
          sshdHostKeyConfig(swapped ? 'other' : 'main', options.sshdLogLevel),
        );
        await runRoot(alias, `systemctl stop ssh.service; ${killSessions}; systemctl start ssh.service`);
        await sshdListening(alias);
      },
      killCouchbase: () => {
        const state = couchbaseState();
        if (state.pid !== undefined) rootSync('cb-server', `kill -KILL ${state.pid}`);
        return state.running;
      },
      killYcsb: () => {
        let count = 0;
        for (const alias of clientAliases) {
          // the real YCSB's JVM (bin/ycsb and bin/ycsb.sh then end with its status)
          const out = rootSync(
            alias,
            `for d in /proc/[0-9]*; do if tr '\\0' ' ' < "$d/cmdline" 2>/dev/null | grep -Eq ' site\\.ycsb\\.(Client|CommandLine)( |$)'; then kill -KILL "\${d#/proc/}" 2>/dev/null && echo killed; fi; done; exit 0`,
          ).stdout;
          count += out.split('\n').filter((line) => line === 'killed').length;
        }
        return count;
      },
    },
    ssh: runSsh,
    root: runRoot,
    hostPath,
    nodeLogPath: hostPath('cb-server', nodeLogInHost),
    writeFile: (alias, path, text, writeOptions = {}) => {
      const target = hostPath(alias, path);
      writeFileSync(target, text);
      chmodSync(target, writeOptions.mode ?? 0o600);
      const owner = userIds(hostPath(alias, '/'), writeOptions.owner ?? sshUser);
      chownSync(target, owner.uid, owner.gid);
    },
    couchbaseState,
    processEnvironment: (alias, pid) => {
      const out = rootSync(alias, `tr '\\0' '\\n' < /proc/${Number(pid)}/environ`);
      if (out.code !== 0) return undefined;
      const env = new Map<string, string>();
      for (const line of out.stdout.split('\n')) {
        const equals = line.indexOf('=');
        if (equals > 0) env.set(line.slice(0, equals), line.slice(equals + 1));
      }
      return env;
    },
    smallDisk: (sizeKb = 64) => {
      const path = join(dir, 'disks', String(mounts.size + 1));
      mkdirSync(path, { recursive: true });
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', path], { stdio: 'ignore' });
      } catch {
        return undefined;
      }
      mounts.add(path);
      return { path, unmount: () => unmount(path) };
    },
    processesLeft: async ({ includeService = false } = {}) => {
      // give processes that are exiting right now a moment to go
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
      const lists = await Promise.all(
        aliases.map(async (alias) =>
          (await runRoot(alias, processesLeftScript(includeService))).stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => `${alias} ${line.trim()}`),
        ),
      );
      return lists.flat();
    },
    bootTimes,
    stop: cleanup,
  };
  if (options.faults && ('sudoDenied' in options.faults || 'sudoRequiresTty' in options.faults))
    applySudoFaults(options.faults);

  // ssh.service active means sshd listens, not that a login works (pam_nologin refuses users
  // until systemd-user-sessions has run; closed logins and 10 s silences were seen while hosts
  // shared one cgroup tree, labHosts.ts): each host is up for this lab once a real ssh login
  // works, within a minute; if none does, the error carries ssh -v and the host's sshd journal
  try {
    await Promise.all(
      aliases.map(async (alias) => {
        const deadline = Date.now() + 60_000;
        for (let tries = 1; ; tries++) {
          const started = Date.now();
          const probe = await runSsh(alias, 'true', { timeoutMs: 20_000 });
          if (probe.code === 0) return;
          const said =
            probe.stderr.trim() || (Date.now() - started >= 19_000 ? 'no answer within 20 s' : '(nothing said)');
          if (Date.now() > deadline) {
            const verbose = await new Promise<string>((resolvePromise) =>
              execFile(
                'ssh',
                ['-v', '-F', ssh.sshConfigPath, '-o', 'LogLevel=DEBUG1', alias, 'true'],
                { timeout: 20_000, encoding: 'utf8' },
                (_error, _stdout, stderr) => resolvePromise(stderr),
              ),
            );
            const journal = await runRoot(
              alias,
              'systemctl is-active ssh; journalctl --no-pager -n 30 -u ssh; ss -tlnp',
              { timeoutMs: 10_000 },
            );
            throw new Error(
              `lab: ${alias} does not accept an SSH login after ${tries} tries in ${Math.round((Date.now() - deadline + 60_000) / 1000)} s (last: exit ${probe.code}: ${said})\nssh -v: ${verbose.split('\n').slice(-25).join('\n')}\nhost: ${journal.stdout}${journal.stderr}`,
            );
          }
          await new Promise((resolvePromise) => setTimeout(resolvePromise, 200));
        }
      }),
    );
  } catch (error) {
    await cleanup();
    throw error;
  }

  if (options.startCouchbase !== false) {
    // every server host's service, in parallel
    const failures = await Promise.all(
      serverAliases.map(async (alias): Promise<string | undefined> => {
        const started = await runSsh(alias, 'sudo -n systemctl start couchbase-server');
        if (started.code !== 0)
          return `could not start the couchbase service on ${alias} (ssh exit ${started.code}): ${started.stderr.trim() || started.stdout.trim()}`;
        try {
          await waitForPort(addresses[alias].ipv4.a, 8091, 15_000);
          // memcached writes its pid file once every listener is up, a moment after REST answers
          if (alias === 'cb-server')
            for (let i = 0; i < 50 && !couchbaseState().running; i++)
              await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
          return undefined;
        } catch (error) {
          const status = await runRoot(alias, 'systemctl status --no-pager -n 20 couchbase-server');
          return `${alias}: ${(error as Error).message}: ${status.stdout}`;
        }
      }),
    );
    const failed = failures.filter((failure): failure is string => failure !== undefined);
    if (failed.length > 0) {
      await cleanup();
      throw new Error(`lab: ${failed.join('\n')}`);
    }
  }
  return lab;
}

/** Resolves once something accepts TCP connections on address:port; throws after timeoutMs. */
export async function waitForPort(address: string, port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolvePromise) => {
      const socket = connect({ host: address, port });
      socket.once('connect', () => {
        socket.destroy();
        resolvePromise(true);
      });
      socket.once('error', () => resolvePromise(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${address}:${port} after ${timeoutMs} ms`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
}

export interface LabPlanOptions {
  /** Folder for the plan, its workload and profiles. */
  dir: string;
  /** `kernel` and/or names of lab profiles (`latency`, `throughput`) written as local .opf files. */
  stacks?: string[];
  threads?: number[];
  repetitions?: number;
  bucket?: string;
  /** Workload properties (lab-sized defaults: recordcount 200, operationcount 400). */
  properties?: Record<string, string | number | boolean>;
  /** Workload mix: a, b, c or e (default a). */
  workload?: 'a' | 'b' | 'c' | 'e';
  /** Client hosts to use (default: all of the lab's). */
  clients?: string[];
  /** Interfaces to sweep (default: the first two of the server's three, nic-a and nic-b, which keeps a
   * default sweep as short as it was; pass lab.interfaces for all three). */
  interfaces?: LabInterface[];
  /** Server hosts to name in the plan (default: `cb-server` only; e.g. lab.serverHosts for a plan
   * with `clusterSizes`): each after the first gets its own address per plan interface (the same
   * NIC as cb-server's); then every server names the services the lab's node runs (kv, index, n1ql). */
  servers?: string[];
  /** Extra top-level plan settings merged in last (e.g. `timeouts`, `axes`). */
  extra?: Record<string, unknown>;
}

const labProfiles: Record<string, string> = {
  latency: '# Lab profile\nonload_set EF_POLL_USEC 100000\nonload_set EF_TCP_FASTSTART_INIT 0\n',
  throughput: '# Lab profile\nonload_set EF_HIGH_THROUGHPUT_MODE 1\n',
};

/**
 * Writes `<dir>/lab.benchplan.json` for this lab (format: engine/src/plan/planSchema.ts) plus the local
 * workload and profile files it names, and returns the plan's path. The server entry is only the
 * host and the admin user: every other setting is the engine's default, as on a real server. The
 * password is not in it: pass `lab.couchbase.password` to the engine, and `lab.sshConfigPath` as its
 * ssh config file.
 */
export function writeLabPlan(lab: Lab, options: LabPlanOptions): string {
  mkdirSync(options.dir, { recursive: true });
  const mixes: Record<string, string> = {
    a: 'readproportion=0.5\nupdateproportion=0.5\n',
    b: 'readproportion=0.95\nupdateproportion=0.05\n',
    c: 'readproportion=1\nupdateproportion=0\n',
    e: 'readproportion=0\nupdateproportion=0\nscanproportion=0.95\ninsertproportion=0.05\nmaxscanlength=10\n',
  };
  const workloadName = `workload${options.workload ?? 'a'}`;
  writeFileSync(
    join(options.dir, workloadName),
    `workload=site.ycsb.workloads.CoreWorkload\nrecordcount=200\noperationcount=400\nfieldcount=4\nfieldlength=32\nrequestdistribution=uniform\n${mixes[options.workload ?? 'a']}`,
  );
  const stacks = (options.stacks ?? ['kernel', 'latency']).map((name) => {
    if (name === 'kernel') return 'kernel';
    const profile = labProfiles[name];
    if (!profile) throw new Error(`writeLabPlan: unknown lab profile ${name} (latency, throughput)`);
    writeFileSync(join(options.dir, `${name}.opf`), profile);
    return { name, profile: `${name}.opf` };
  });
  const planInterfaces = options.interfaces ?? lab.interfaces.slice(0, 2);
  // the same NIC of another server host: nic-a is eth0 everywhere, nic-c6 eth2's IPv6 address
  const addressOn = (alias: string, item: LabInterface): string => {
    const host = lab.hosts[alias].addresses;
    if (item.address === lab.ipv6Interface.address) return host.ipv6;
    const nic = lab.interfaces.findIndex((each) => each.address === item.address);
    if (nic < 0)
      throw new Error(
        `writeLabPlan: ${item.label} (${item.address}) is none of cb-server's interfaces, so ${alias} has no address for it`,
      );
    return [host.eth0, host.eth1, host.eth2][nic];
  };
  // several servers: each with the services the lab's test node runs (a member's cannot change)
  const services = options.servers ? { services: ['kv', 'index', 'n1ql'] } : {};
  const servers = (options.servers ?? [lab.serverHost]).map((alias, index) =>
    index === 0 && alias === lab.serverHost
      ? { host: alias, adminUser: lab.couchbase.username, ...services }
      : {
          host: alias,
          adminUser: lab.couchbase.username,
          interfaces: Object.fromEntries(planInterfaces.map((item) => [item.label, addressOn(alias, item)])),
          ...services,
        },
  );
  const plan = {
    name: 'lab',
    servers,
    interfaces: Object.fromEntries(planInterfaces.map((item) => [item.label, item.address])),
    // the JAXB API for YCSB's HDR interval logs on Java 17 (realYcsb.ts)
    clients: (options.clients ?? lab.clientHosts).map((host) => ({
      host,
      ycsbHome: lab.ycsbHome,
      javaOptions: labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort),
    })),
    bucket: { name: options.bucket ?? 'bench', ramQuotaMB: 128, replicas: 0, flush: true },
    workload: {
      path: workloadName,
      properties: { recordcount: 200, operationcount: 400, 'status.interval': 1, ...(options.properties ?? {}) },
    },
    stacks,
    threads: options.threads ?? [1, 2],
    repetitions: options.repetitions ?? 1,
    timeouts: { serverStartSec: 20, bucketReadySec: 20, cellSec: 60 },
    ...(options.extra ?? {}),
  };
  const path = join(options.dir, 'lab.benchplan.json');
  writeFileSync(path, `${JSON.stringify(plan, null, 2)}\n`);
  return path;
}

/**
 * Removes labs whose owning test process is gone (killed before it could call stop()): powers
 * their hosts off by pid, unmounts, removes their network and folder. Labs whose owner still runs
 * are left alone. Also frees network claims whose lab folder is gone.
 */
export function reapStaleLabs(): string[] {
  const reaped: string[] = [];
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(labPrefix) || name.startsWith('obl-net-')) continue;
    const dir = join(tmpdir(), name);
    let config: LabConfig;
    try {
      config = JSON.parse(readFileSync(join(dir, labConfigFile), 'utf8')) as LabConfig;
    } catch {
      continue;
    }
    // (a folder of the former loopback lab has no hosts: its own code reaps it)
    if (config.ownerPid === undefined || isAlive(config.ownerPid) || !Array.isArray(config.hosts)) continue;
    for (const host of config.hosts ?? []) powerOffSync(host);
    if (config.network) destroyNetwork(config.network);
    else destroyNetworkById(config.labId);
    if (config.block !== undefined) releaseBlock(config.block, dir);
    rmSync(dir, { recursive: true, force: true });
    reaped.push(dir);
  }
  reapStaleClaims();
  return reaped;
}
