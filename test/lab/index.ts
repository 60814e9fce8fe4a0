// The loopback lab: a benchmark "installation" on this machine for integration and fault tests.
//
//   const lab = await startLab();            // ~1-2 s
//   try {
//     // lab.sshConfigPath: ssh_config with hosts `cb-server` and `ycsb-client` (real OpenSSH sshd,
//     //   per-run host and user keys, StrictHostKeyChecking yes, BatchMode yes). Give it to the
//     //   engine as SshOptions.configFile.
//     // lab.couchbase: { kvPort, restPort, username, password, version } of the test node.
//     // lab.interfaces: [{ label, address }] the node listens on (127.0.0.x).
//     const planPath = writeLabPlan(lab, { dir, stacks: ['kernel', 'latency'], threads: [1, 2] });
//     ... run the engine with planPath, password lab.couchbase.password, ssh.configFile ...
//     lab.faults.set({ ycsbCrashAfterOps: 100 });   // SIGKILL of YCSB's JVM; or killSshd, swapHostKey, killCouchbase...
//     assert.deepEqual(await lab.processesLeft(), []);
//   } finally {
//     await lab.stop();                      // kills every lab process, removes the folder
//   }
//
// What runs where. Each host alias is its own sshd (127.0.0.2 = cb-server, 127.0.0.3 = ycsb-client,
// with `clients: N` also ycsb-client-2 = 127.0.0.4 ...; random ports) whose sessions get PATH = host root stand-ins first, HOME and working folder =
// the host's own folder (lab.hosts[alias].home, so hosts share no state), and the lab markers
// ONLOAD_BENCH_LAB / ONLOAD_BENCH_LAB_ID. The stand-ins (never on the product's PATH):
// - `couchbase-server` (lab.couchbaseServerPath): `-- -noinput` runs a babysitter (`beam.smp`)
//   whose children `memcached` (the Couchbase test node; pid in state/couchbase-server.pid) and
//   `beam.smp` sit in their own process groups; `-k` stops it, `--version` prints
//   `Couchbase Server 7.6.2-3721 (EE)`. It refuses callers that cannot write its data folder (only
//   the user-equivalent `couchbase` or root can). The node listens on every lab interface.
//   Facts and tests per REAL-LAB row: test/lab/README.md.
// - `sudo -n [-u USER] CMD` runs CMD as USER (default root); `systemctl start|stop|restart|status|
//   is-active|show|cat|daemon-reload couchbase-server` runs the node as a "system service" (unit
//   and drop-ins under the host root, clean environment, user `couchbase`, own session). So the
//   plan's default start/stop commands work unchanged. startLab leaves the service running.
// - `setsid` is util-linux 2.23's: no `-w`.
// - `onload [--profile=FILE|-p FILE|--profile=NAME] CMD ARGS`: checks options and profiles (exist,
//   `sh -n`, sourced with onload_set/onload_import), exports ONLOAD_BENCH_LAB_ACCELERATED=1 and
//   the EF_* settings, then execs CMD. `onload --version` prints `Onload <version>`.
// - `onload_stackdump`: one stack per accelerated lab process, in the real tool's layout (Onload
//   ef17681, standins/onloadStackdump.ts): nothing without stacks, else `#stack-id stack-name      pids`
//   then `0         -               <pid> `; another user's stacks are `N         inaccessible` unless
//   root; `lots` adds each stack's header, `pids:` and TCP sockets (`TCP 0:1 lcl=A:P rmt=B:Q LISTEN`);
//   without drivers "Could not open /dev/onload ..." and exit 255.
// - `<lab.ycsbHome>`: the real YCSB 0.17.0 (realYcsb.ts: the release assembled by
//   scripts/ycsb-release.sh in the tools cache, read-only), `bin/ycsb.sh` and the Python-2 `bin/ycsb`
//   (a real Python 2.7 only with the `python2: true` lab option); Java 17 from Debian, none on the
//   hosts named in `withoutJava`. couchbase2 needs the node's ports as JVM options
//   (`labJavaOptions`, in every writeLabPlan client) and logs in as the bucket-named RBAC user,
//   which must exist on the node (REAL-LAB Y1-Y11, test/lab/README.md).
// - `ip` adds the lab's extra 127.0.0.x addresses to `ip -o addr` listings; `ethtool -i` (only
//   when ethtool is not installed) prints driver `lab-loopback`. `java`, `uname` are the real ones.
//
// Faults: `lab.faults.set({...})` (see LabFaults in labFiles.ts) takes effect within ~100 ms in
// the running stand-ins; `killSshd(alias)` drops the daemon and its live connections, `startSshd`
// brings it back; `swapHostKey(alias)` restarts it with another host key; `unknownHost` is an alias
// whose key is not in known_hosts; `killCouchbase()` SIGKILLs the node; `killYcsb()` every YCSB JVM.
// The node acts on YCSB's real process (ycsbCrashAfterOps: SIGKILL, ycsbHangAfterOps: SIGSTOP of the
// JVM that sent the Nth operation) and fails operations (temporaryFailureEvery).
// `processesLeft()` lists live processes started on the lab hosts (by the ONLOAD_BENCH_LAB_ID
// marker) except the couchbase "system service", which is expected to stay up. `smallDisk(kb)`
// mounts a tiny tmpfs (results-disk-full tests; undefined where mounting is not allowed).
//
// Cleanup: stop() kills every lab process and sshd, unmounts, removes the folder (keep it with
// `keep: true` or ONLOAD_BENCH_LAB_KEEP=1). If the test process exits or gets SIGINT/SIGTERM
// without stop(), the same happens synchronously; a lab whose owner was SIGKILLed is reaped by
// the next startLab. Limits: the hosts share this machine's process table, so name lookups such as
// `pgrep -x memcached` can also see another lab's node (find memcached by its KV listener).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHostRoot } from './hostRoot';
import { clearFaults, isAlive, labConfigFile, readFaults, readPidFile, writeFaults, type LabConfig, type LabFaults } from './labFiles';
import { allProcesses, killQuietly, labProcesses, type ProcessInfo } from './processes';
import { labJavaOptions } from './realYcsb';
import { freePort, startSshLab, type SshLab } from './sshd';

export type { LabFaults } from './labFiles';

export interface LabInterface {
  label: string;
  address: string;
}

export interface LabOptions {
  /** Default: `lo-a` 127.0.0.2 and `lo-b` 127.0.0.12. All must be in 127.0.0.0/8. */
  interfaces?: LabInterface[];
  /** Couchbase admin; the password defaults to a random one. */
  username?: string;
  password?: string;
  /** The test node's cluster RAM quota (MiB). Default 1024. */
  memoryQuotaMB?: number;
  /** How many YCSB client hosts (`ycsb-client`, `ycsb-client-2`, ...). Default 1. */
  clients?: number;
  /** The node's configured name (REAL-LAB C7): clients are sent to it whatever address they used.
   * Default: unset, a fresh node announced as the address each client bootstrapped through. */
  nodeName?: string;
  /** Start couchbase-server as the system service at lab start (default true). */
  startCouchbase?: boolean;
  /** Client hosts (aliases) with no Java at all: their PATH holds the system's programs but java (a host without a JRE). */
  withoutJava?: string[];
  /** Give the hosts a real Python 2.7 as `python2` so `python2 bin/ycsb` works (REAL-LAB Y4; default: none, like current distributions). Throws when this machine has none. */
  python2?: boolean;
  faults?: LabFaults;
  /** Keep the lab folder after stop (also with env ONLOAD_BENCH_LAB_KEEP=1), for debugging. */
  keep?: boolean;
  /** sshd LogLevel (default ERROR); logs are in `<dir>/ssh/sshd-<alias>.log`. */
  sshdLogLevel?: string;
}

export interface LabHost {
  alias: string;
  address: string;
  port: number;
  home: string;
}

export interface RemoteOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Lab {
  id: string;
  /** The lab's folder (temporary; removed by stop()). */
  dir: string;
  sshConfigPath: string;
  knownHostsPath: string;
  identityPath: string;
  serverHost: string;
  /** The first client host; `clientHosts` lists all of them. */
  clientHost: string;
  clientHosts: string[];
  /** An alias that resolves to the server but whose host key is unknown. */
  unknownHost: string;
  hosts: Record<string, LabHost>;
  couchbase: { kvPort: number; restPort: number; username: string; password: string; version: string };
  interfaces: LabInterface[];
  hostRoot: string;
  couchbaseServerPath: string;
  ycsbHome: string;
  versions: { couchbase: string; onload: string; ycsb: string };
  faults: LabFaultControls;
  /** Runs a command on a lab host through the real ssh client and the lab's ssh_config. */
  ssh(alias: string, command: string, options?: { timeoutMs?: number }): Promise<RemoteOutcome>;
  /** Whether the test node runs, who started it and whether it runs under the onload stand-in. */
  couchbaseState(): { running: boolean; pid?: number; service: boolean; accelerated: boolean };
  /**
   * A folder on a tiny tmpfs of `sizeKb` KiB inside the lab (for "results disk full" tests), or
   * undefined when this machine does not allow mounting (then inject a write error instead).
   * Unmounted by stop().
   */
  smallDisk(sizeKb?: number): { path: string; unmount(): void } | undefined;
  /** Live lab processes as `PID COMMAND` (the couchbase system service excluded unless asked). */
  processesLeft(options?: { includeService?: boolean }): Promise<string[]>;
  stop(): Promise<void>;
}

export interface LabFaultControls {
  /** Sets switches (undefined/false clears one). */
  set(faults: LabFaults): void;
  clear(): void;
  current(): LabFaults;
  killSshd(alias: string, options?: { sessions?: boolean }): void;
  startSshd(alias: string): Promise<void>;
  /** Restarts the host's sshd with a host key that is not the one in known_hosts (`false` restores). */
  swapHostKey(alias: string, swapped?: boolean): Promise<void>;
  /** SIGKILLs the running couchbase-server (service or not). Returns whether one was running. */
  killCouchbase(): boolean;
  /** SIGKILLs every running YCSB JVM. Returns how many. */
  killYcsb(): number;
}

const couchbaseVersion = '7.6.2-3721-enterprise';
const onloadVersion = '9.0.1.86';
const ycsbVersion = '0.17.0';

/** One folder with the system's programs (/usr/local, /usr: sbin and bin) but `java`, for hosts without Java. */
function systemBinWithoutJava(hostRoot: string): string {
  const folder = join(hostRoot, 'no-java', 'bin');
  mkdirSync(folder, { recursive: true });
  for (const source of ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin']) {
    let names: string[];
    try {
      names = readdirSync(source);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === 'java' || existsSync(join(folder, name))) continue;
      symlinkSync(join(source, name), join(folder, name));
    }
  }
  return folder;
}

function isLoopback(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const interfaces = options.interfaces ?? [
    { label: 'lo-a', address: '127.0.0.2' },
    { label: 'lo-b', address: '127.0.0.12' },
  ];
  for (const item of interfaces) {
    if (!isLoopback(item.address)) throw new Error(`lab interface ${item.label}: ${item.address} is not a 127.0.0.0/8 address`);
  }
  const id = randomBytes(6).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'obl-'));
  const hostRoot = join(dir, 'root');
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir, { recursive: true });
  clearFaults(stateDir);
  if (options.faults) writeFaults(stateDir, options.faults);
  const keep = options.keep === true || process.env.ONLOAD_BENCH_LAB_KEEP === '1';
  let ssh: SshLab | undefined;

  reapStaleLabs();
  const clientCount = options.clients ?? 1;
  if (!Number.isInteger(clientCount) || clientCount < 1 || clientCount > 8) throw new Error('lab: clients must be 1..8');
  const clientAliases = Array.from({ length: clientCount }, (_, index) => (index === 0 ? 'ycsb-client' : `ycsb-client-${index + 1}`));
  const config: LabConfig = {
    labId: id,
    ownerPid: process.pid,
    labDir: dir,
    hostRoot,
    stateDir,
    couchbase: {
      addresses: interfaces.map((item) => item.address),
      kvPort: await freePort(interfaces[0].address),
      restPort: await freePort(interfaces[0].address),
      username: options.username ?? 'Administrator',
      password: options.password ?? `lab-${randomBytes(9).toString('base64url')}`,
      version: couchbaseVersion,
      memoryQuotaMB: options.memoryQuotaMB ?? 1024,
      ...(options.nodeName !== undefined ? { nodeName: options.nodeName } : {}),
    },
    versions: { onload: onloadVersion, ycsb: ycsbVersion },
  };
  writeFileSync(join(dir, labConfigFile), JSON.stringify(config, null, 2), { mode: 0o600 });

  // If the test process ends without stop() (uncaught error, process.exit, SIGINT/SIGTERM from a
  // runner's timeout), kill the lab's processes synchronously on the way out.
  const mounts = new Set<string>();
  const unmount = (path: string): void => {
    if (!mounts.delete(path)) return;
    try {
      execFileSync('umount', ['-l', path], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  const cleanupSync = (): void => {
    for (const path of [...mounts]) unmount(path);
    for (const pid of ssh?.pids() ?? []) killQuietly(pid);
    for (const info of labProcesses(id)) killQuietly(info.pid);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    cleanupSync();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('exit', cleanupSync);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const cleanup = async (): Promise<void> => {
    process.off('exit', cleanupSync);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const path of [...mounts]) unmount(path);
    await ssh?.stop();
    // Everything started on the hosts (the service too), then any straggler that respawned.
    for (let round = 0; round < 3; round++) {
      const left = labProcesses(id);
      if (left.length === 0) break;
      for (const info of left) killQuietly(info.pid);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await buildHostRoot({
      root: hostRoot,
      labDir: dir,
      labId: id,
      stateDir,
      extraAddresses: interfaces.map((item) => item.address).filter((address) => address !== '127.0.0.1'),
      onloadVersion,
      ...(options.python2 ? { python2: true } : {}),
    });
    const hostSpecs = [
      { alias: 'cb-server', address: '127.0.0.2' },
      ...clientAliases.map((alias, index) => ({ alias, address: `127.0.0.${3 + index}` })),
    ].map((host) => {
      const home = join(dir, 'hosts', host.alias);
      // 0700 like useradd's homes on RHEL (0750 on Ubuntu): no other user, such as couchbase, enters
      mkdirSync(home, { recursive: true, mode: 0o700 });
      const system = (options.withoutJava ?? []).includes(host.alias) ? [systemBinWithoutJava(hostRoot)] : ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
      const path = [join(hostRoot, 'bin'), join(hostRoot, 'opt', 'couchbase', 'bin'), ...system];
      return {
        ...host,
        workDir: home,
        // ONLOAD_BENCH_LAB_USER: the SSH user-equivalent the stand-ins see (not root, not couchbase);
        // ONLOAD_BENCH_LOCK_DIR: each host its own system-wide lock (remoteLock.ts), as separate machines have
        env: { PATH: path.join(':'), HOME: home, ONLOAD_BENCH_LAB: dir, ONLOAD_BENCH_LAB_ID: id, ONLOAD_BENCH_LAB_HOST: host.alias, ONLOAD_BENCH_LAB_USER: 'bench', ONLOAD_BENCH_LOCK_DIR: home },
      };
    });
    ssh = await startSshLab(join(dir, 'ssh'), hostSpecs, options.sshdLogLevel ? { logLevel: options.sshdLogLevel } : {});
  } catch (error) {
    await cleanup();
    throw error;
  }
  const sshLab = ssh;
  const hosts: Record<string, LabHost> = {};
  for (const host of sshLab.hosts) hosts[host.alias] = { alias: host.alias, address: host.address, port: host.port, home: join(dir, 'hosts', host.alias) };

  const runSsh = (alias: string, command: string, runOptions: { timeoutMs?: number } = {}): Promise<RemoteOutcome> =>
    new Promise((resolve) => {
      execFile(
        'ssh',
        ['-F', sshLab.sshConfigPath, alias, command],
        { timeout: runOptions.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 255) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  const couchbaseState = (): { running: boolean; pid?: number; service: boolean; accelerated: boolean } => {
    const pid = readPidFile(join(stateDir, 'couchbase-server.pid'));
    if (pid === undefined || !isAlive(pid)) return { running: false, service: false, accelerated: false };
    const info = labProcesses(id).find((candidate) => candidate.pid === pid);
    return {
      running: true,
      pid,
      service: info?.env.get('ONLOAD_BENCH_LAB_SERVICE') === '1',
      accelerated: info?.env.get('ONLOAD_BENCH_LAB_ACCELERATED') === '1',
    };
  };

  const lab: Lab = {
    id,
    dir,
    sshConfigPath: sshLab.sshConfigPath,
    knownHostsPath: sshLab.knownHostsPath,
    identityPath: sshLab.identityPath,
    serverHost: 'cb-server',
    clientHost: clientAliases[0],
    clientHosts: clientAliases,
    unknownHost: sshLab.unknownHostAlias,
    hosts,
    couchbase: {
      kvPort: config.couchbase.kvPort,
      restPort: config.couchbase.restPort,
      username: config.couchbase.username,
      password: config.couchbase.password,
      version: couchbaseVersion,
    },
    interfaces,
    hostRoot,
    couchbaseServerPath: join(hostRoot, 'opt', 'couchbase', 'bin', 'couchbase-server'),
    ycsbHome: join(hostRoot, 'opt', 'ycsb'),
    versions: { couchbase: couchbaseVersion, onload: onloadVersion, ycsb: ycsbVersion },
    faults: {
      set: (faults) => writeFaults(stateDir, faults),
      clear: () => clearFaults(stateDir),
      current: () => readFaults(stateDir),
      killSshd: (alias, killOptions) => sshLab.kill(alias, killOptions),
      startSshd: (alias) => sshLab.start(alias, 'main'),
      swapHostKey: async (alias, swapped = true) => {
        sshLab.kill(alias, { sessions: true });
        await sshLab.start(alias, swapped ? 'other' : 'main');
      },
      killCouchbase: () => {
        const state = couchbaseState();
        if (state.pid !== undefined) killQuietly(state.pid);
        return state.running;
      },
      killYcsb: () => {
        // the real YCSB's JVM (bin/ycsb and bin/ycsb.sh then end with its status)
        const victims = labProcesses(id).filter((info) => / site\.ycsb\.(Client|CommandLine)\b/.test(info.command));
        for (const info of victims) killQuietly(info.pid);
        return victims.length;
      },
    },
    ssh: runSsh,
    couchbaseState,
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
      await new Promise((resolve) => setTimeout(resolve, 100));
      return labProcesses(id)
        .filter((info) => includeService || info.env.get('ONLOAD_BENCH_LAB_SERVICE') !== '1')
        .map((info) => `${info.pid} ${info.command}`);
    },
    stop: cleanup,
  };

  if (options.startCouchbase !== false) {
    const started = await runSsh('cb-server', 'sudo -n systemctl start couchbase-server');
    if (started.code !== 0) {
      await cleanup();
      throw new Error(`lab: could not start the couchbase service: ${started.stderr.trim()}`);
    }
    await waitForPort(interfaces[0].address, config.couchbase.restPort, 15_000);
  }
  return lab;
}

/** Resolves once something accepts TCP connections on address:port; throws after timeoutMs. */
export async function waitForPort(address: string, port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: address, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${address}:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
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
  /** Interfaces to sweep (default: all of the lab's). */
  interfaces?: LabInterface[];
  /** Extra top-level plan settings merged in last (e.g. `timeouts`, `axes`). */
  extra?: Record<string, unknown>;
}

const labProfiles: Record<string, string> = {
  latency: '# Lab profile\nonload_set EF_POLL_USEC 100000\nonload_set EF_TCP_FASTSTART_INIT 0\n',
  throughput: '# Lab profile\nonload_set EF_HIGH_THROUGHPUT_MODE 1\n',
};

/**
 * Writes `<dir>/lab.benchplan.json` for this lab (format: engine/src/plan/planSchema.ts) plus the local
 * workload and profile files it names, and returns the plan's path. The password is not in it:
 * pass `lab.couchbase.password` to the engine, and `lab.sshConfigPath` as its ssh config file.
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
  const plan = {
    name: 'loopback-lab',
    servers: [
      {
        host: lab.serverHost,
        couchbaseServerPath: lab.couchbaseServerPath,
        restPort: lab.couchbase.restPort,
        kvPort: lab.couchbase.kvPort,
        adminUser: lab.couchbase.username,
        serviceDropInDir: join(lab.hostRoot, 'etc', 'systemd', 'system', 'couchbase-server.service.d'),
      },
    ],
    interfaces: Object.fromEntries((options.interfaces ?? lab.interfaces).map((item) => [item.label, item.address])),
    // couchbase2's SDK reads the node's free ports only from JVM options (realYcsb.ts)
    clients: (options.clients ?? lab.clientHosts).map((host) => ({ host, ycsbHome: lab.ycsbHome, javaOptions: labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort) })),
    bucket: { name: options.bucket ?? 'bench', ramQuotaMB: 128, replicas: 0, flush: true },
    workload: { path: workloadName, properties: { recordcount: 200, operationcount: 400, 'status.interval': 1, ...(options.properties ?? {}) } },
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
 * Removes labs whose owning test process is gone (killed before it could call stop()): kills the
 * processes carrying their id and their sshd daemons, and deletes their folders. Labs without an
 * owner pid, or whose owner still runs, are left alone.
 */
export function reapStaleLabs(): string[] {
  const reaped: string[] = [];
  let processes: ProcessInfo[] | undefined;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('obl-')) continue;
    const dir = join(tmpdir(), name);
    let config: LabConfig;
    try {
      config = JSON.parse(readFileSync(join(dir, labConfigFile), 'utf8')) as LabConfig;
    } catch {
      continue;
    }
    if (config.ownerPid === undefined || isAlive(config.ownerPid)) continue;
    processes ??= allProcesses();
    for (const info of processes) {
      const ofLab = info.env.get('ONLOAD_BENCH_LAB_ID') === config.labId;
      const daemon = info.command.startsWith('sshd:') && info.command.includes(join(dir, 'ssh'));
      if ((ofLab || daemon) && info.state !== 'Z') killQuietly(info.pid);
    }
    rmSync(dir, { recursive: true, force: true });
    reaped.push(dir);
  }
  return reaped;
}
