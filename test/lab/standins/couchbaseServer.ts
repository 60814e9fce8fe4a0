// Stand-in `couchbase-server` for the loopback lab (bundled by the lab, run through a wrapper).
//   couchbase-server [-- -noinput ...]   run "the babysitter" in the foreground (what systemd and
//                                        `onload ... couchbase-server -- -noinput` do)
//   couchbase-server -k                  stop the running server (TERM to the babysitter, which
//                                        stops its children and waits for them)
//   couchbase-server --version | -v      print the version
//   couchbase-server status              "running (pid N)" / "not running" (exit 0 / 3)
// Like the real one (REAL-LAB C1, C2):
// - it refuses to start unless the data folder (ROOT/opt/couchbase/var/lib/couchbase) is writable by
//   the calling user: owned by `couchbase` (the lab's user-equivalent ONLOAD_BENCH_LAB_USER, set by
//   the stand-in sshd/sudo/systemctl); root may start it but leaves root-owned files that make the
//   next start as `couchbase` fail; it warns when nofile < 200000 and sets umask 007;
// - the babysitter (comm `beam.smp`) starts its children through "goport": each in its own process
//   group, `memcached` (the Couchbase test node: KV and REST) and `beam.smp` (ns_server, idle). Their
//   command lines name the installation folder as the real ones do. A child notices a dead parent
//   only when its stdin closes, and memcached then takes a while to shut down (killing the
//   babysitter's group leaves memcached listening for that time).
// The node's pid is in state/couchbase-server.pid, the babysitter's in state/couchbase-babysitter.pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCouchbaseTestNode } from '../couchbaseTestNode';
import { cachedFaults, isAlive, loadLabConfigFromEnv, readFaults, readPidFile } from '../labFiles';
import { readProcess } from '../processes';
import { peerProcess } from '../socketOwner';

/** How long memcached takes to go once its stdin closed (the real one flushes and closes buckets). */
const memcachedShutdownMs = 1500;

function versionText(version: string): string {
  const match = /^(\d+\.\d+\.\d+-\d+)-(enterprise|community)$/.exec(version);
  return match ? `Couchbase Server ${match[1]} (${match[2] === 'enterprise' ? 'EE' : 'CE'})` : `Couchbase Server ${version}`;
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
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return 0;
}

function soft(limit: 'nofile'): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((text) => text.startsWith(limit === 'nofile' ? 'Max open files' : ''));
    const value = line?.split(/\s{2,}/)[1];
    return value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value);
  } catch {
    return undefined;
  }
}

/** memcached: the test node; goes when its stdin (the babysitter's pipe) closes. */
async function runMemcached(): Promise<void> {
  setName('memcached');
  const config = loadLabConfigFromEnv();
  const pidFile = join(config.stateDir, 'couchbase-server.pid');
  const log = (line: string): void => {
    const text = `${new Date().toISOString()} [memcached ${process.pid}] ${line}\n`;
    try {
      appendFileSync(join(config.stateDir, 'couchbase-server.log'), text);
    } catch {
      // the state folder is gone: the lab is stopping
    }
  };
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
  const startup = readFaults(config.stateDir);
  if (startup.couchbaseNeverReady) {
    log('fault couchbaseNeverReady: not opening any port');
  } else {
    if (startup.couchbaseStartDelayMs) await new Promise((resolve) => setTimeout(resolve, startup.couchbaseStartDelayMs));
    node = await startCouchbaseTestNode({
      addresses: config.couchbase.addresses,
      kvPort: config.couchbase.kvPort,
      restPort: config.couchbase.restPort,
      username: config.couchbase.username,
      password: config.couchbase.password,
      version: config.couchbase.version,
      memoryQuotaMB: config.couchbase.memoryQuotaMB,
      ...(config.couchbase.nodeName !== undefined ? { nodeName: config.couchbase.nodeName } : {}),
      faults: cachedFaults(config.stateDir),
      log,
      // faults on the real YCSB: its JVM is found by its end of the connection, in this lab only
      signalClient: (connection, signal) => {
        const pid = peerProcess({ address: connection.nodeAddress, port: connection.nodePort }, { address: connection.clientAddress, port: connection.clientPort }, (candidate) => readProcess(candidate)?.env.get('ONLOAD_BENCH_LAB_ID') === config.labId);
        if (pid === undefined) return `no process of this lab holds ${connection.clientAddress}:${connection.clientPort}`;
        try {
          process.kill(pid, signal);
          return `${signal} sent to ${pid} (${connection.clientAddress}:${connection.clientPort})`;
        } catch (error) {
          return `${signal} to ${pid} failed: ${String(error)}`;
        }
      },
    });
    if (!stopping) writeFileSync(pidFile, `${process.pid}\n`);
  }
  await new Promise(() => undefined);
}

/** ns_server's VM: nothing to do but exist, in its own group, until its stdin closes. */
async function runNsServer(): Promise<void> {
  setName('beam.smp');
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  process.on('SIGTERM', () => process.exit(0));
  setInterval(() => undefined, 60_000);
  await new Promise(() => undefined);
}

async function main(rawArgv: string[]): Promise<number> {
  // the wrapper passes the installation folder first, so children's command lines can name it
  const homeArg = rawArgv[0]?.startsWith('--lab-home=') ? rawArgv[0].slice('--lab-home='.length) : undefined;
  const argv = homeArg !== undefined ? rawArgv.slice(1) : rawArgv;
  if (argv[0] === '--lab-child') {
    if (argv[1] === 'memcached') await runMemcached();
    else await runNsServer();
    return 0;
  }
  const config = loadLabConfigFromEnv();
  const babysitterPidFile = join(config.stateDir, 'couchbase-babysitter.pid');
  if (argv.includes('--version') || argv.includes('-v')) {
    process.stdout.write(`${versionText(config.couchbase.version)}\n`);
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
    process.stderr.write(`couchbase-server: unknown argument ${ownArgs[0]}\nusage: couchbase-server [-k] [-v] [status] [-- erlang-args]\n`);
    return 1;
  }

  // C1: the data folder must be writable by the calling user
  const home = homeArg ?? join(config.hostRoot, 'opt', 'couchbase');
  const dataDir = join(home, 'var', 'lib', 'couchbase');
  const user = process.env.ONLOAD_BENCH_LAB_USER ?? 'root';
  const owner = existsSync(join(dataDir, '.owner')) ? readFileSync(join(dataDir, '.owner'), 'utf8').trim() : 'couchbase';
  const rootFiles = join(dataDir, '.root-owned-files');
  if (user !== 'root' && (user !== owner || existsSync(rootFiles))) {
    process.stderr.write(`Insufficient privileges to start couchbase-server: ${dataDir} is not writable by ${user}${existsSync(rootFiles) ? ' (files in it are owned by root: it was started as root before)' : ''}.\n`);
    return 1;
  }
  if (user === 'root') writeFileSync(rootFiles, 'started as root: files in the data folder are now owned by root\n');
  const nofile = soft('nofile');
  if (nofile !== undefined && nofile < 200000) {
    process.stderr.write(`The maximum number of open files for the ${user} user is set too low (${nofile}).\nIt must be at least 200000.\n`);
  }
  process.umask(0o007);

  const running = readPidFile(babysitterPidFile);
  if (running !== undefined && running !== process.pid && isAlive(running)) {
    process.stderr.write(`couchbase-server: already running (pid ${running})\n`);
    return 1;
  }
  writeFileSync(babysitterPidFile, `${process.pid}\n`);
  setName('beam.smp');
  const log = (line: string): void => {
    const text = `${new Date().toISOString()} [babysitter ${process.pid}] ${line}\n`;
    process.stdout.write(text);
    try {
      appendFileSync(join(config.stateDir, 'couchbase-server.log'), text);
    } catch {
      // the state folder is gone: the lab is stopping
    }
  };
  log(`starting ${versionText(config.couchbase.version)} as ${user}${process.env.ONLOAD_BENCH_LAB_ACCELERATED === '1' ? ' under onload' : ''}`);

  // goport: each child in its own process group, stdin a pipe from the babysitter
  const bundle = process.argv[1];
  const child = (name: string, args: string[]): ChildProcess =>
    spawn(process.execPath, [bundle, ...(homeArg !== undefined ? [`--lab-home=${homeArg}`] : []), '--lab-child', name, ...args], { detached: true, stdio: ['pipe', 'inherit', 'inherit'] });
  const nsServer = child('ns_server', [join(home, 'lib', 'erlang', 'erts', 'bin', 'beam.smp'), '--', '-root', join(home, 'lib', 'erlang'), '-name', 'ns_1@cb.local']);
  const memcached = child('memcached', [join(home, 'bin', 'memcached'), '-C', join(dataDir, 'config', 'memcached.json')]);
  const children = [memcached, nsServer];
  let stopping = false;
  const shutdown = (why: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping children`);
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
    const waitAll = Promise.all(children.map((entry) => (entry.exitCode !== null || entry.signalCode !== null ? undefined : new Promise((resolve) => entry.once('exit', resolve)))));
    void Promise.race([waitAll, new Promise((resolve) => setTimeout(resolve, 8000))]).finally(() => {
      if (readPidFile(babysitterPidFile) === process.pid) rmSync(babysitterPidFile, { force: true });
      process.exit(code);
    });
  };
  memcached.once('exit', (code, signal) => shutdown(`memcached exited (${signal ?? code})`, 1));
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
