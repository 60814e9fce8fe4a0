// Which process really serves KV on the server, and what it runs with. memcached is found by what
// it is: a process named memcached running the installation's memcached binary, as the same user as
// its parent, the babysitter (beam.smp), which in service mode is the unit's main process. Not by
// its KV listener: Onload's accelerated listener is an `onload:[...]` descriptor in no /proc/net/tcp
// (REAL-LAB O6), and the IPv6 twin that default builds leave to the kernel (O7) is missing on an
// IPv4-only node, so only a server whose memcached has neither falls back to the listener (what it
// found by is recorded). Never by process group: the babysitter starts each child in its own group
// (C2). It is looked for until it exists or a deadline passes: ns_server answers REST before it
// starts memcached (C9). What it runs with comes from procfs: user, `/proc/PID/limits` (nofile,
// memlock), cgroup (H3), the EF_* variables of `/proc/PID/environ` (O4), whether libonload is
// mapped (O1). Another user's environ, maps and exe are unreadable (O5), so the script runs with
// `sudo -n` where that works and says so.
import type { ResolvedServer } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { decodeProcAddress } from '../remote/ipAddress';
import { shellQuote } from '../remote/shellQuote';
import { batchScript, splitBatch } from '../remote/batchScript';
import { pollIntervalMs } from '../remote/pollInterval';
import { couchbaseHome } from '../plan/planSchema';
import { sleep } from './serverControl';

export interface Limit {
  soft: string;
  hard: string;
}

export interface TcpEndpoint {
  local: string;
  remote: string;
}

export interface ServerProcessFacts {
  /** The pid holding the KV listener (memcached), undefined when nothing listens. */
  pid?: number;
  /** Its process name (`/proc/PID/comm`). */
  name?: string;
  user?: string;
  limits: { nofile?: Limit; memlock?: Limit };
  /** `/proc/PID/cgroup`, lines joined by `;`. */
  cgroup?: string;
  /** EF_* variables of its environment; undefined when the environment could not be read. */
  efEnvironment?: Record<string, string>;
  libonloadMapped?: boolean;
  /** Local addresses the KV port listens on (`0.0.0.0:11210`...). */
  listeners: string[];
  /** Established connections to the KV port (server side). */
  connections: TcpEndpoint[];
  /** `sudo` when the facts were read through sudo -n; otherwise why not (sudo's refusal). */
  rights: string;
  /** How the pid was found ("memcached binary ..., user ..., child of beam.smp N (...)" or "its KV listener"). */
  foundBy?: string;
}

/** What identifies the installation's memcached (serverProcessScript). */
export interface MemcachedIdentity {
  /** `<installation>/bin/memcached`. */
  binary: string;
  /** The systemd unit whose main process must be memcached's parent (service mode). */
  serviceName?: string;
}

export function memcachedIdentity(server: ResolvedServer): MemcachedIdentity {
  return {
    binary: `${couchbaseHome(server.couchbaseServerPath)}/bin/memcached`,
    ...(server.serverStart === 'service' ? { serviceName: server.serviceName } : {}),
  };
}

/** Every TCP socket on the KV port as `@tcp LOCAL REMOTE STATE INODE` (/proc/net: kernel sockets only). */
function kvSocketLines(kvPort: number): string[] {
  const portHex = kvPort.toString(16).toUpperCase().padStart(4, '0');
  return [
    `port=${portHex}`,
    // every TCP socket on the port: state 0A = LISTEN, 01 = ESTABLISHED
    `awk -v p=":$port" 'FNR > 1 { n = split($2, a, ":"); if (":" a[n] == p) print "@tcp", $2, $3, $4, $10 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null`,
  ];
}

/**
 * A POSIX sh script printing tagged facts about the installation's memcached (`identity`), or,
 * when no such process exists, about the process holding a kernel listener on `kvPort`. Reads only
 * procfs (and `systemctl show` for the unit's main process), so it needs no tool beyond awk, grep,
 * ls, sed, stat and tr (RHEL 7 included).
 */
export function serverProcessScript(kvPort: number, identity?: MemcachedIdentity): string {
  const lines = [...kvSocketLines(kvPort), 'pid=""', 'found=""'];
  if (identity) {
    lines.push(
      `bin=${shellQuote(identity.binary)}`,
      identity.serviceName !== undefined
        ? `main=$(systemctl show -p MainPID --value ${shellQuote(identity.serviceName)} 2>/dev/null)`
        : 'main=""',
      `how=${shellQuote(identity.serviceName !== undefined ? `${identity.serviceName}.service's main process` : 'a babysitter')}`,
      'for d in /proc/[0-9]*; do',
      '  { read -r name < "$d/comm"; } 2>/dev/null || continue',
      '  [ "$name" = memcached ] || continue',
      // the binary: /proc/PID/exe (readable by its owner or root), else a word of its command line
      `  if [ "$(readlink "$d/exe" 2>/dev/null)" != "$bin" ]; then tr '\\0' '\\n' < "$d/cmdline" 2>/dev/null | grep -qxF -- "$bin" || continue; fi`,
      `  pp=$(awk '/^PPid:/ { print $2 }' "$d/status" 2>/dev/null)`,
      '  { read -r pname < "/proc/$pp/comm"; } 2>/dev/null || pname=""',
      `  u=$(awk '/^Uid:/ { print $2 }' "$d/status" 2>/dev/null); pu=$(awk '/^Uid:/ { print $2 }' "/proc/$pp/status" 2>/dev/null)`,
      '  echo "@candidate ${d#/proc/} parent $pp $pname uid $u parent-uid $pu"',
      '  [ "$pname" = beam.smp ] && [ "$u" = "$pu" ] || continue',
      // service mode: the unit's main process is the babysitter (a stopped unit's MainPID is 0)
      '  if [ -n "$main" ] && [ "$main" != 0 ] && [ "$pp" != "$main" ]; then continue; fi',
      '  [ -n "$main" ] && [ "$main" != 0 ] || how="a babysitter"',
      '  pid=${d#/proc/}',
      '  found="memcached binary $bin, user $(stat -c %U "$d" 2>/dev/null), child of beam.smp $pp ($how)"',
      '  break',
      'done',
    );
  }
  lines.push(
    'if [ -z "$pid" ]; then',
    `  inodes=$(awk -v p=":$port" 'FNR > 1 && $4 == "0A" { n = split($2, a, ":"); if (":" a[n] == p) print $10 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null)`,
    '  if [ -n "$inodes" ]; then',
    // one ls over every fd folder; "/proc/N/fd:" headers name the process of the lines below
    `    pid=$(ls -l /proc/[0-9]*/fd 2>/dev/null | awk -v list="$inodes" 'BEGIN { n = split(list, w, /[ \\n]+/); for (i = 1; i <= n; i++) want["socket:[" w[i] "]"] = 1 } /^\\/proc\\/[0-9]+\\/fd:$/ { split($0, q, "/"); cur = q[3]; next } { if ($NF in want) { print cur; exit } }')`,
    '    [ -n "$pid" ] && found="its KV listener"',
    '  fi',
    'fi',
    'if [ -n "$pid" ]; then',
    '  echo "@pid $pid"',
    '  echo "@found $found"',
    '  echo "@name $(cat /proc/$pid/comm 2>/dev/null)"',
    `  echo "@uid $(awk '/^Uid:/ { print $2 }' /proc/$pid/status 2>/dev/null)"`,
    '  echo "@user $(stat -c %U /proc/$pid 2>/dev/null)"',
    `  sed -n 's/^Max open files  *\\([^ ]*\\)  *\\([^ ]*\\).*/@nofile \\1 \\2/p; s/^Max locked memory  *\\([^ ]*\\)  *\\([^ ]*\\).*/@memlock \\1 \\2/p' /proc/$pid/limits 2>/dev/null`,
    `  sed 's/^/@cgroup /' /proc/$pid/cgroup 2>/dev/null`,
    `  if env=$(tr '\\0' '\\n' < /proc/$pid/environ 2>/dev/null); then echo "@environ readable"; printf '%s\\n' "$env" | sed -n 's/^\\(EF_[A-Za-z0-9_]*=.*\\)/@ef \\1/p'; else echo "@environ unreadable"; fi`,
    '  if [ -r /proc/$pid/maps ]; then if grep -q libonload /proc/$pid/maps 2>/dev/null; then echo "@libonload yes"; else echo "@libonload no"; fi; fi',
    'fi',
    'exit 0',
  );
  return lines.join('\n');
}

/** Only the KV port's TCP sockets (`@tcp` lines): cheap enough to sample during a run (C7). */
export function connectionsScript(kvPort: number): string {
  return [...kvSocketLines(kvPort), 'exit 0'].join('\n');
}

/** `sudo -n sh -c SCRIPT`, falling back to the plain script when sudo refuses (`@rights` says which). */
export function withServerRights(script: string): string {
  const quoted = shellQuote(script);
  return [
    `if out=$(sudo -n sh -c ${quoted} 2>/dev/null); then echo "@rights sudo"; printf '%s\\n' "$out"; exit 0; fi`,
    // sudo's own words, for the evidence (requiretty, password, not allowed)
    `echo "@rights no-sudo: $(sudo -n sh -c true 2>&1 | head -n 1)"`,
    `sh -c ${quoted}`,
  ].join('\n');
}

/** Addresses from /proc/net/tcp{,6}, IPv6 in its canonical form (ipAddress.ts, REAL-LAB H5). */
export { decodeProcAddress };

/** Reads the facts printed by `serverProcessScript` (optionally wrapped by `withServerRights`). Pure. */
export function parseServerProcessFacts(output: string): ServerProcessFacts {
  const facts: ServerProcessFacts = { limits: {}, listeners: [], connections: [], rights: 'no-sudo' };
  const cgroups: string[] = [];
  let environReadable: boolean | undefined;
  const ef: Record<string, string> = {};
  for (const raw of output.split('\n')) {
    const match = /^@([a-z]+) ?(.*)$/.exec(raw.trimEnd());
    if (!match) continue;
    const [, tag, value] = match;
    if (tag === 'rights') facts.rights = value;
    else if (tag === 'pid' && /^\d+$/.test(value)) facts.pid = Number(value);
    else if (tag === 'found' && value !== '') facts.foundBy = value;
    else if (tag === 'name' && value !== '') facts.name = value;
    else if (tag === 'user' && value !== '' && value !== 'UNKNOWN') facts.user = value;
    else if (tag === 'uid' && value !== '' && facts.user === undefined) facts.user = `uid ${value}`;
    else if (tag === 'nofile' || tag === 'memlock') {
      const [soft, hard] = value.split(/\s+/);
      facts.limits[tag] = { soft: soft ?? '', hard: hard ?? '' };
    } else if (tag === 'cgroup') cgroups.push(value);
    else if (tag === 'environ') environReadable = value === 'readable';
    else if (tag === 'ef') {
      const equals = value.indexOf('=');
      if (equals > 0) ef[value.slice(0, equals)] = value.slice(equals + 1);
    } else if (tag === 'libonload') facts.libonloadMapped = value === 'yes';
    else if (tag === 'tcp') {
      const [local, remote, state] = value.split(/\s+/);
      if (!local || !remote) continue;
      if (state === '0A') facts.listeners.push(decodeProcAddress(local));
      else if (state === '01')
        facts.connections.push({ local: decodeProcAddress(local), remote: decodeProcAddress(remote) });
    }
  }
  if (cgroups.length > 0) facts.cgroup = cgroups.join(';');
  if (environReadable) facts.efEnvironment = ef;
  return facts;
}

/**
 * Looks for memcached (every `everyMs`, else often at first and less as it drags on) until it is found or `waitMs` has
 * passed (REAL-LAB C9: it may
 * start well after REST answers). `waitedMs` says how long it took, or how long it was looked for.
 * `thenScript` runs in the same round trip as the look that finds it, its output in
 * `then` (e.g. onload_stackdump: one trip per server for the whole check).
 */
export async function findServerProcess(
  session: RemoteSession,
  server: ResolvedServer,
  options: { step: string; waitMs: number; everyMs?: number; signal?: AbortSignal; thenScript?: string },
): Promise<ServerProcessFacts & { waitedMs: number; lookups: number; then?: string }> {
  const started = performance.now();
  const look = withServerRights(serverProcessScript(server.kvPort, memcachedIdentity(server)));
  const script =
    options.thenScript === undefined
      ? look
      : batchScript([
          { name: 'process', script: look },
          { name: 'then', script: options.thenScript, onlyIf: { part: 'process', line: '^@pid [0-9]+$' } },
        ]);
  for (let lookups = 1; ; lookups++) {
    const result = await session.run(script, {
      step: options.step,
      ...(options.signal ? { signal: options.signal } : {}),
      timeoutMs: 60_000,
    });
    const parts = options.thenScript === undefined ? undefined : splitBatch(result.stdout);
    const output = parts ? (parts.get('process')?.text ?? '') : result.stdout;
    const facts = parseServerProcessFacts(output);
    const waitedMs = Math.round(performance.now() - started);
    // no `@rights` line: the script did not run (the dry run's recording session), nothing to wait for
    const answered = /^@rights /m.test(output);
    const then = parts?.get('then')?.text;
    if (facts.pid !== undefined || !answered || waitedMs >= options.waitMs || options.signal?.aborted)
      return { ...facts, waitedMs, lookups, ...(then !== undefined ? { then } : {}) };
    // an SSH look with a script: every 250 ms at first, then less often (pollInterval.ts), unless told
    await sleep(
      Math.min(options.everyMs ?? pollIntervalMs(waitedMs, 250), Math.max(0, options.waitMs - waitedMs)),
      options.signal,
    );
  }
}

/** The record kept in a cell's evidence (`evidence.server.process`). */
export function processEvidence(facts: ServerProcessFacts): Record<string, unknown> {
  return {
    ...(facts.pid !== undefined ? { pid: facts.pid } : {}),
    ...(facts.foundBy !== undefined ? { foundBy: facts.foundBy } : {}),
    ...(facts.name !== undefined ? { name: facts.name } : {}),
    ...(facts.user !== undefined ? { user: facts.user } : {}),
    limits: facts.limits,
    ...(facts.cgroup !== undefined ? { cgroup: facts.cgroup } : {}),
    ...(facts.libonloadMapped !== undefined ? { libonloadMapped: facts.libonloadMapped } : {}),
    ...(facts.efEnvironment !== undefined ? { efEnvironment: facts.efEnvironment } : { efEnvironment: 'unreadable' }),
    listeners: facts.listeners,
    rights: facts.rights,
  };
}
