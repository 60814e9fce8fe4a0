// Builds a lab run's "host root": the folder whose bin/ directories come first on PATH in the lab's
// ssh sessions (never on the product's PATH). Node stand-ins are bundled with esbuild (fast start,
// `couchbase` stays external and is found through NODE_PATH); the small ones are POSIX sh.
//
//   ROOT/bin/            onload, onload_stackdump, sudo, systemctl, setsid (2.23: no -w), ip, (ethtool if missing)
//   ROOT/usr/lib/systemd/system/couchbase-server.service, ROOT/etc/systemd/system/couchbase-server.service.d/
//   ROOT/opt/couchbase/var/lib/couchbase (owned by the user-equivalent `couchbase`), ROOT/sys/module/onload
//   ROOT/opt/couchbase/bin/couchbase-server
//   ROOT/opt/ycsb -> the real YCSB 0.17.0 (realYcsb.ts: the release assembled in the tools cache)
//   ROOT/bin/python2 -> a real Python 2.7, only with the lab option python2 (REAL-LAB Y4)
//   ROOT/usr/libexec/onload/profiles/{latency,throughput}.opf   (for `--profile=NAME`)
//   ROOT/lib/*.cjs       the bundles; ROOT/lib/libonload.so, a do-nothing library onload preloads
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { python27, ycsbReleaseHome } from './realYcsb';

const repoRoot = resolve(__dirname, '..', '..');

export interface HostRootOptions {
  root: string;
  labDir: string;
  labId: string;
  stateDir: string;
  /** Addresses `ip -o addr` adds to lo (the lab's interfaces other than 127.0.0.1). */
  extraAddresses: string[];
  onloadVersion: string;
  /** Put a real Python 2.7 on the PATH as `python2` (REAL-LAB Y4: bin/ycsb needs one; the default lab, like current distributions, has none). */
  python2?: boolean;
}

/** POSIX sh single quotes. */
export function sq(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function writeExecutable(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

function nodeWrapper(options: HostRootOptions, bundle: string, extra: string[] = [], firstArgs: string[] = []): string {
  return [
    '#!/bin/sh',
    '# Loopback-lab stand-in (see test/lab/index.ts).',
    ...extra,
    `export ONLOAD_BENCH_LAB=${sq(options.labDir)} ONLOAD_BENCH_LAB_ID=${sq(options.labId)} NODE_PATH=${sq(join(repoRoot, 'node_modules'))}`,
    `exec ${sq(process.execPath)} ${sq(join(options.root, 'lib', bundle))} ${firstArgs.map(sq).join(' ')} "$@"`,
    '',
  ].join('\n');
}

function onloadScript(options: HostRootOptions): string {
  return `#!/bin/sh
# Loopback-lab stand-in for Onload's launcher: checks its options and every profile (exists, parses
# as sh, then sourced with onload_set/onload_import like the real one), marks the command as
# accelerated (ONLOAD_BENCH_LAB_ACCELERATED=1, seen by onload_stackdump) and execs it.
export ONLOAD_BENCH_LAB=${sq(options.labDir)} ONLOAD_BENCH_LAB_ID=${sq(options.labId)}
state=${sq(options.stateDir)}
profile_dir=${sq(join(options.root, 'usr', 'libexec', 'onload', 'profiles'))}
libonload=${sq(join(options.root, 'lib', 'libonload.so'))}
usage() {
  echo "usage: onload [options] <command> [command-args]" >&2
  echo "  -p, --profile=<profile>   apply an Onload profile (a name in $profile_dir or a file)" >&2
  echo "  --version                 print the version" >&2
}
# The real launcher's search (scripts/onload:314-330): ~/.openonload/profiles, then the profile
# folder, .opf before .opf-fragment (fragments not for the very first lookup), then NAME as a literal
# path relative to the working folder. Never the importing profile's own folder. Missing: exit 3.
# Run by the service, the launcher is the unit's User (couchbase, REAL-LAB C1), who owns nothing the
# SSH user uploaded: its "[ -f ]" fails below a folder it may not enter, and "." fails on a file it
# may not read. The lab runs as one Unix user, so "others" permissions stand in for that user's.
other_may() { # other_may r|x PATH
  m=$(stat -c %a "$2" 2>/dev/null) || return 1
  o=$(( \${m#"\${m%?}"} ))
  case "$1" in r) [ $((o & 4)) -ne 0 ] ;; x) [ $((o & 1)) -ne 0 ] ;; esac
}
as_service() { [ "$ONLOAD_BENCH_LAB_USER" = couchbase ]; }
reachable() {
  as_service || return 0
  case "$1" in /*) d=$(dirname "$1") ;; *) d=$(dirname "$PWD/$1") ;; esac
  # up to the lab's folder, which stands for the host's /
  while [ "$d" != / ] && [ "$d" != "$ONLOAD_BENCH_LAB" ]; do
    other_may x "$d" || return 1
    d=$(dirname "$d")
  done
}
is_file() { [ -f "$1" ] && reachable "$1"; }
toplevel=1
find_profile() {
  user_dir="$HOME/.openonload/profiles"
  candidate=""
  if is_file "$user_dir/$1.opf"; then candidate="$user_dir/$1.opf"
  elif [ -z "$toplevel" ] && is_file "$user_dir/$1.opf-fragment"; then candidate="$user_dir/$1.opf-fragment"
  elif is_file "$profile_dir/$1.opf"; then candidate="$profile_dir/$1.opf"
  elif [ -z "$toplevel" ] && is_file "$profile_dir/$1.opf-fragment"; then candidate="$profile_dir/$1.opf-fragment"
  elif is_file "$1"; then candidate="$1"
  fi
  toplevel=""
  if [ -z "$candidate" ]; then
    echo "onload: ERROR: Cannot find profile '$1'" >&2
    echo "onload: looked for $user_dir/$1.opf, $profile_dir/$1.opf and the file '$1'" >&2
    exit 3
  fi
  if as_service && ! other_may r "$candidate"; then
    echo "$0: 1: .: cannot open $candidate: Permission denied" >&2
    exit 2
  fi
  if ! sh -n "$candidate" 2>/dev/null; then
    echo "onload: ERROR: profile '$1' is not valid shell:" >&2
    sh -n "$candidate" >&2
    exit 1
  fi
  found="$candidate"
}
# onload_set sets only what is still unset (REAL-LAB O4): the caller's environment wins
onload_set() { printenv "$1" >/dev/null || export "$1=$2"; }
onload_import() { find_profile "$1"; shift; . "$found"; }
profiles=""
nl='
'
while [ $# -gt 0 ]; do
  case "$1" in
    --version) echo "Onload ${options.onloadVersion}"; echo "Built: loopback lab stand-in (not accelerating anything)"; exit 0 ;;
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
# without the kernel modules the launcher starts nothing (REAL-LAB O3)
if [ ! -d ${sq(join(options.root, 'sys', 'module', 'onload'))} ] || [ -e "$state/faults/onloadDriversMissing" ]; then
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
if [ -e "$state/faults/onloadNoStack" ]; then
  # libonload is preloaded (every child maps it) but no stack is created: all sockets stay the kernel's (O2)
  if [ -f "$libonload" ]; then export LD_PRELOAD="$libonload\${LD_PRELOAD:+:$LD_PRELOAD}"; fi
elif [ ! -e "$state/faults/onloadNotAccelerating" ]; then
  export ONLOAD_BENCH_LAB_ACCELERATED=1 ONLOAD_BENCH_LAB_PROFILE="\${used# }"
  # like the real launcher, preload libonload.so (here a do-nothing library, so /proc/PID/maps shows it)
  if [ -f "$libonload" ]; then export LD_PRELOAD="$libonload\${LD_PRELOAD:+:$LD_PRELOAD}"; fi
  mkdir -p "$state/onload" && echo "$$ $*" > "$state/onload/$$"
fi
exec "$@"
`;
}

function sudoScript(options: HostRootOptions): string {
  return `#!/bin/sh
# Loopback-lab stand-in for sudo: lab sessions already run as root, so the command runs as is, as the
# user-equivalent root (or -u USER): ONLOAD_BENCH_LAB_USER, which the lab's stand-ins read as "who
# calls". With the sudoRequiresTty fault it refuses, as sudo does with "Defaults requiretty" when no
# terminal is allocated (REAL-LAB H2).
state=${sq(options.stateDir)}
user=root
while [ $# -gt 0 ]; do
  case "$1" in
    -n|-E|-H|-S|--non-interactive|--preserve-env) shift ;;
    -u) user="$2"; shift 2 ;;
    -u*) user="\${1#-u}"; shift ;;
    --) shift; break ;;
    -*) echo "sudo: option $1 is not supported in the loopback lab" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ -e "$state/faults/sudoRequiresTty" ] && [ ! -t 0 ]; then
  echo "sudo: sorry, you must have a tty to run sudo" >&2
  exit 1
fi
[ $# -gt 0 ] || { echo "usage: sudo [-n] [-u user] command" >&2; exit 1; }
if [ -e "$state/faults/sudoDenied" ] && grep -q "\"$(basename "$1")\"" "$state/faults/sudoDenied"; then
  echo "Sorry, user \${ONLOAD_BENCH_LAB_USER:-bench} is not allowed to execute '$(command -v "$1" || echo "$1") $(echo "$@" | cut -d' ' -f2-)' as $user on $(hostname)." >&2
  exit 1
fi
ONLOAD_BENCH_LAB_USER="$user"; export ONLOAD_BENCH_LAB_USER
exec "$@"
`;
}

function setsidScript(): string {
  return `#!/bin/sh
# Loopback-lab stand-in for util-linux 2.23's setsid (RHEL/CentOS 7, REAL-LAB H1): no -w/--wait.
for arg in "$@"; do
  case "$arg" in
    -w|--wait|-[a-z]*w*) echo "setsid: invalid option -- 'w'" >&2; echo "Usage: setsid [options] <program> [arguments ...]" >&2; exit 1 ;;
    -*) ;;
    *) break ;;
  esac
done
real=/usr/bin/setsid; [ -x "$real" ] || real=/bin/setsid
exec "$real" "$@"
`;
}

/** The unit the stand-in systemctl knows, laid out like the package's (REAL-LAB C1). */
function unitText(options: HostRootOptions): string {
  const home = join(options.root, 'opt', 'couchbase');
  return [
    '[Unit]',
    'Description=Couchbase Server (loopback lab)',
    '',
    '[Service]',
    'User=couchbase',
    'Group=couchbase',
    `WorkingDirectory=${home}/var/lib/couchbase`,
    'LimitNOFILE=200000',
    'LimitMEMLOCK=infinity',
    `ExecStart=${home}/bin/couchbase-server -- -kernel global_enable_tracing false -noinput`,
    `ExecStop=${home}/bin/couchbase-server -k`,
    '',
  ].join('\n');
}

function systemctlScript(options: HostRootOptions): string {
  const unit = join(options.root, 'usr', 'lib', 'systemd', 'system', 'couchbase-server.service');
  const dropIns = join(options.root, 'etc', 'systemd', 'system', 'couchbase-server.service.d');
  return `#!/bin/sh
# Loopback-lab stand-in for systemctl, knowing one unit: couchbase-server.service (ROOT/usr/lib/systemd/
# system), with drop-ins in ROOT/etc/systemd/system/couchbase-server.service.d/*.conf that count only
# after "daemon-reload" (before, start warns and uses the loaded configuration, as systemd does).
# "start" runs the effective ExecStart in a clean environment, in its own session, as the unit's
# user-equivalent (ONLOAD_BENCH_LAB_USER=couchbase) with its limits raised as far as this machine
# allows (LimitNOFILE/LimitMEMLOCK; the lab's SSH sessions have lower soft limits); "stop" stops the
# main process and then, like systemd's control group, every process the service started.
# "show -p ExecStart" prints systemd's record format (REAL-LAB C1, H3).
state=${sq(options.stateDir)}
unit_file=${sq(unit)}
dropins=${sq(dropIns)}
lab_id=${sq(options.labId)}
service_pid="$state/couchbase-service.pid"
loaded="$state/systemd-execstart"
loaded_list="$state/systemd-dropins"
verb=""; unit=""; prop=""
while [ $# -gt 0 ]; do
  case "$1" in
    -p|--property) prop="$2"; shift 2; continue ;;
    -n|--lines|-o|--output) shift 2; continue ;;
    -p*) prop="\${1#-p}" ;;
    --property=*) prop="\${1#--property=}" ;;
    -*) ;;
    *) if [ -z "$verb" ]; then verb="$1"; elif [ -z "$unit" ]; then unit="$1"; fi ;;
  esac
  shift
done
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }
running() { [ -s "$service_pid" ] && alive "$(cat "$service_pid")"; }
effective() {
  # the unit's ExecStart, then the drop-ins in name order; an empty ExecStart= resets the list
  line=$(sed -n 's/^ExecStart=//p' "$unit_file" | tail -n 1)
  for f in "$dropins"/*.conf; do
    [ -f "$f" ] || continue
    while IFS= read -r l; do
      case "$l" in ExecStart=*) line="\${l#ExecStart=}" ;; esac
    done < "$f"
  done
  printf '%s\\n' "$line"
}
listing() { ls "$dropins"/*.conf 2>/dev/null | while read -r f; do echo "$f $(cksum < "$f")"; done; }
[ -s "$loaded" ] || { effective > "$loaded"; listing > "$loaded_list"; }
if [ "$verb" = daemon-reload ]; then effective > "$loaded"; listing > "$loaded_list"; exit 0; fi
case "$unit" in
  couchbase-server|couchbase-server.service) ;;
  *) echo "Failed to $verb \${unit:-?}: Unit \${unit:-?} not found (loopback lab: only couchbase-server.service)." >&2; exit 5 ;;
esac
case "$verb" in
  start)
    running && exit 0
    if [ "$(listing)" != "$(cat "$loaded_list")" ]; then
      echo "Warning: The unit file, source configuration file or drop-ins of couchbase-server.service changed on disk. Run 'systemctl daemon-reload' to reload units." >&2
    fi
    exec_line=$(sed 's/%%/%/g' "$loaded")
    env -i PATH="$PATH" HOME=/opt/couchbase ONLOAD_BENCH_LAB=${sq(options.labDir)} ONLOAD_BENCH_LAB_ID="$lab_id" ONLOAD_BENCH_LAB_SERVICE=1 ONLOAD_BENCH_LAB_USER=couchbase \\
      setsid sh -c 'ulimit -n "$(ulimit -H -n)" 2>/dev/null; ulimit -l "$(ulimit -H -l)" 2>/dev/null; cd "$1" 2>/dev/null; shift; eval "exec $*"' sh ${sq(join(options.root, 'opt', 'couchbase', 'var', 'lib', 'couchbase'))} "$exec_line" >> "$state/couchbase-service.log" 2>&1 < /dev/null &
    echo $! > "$service_pid"
    exit 0 ;;
  stop)
    if running; then
      pid=$(cat "$service_pid"); kill -TERM "$pid" 2>/dev/null
      i=0; while alive "$pid" && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      alive "$pid" && kill -KILL "$pid" 2>/dev/null
    fi
    # the control group: whatever the service started, in any process group
    for d in /proc/[0-9]*; do
      if tr '\\0' '\\n' < "$d/environ" 2>/dev/null | grep -qx "ONLOAD_BENCH_LAB_ID=$lab_id" && tr '\\0' '\\n' < "$d/environ" 2>/dev/null | grep -qx 'ONLOAD_BENCH_LAB_SERVICE=1'; then
        kill -KILL "\${d#/proc/}" 2>/dev/null
      fi
    done
    rm -f "$service_pid"; exit 0 ;;
  restart) "$0" stop "$unit"; exec "$0" start "$unit" ;;
  is-active) if running; then echo active; exit 0; else echo inactive; exit 3; fi ;;
  show)
    case "$prop" in
      ExecStart) l=$(cat "$loaded"); echo "ExecStart={ path=\${l%% *} ; argv[]=$l ; ignore_errors=no ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }" ;;
      MainPID) if running; then echo "MainPID=$(cat "$service_pid")"; else echo "MainPID=0"; fi ;;
      *) echo "$prop=" ;;
    esac
    exit 0 ;;
  cat) cat "$unit_file"; for f in "$dropins"/*.conf; do [ -f "$f" ] && { echo; echo "# $f"; cat "$f"; }; done; exit 0 ;;
  status)
    echo "* couchbase-server.service - Couchbase Server (loopback lab)"
    if running; then echo "     Active: active (running)"; echo "   Main PID: $(cat "$service_pid")"; exit 0; fi
    echo "     Active: inactive (dead)"
    # like the journal lines systemctl status shows
    echo; tail -n 10 "$state/couchbase-service.log" 2>/dev/null; exit 3 ;;
  *) echo "Unknown command verb $verb." >&2; exit 1 ;;
esac
`;
}

function ipScript(options: HostRootOptions): string {
  const lines = options.extraAddresses
    .map((address) => `1: lo    inet ${address}/8 scope host secondary lo\\       valid_lft forever preferred_lft forever`)
    .map((line) => `  printf '%s\\n' ${sq(line)}`)
    .join('\n');
  return `#!/bin/sh
# Loopback-lab stand-in for ip: the real command, plus the lab's extra loopback addresses (which
# answer on lo without being configured) in one-line address listings such as "ip -o addr".
real=/usr/sbin/ip; [ -x "$real" ] || real=/sbin/ip
"$real" "$@" || exit $?
one_line=no; object=""; rest=""
for arg in "$@"; do
  case "$arg" in
    -o|-oneline|-4) [ "$arg" = "-4" ] || one_line=yes ;;
    -*) ;;
    *) if [ -z "$object" ]; then object="$arg"; else rest="$rest $arg"; fi ;;
  esac
done
case "$object" in a|addr|address) ;; *) exit 0 ;; esac
case "$rest" in ""|" show"|" show dev lo"|" show lo"|" dev lo") ;; *) exit 0 ;; esac
if [ "$one_line" = yes ]; then
${lines || '  :'}
fi
exit 0
`;
}

function ethtoolScript(): string {
  return `#!/bin/sh
# Loopback-lab stand-in for ethtool (not installed on this machine): driver information only.
case "$1" in
  --version) echo "ethtool version 6.1 (loopback lab stand-in)"; exit 0 ;;
  -i)
    [ -n "$2" ] || { echo "ethtool: bad command line argument(s)" >&2; exit 1; }
    printf 'driver: lab-loopback\\nversion: 1.0\\nfirmware-version: n/a\\nexpansion-rom-version: \\nbus-info: \\nsupports-statistics: no\\nsupports-test: no\\nsupports-eeprom-access: no\\nsupports-register-dump: no\\nsupports-priv-flags: no\\n'
    exit 0 ;;
  *) echo "ethtool: only -i is available in the loopback lab" >&2; exit 1 ;;
esac
`;
}

/** Bundles the Node stand-ins and writes every script. Takes well under a second. */
export async function buildHostRoot(options: HostRootOptions): Promise<void> {
  const { root } = options;
  const lib = join(root, 'lib');
  await build({
    entryPoints: {
      'couchbase-server': join(__dirname, 'standins', 'couchbaseServer.ts'),
      'onload-stackdump': join(__dirname, 'standins', 'onloadStackdump.ts'),
    },
    outdir: lib,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['couchbase'],
    logLevel: 'error',
  });
  writeExecutable(join(root, 'opt', 'couchbase', 'bin', 'couchbase-server'), nodeWrapper(options, 'couchbase-server.cjs', [], [`--lab-home=${join(root, 'opt', 'couchbase')}`]));
  // the data folder belongs to the service user (REAL-LAB C1); the Onload modules are "loaded" (O3)
  mkdirSync(join(root, 'opt', 'couchbase', 'var', 'lib', 'couchbase', 'config'), { recursive: true });
  writeFileSync(join(root, 'opt', 'couchbase', 'var', 'lib', 'couchbase', '.owner'), 'couchbase\n');
  mkdirSync(join(root, 'sys', 'module', 'onload'), { recursive: true });
  mkdirSync(join(root, 'etc', 'systemd', 'system', 'couchbase-server.service.d'), { recursive: true });
  mkdirSync(join(root, 'usr', 'lib', 'systemd', 'system'), { recursive: true });
  writeFileSync(join(root, 'usr', 'lib', 'systemd', 'system', 'couchbase-server.service'), unitText(options));
  writeExecutable(join(root, 'bin', 'setsid'), setsidScript());
  // The real YCSB 0.17.0, shared read-only by every lab (REAL-LAB Y1-Y11 are its own behaviour);
  // bin/ycsb needs a Python 2, which the hosts have only when a test asks (Y4)
  mkdirSync(join(root, 'opt'), { recursive: true });
  symlinkSync(ycsbReleaseHome(), join(root, 'opt', 'ycsb'));
  if (options.python2) {
    const python = python27();
    if (!python) throw new Error('lab: the python2 option needs a Python 2.7 on this machine (none in /usr/bin, /usr/local/bin or pyenv)');
    mkdirSync(join(root, 'bin'), { recursive: true });
    symlinkSync(python, join(root, 'bin', 'python2'));
  }
  writeExecutable(join(root, 'bin', 'onload_stackdump'), nodeWrapper(options, 'onload-stackdump.cjs', [], [`--lab-root=${root}`, `--lab-state=${options.stateDir}`, `--lab-version=${options.onloadVersion}`]));
  writeExecutable(join(root, 'bin', 'onload'), onloadScript(options));
  // A "libonload.so" that does nothing: glibc's empty libdl stub (glibc >= 2.34) under that name.
  const stub = ['/lib/x86_64-linux-gnu/libdl.so.2', '/usr/lib/x86_64-linux-gnu/libdl.so.2', '/lib64/libdl.so.2'].find((path) => existsSync(path) && statSync(path).size < 64 * 1024);
  if (stub) copyFileSync(stub, join(lib, 'libonload.so'));
  writeExecutable(join(root, 'bin', 'sudo'), sudoScript(options));
  writeExecutable(join(root, 'bin', 'systemctl'), systemctlScript(options));
  writeExecutable(join(root, 'bin', 'ip'), ipScript(options));
  if (!['/usr/sbin/ethtool', '/sbin/ethtool', '/usr/bin/ethtool'].some((path) => existsSync(path))) {
    writeExecutable(join(root, 'bin', 'ethtool'), ethtoolScript());
  }
  const profiles = join(root, 'usr', 'libexec', 'onload', 'profiles');
  mkdirSync(profiles, { recursive: true });
  writeFileSync(join(profiles, 'latency.opf'), '# Lab profile: spin for low latency.\nonload_set EF_POLL_USEC 100000\nonload_set EF_TCP_FASTSTART_INIT 0\n');
  writeFileSync(join(profiles, 'throughput.opf'), '# Lab profile: batch for throughput.\nonload_set EF_HIGH_THROUGHPUT_MODE 1\n');
}
