// Builds a lab run's "host root": the folder whose bin/ directories come first on PATH in the lab's
// ssh sessions (never on the product's PATH). Node stand-ins are bundled with esbuild (fast start,
// `couchbase` stays external and is found through NODE_PATH); the small ones are POSIX sh.
//
//   ROOT/bin/            onload, onload_stackdump, sudo, systemctl, ip, (ethtool if missing)
//   ROOT/opt/couchbase/bin/couchbase-server
//   ROOT/opt/ycsb/bin/ycsb, ROOT/opt/ycsb/workloads/workload{a,b,c,e}, ROOT/opt/ycsb/lib/core-VERSION.jar
//   ROOT/usr/libexec/onload/profiles/{latency,throughput}.opf   (for `--profile=NAME`)
//   ROOT/lib/*.cjs       the bundles; ROOT/lib/libonload.so, a do-nothing library onload preloads
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');

export interface HostRootOptions {
  root: string;
  labDir: string;
  labId: string;
  stateDir: string;
  /** Addresses `ip -o addr` adds to lo (the lab's interfaces other than 127.0.0.1). */
  extraAddresses: string[];
  onloadVersion: string;
  /** Install a `python2` (REAL-LAB Y4: bin/ycsb needs one; the default lab, like current distributions, has none). */
  python2?: boolean;
  ycsbVersion: string;
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

function nodeWrapper(options: HostRootOptions, bundle: string, extra: string[] = []): string {
  return [
    '#!/bin/sh',
    '# Loopback-lab stand-in (see test/lab/index.ts).',
    ...extra,
    `export ONLOAD_BENCH_LAB=${sq(options.labDir)} ONLOAD_BENCH_LAB_ID=${sq(options.labId)} NODE_PATH=${sq(join(repoRoot, 'node_modules'))}`,
    `exec ${sq(process.execPath)} ${sq(join(options.root, 'lib', bundle))} "$@"`,
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
    echo "onload: ERROR: profile '$1' is not valid shell:" >&2
    sh -n "$candidate" >&2
    exit 1
  fi
  found="$candidate"
}
onload_set() { export "$1=$2"; }
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
if [ ! -e "$state/faults/onloadNotAccelerating" ]; then
  export ONLOAD_BENCH_LAB_ACCELERATED=1 ONLOAD_BENCH_LAB_PROFILE="\${used# }"
  # like the real launcher, preload libonload.so (here a do-nothing library, so /proc/PID/maps shows it)
  if [ -f "$libonload" ]; then export LD_PRELOAD="$libonload\${LD_PRELOAD:+:$LD_PRELOAD}"; fi
  mkdir -p "$state/onload" && echo "$$ $*" > "$state/onload/$$"
fi
exec "$@"
`;
}

function sudoScript(): string {
  return `#!/bin/sh
# Loopback-lab stand-in for sudo: lab sessions already run as root, so run the command as is.
while [ $# -gt 0 ]; do
  case "$1" in
    -n|-E|-H|-S|--non-interactive|--preserve-env) shift ;;
    --) shift; break ;;
    -*) echo "sudo: option $1 is not supported in the loopback lab" >&2; exit 1 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: sudo [-n] command" >&2; exit 1; }
exec "$@"
`;
}

function systemctlScript(options: HostRootOptions): string {
  const server = join(options.root, 'opt', 'couchbase', 'bin', 'couchbase-server');
  return `#!/bin/sh
# Loopback-lab stand-in for systemctl, knowing one unit: couchbase-server.service. "start" runs the
# stand-in couchbase-server in a clean environment (as systemd would: no onload markers), in its own
# session, recording its pid in state/couchbase-service.pid; "stop" stops only that process.
state=${sq(options.stateDir)}
server=${sq(server)}
service_pid="$state/couchbase-service.pid"
verb=""; unit=""
for arg in "$@"; do
  case "$arg" in
    -*) ;;
    *) if [ -z "$verb" ]; then verb="$arg"; elif [ -z "$unit" ]; then unit="$arg"; fi ;;
  esac
done
# alive PID: runs and is not a zombie (this machine's pid 1 may never reap orphans)
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }
running() { [ -s "$service_pid" ] && alive "$(cat "$service_pid")"; }
case "$unit" in
  couchbase-server|couchbase-server.service) ;;
  *) echo "Failed to $verb \${unit:-?}: Unit \${unit:-?} not found (loopback lab: only couchbase-server.service)." >&2; exit 5 ;;
esac
case "$verb" in
  start)
    running && exit 0
    env -i PATH="$PATH" HOME=/root ONLOAD_BENCH_LAB=${sq(options.labDir)} ONLOAD_BENCH_LAB_ID=${sq(options.labId)} ONLOAD_BENCH_LAB_SERVICE=1 \\
      setsid "$server" -- -noinput >> "$state/couchbase-service.log" 2>&1 < /dev/null &
    echo $! > "$service_pid"
    exit 0 ;;
  stop)
    if running; then
      pid=$(cat "$service_pid"); kill -TERM "$pid" 2>/dev/null
      i=0; while alive "$pid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
      alive "$pid" && kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$service_pid"; exit 0 ;;
  restart) "$0" stop "$unit"; exec "$0" start "$unit" ;;
  is-active) if running; then echo active; exit 0; else echo inactive; exit 3; fi ;;
  status)
    echo "* couchbase-server.service - Couchbase Server (loopback lab)"
    if running; then echo "     Active: active (running)"; echo "   Main PID: $(cat "$service_pid")"; exit 0; fi
    echo "     Active: inactive (dead)"; exit 3 ;;
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

/** Python 2 only, like YCSB 0.17.0's launcher: `except X, e` is a SyntaxError for Python 3. */
const ycsbPythonText = `#!/usr/bin/env python
# Loopback-lab stand-in for YCSB 0.17.0's bin/ycsb (Python 2 only, REAL-LAB Y4): the lab's python2
# runs the stand-in client; any other interpreter fails on the Python 2 syntax below.
import sys
try:
    import argparse
except ImportError, e:
    print >> sys.stderr, "argparse is missing"
    sys.exit(1)
`;

function python2Script(options: HostRootOptions): string {
  return [
    '#!/bin/sh',
    '# Loopback-lab stand-in for Python 2.7: runs bin/ycsb (the stand-in client) and answers --version.',
    'case "$1" in --version|-V) echo "Python 2.7.18" >&2; exit 0 ;; esac',
    'case "$1" in',
    `  */bin/ycsb|bin/ycsb) shift; export ONLOAD_BENCH_LAB_LAUNCHER=python ONLOAD_BENCH_LAB=${sq(options.labDir)} ONLOAD_BENCH_LAB_ID=${sq(options.labId)} NODE_PATH=${sq(join(repoRoot, 'node_modules'))}; exec ${sq(process.execPath)} ${sq(join(options.root, 'lib', 'ycsb.cjs'))} "$@" ;;`,
    'esac',
    'echo "python2: the loopback lab only runs bin/ycsb" >&2',
    'exit 2',
    '',
  ].join('\n');
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

/** Small CoreWorkload files sized for the lab (a few hundred records, quick runs). */
const workloads: Record<string, Record<string, string>> = {
  workloada: { readproportion: '0.5', updateproportion: '0.5', scanproportion: '0', insertproportion: '0' },
  workloadb: { readproportion: '0.95', updateproportion: '0.05', scanproportion: '0', insertproportion: '0' },
  workloadc: { readproportion: '1', updateproportion: '0', scanproportion: '0', insertproportion: '0' },
  workloade: { readproportion: '0', updateproportion: '0', scanproportion: '0.95', insertproportion: '0.05', maxscanlength: '20' },
};

function workloadText(name: string, mix: Record<string, string>): string {
  const lines = [
    `# Lab-sized ${name}: same mix as the YCSB workload of that name, small counts.`,
    'workload=site.ycsb.workloads.CoreWorkload',
    'recordcount=300',
    'operationcount=600',
    'readallfields=true',
    'requestdistribution=uniform',
    'fieldcount=4',
    'fieldlength=32',
    ...Object.entries(mix).map(([key, value]) => `${key}=${value}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Bundles the Node stand-ins and writes every script. Takes well under a second. */
export async function buildHostRoot(options: HostRootOptions): Promise<void> {
  const { root } = options;
  const lib = join(root, 'lib');
  await build({
    entryPoints: {
      'couchbase-server': join(__dirname, 'standins', 'couchbaseServer.ts'),
      ycsb: join(__dirname, 'standins', 'ycsb.ts'),
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
  writeExecutable(join(root, 'opt', 'couchbase', 'bin', 'couchbase-server'), nodeWrapper(options, 'couchbase-server.cjs'));
  // REAL-LAB Y4: bin/ycsb is Python 2 text (`#!/usr/bin/env python`: exit 127 without a `python`,
  // a SyntaxError under Python 3); python2 runs it, bin/ycsb.sh reads JAVA_OPTS
  writeExecutable(join(root, 'opt', 'ycsb', 'bin', 'ycsb'), ycsbPythonText);
  writeExecutable(join(root, 'opt', 'ycsb', 'bin', 'ycsb.sh'), nodeWrapper(options, 'ycsb.cjs', ['# bin/ycsb.sh: JVM options from JAVA_OPTS', 'export ONLOAD_BENCH_LAB_LAUNCHER=sh ONLOAD_BENCH_LAB_JAVA_OPTS="$JAVA_OPTS"']));
  if (options.python2) {
    writeExecutable(join(root, 'bin', 'python2'), python2Script(options));
  }
  writeExecutable(join(root, 'bin', 'onload_stackdump'), nodeWrapper(options, 'onload-stackdump.cjs'));
  writeExecutable(join(root, 'bin', 'onload'), onloadScript(options));
  // A "libonload.so" that does nothing: glibc's empty libdl stub (glibc >= 2.34) under that name.
  const stub = ['/lib/x86_64-linux-gnu/libdl.so.2', '/usr/lib/x86_64-linux-gnu/libdl.so.2', '/lib64/libdl.so.2'].find((path) => existsSync(path) && statSync(path).size < 64 * 1024);
  if (stub) copyFileSync(stub, join(lib, 'libonload.so'));
  writeExecutable(join(root, 'bin', 'sudo'), sudoScript());
  writeExecutable(join(root, 'bin', 'systemctl'), systemctlScript(options));
  writeExecutable(join(root, 'bin', 'ip'), ipScript(options));
  if (!['/usr/sbin/ethtool', '/sbin/ethtool', '/usr/bin/ethtool'].some((path) => existsSync(path))) {
    writeExecutable(join(root, 'bin', 'ethtool'), ethtoolScript());
  }
  // A release's lib/ holds core-<version>.jar (the classpath of a real 0.17.0 run, shared/ycsb/reference-only/
  // real_benchant-2022_couchbase2_ycsb-0.17.0_load.txt); pre-flight reads the version from its name.
  mkdirSync(join(root, 'opt', 'ycsb', 'lib'), { recursive: true });
  writeFileSync(join(root, 'opt', 'ycsb', 'lib', `core-${options.ycsbVersion}.jar`), '');
  for (const [name, mix] of Object.entries(workloads)) {
    mkdirSync(join(root, 'opt', 'ycsb', 'workloads'), { recursive: true });
    writeFileSync(join(root, 'opt', 'ycsb', 'workloads', name), workloadText(name, mix));
  }
  const profiles = join(root, 'usr', 'libexec', 'onload', 'profiles');
  mkdirSync(profiles, { recursive: true });
  writeFileSync(join(profiles, 'latency.opf'), '# Lab profile: spin for low latency.\nonload_set EF_POLL_USEC 100000\nonload_set EF_TCP_FASTSTART_INIT 0\n');
  writeFileSync(join(profiles, 'throughput.opf'), '# Lab profile: batch for throughput.\nonload_set EF_HIGH_THROUGHPUT_MODE 1\n');
}
