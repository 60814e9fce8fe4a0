// What each lab host gets on top of the shared Debian root (scripts/lab-root.sh): the files of one
// run, written into the host's overlay upper folder before it boots (issue 19). Everything else a
// host has is Debian's own: systemd, sshd, sudo, users, util-linux, iproute2, ethtool, Java.
//
// Every host
//   /etc/hostname, /etc/hosts              its name, and the other lab hosts by name
//   /etc/ssh/ssh_host_ed25519_key (+ the "other" key for the changed-key fault), sshd_config.d/
//   /home/bench/.ssh/authorized_keys       the per-run user key (bench's home stays 0700)
//   /etc/onload-bench-lab/host.json        HostConfig for the stand-ins (labFiles.ts)
//   /usr/bin/onload, /usr/bin/onload_stackdump, /usr/libexec/onload/profiles/, libonload.so
//                                          stand-ins: Onload's drivers cannot be loaded here
//   /usr/local/bin/setsid                  util-linux 2.23's (RHEL 7) option parsing: no -w (REAL-LAB H1)
// The server (cb-server)
//   /usr/lib/systemd/system/couchbase-server.service   the unit as the packages install it (C12)
//   /opt/couchbase/bin/couchbase-server    the stand-in Couchbase (C1 checks in sh, then the babysitter)
//   /opt/couchbase/var/lib/couchbase/      owned by couchbase (C1); config/lab-node.json (0600)
//   /etc/sudoers.d/onload-bench            exactly the lines README.md tells users to write
//   /usr/local/sbin/onload-lab-stack, /etc/sudoers.d/onload-bench-lab-stack
//                                          the stand-in Onload stack's root half, for couchbase only
//                                          (standins/onloadStack.ts; used with the lab option onloadNics)
// Clients
//   /opt/ycsb, /opt/ycsb-extras            the real YCSB 0.17.0 (read-only binds, realYcsb.ts)
//   /usr/local/bin/python2                 only with the lab option python2: the machine's real
//                                          Python 2.7 (bound at /opt/python2.7), REAL-LAB Y4
//   whiteouts of /usr/bin/java, /usr/lib/jvm only on hosts `withoutJava`: a host without a JRE
// Node stand-ins run with this machine's node, bound read-only at /usr/lib/onload-bench-lab/bin/node,
// their bundles at /usr/lib/onload-bench-lab/lib and the project's node_modules (the couchbase SDK)
// at /usr/lib/onload-bench-lab/node_modules (labHosts.ts binds them).
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { hostConfigPath, hostFaultsDir, type HostConfig, type NodeConfig } from './labFiles';

/** Where the node binary, bundles and node_modules appear inside every host. */
export const labLibDir = '/usr/lib/onload-bench-lab';
export const hostNode = `${labLibDir}/bin/node`;
/**
 * The server's Onload stack namespace, bound in by the lab when it has Onload NICs (labNetwork.ts createOnloadStack).
 */
export const onloadStackNetnsInHost = '/etc/onload-bench-lab/onload-stack.netns';
/** Root's half of the stand-in Onload stack (standins/onloadStack.ts), run by memcached through sudo. */
export const onloadStackCommand = '/usr/local/sbin/onload-lab-stack';

/** The registry of "Onload stacks" the stand-ins keep (one file per accelerated process, owned by it). */
export const stacksDir = '/run/onload-bench-lab/stacks';
export const couchbaseHome = '/opt/couchbase';
export const couchbaseDataDir = `${couchbaseHome}/var/lib/couchbase`;
export const couchbaseServerPathInHost = `${couchbaseHome}/bin/couchbase-server`;
export const nodeConfigPath = `${couchbaseDataDir}/config/lab-node.json`;
/** The test node's log inside the server host. */
export const nodeLogInHost = `${couchbaseDataDir}/logs/lab-node.log`;
export const sshUser = 'bench';

interface Owner {
  uid: number;
  gid: number;
}

/** The ids of a user of the root (from its /etc/passwd). */
export function userIds(root: string, name: string): Owner {
  const line = readFileSync(join(root, 'etc', 'passwd'), 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`lab root: no user ${name} in ${root}/etc/passwd (rebuild it: bash scripts/lab-root.sh)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Writes into a host's overlay upper folder, making parent folders as the root has them (copy-up). */
export class HostWriter {
  constructor(
    readonly lower: string,
    readonly upper: string,
  ) {}

  private ensureDir(path: string, fallback: { mode: number } & Owner = { mode: 0o755, uid: 0, gid: 0 }): void {
    const parts = path.split('/').filter(Boolean);
    let current = '';
    for (const part of parts) {
      current += `/${part}`;
      const target = join(this.upper, current);
      if (existsSync(target)) continue;
      let mode = fallback.mode;
      let owner: Owner = fallback;
      try {
        const below = lstatSync(join(this.lower, current));
        if (below.isSymbolicLink())
          throw new Error(`lab host files: ${current} is a symlink in the root; write below its target instead`);
        mode = below.mode & 0o7777;
        owner = { uid: below.uid, gid: below.gid };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      mkdirSync(target);
      chmodSync(target, mode);
      chownSync(target, owner.uid, owner.gid);
    }
  }

  dir(path: string, mode = 0o755, owner: Owner = { uid: 0, gid: 0 }): void {
    this.ensureDir(dirname(path));
    const target = join(this.upper, path);
    if (!existsSync(target)) mkdirSync(target);
    chmodSync(target, mode);
    chownSync(target, owner.uid, owner.gid);
  }

  file(path: string, text: string | Buffer, mode = 0o644, owner: Owner = { uid: 0, gid: 0 }): void {
    this.ensureDir(dirname(path));
    const target = join(this.upper, path);
    writeFileSync(target, text);
    chmodSync(target, mode);
    chownSync(target, owner.uid, owner.gid);
  }

  /** Hides a path of the root in this host (an overlay whiteout: a 0/0 character device). */
  whiteout(path: string): void {
    this.ensureDir(dirname(path));
    execFileSync('mknod', [join(this.upper, path), 'c', '0', '0']);
  }

  copyFromRoot(from: string, to: string, mode = 0o644): void {
    this.ensureDir(dirname(to));
    copyFileSync(join(this.lower, from), join(this.upper, to));
    chmodSync(join(this.upper, to), mode);
  }
}

/** POSIX sh single quotes. */
export function sq(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The sudoers lines README.md ("What the server host needs") tells users to write for the SSH user
 * `user`; the lab's server carries exactly these (test/lab-selftest checks the README quotes them).
 * `without` leaves commands out (the sudoDenied fault); `serviceName` is the plan's (README: write
 * that name in the two systemctl entries).
 */
export function sudoersLines(user: string, without: string[] = [], serviceName = 'couchbase-server'): string[] {
  const asRoot = [
    `/usr/bin/systemctl start ${serviceName}`,
    `/usr/bin/systemctl stop ${serviceName}`,
    '/usr/bin/systemctl daemon-reload',
    '/usr/bin/mkdir',
    '/usr/bin/install',
    '/usr/bin/rm',
    '/usr/bin/kill',
    '/usr/bin/sh',
    '/usr/bin/onload_stackdump',
  ].filter((command) => !without.some((name) => command.split(' ')[0].endsWith(`/${name}`)));
  const asCouchbase = ['/opt/couchbase/bin/couchbase-server', '/usr/bin/onload', '/usr/bin/env', '/usr/bin/sh'].filter(
    (command) => !without.some((name) => command.endsWith(`/${name}`)),
  );
  return [
    `${user} ALL=(root) NOPASSWD: ${asRoot.join(', ')}`,
    `${user} ALL=(couchbase) NOPASSWD: ${asCouchbase.join(', ')}`,
  ];
}

/** The unit exactly as REAL-LAB C12 quotes the packages' /lib/systemd/system/couchbase-server.service. */
export function couchbaseUnitText(): string {
  return [
    '[Unit]',
    'Description=Couchbase Server',
    'Documentation=https://docs.couchbase.com',
    'After=network.target remote-fs.target nss-lookup.target',
    '',
    '[Service]',
    'Type=simple',
    'User=couchbase',
    'WorkingDirectory=/opt/couchbase/var/lib/couchbase',
    'LimitNOFILE=70000',
    'LimitMEMLOCK=infinity',
    'ExecStart=/opt/couchbase/bin/couchbase-server -- -noinput',
    'ExecStop=/opt/couchbase/bin/couchbase-server -k',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

function nodeCommand(bundle: string, env: string[] = []): string {
  return `exec env ${[...env, `NODE_PATH=${labLibDir}/node_modules`].join(' ')} ${hostNode} ${labLibDir}/lib/${bundle} "$@"`;
}

/** Root's half of the stand-in Onload stack: the stack side enters the stack's namespace (standins/onloadStack.ts). */
function onloadStackScript(): string {
  return `#!/bin/sh
# Lab stand-in: the listener of an accelerated memcached and its connections (test/lab/standins/onloadStack.ts).
# The stack side installs the NIC "filters" while it listens, as an Onload stack does for its own
# sockets: tc on each Onload NIC (ethN, paired with stkN by labNetwork.ts) redirects TCP to PORT into
# the stack's namespace; they go when it does, and the kernel gets that port's packets again.
[ "$(id -u)" = 0 ] || { echo "onload-lab-stack: only through sudo" >&2; exit 1; }
export NODE_CHANNEL_FD=3
where=$1
for port in "$@"; do :; done
case "$where" in
  kernel) exec ${hostNode} ${labLibDir}/lib/onload-stack.cjs "$@" ;;
  stack|clear) ;;
  *) echo "usage: onload-lab-stack stack|kernel ADDRESS... PORT | clear PORT" >&2; exit 2 ;;
esac
case "$port" in ''|*[!0-9]*) echo "onload-lab-stack: bad port" >&2; exit 2 ;; esac
filters() {
  # (not /sys/class/net: the hosts' sysfs shows this machine's links)
  for stk in $(ip -o link show | sed -n 's/^[0-9]*: \\(stk[0-9]*\\)@.*/\\1/p'); do
    nic=eth\${stk#stk}
    tc filter del dev "$nic" ingress pref 1 2>/dev/null
    [ "$1" = add ] && tc filter add dev "$nic" ingress protocol ip pref 1 u32 match ip protocol 6 0xff match ip dport "$port" 0xffff action mirred egress redirect dev "$stk"
  done
}
# clear: no stack exists (a memcached that is not accelerated starts), so no filter either, even
# when the last stack's half was killed before it could remove its own
if [ "$where" = clear ]; then filters del; exit 0; fi
filters add
trap 'filters del' EXIT
trap 'exit 143' TERM INT HUP
nsenter --net=${onloadStackNetnsInHost} ${hostNode} ${labLibDir}/lib/onload-stack.cjs "$@"
`;
}

/** Stand-in Onload launcher (REAL-LAB O1, O3, O4; Xilinx-CNS/onload scripts/onload). */
function onloadScript(version: string): string {
  return `#!/bin/sh
# Lab stand-in for Onload's launcher (Xilinx-CNS/onload scripts/onload): Onload's drivers cannot be
# loaded on the lab's machine, so nothing is accelerated for real. Like the real one it checks its
# options and each profile (found as scripts/onload:314-330 searches: ~/.openonload/profiles, the
# profile folder, .opf before .opf-fragment, then NAME as a path; never beside the importer; exit 3
# when missing), sources it with onload_set (sets only what is still unset, O4) and onload_import,
# preloads libonload.so (O1: every child maps it) and execs the command. The caller's real rights
# decide what it may read: the unit's user couchbase cannot enter the SSH user's 0700 home.
# Drivers (O3): "loaded" unless the onloadDriversMissing fault is set. An accelerated process is
# registered in ${stacksDir}/<pid> (owned by it) for the stand-in onload_stackdump.
faults=${sq(hostFaultsDir)}
profile_dir=/usr/libexec/onload/profiles
usage() {
  echo "usage: onload [options] <command> [command-args]" >&2
  echo "  -p, --profile=<profile>   apply an Onload profile (a name in $profile_dir or a file)" >&2
  echo "  --version                 print the version" >&2
}
toplevel=1
find_profile() {
  user_dir="$HOME/.openonload/profiles"
  candidate=""
  if [ -f "$user_dir/$1.opf" ]; then candidate="$user_dir/$1.opf"
  elif [ -z "$toplevel" ] && [ -f "$user_dir/$1.opf-fragment" ]; then candidate="$user_dir/$1.opf-fragment"
  elif [ -f "$profile_dir/$1.opf" ]; then candidate="$profile_dir/$1.opf"
  elif [ -z "$toplevel" ] && [ -f "$profile_dir/$1.opf-fragment" ]; then candidate="$profile_dir/$1.opf-fragment"
  elif [ -f "$1" ]; then candidate="$1"
  fi
  toplevel=""
  if [ -z "$candidate" ]; then
    echo "onload: ERROR: Cannot find profile '$1'" >&2
    echo "onload: looked for $user_dir/$1.opf, $profile_dir/$1.opf and the file '$1'" >&2
    exit 3
  fi
  if ! sh -n "$candidate" 2>/dev/null; then
    if [ -r "$candidate" ]; then
      echo "onload: ERROR: profile '$1' is not valid shell:" >&2
      sh -n "$candidate" >&2
      exit 1
    fi
  fi
  found="$candidate"
}
onload_set() { printenv "$1" >/dev/null || export "$1=$2"; }
onload_import() { find_profile "$1"; shift; . "$found"; }
profiles=""
nl='
'
while [ $# -gt 0 ]; do
  case "$1" in
    --version) echo "Onload ${version}"; echo "Built: lab stand-in (drivers cannot be loaded here; nothing is accelerated)"; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    -p|--profile) [ $# -ge 2 ] || { echo "onload: option '$1' needs a profile" >&2; usage; exit 1; }; profiles="$profiles$nl$2"; shift 2 ;;
    -p=*|--profile=*) profiles="$profiles$nl\${1#*=}"; shift ;;
    --force-profiles|-v|--verbose|--no-app-handler) shift ;;
    --) shift; break ;;
    -*) echo "onload: unknown option '$1'" >&2; usage; exit 1 ;;
    *) break ;;
  esac
done
if [ $# -eq 0 ]; then echo "onload: missing command" >&2; usage; exit 1; fi
if [ -e "$faults/onloadDriversMissing" ]; then
  echo "onload: The onload drivers are not loaded." >&2
  exit 1
fi
used=""
old_ifs="$IFS"; IFS="$nl"
for name in $profiles; do
  IFS="$old_ifs"
  [ -n "$name" ] || continue
  find_profile "$name"
  . "$found"
  used="$used $found"
done
IFS="$old_ifs"
export LD_PRELOAD="libonload.so\${LD_PRELOAD:+:$LD_PRELOAD}"
if [ ! -e "$faults/onloadNoStack" ] && [ ! -e "$faults/onloadNotAccelerating" ]; then
  export ONLOAD_BENCH_LAB_ACCELERATED=1 ONLOAD_BENCH_LAB_PROFILE="\${used# }"
  printf '%s\\n' "\${EF_NAME:-}" > ${stacksDir}/$$ 2>/dev/null || true
fi
[ -e "$faults/onloadNotAccelerating" ] && unset LD_PRELOAD
exec "$@"
`;
}

/** util-linux 2.23's setsid (RHEL/CentOS 7): options -c and -V/-h only; -w came with 2.24 (REAL-LAB H1). */
function setsidScript(): string {
  return `#!/bin/sh
# Lab stand-in for util-linux 2.23's setsid (RHEL/CentOS 7, REAL-LAB H1): no -w/--wait (added in
# 2.24). First on PATH (/usr/local/bin); the host's own util-linux 2.38 setsid does the work.
for arg in "$@"; do
  case "$arg" in
    -w|--wait|-[a-z]*w*) echo "setsid: invalid option -- 'w'" >&2; echo "Usage: setsid [options] <program> [arguments ...]" >&2; exit 1 ;;
    -*) ;;
    *) break ;;
  esac
done
exec /usr/bin/setsid "$@"
`;
}

/** The stand-in Couchbase's shell part: ns_server couchbase-server.sh.in's checks (REAL-LAB C1). */
function couchbaseServerScript(): string {
  return `#!/bin/sh
# Lab stand-in for Couchbase Server's /opt/couchbase/bin/couchbase-server (ns_server
# couchbase-server.sh.in, REAL-LAB C1): refuses to start unless the calling user may write the data
# folder, warns when nofile < 200000 or nproc < 10000, sets umask 007, then runs the babysitter
# (test/lab/standins/couchbaseServer.ts), whose children each get their own process group (C2).
datadir=${couchbaseDataDir}
case "$1" in
  -k|-v|--version|-version|status) ${nodeCommand('couchbase-server.cjs')} ;;
esac
if [ ! -w "$datadir" ]; then
  echo "Insufficient privileges to start couchbase-server: $datadir is not writable by $(id -un)." >&2
  exit 1
fi
n=$(ulimit -n)
if [ "$n" != unlimited ] && [ "$n" -lt 200000 ]; then
  echo "The maximum number of open files for the $(id -un) user is set too low ($n)." >&2
  echo "It must be at least 200000." >&2
fi
# (dash has no "ulimit -u": the soft limit from /proc)
p=$(awk '/^Max processes/ { print $3 }' /proc/self/limits)
if [ -n "$p" ] && [ "$p" != unlimited ] && [ "$p" -lt 10000 ]; then
  echo "The maximum number of processes for the $(id -un) user is set too low ($p)." >&2
  echo "It must be at least 10000." >&2
fi
umask 007
${nodeCommand('couchbase-server.cjs')}
`;
}

/** Inside client hosts: where the machine's real Python 2.7 is bound (lab option python2). */
export const hostPythonPrefix = '/opt/python2.7';

/** `python2` on a client: the real interpreter, bound from this machine (its libpython beside it). */
function python2Script(): string {
  return [
    '#!/bin/sh',
    "# The real Python 2.7 of the lab's machine, bound read-only at /opt/python2.7 (REAL-LAB Y4): its",
    '# libpython is found there, not at the path it was built for (not visible in this host).',
    `exec env LD_LIBRARY_PATH=${hostPythonPrefix}/lib ${hostPythonPrefix}/bin/python2.7 "$@"`,
    '',
  ].join('\n');
}

export interface HostFilesOptions {
  alias: string;
  role: 'server' | 'client';
  versions: HostConfig['versions'];
  hostKey: { privateKey: string; publicKey: string };
  otherHostKey: { privateKey: string; publicKey: string };
  userPublicKey: string;
  /** The server's test node settings. */
  node?: NodeConfig;
  python2?: boolean;
  /** A client without Java: the overlay hides /usr/bin/java and /usr/lib/jvm. */
  withoutJava?: boolean;
  sshdLogLevel?: string;
  /** `/etc/hosts` entries for the lab's hosts (alias → address), as a real lab's name service has them. */
  labHosts: Record<string, string>;
}

/** The sshd snippet naming the host key in use (rewritten by the changed-key fault). */
export function sshdHostKeyConfig(which: 'main' | 'other', logLevel = 'ERROR'): string {
  return [
    '# Lab host (test/lab/hostFiles.ts): host key made per run, pinned in the lab known_hosts.',
    `HostKey /etc/ssh/${which === 'main' ? 'ssh_host_ed25519_key' : 'lab_other_host_ed25519_key'}`,
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin no',
    'MaxStartups 64',
    'MaxSessions 64',
    `LogLevel ${logLevel}`,
    '',
  ].join('\n');
}

export const sshdSnippetPath = '/etc/ssh/sshd_config.d/00-onload-bench-lab.conf';
export const sudoersPath = '/etc/sudoers.d/onload-bench';
export const requireTtyPath = '/etc/sudoers.d/zz-onload-bench-lab-requiretty';

/** Writes a host's per-run files into its upper folder (before boot). */
export function writeHostFiles(writer: HostWriter, options: HostFilesOptions): void {
  const root = { uid: 0, gid: 0 };
  const bench = userIds(writer.lower, sshUser);
  // its own name (sudo resolves it), and the other lab hosts by name
  writer.file('/etc/hostname', `${options.alias}\n`);
  writer.file(
    '/etc/hosts',
    [
      '127.0.0.1\tlocalhost',
      `127.0.1.1\t${options.alias}`,
      '::1\tlocalhost ip6-localhost ip6-loopback',
      ...Object.entries(options.labHosts)
        .filter(([alias]) => alias !== options.alias)
        .map(([alias, address]) => `${address}\t${alias}`),
      '',
    ].join('\n'),
  );
  writer.file('/etc/ssh/ssh_host_ed25519_key', options.hostKey.privateKey, 0o600);
  writer.file('/etc/ssh/ssh_host_ed25519_key.pub', options.hostKey.publicKey, 0o644);
  writer.file('/etc/ssh/lab_other_host_ed25519_key', options.otherHostKey.privateKey, 0o600);
  writer.file('/etc/ssh/lab_other_host_ed25519_key.pub', options.otherHostKey.publicKey, 0o644);
  writer.file(sshdSnippetPath, sshdHostKeyConfig('main', options.sshdLogLevel), 0o644);
  writer.dir('/home/bench/.ssh', 0o700, bench);
  writer.file('/home/bench/.ssh/authorized_keys', options.userPublicKey, 0o600, bench);
  const config: HostConfig = {
    alias: options.alias,
    role: options.role,
    faultsDir: hostFaultsDir,
    versions: options.versions,
  };
  writer.file(hostConfigPath, `${JSON.stringify(config, null, 2)}\n`, 0o644, root);
  writer.file(
    '/etc/tmpfiles.d/onload-bench-lab.conf',
    `# Lab stand-in Onload's stack registry (test/lab/hostFiles.ts)\nd /run/onload-bench-lab 0755 root root -\nd ${stacksDir} 1777 root root -\n`,
  );
  writer.file('/usr/local/bin/setsid', setsidScript(), 0o755);
  // Onload (stand-ins): installed on servers and clients alike, as the cookbook's hosts have it
  writer.file('/usr/bin/onload', onloadScript(options.versions.onload), 0o755);
  writer.file(
    '/usr/bin/onload_stackdump',
    `#!/bin/sh\n# Lab stand-in for onload_stackdump (test/lab/standins/onloadStackdump.ts).\n${nodeCommand('onload-stackdump.cjs', [`ONLOAD_BENCH_LAB_ONLOAD_VERSION=${options.versions.onload}`])}\n`,
    0o755,
  );
  writer.file(
    '/usr/libexec/onload/profiles/latency.opf',
    '# Lab profile: spin for low latency.\nonload_set EF_POLL_USEC 100000\nonload_set EF_TCP_FASTSTART_INIT 0\n',
  );
  writer.file(
    '/usr/libexec/onload/profiles/throughput.opf',
    '# Lab profile: batch for throughput.\nonload_set EF_HIGH_THROUGHPUT_MODE 1\n',
  );
  // A "libonload.so" that does nothing: glibc's empty libdl stub (glibc >= 2.34) under that name,
  // where ld.so finds LD_PRELOAD=libonload.so, so /proc/PID/maps shows it
  writer.copyFromRoot('/usr/lib/x86_64-linux-gnu/libdl.so.2', '/usr/lib/x86_64-linux-gnu/libonload.so');

  if (options.role === 'server') {
    if (!options.node) throw new Error('lab host files: the server needs the node settings');
    const couchbase = userIds(writer.lower, 'couchbase');
    writer.file('/usr/lib/systemd/system/couchbase-server.service', couchbaseUnitText());
    writer.file(`${couchbaseHome}/bin/couchbase-server`, couchbaseServerScript(), 0o755);
    writer.dir(`${couchbaseHome}/var`, 0o755, couchbase);
    writer.dir(`${couchbaseHome}/var/lib`, 0o755, couchbase);
    writer.dir(couchbaseDataDir, 0o770, couchbase);
    writer.dir(`${couchbaseDataDir}/config`, 0o770, couchbase);
    writer.dir(`${couchbaseDataDir}/logs`, 0o770, couchbase);
    writer.file(nodeConfigPath, `${JSON.stringify(options.node, null, 2)}\n`, 0o600, couchbase);
    // the stand-in Onload stack's root half (not the engine's: its own file, for couchbase only);
    // -C 4 keeps memcached's IPC channel (fd 3) open through sudo
    writer.file(onloadStackCommand, onloadStackScript(), 0o755);
    writer.file(
      '/etc/sudoers.d/onload-bench-lab-stack',
      `# Lab stand-in Onload stack (test/lab/standins/onloadStack.ts), started by memcached.\nDefaults!${onloadStackCommand} closefrom_override, !requiretty\ncouchbase ALL=(root) NOPASSWD: ${onloadStackCommand}\n`,
      0o440,
    );
    writer.file(
      sudoersPath,
      `# What README.md ("What the server host needs") tells users to write.\n${sudoersLines(sshUser).join('\n')}\n`,
      0o440,
    );
  } else {
    if (options.python2) writer.file('/usr/local/bin/python2', python2Script(), 0o755);
    if (options.withoutJava) for (const path of ['/usr/bin/java', '/usr/lib/jvm']) writer.whiteout(path);
  }
}
