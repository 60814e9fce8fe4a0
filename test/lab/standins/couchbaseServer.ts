// Stand-in Couchbase Server inside the lab's server host, run by /opt/couchbase/bin/couchbase-server
// (hostFiles.ts: the shell part does ns_server couchbase-server.sh.in's C1 checks, then execs this):
//   couchbase-server [-- -noinput ...]   run "the babysitter" in the foreground (what the systemd
//                                        unit and `onload ... couchbase-server -- -noinput` do)
//   couchbase-server -k                  stop the running server (TERM to the babysitter, which
//                                        stops its children and waits for them)
//   couchbase-server --version | -v      print the version
//   couchbase-server status              "running (pid N)" / "not running" (exit 0 / 3)
// Like the real one (REAL-LAB C1, C2), with the host's real users and permissions:
// - it runs as whoever started it; started as root it leaves root-owned files in the data folder
//   (config/config.dat, umask 007) that make the next start as `couchbase` fail;
// - the babysitter (comm `beam.smp`) starts its children through "goport": each in its own process
//   group, `memcached` (the Couchbase test node: KV and REST) and `beam.smp` (ns_server, idle). Their
//   command lines name the installation folder as the real ones do. A child notices a dead parent
//   only when its stdin closes, and memcached then takes a while to shut down (killing the
//   babysitter's group leaves memcached listening for that time).
// Pid files in the data folder: couchbase-server.pid (the babysitter, as the real script's
// PIDFILE) and lab-memcached.pid (for the lab's couchbaseState). Under the stand-in `onload`, each
// process registers itself as an "Onload stack" (hostFiles.ts stacksDir) for onload_stackdump.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { startCouchbaseTestNode } from '../couchbaseTestNode';
import { cachedFaults, isAlive, loadHostConfig, readFaults, readPidFile, type NodeConfig } from '../labFiles';
import { requestClientSignal } from '../clientSignals';
import {
  couchbaseDataDir,
  couchbaseHome,
  nodeConfigPath,
  nodeLogInHost,
  onloadStackCommand,
  onloadStackNetnsInHost,
  stacksDir,
} from '../hostFiles';

const babysitterPidFile = join(couchbaseDataDir, 'couchbase-server.pid');
const memcachedPidFile = join(couchbaseDataDir, 'lab-memcached.pid');
const logFile = nodeLogInHost;

/** Under the stand-in onload, a process is an "Onload stack" (every child inherits the launcher's environment, O1). */
function registerStack(): void {
  if (process.env.ONLOAD_BENCH_LAB_ACCELERATED !== '1') return;
  try {
    writeFileSync(join(stacksDir, String(process.pid)), `${process.env.EF_NAME ?? ''}\n`);
  } catch {
    // no registry: onload_stackdump will not list this process
  }
}

function appendLog(text: string): void {
  try {
    appendFileSync(logFile, text);
  } catch {
    // the logs folder is missing or not ours
  }
}

/** How long memcached takes to go once its stdin closed (the real one flushes and closes buckets). */
const memcachedShutdownMs = 1500;

function versionText(version: string): string {
  const match = /^(\d+\.\d+\.\d+-\d+)-(enterprise|community)$/.exec(version);
  return match
    ? `Couchbase Server ${match[1]} (${match[2] === 'enterprise' ? 'EE' : 'CE'})`
    : `Couchbase Server ${version}`;
}

function setName(name: string): void {
  try {
    writeFileSync('/proc/self/comm', name); // what ps/pgrep/comm show, like the real process names
  } catch {
    process.title = name;
  }
}

async function stopRunning(pidFile: string): Promise<number> {
  const pid = readPidFile(pidFile);
  if (pid === undefined || !isAlive(pid)) {
    rmSync(pidFile, { force: true });
    return 0;
  }
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return 0;
}

function userName(): string {
  const uid = process.getuid?.() ?? 0;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.split(':')[2] === String(uid));
  return line?.split(':')[0] ?? `uid ${uid}`;
}

/**
 * One half of the stand-in Onload stack (standins/onloadStack.ts), through the lab's sudo line: it
 * listens on `addresses` and hands each KV connection to `accept`. Resolves with its pid once listening.
 */
function startStackHalf(
  where: 'stack' | 'kernel',
  addresses: string[],
  port: number,
  accept: (socket: Socket) => void,
  log: (line: string) => void,
): Promise<number> {
  // without the launcher's LD_PRELOAD, which ld.so refuses for setuid sudo (with a warning)
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'LD_PRELOAD'));
  const child = spawn('sudo', ['-n', '-C', '4', onloadStackCommand, where, ...addresses, String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`onload stack (${where}) did not listen within 15 s`)), 15_000);
    child.on('message', (message: { kind?: string; pid?: number }, handle: unknown) => {
      if (message.kind === 'kv' && handle) accept(handle as Socket);
      else if (message.kind === 'listening') {
        clearTimeout(timer);
        log(`onload stack (${where}) listening on ${addresses.join(', ')} port ${port}, pid ${message.pid}`);
        resolve(message.pid ?? 0);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`onload stack (${where}) exited (${signal ?? code})`));
    });
  });
}

/** memcached: the test node; goes when its stdin (the babysitter's pipe) closes. */
async function runMemcached(): Promise<void> {
  setName('memcached');
  registerStack();
  const host = loadHostConfig();
  const config = JSON.parse(readFileSync(nodeConfigPath, 'utf8')) as NodeConfig;
  const pidFile = memcachedPidFile;
  const log = (line: string): void => appendLog(`${new Date().toISOString()} [memcached ${process.pid}] ${line}\n`);
  let node: Awaited<ReturnType<typeof startCouchbaseTestNode>> | undefined;
  let stopping = false;
  const stop = (why: string, delayMs: number): void => {
    if (stopping) return;
    stopping = true;
    log(`${why}: shutting down`);
    setTimeout(() => {
      void (node?.stop() ?? Promise.resolve()).finally(() => {
        if (readPidFile(pidFile) === process.pid) rmSync(pidFile, { force: true });
        process.exit(0);
      });
    }, delayMs);
  };
  // goport's children see a dead parent only through their stdin (REAL-LAB C2)
  process.stdin.on('end', () => stop('stdin closed', memcachedShutdownMs));
  process.stdin.on('error', () => stop('stdin error', memcachedShutdownMs));
  process.stdin.resume();
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  setInterval(() => undefined, 60_000);
  const startup = readFaults(host.faultsDir);
  if (startup.couchbaseNeverReady) {
    log('fault couchbaseNeverReady: not opening any port');
  } else {
    if (startup.couchbaseStartDelayMs)
      await new Promise((resolve) => setTimeout(resolve, startup.couchbaseStartDelayMs));
    // Onload's view (REAL-LAB O6, O7): with Onload NICs declared, the IPv4 listener is the stack's
    // (standins/onloadStack.ts), the IPv6 one stays memcached's kernel socket
    const onloadAddresses = config.onloadAddresses;
    const stacked =
      process.env.ONLOAD_BENCH_LAB_ACCELERATED === '1' &&
      onloadAddresses !== undefined &&
      existsSync(onloadStackNetnsInHost);
    // no stack, no NIC filter: what a killed stack left must not steal this memcached's traffic
    if (!stacked && onloadAddresses !== undefined && existsSync(onloadStackNetnsInHost)) {
      await new Promise<void>((resolve) => {
        const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'LD_PRELOAD'));
        spawn('sudo', ['-n', onloadStackCommand, 'clear', String(config.kvPort)], { stdio: 'ignore', env })
          .once('exit', () => resolve())
          .once('error', () => resolve());
      });
    }
    // REAL-LAB C9: the babysitter's REST listeners answered before memcached ran; it hands each
    // new REST connection over (earlyRest below)
    const restFromBabysitter = process.env.ONLOAD_BENCH_LAB_REST_FROM_BABYSITTER === '1';
    const earlyRestSockets: Socket[] = [];
    if (restFromBabysitter) {
      process.on('message', (message: { kind?: string }, handle: unknown) => {
        if (message.kind !== 'rest' || !handle) return;
        if (node) node.acceptRest(handle as Socket);
        else earlyRestSockets.push(handle as Socket);
      });
    }
    node = await startCouchbaseTestNode({
      ...(restFromBabysitter ? { restAddresses: [] } : {}),
      ...(stacked ? { kvAddresses: config.addresses.filter((address) => address.includes(':')) } : {}),
      addresses: config.addresses,
      kvPort: config.kvPort,
      restPort: config.restPort,
      username: config.username,
      password: config.password,
      version: config.version,
      memoryQuotaMB: config.memoryQuotaMB,
      ...(config.nodeName !== undefined ? { nodeName: config.nodeName } : {}),
      faults: cachedFaults(host.faultsDir),
      log,
      // issue 23: a member stays a member across a restart of the service (ns_server's config on disk)
      membershipFile: `${couchbaseDataDir}/config/lab-membership.json`,
      // faults on the real YCSB: its JVM runs on a client host this node cannot see; the lab, on the
      // machine that runs the hosts, finds it by its end of the connection (clientSignals.ts)
      signalClient: (connection, signal) => requestClientSignal(connection, signal),
    });
    for (const socket of earlyRestSockets.splice(0)) node.acceptRest(socket);
    if (stacked && onloadAddresses !== undefined) {
      const ipv4 = config.addresses.filter((address) => !address.includes(':'));
      const started = node;
      const accept = (socket: Socket): void => started.acceptKv(socket);
      const inStack = ipv4.filter((address) => onloadAddresses.includes(address));
      const inKernel = ipv4.filter((address) => !onloadAddresses.includes(address));
      try {
        const [stackPid] = await Promise.all([
          inStack.length > 0
            ? startStackHalf('stack', inStack, config.kvPort, accept, log)
            : Promise.resolve(undefined),
          inKernel.length > 0
            ? startStackHalf('kernel', inKernel, config.kvPort, accept, log)
            : Promise.resolve(undefined),
        ]);
        // onload_stackdump reads the stack's sockets through this pid's namespace
        if (stackPid !== undefined) writeFileSync(join(stacksDir, `${process.pid}.net`), `${stackPid}\n`);
      } catch (error) {
        log(`${String(error)}: exiting`);
        process.exit(1);
      }
    }
    if (!stopping) writeFileSync(pidFile, `${process.pid}\n`);
  }
  await new Promise(() => undefined);
}

/**
 * REAL-LAB C9 (fault memcachedStartDelayMs): ns_server's supervisor starts REST before it starts
 * memcached. The babysitter listens on the REST port itself and answers `/pools` and
 * `/pools/default` (node uptime since its own start, status warmup) and 503 for the rest until
 * memcached runs; from then on it hands each new REST connection to memcached (Node's IPC).
 */
async function earlyRest(
  config: NodeConfig,
  log: (line: string) => void,
): Promise<{ handTo(child: ChildProcess): void; close(): void }> {
  const startedAt = Date.now();
  let target: ChildProcess | undefined;
  const answer = createHttpServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (path === '/pools')
      return json(200, {
        isAdminCreds: false,
        isEnterprise: true,
        implementationVersion: config.version,
        pools: [{ name: 'default', uri: '/pools/default' }],
      });
    const expected = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return json(401, {});
    const host = request.socket.localAddress?.replace(/^::ffff:/, '') ?? config.addresses[0];
    if (path === '/pools/default')
      return json(200, {
        name: 'default',
        nodes: [
          {
            hostname: `${config.nodeName ?? (host.includes(':') ? `[${host}]` : host)}:${config.restPort}`,
            uptime: String(Math.floor((Date.now() - startedAt) / 1000)),
            thisNode: true,
            status: 'warmup',
            clusterMembership: 'active',
            services: ['kv'],
          },
        ],
      });
    return json(503, { errors: { _: 'memcached is not running yet' } });
  });
  answer.keepAliveTimeout = 500;
  const servers: NetServer[] = [];
  for (const address of config.addresses) {
    const server = createNetServer({ pauseOnConnect: true }, (socket) => {
      if (target) target.send({ kind: 'rest' }, socket);
      else {
        answer.emit('connection', socket);
        socket.resume();
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address, port: config.restPort, exclusive: true }, () => resolve());
    });
    servers.push(server);
  }
  log(`REST answered by the babysitter until memcached runs (C9)`);
  return {
    handTo: (child) => {
      target = child;
      answer.closeAllConnections();
    },
    close: () => {
      for (const server of servers) server.close();
      answer.closeAllConnections();
    },
  };
}

/** ns_server's VM: nothing to do but exist, in its own group, until its stdin closes. */
async function runNsServer(): Promise<void> {
  setName('beam.smp');
  registerStack();
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  process.on('SIGTERM', () => process.exit(0));
  setInterval(() => undefined, 60_000);
  await new Promise(() => undefined);
}

async function main(rawArgv: string[]): Promise<number> {
  const argv = rawArgv;
  if (argv[0] === '--lab-child') {
    if (argv[1] === 'memcached') await runMemcached();
    else await runNsServer();
    return 0;
  }
  const host = loadHostConfig();
  if (argv.includes('--version') || argv.includes('-v') || argv.includes('-version')) {
    process.stdout.write(`${versionText(host.versions.couchbase)}\n`);
    return 0;
  }
  if (argv.includes('-k')) return stopRunning(babysitterPidFile);
  if (argv[0] === 'status' || argv.includes('-s')) {
    const pid = readPidFile(babysitterPidFile);
    const running = pid !== undefined && isAlive(pid);
    process.stdout.write(running ? `couchbase-server is running (pid ${pid})\n` : 'couchbase-server is not running\n');
    return running ? 0 : 3;
  }
  const separator = argv.indexOf('--');
  const ownArgs = separator >= 0 ? argv.slice(0, separator) : argv;
  if (ownArgs.length > 0) {
    process.stderr.write(
      `couchbase-server: unknown argument ${ownArgs[0]}\nusage: couchbase-server [-k] [-v] [status] [-- erlang-args]\n`,
    );
    return 1;
  }

  // C1 (the shell part checked that the data folder is writable): what a start as root leaves
  // behind is root's, and the next start as couchbase cannot write it
  const user = userName();
  const configDat = join(couchbaseDataDir, 'config', 'config.dat');
  process.umask(0o007);
  try {
    appendFileSync(configDat, `${new Date().toISOString()} started by ${user}\n`);
  } catch (error) {
    process.stderr.write(
      `couchbase-server: cannot write ${configDat}: ${(error as NodeJS.ErrnoException).code === 'EACCES' ? 'Permission denied (files in the data folder belong to another user: was it started as root?)' : String(error)}\n`,
    );
    return 1;
  }

  const running = readPidFile(babysitterPidFile);
  if (running !== undefined && running !== process.pid && isAlive(running)) {
    process.stderr.write(`couchbase-server: already running (pid ${running})\n`);
    return 1;
  }
  writeFileSync(babysitterPidFile, `${process.pid}\n`);
  setName('beam.smp');
  registerStack();
  const log = (line: string): void => {
    const text = `${new Date().toISOString()} [babysitter ${process.pid}] ${line}\n`;
    process.stdout.write(text);
    appendLog(text);
  };
  log(
    `starting ${versionText(host.versions.couchbase)} as ${user}${process.env.ONLOAD_BENCH_LAB_ACCELERATED === '1' ? ' under onload' : ''}`,
  );

  // goport: each child in its own process group, stdin a pipe from the babysitter
  const bundle = process.argv[1];
  const child = (name: string, args: string[]): ChildProcess =>
    spawn(process.execPath, [bundle, '--lab-child', name, ...args], {
      detached: true,
      stdio: ['pipe', 'inherit', 'inherit'],
    });
  const memcachedDelayMs = readFaults(host.faultsDir).memcachedStartDelayMs ?? 0;
  const early =
    memcachedDelayMs > 0
      ? await earlyRest(JSON.parse(readFileSync(nodeConfigPath, 'utf8')) as NodeConfig, log)
      : undefined;
  const nsServer = child('ns_server', [
    join(couchbaseHome, 'lib', 'erlang', 'erts', 'bin', 'beam.smp'),
    '--',
    '-root',
    join(couchbaseHome, 'lib', 'erlang'),
    '-name',
    'ns_1@cb.local',
  ]);
  const children = [nsServer];
  let stopping = false;
  const startMemcached = (): void => {
    if (stopping) return;
    const args = [join(couchbaseHome, 'bin', 'memcached'), '-C', join(couchbaseDataDir, 'config', 'memcached.json')];
    const memcached = early
      ? spawn(process.execPath, [bundle, '--lab-child', 'memcached', ...args], {
          detached: true,
          stdio: ['pipe', 'inherit', 'inherit', 'ipc'],
          env: { ...process.env, ONLOAD_BENCH_LAB_REST_FROM_BABYSITTER: '1' },
        })
      : child('memcached', args);
    children.unshift(memcached);
    early?.handTo(memcached);
    memcached.once('exit', (code, signal) => shutdown(`memcached exited (${signal ?? code})`, 1));
  };
  if (early) {
    log(`fault memcachedStartDelayMs: memcached starts in ${memcachedDelayMs} ms`);
    setTimeout(startMemcached, memcachedDelayMs);
  } else startMemcached();
  const shutdown = (why: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping children`);
    early?.close();
    for (const entry of children) {
      entry.stdin?.end();
      if (entry.pid !== undefined && entry.exitCode === null) {
        try {
          process.kill(entry.pid, 'SIGTERM');
        } catch {
          // gone
        }
      }
    }
    const waitAll = Promise.all(
      children.map((entry) =>
        entry.exitCode !== null || entry.signalCode !== null
          ? undefined
          : new Promise((resolve) => entry.once('exit', resolve)),
      ),
    );
    void Promise.race([waitAll, new Promise((resolve) => setTimeout(resolve, 8000))]).finally(() => {
      if (readPidFile(babysitterPidFile) === process.pid) rmSync(babysitterPidFile, { force: true });
      process.exit(code);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM', 0));
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  process.on('SIGHUP', () => shutdown('SIGHUP', 0));
  await new Promise(() => undefined);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`couchbase-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
