// Real OpenSSH sshd on loopback, one daemon per lab host (each on its own 127.0.0.x address and
// free port, with its own host key, PATH and HOME), plus the client side: a per-run user key, a
// known_hosts file and an ssh_config defining the host aliases with strict host-key checking.
// Fault hooks: kill a daemon (and its live sessions) and start it again, or restart it with a
// different host key so the client sees "REMOTE HOST IDENTIFICATION HAS CHANGED".
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { killQuietly, processTree } from './processes';

export const sshdBinary = '/usr/sbin/sshd';

export interface SshHostSpec {
  /** The ssh_config alias, e.g. `cb-server`. */
  alias: string;
  /** Loopback address the daemon listens on, e.g. `127.0.0.2`. */
  address: string;
  /** Environment of every session (PATH, HOME, lab markers). Values must not contain spaces or quotes. */
  env: Record<string, string>;
  /** Sessions start in this folder (through a .bashrc in env.HOME; sshd itself uses the real home). */
  workDir?: string;
}

export interface SshHost extends SshHostSpec {
  port: number;
  /** The key the daemon presents now (`main` is the one in known_hosts). */
  hostKey: 'main' | 'other';
}

export interface SshLab {
  sshConfigPath: string;
  knownHostsPath: string;
  identityPath: string;
  /** An alias whose host key is not in known_hosts (points at the first host). */
  unknownHostAlias: string;
  hosts: SshHost[];
  /** SIGKILLs the daemon of `alias`; with `sessions` (default) also its live connections. */
  kill(alias: string, options?: { sessions?: boolean }): void;
  /** Starts the daemon of `alias` again (same port), with the main or the other host key. */
  start(alias: string, hostKey?: 'main' | 'other'): Promise<void>;
  running(alias: string): boolean;
  /** Pids of the daemons and their session processes (for cleanup checks). */
  pids(): number[];
  stop(): Promise<void>;
}

function keygen(path: string, comment: string): void {
  if (!existsSync(path)) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path], { stdio: 'ignore' });
}

/** A port that was free a moment ago on `address` (sshd cannot report the port it picked). */
export async function freePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: address, port: 0, exclusive: true }, () => {
      const bound = server.address();
      const port = typeof bound === 'object' && bound ? bound.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function readPidFileQuietly(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return undefined;
  }
}

function canConnect(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

export async function startSshLab(dir: string, specs: SshHostSpec[], options: { logLevel?: string } = {}): Promise<SshLab> {
  if (!existsSync(sshdBinary)) {
    throw new Error(`${sshdBinary} is missing: install OpenSSH's server (apt-get install -y openssh-server, or scripts/setup-system.sh)`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // sshd refuses to start without its privilege-separation folder (normally made by the service unit).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const identityPath = join(dir, 'id_ed25519');
  keygen(identityPath, 'onload-bench-lab-user');
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${identityPath}.pub`), { mode: 0o600 });

  const hosts: SshHost[] = [];
  const daemons = new Map<string, ChildProcess>();
  for (const spec of specs) {
    keygen(join(dir, `host-${spec.alias}`), `lab-host-${spec.alias}`);
    keygen(join(dir, `host-${spec.alias}-other`), `lab-host-${spec.alias}-other`);
    hosts.push({ ...spec, port: await freePort(spec.address), hostKey: 'main' });
  }

  const knownHostsPath = join(dir, 'known_hosts');
  const unknownHostAlias = 'lab-unknown-host';
  const sshConfigPath = join(dir, 'ssh_config');

  /** known_hosts and ssh_config, written once the daemons have their final ports. */
  function writeClientFiles(): void {
    writeFileSync(
      knownHostsPath,
      hosts
        .map((host) => {
          const publicKey = readFileSync(join(dir, `host-${host.alias}.pub`), 'utf8').trim().split(' ').slice(0, 2).join(' ');
          return `[${host.address}]:${host.port} ${publicKey}\n`;
        })
        .join(''),
    );
    const first = hosts[0];
    const lines = [
      '# Loopback lab: written per test run.',
      ...hosts.flatMap((host) => [`Host ${host.alias}`, `  HostName ${host.address}`, `  Port ${host.port}`, '']),
      `Host ${unknownHostAlias}`,
      `  HostName ${first.address}`,
      `  Port ${first.port}`,
      `  HostKeyAlias ${unknownHostAlias}`,
      '',
      'Host *',
      '  User root',
      `  IdentityFile ${identityPath}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${knownHostsPath}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '  UpdateHostKeys no',
      '  BatchMode yes',
      '  ConnectTimeout 5',
      '  LogLevel ERROR',
      '',
    ];
    writeFileSync(sshConfigPath, lines.join('\n'));
  }

  function configFor(host: SshHost): string {
    const file = join(dir, `sshd-${host.alias}.conf`);
    const env = Object.entries(host.env).map(([name, value]) => `${name}=${value}`);
    if (host.workDir) {
      // sshd starts sessions in the user's real home. For a command over a socket, bash reads
      // ~/.bashrc (with HOME from SetEnv) in the top-level shell only: move to the host's folder there.
      const home = host.env.HOME ?? host.workDir;
      mkdirSync(home, { recursive: true });
      // soft limits as a login session has them (PAM limits.conf defaults), below a service's (REAL-LAB H3)
      writeFileSync(join(home, '.bashrc'), `# loopback lab: sessions start in this host's own folder\ncd '${host.workDir}' || exit 1\nulimit -S -n 1024 2>/dev/null\nulimit -S -l 64 2>/dev/null\n`);
    }
    writeFileSync(
      file,
      [
        `ListenAddress ${host.address}:${host.port}`,
        `HostKey ${join(dir, host.hostKey === 'main' ? `host-${host.alias}` : `host-${host.alias}-other`)}`,
        `PidFile ${join(dir, `sshd-${host.alias}.pid`)}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PermitRootLogin prohibit-password',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        // The lab folder lives under /tmp (world-writable), which StrictModes would reject.
        'StrictModes no',
        'PrintMotd no',
        'PrintLastLog no',
        'MaxStartups 64',
        'MaxSessions 64',
        `LogLevel ${options.logLevel ?? 'ERROR'}`,
        'Subsystem sftp internal-sftp',
        `SetEnv ${env.join(' ')}`,
        '',
      ].join('\n'),
    );
    return file;
  }

  async function start(alias: string, hostKey: 'main' | 'other' = 'main'): Promise<void> {
    const host = hosts.find((candidate) => candidate.alias === alias);
    if (!host) throw new Error(`no lab host ${alias}`);
    if (daemons.has(alias)) throw new Error(`sshd for ${alias} is already running`);
    host.hostKey = hostKey;
    const logFile = join(dir, `sshd-${alias}.log`);
    const pidFile = join(dir, `sshd-${alias}.pid`);
    rmSync(pidFile, { force: true });
    const child = spawn(sshdBinary, ['-D', '-f', configFor(host), '-E', logFile], {
      stdio: 'ignore',
      detached: true,
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    });
    daemons.set(alias, child);
    let exited = false;
    child.once('exit', () => {
      exited = true;
      if (daemons.get(alias) === child) daemons.delete(alias);
    });
    // Ready when sshd has written its pid file (after binding) and accepts connections; a port taken
    // by someone else in the meantime makes it exit instead.
    const ready = async (): Promise<boolean> =>
      !exited && readPidFileQuietly(pidFile) === child.pid && (await canConnect(host.address, host.port)) && !exited;
    const deadline = Date.now() + 10_000;
    while (!(await ready())) {
      if (exited || Date.now() > deadline) {
        killQuietly(child.pid ?? -1);
        const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim() : '';
        throw new Error(`sshd for ${alias} did not start on ${host.address}:${host.port}: ${log || 'no log'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function kill(alias: string, killOptions: { sessions?: boolean } = {}): void {
    const child = daemons.get(alias);
    if (!child?.pid) return;
    const tree = processTree(child.pid);
    killQuietly(child.pid);
    if (killOptions.sessions !== false) {
      // Only the per-connection sshd processes: what they run is the engine's to clean up, as after
      // a real network drop.
      for (const info of tree) if (info.pid !== child.pid && info.command.startsWith('sshd')) killQuietly(info.pid);
    }
    daemons.delete(alias);
  }

  function pids(): number[] {
    const out: number[] = [];
    for (const child of daemons.values()) if (child.pid) out.push(...processTree(child.pid).map((info) => info.pid));
    return out;
  }

  async function stop(): Promise<void> {
    const waits = [...daemons.values()].map(
      (child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()))),
    );
    for (const alias of [...daemons.keys()]) kill(alias);
    await Promise.race([Promise.all(waits), new Promise((resolve) => setTimeout(resolve, 3000))]);
  }

  try {
    for (const host of hosts) {
      for (let attempt = 1; ; attempt++) {
        try {
          await start(host.alias);
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
          host.port = await freePort(host.address); // lost a race for the port: try another one
        }
      }
    }
    writeClientFiles();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sshConfigPath,
    knownHostsPath,
    identityPath,
    unknownHostAlias,
    hosts,
    kill,
    start,
    running: (alias) => daemons.has(alias),
    pids,
    stop,
  };
}
