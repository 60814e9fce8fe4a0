// Stand-in `couchbase-server` for the loopback lab (bundled by the lab, run through a wrapper).
//   couchbase-server [-- -noinput ...]   run the test node in the foreground (what systemd and
//                                        `onload ... couchbase-server -- -noinput` do)
//   couchbase-server -k                  stop the running node (TERM, then KILL after 5 s)
//   couchbase-server --version | -v      print the version
//   couchbase-server status              "running (pid N)" / "not running" (exit 0 / 3)
// The node takes its ports and credentials from the lab config, writes state/couchbase-server.pid
// and renames itself `memcached`, the process an acceleration check looks at on a real server.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCouchbaseTestNode } from '../couchbaseTestNode';
import { cachedFaults, isAlive, loadLabConfigFromEnv, readFaults, readPidFile } from '../labFiles';

function versionText(version: string): string {
  const match = /^(\d+\.\d+\.\d+-\d+)-(enterprise|community)$/.exec(version);
  return match ? `Couchbase Server ${match[1]} (${match[2] === 'enterprise' ? 'EE' : 'CE'})` : `Couchbase Server ${version}`;
}

async function stopRunning(pidFile: string): Promise<number> {
  const pid = readPidFile(pidFile);
  if (pid === undefined || !isAlive(pid)) {
    rmSync(pidFile, { force: true });
    return 0;
  }
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 5000 && isAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const config = loadLabConfigFromEnv();
  const pidFile = join(config.stateDir, 'couchbase-server.pid');
  if (argv.includes('--version') || argv.includes('-v')) {
    process.stdout.write(`${versionText(config.couchbase.version)}\n`);
    return 0;
  }
  if (argv.includes('-k')) return stopRunning(pidFile);
  if (argv[0] === 'status' || argv.includes('-s')) {
    const pid = readPidFile(pidFile);
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

  const running = readPidFile(pidFile);
  if (running !== undefined && running !== process.pid && isAlive(running)) {
    process.stderr.write(`couchbase-server: already running (pid ${running})\n`);
    return 1;
  }
  writeFileSync(pidFile, `${process.pid}\n`);
  process.title = 'memcached';
  const accelerated = process.env.ONLOAD_BENCH_LAB_ACCELERATED === '1';
  const log = (line: string): void => {
    const text = `${new Date().toISOString()} [${process.pid}] ${line}\n`;
    process.stdout.write(text);
    try {
      appendFileSync(join(config.stateDir, 'couchbase-server.log'), text);
    } catch {
      // the state folder is gone: the lab is stopping
    }
  };
  log(`starting ${versionText(config.couchbase.version)}${accelerated ? ' under onload' : ''}`);

  const startup = readFaults(config.stateDir);
  if (startup.couchbaseNeverReady) {
    log('fault couchbaseNeverReady: not opening any port');
    // a pending promise alone does not keep Node alive: hold a timer so the process really hangs
    // (like a server stuck in its start-up) until it is killed
    setInterval(() => undefined, 60_000);
    await new Promise(() => undefined);
  }
  if (startup.couchbaseStartDelayMs) await new Promise((resolve) => setTimeout(resolve, startup.couchbaseStartDelayMs));

  const node = await startCouchbaseTestNode({
    addresses: config.couchbase.addresses,
    kvPort: config.couchbase.kvPort,
    restPort: config.couchbase.restPort,
    username: config.couchbase.username,
    password: config.couchbase.password,
    version: config.couchbase.version,
    memoryQuotaMB: config.couchbase.memoryQuotaMB,
    faults: cachedFaults(config.stateDir),
    log,
  });
  const shutdown = (signal: string): void => {
    log(`${signal}: shutting down`);
    void node.stop().finally(() => {
      if (readPidFile(pidFile) === process.pid) rmSync(pidFile, { force: true });
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
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
