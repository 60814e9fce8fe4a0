// The CPU sampler: one long-running awk per host over the existing SSH connection, started before
// a cell's run phase and stopped after it, printing one block of readings about once a second
// (parsed by cpuStat.ts). A small shell ticks once a second (its `sleep` is the only fork per
// reading, besides `pgrep` until the watched process is found, at most 10 times, and `ls` of the
// process's task folder when its thread count changes or every 10 readings) and awk reads the
// /proc files with buffered getline on each tick: the host's, the watched process's and each of
// its threads' (`/proc/PID/task/TID/stat`, printed only when their CPU ticks moved). Everything
// travels in the one SSH session the sampler already holds: no round trip per reading. Its own cost, which it reports
// from its and the
// ticker's /proc/PID/stat (children included), stays under 0.5 % of a core (`npm run bench`).
//
// Watched process: on servers memcached as the server evidence found it (serverProcess.ts, by what
// it is), else in the server's process group, then by its KV
// listener, then by name (Couchbase's babysitter gives each child its own group, REAL-LAB C2; `ss -p`
// shows a listener's pid only to its owner or root, REAL-LAB O5); on clients the YCSB JVM (`java` in
// the group of the YCSB pid file, else the newest process of that group).
// NIC interrupts: the /proc/interrupts lines whose name starts with the device that holds the
// tested address on servers (`ip -o addr`) or routes to it on clients (`ip route get`); drivers
// that name their queues after the PCI address (mlx5) are not matched.
import { parseSamplerOutput, samplerIntervalMs, type SamplerOutput } from './cpuStat';
import { killGroup, runInGroup } from '../remote/remoteProcess';
import type { RemoteSession } from '../remote/ssh';
import { canonicalAddress } from '../remote/ipAddress';
import { shellQuote } from '../remote/shellQuote';

/**
 * The awk program (POSIX awk: mawk, gawk, busybox): one block per input line; the first line is the ticker's pid.
 * Variables: proc (/proc), dev, find, want.
 */
export const samplerAwk = `
function stat(f,   line) { line = ""; if ((getline line < f) <= 0) line = ""; close(f); return line }
function comm(line,   a, b) { a = index(line, "("); b = length(line); while (b > a && substr(line, b, 1) != ")") b--; return substr(line, a + 1, b - a - 1) }
function rest(line,   b) { b = length(line); while (b > 0 && substr(line, b, 1) != ")") b--; return substr(line, b + 2) }
NR == 1 { ticker = $1; next }
{
    split(stat(proc "/uptime"), u, " "); print "@t " u[1]
    while ((getline line < (proc "/stat")) > 0) {
      if (line ~ /^cpu/) print line
      else if (line ~ /^(ctxt|intr) /) { split(line, f, " "); print f[1] " " f[2] }
    }
    close(proc "/stat")
    p = ""
    if (pid != "") { p = stat(proc "/" pid "/stat"); if (p == "") pid = "" }
    if (find != "" && tries < 10 && (pid == "" || (want != "" && comm(p) != want))) {
      tries++; cand = ""; find | getline cand; close(find)
      if (cand ~ /^[0-9]+$/) { q = stat(proc "/" cand "/stat"); if (q != "") { pid = cand; p = q } }
    }
    if (p != "") {
      print "@p " p
      # its threads: /proc/PID/task/TID/stat, listed again when the pid or the thread count changes
      # (field 20) or every 10 readings; a thread is printed when its utime + stime moved
      split(rest(p), f, " ")
      if (pid != tpid || f[18] != nthreads || ++since >= 10) {
        if (pid != tpid) split("", last)
        tpid = pid; nthreads = f[18]; since = 0; ntid = 0; cmd = "ls " proc "/" pid "/task 2>/dev/null"
        while ((cmd | getline t) > 0) if (t ~ /^[0-9]+$/) tids[++ntid] = t
        close(cmd)
      }
      for (i = 1; i <= ntid; i++) {
        l = stat(proc "/" pid "/task/" tids[i] "/stat"); if (l == "") continue
        split(rest(l), f, " "); ticks = f[12] + f[13]
        if (!(tids[i] in last) || last[tids[i]] != ticks) { print "@th " tids[i] " " ticks " " comm(l); last[tids[i]] = ticks }
      }
    }
    if (dev != "") {
      total = 0; found = 0; header = 1
      while ((getline line < (proc "/interrupts")) > 0) {
        if (header) { ncpu = split(line, h, " "); header = 0; continue }
        k = split(line, f, " "); name = f[k]
        if (index(name, dev) == 1 && (length(name) == length(dev) || substr(name, length(dev) + 1, 1) !~ /[A-Za-z0-9]/)) {
          found = 1; for (i = 2; i <= ncpu + 1 && i < k; i++) if (f[i] ~ /^[0-9]+$/) total += f[i]
        }
      }
      close(proc "/interrupts")
      if (found) print "@nic " dev " " total
    }
    print "@self " stat(proc "/self/stat")
    print "@ticker " stat(proc "/" ticker "/stat")
    print "@end"
    fflush()
}`;

export interface SamplerTarget {
  role: 'server' | 'client';
  /** The address under test (the cell's interface address). */
  address: string;
  /** Prints the watched process's pid (a POSIX sh command line), or nothing yet. */
  findProcess: string;
  /** The process name preferred when the finder can also return another one. */
  preferredName?: string;
  pidFile: string;
  /** Safety stop: the loop ends by itself after this many readings. */
  maxSamples: number;
}

/**
 * memcached: the pid the cell's server evidence found (`knownPid`) while it lives, else in the
 * server's own process group (run commands), then the process listening on the KV port (`ss -p`
 * shows it to its owner or root), else the oldest process of that name.
 */
export function serverProcessFinder(
  serverPidFile: string,
  processName: string,
  kvPort: number,
  knownPid?: number,
): string {
  const name = shellQuote(processName);
  const port = Math.floor(kvPort);
  return [
    `g=$(cat ${shellQuote(serverPidFile)} 2>/dev/null); p=""`,
    // the memcached the cell's server evidence found by what it is (serverProcess.ts): under Onload
    // its listener is no kernel socket, and another process may hold the kernel one (REAL-LAB O6)
    ...(knownPid !== undefined && Number.isInteger(knownPid) && knownPid > 0
      ? [`[ -d /proc/${knownPid} ] && p=${knownPid}`]
      : []),
    `[ -n "$p" ] || [ -z "$g" ] || p=$(pgrep -g "$g" -x ${name} 2>/dev/null | head -n 1)`,
    `[ -n "$p" ] || p=$(PATH="$PATH:/usr/sbin:/sbin" ss -ltnpH "sport = :${port}" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d = -f 2)`, // no backslash: awk -v would unescape it
    `[ -n "$p" ] || p=$(pgrep -o -x ${name} 2>/dev/null)`,
    'echo "$p"',
  ].join('; ');
}

/** The YCSB JVM: `java` in the group of YCSB's pid file, else the newest process of that group. */
export function clientProcessFinder(ycsbPidFile: string): string {
  return `g=$(cat ${shellQuote(ycsbPidFile)} 2>/dev/null); [ -n "$g" ] && { pgrep -g "$g" -x java 2>/dev/null || pgrep -n -g "$g" 2>/dev/null; } | head -n 1`;
}

/** The remote command: finds the NIC device and CLK_TCK once, then runs the ticker piped into the awk. */
export function samplerCommand(target: SamplerTarget): string {
  // ip prints addresses in canonical form (REAL-LAB H5)
  const address = shellQuote(canonicalAddress(target.address));
  const device =
    target.role === 'server'
      ? `dev=$(ip -o addr 2>/dev/null | awk -v a=${address} '{ split($4, p, "/"); if (p[1] == a) { print $2; exit } }')`
      : `dev=$(ip -o route get ${address} 2>/dev/null | awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit } }')`;
  return [
    'PATH="$PATH:/usr/sbin:/sbin"', // REAL-LAB H2: `ip` may live in sbin
    device,
    '[ "$dev" = lo ] && dev=""', // the loopback device has no interrupts
    'hz=$(getconf CLK_TCK 2>/dev/null); [ -n "$hz" ] || hz=100',
    'echo "@hz $hz"',
    // the host's clock once, to align the samples with YCSB's run (measuredWindow.ts)
    `echo "@clock $(cut -d ' ' -f 1 /proc/uptime) $(date '+%s.%N %z')"`,
    // mawk (Debian's default awk) reads a pipe in whole blocks unless told to read line by line
    'case "$(awk -W version 2>&1 < /dev/null)" in *mawk*) lines="-W interactive";; *) lines="";; esac',
    // the ticker shell prints its pid, then a line per interval; awk reads once per line
    `sh -c ${shellQuote(`echo $$; n=0; while [ $n -lt ${Math.max(1, Math.floor(target.maxSamples))} ]; do echo; n=$((n+1)); sleep ${samplerIntervalMs / 1000}; done`)} | awk $lines -v proc=/proc -v dev="$dev" -v find=${shellQuote(target.findProcess)} -v want=${shellQuote(target.preferredName ?? '')} ${shellQuote(samplerAwk)}`,
  ].join('\n');
}

/** How long a stopped sampler's group gets between TERM and KILL. */
export const samplerGraceSec = 2;

/** A running sampler: `stop()` ends it and returns what it read. */
export interface RunningSampler {
  host: string;
  /**
   * Its process group's pid file: a step may stop it in a round trip of its own (killGroupScript), then call
   * `finish()`.
   */
  pidFile: string;
  stop(): Promise<SamplerOutput>;
  /** What it read, once its group was stopped (by `stop()` or a script of the caller's). */
  finish(): Promise<SamplerOutput>;
}

/**
 * Starts the loop on `session`'s host. Never throws: a host where it cannot run simply gives no
 * samples (the cell keeps its numbers; the evidence says nothing about that host).
 */
export function startSampler(session: RemoteSession, target: SamplerTarget, signal?: AbortSignal): RunningSampler {
  const lines: string[] = [];
  // when the host's clock reading arrives, on this workstation's clock (the hosts' clocks compared)
  let clockSeenAtMs: number | undefined;
  const finished = runInGroup(session, samplerCommand(target), target.pidFile, {
    step: 'cpu-sampler',
    onStdoutLine: (line) => {
      if (clockSeenAtMs === undefined && line.startsWith('@clock ')) clockSeenAtMs = Date.now();
      lines.push(line);
    },
    ...(signal ? { signal } : {}),
  }).catch(() => undefined);
  const finish = async (): Promise<SamplerOutput> => {
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    const output = parseSamplerOutput(lines.join('\n'));
    if (output.clock && clockSeenAtMs !== undefined) output.clockSeenAtMs = clockSeenAtMs;
    return output;
  };
  return {
    host: session.host,
    pidFile: target.pidFile,
    async stop() {
      await killGroup(session, target.pidFile, 'cpu-sampler', samplerGraceSec, AbortSignal.timeout(30_000)).catch(
        () => undefined,
      );
      return finish();
    },
    finish,
  };
}
