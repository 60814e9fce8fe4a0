// The SSH side of the lab that lives on this machine: keys made per run and the client's files.
// The daemons are the hosts' own sshd (started by their systemd); this file makes each host's two
// ed25519 host keys (the one pinned in known_hosts and an "other" one for the changed-key fault),
// the user key whose public half goes into the SSH user's authorized_keys on every host, the
// known_hosts file that pins each host's key to its address, and an ssh_config defining the host
// aliases with strict host-key checking (never turned off).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SshHostEntry {
  alias: string;
  address: string;
}

export interface SshFiles {
  dir: string;
  sshConfigPath: string;
  knownHostsPath: string;
  identityPath: string;
  /** An alias whose host key is not in known_hosts (it points at the first host). */
  unknownHostAlias: string;
  /** Private and public host keys of `alias` (`main` is pinned, `other` is not). */
  hostKey(alias: string, which: 'main' | 'other'): { privateKey: string; publicKey: string };
  userPublicKey: string;
}

function keygen(path: string, comment: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path], { stdio: 'ignore' });
}

/** Makes every key and writes known_hosts and ssh_config into `dir` for `user` on port 22. */
export function makeSshFiles(dir: string, hosts: SshHostEntry[], user: string): SshFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const identityPath = join(dir, 'id_ed25519');
  keygen(identityPath, 'onload-bench-lab-user');
  for (const host of hosts) {
    keygen(join(dir, `host-${host.alias}`), `${host.alias}-lab-host`);
    keygen(join(dir, `host-${host.alias}-other`), `${host.alias}-lab-host-other`);
  }
  const publicOf = (path: string): string =>
    readFileSync(`${path}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const knownHostsPath = join(dir, 'known_hosts');
  writeFileSync(
    knownHostsPath,
    hosts.map((host) => `${host.address} ${publicOf(join(dir, `host-${host.alias}`))}\n`).join(''),
  );
  const unknownHostAlias = 'unknown-host';
  const sshConfigPath = join(dir, 'ssh_config');
  writeFileSync(
    sshConfigPath,
    [
      '# Lab hosts (test/lab): written per test run.',
      ...hosts.flatMap((host) => [`Host ${host.alias}`, `  HostName ${host.address}`, '']),
      `Host ${unknownHostAlias}`,
      `  HostName ${hosts[0].address}`,
      `  HostKeyAlias ${unknownHostAlias}`,
      '',
      'Host *',
      `  User ${user}`,
      '  Port 22',
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
    ].join('\n'),
  );
  return {
    dir,
    sshConfigPath,
    knownHostsPath,
    identityPath,
    unknownHostAlias,
    hostKey: (alias, which) => {
      const path = join(dir, which === 'main' ? `host-${alias}` : `host-${alias}-other`);
      return { privateKey: readFileSync(path, 'utf8'), publicKey: readFileSync(`${path}.pub`, 'utf8') };
    },
    userPublicKey: readFileSync(`${identityPath}.pub`, 'utf8'),
  };
}
