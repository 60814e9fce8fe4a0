// Which process really serves KV on the server, and what it runs with. memcached is found by its
// listener on the KV port (socket inode in /proc/net/tcp*, then the process holding it), never by
// process group: the babysitter starts each child in its own group (REAL-LAB C2). What it runs
// with comes from procfs: user, `/proc/PID/limits` (nofile, memlock), cgroup (H3), the EF_*
// variables of `/proc/PID/environ` (O4), whether libonload is mapped (O1). Another user's environ
// and maps are unreadable (O5), so the script runs with `sudo -n` where that works and says so.
import type { ResolvedServer } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';

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
}

/**
 * A POSIX sh script printing tagged facts about the process listening on `kvPort`. Reads only
 * procfs, so it needs no tool beyond awk, ls and sed (RHEL 7 included).
 */
export function serverProcessScript(kvPort: number): string {
  const portHex = kvPort.toString(16).toUpperCase().padStart(4, '0');
  return [
    `port=${portHex}`,
    // every TCP socket on the port: state 0A = LISTEN, 01 = ESTABLISHED
    `awk -v p=":$port" 'FNR > 1 { n = split($2, a, ":"); if (":" a[n] == p) print "@tcp", $2, $3, $4, $10 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null`,
    `inodes=$(awk -v p=":$port" 'FNR > 1 && $4 == "0A" { n = split($2, a, ":"); if (":" a[n] == p) print $10 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null)`,
    'pid=""',
    'if [ -n "$inodes" ]; then',
    // one ls over every fd folder; "/proc/N/fd:" headers name the process of the lines below
    `  pid=$(ls -l /proc/[0-9]*/fd 2>/dev/null | awk -v list="$inodes" 'BEGIN { n = split(list, w, /[ \\n]+/); for (i = 1; i <= n; i++) want["socket:[" w[i] "]"] = 1 } /^\\/proc\\/[0-9]+\\/fd:$/ { split($0, q, "/"); cur = q[3]; next } { if ($NF in want) { print cur; exit } }')`,
    'fi',
    'if [ -n "$pid" ]; then',
    '  echo "@pid $pid"',
    '  echo "@name $(cat /proc/$pid/comm 2>/dev/null)"',
    `  echo "@uid $(awk '/^Uid:/ { print $2 }' /proc/$pid/status 2>/dev/null)"`,
    '  echo "@user $(stat -c %U /proc/$pid 2>/dev/null)"',
    `  sed -n 's/^Max open files  *\\([^ ]*\\)  *\\([^ ]*\\).*/@nofile \\1 \\2/p; s/^Max locked memory  *\\([^ ]*\\)  *\\([^ ]*\\).*/@memlock \\1 \\2/p' /proc/$pid/limits 2>/dev/null`,
    `  sed 's/^/@cgroup /' /proc/$pid/cgroup 2>/dev/null`,
    `  if env=$(tr '\\0' '\\n' < /proc/$pid/environ 2>/dev/null); then echo "@environ readable"; printf '%s\\n' "$env" | sed -n 's/^\\(EF_[A-Za-z0-9_]*=.*\\)/@ef \\1/p'; else echo "@environ unreadable"; fi`,
    '  if [ -r /proc/$pid/maps ]; then if grep -q libonload /proc/$pid/maps 2>/dev/null; then echo "@libonload yes"; else echo "@libonload no"; fi; fi',
    'fi',
    'exit 0',
  ].join('\n');
}

/** Only the KV port's TCP sockets (`@tcp` lines): cheap enough to sample during a run (C7). */
export function connectionsScript(kvPort: number): string {
  return serverProcessScript(kvPort).split('\n').slice(0, 2).concat('exit 0').join('\n');
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

/** `/proc/net/tcp` address `0100007F:2BCA` → `127.0.0.1:11210` (IPv6 as hex groups). Pure. */
export function decodeProcAddress(hex: string): string {
  const [address, port] = hex.split(':');
  const portNumber = Number.parseInt(port ?? '0', 16);
  if (address.length === 8) {
    const bytes = address.match(/../g)!.map((byte) => Number.parseInt(byte, 16)).reverse();
    return `${bytes.join('.')}:${portNumber}`;
  }
  // IPv6: four little-endian 32-bit words; a v4-mapped address reads as IPv4
  const words = address.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => word.match(/../g)!.map((byte) => Number.parseInt(byte, 16)).reverse());
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `${bytes.slice(12).join('.')}:${portNumber}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return `[${groups.join(':')}]:${portNumber}`;
}

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
      else if (state === '01') facts.connections.push({ local: decodeProcAddress(local), remote: decodeProcAddress(remote) });
    }
  }
  if (cgroups.length > 0) facts.cgroup = cgroups.join(';');
  if (environReadable) facts.efEnvironment = ef;
  return facts;
}

export async function readServerProcess(session: RemoteSession, server: ResolvedServer, step: string, signal?: AbortSignal): Promise<ServerProcessFacts> {
  const result = await session.run(withServerRights(serverProcessScript(server.kvPort)), { step, ...(signal ? { signal } : {}), timeoutMs: 60_000 });
  return parseServerProcessFacts(result.stdout);
}

/** The record kept in a cell's evidence (`evidence.server.process`). */
export function processEvidence(facts: ServerProcessFacts): Record<string, unknown> {
  return {
    ...(facts.pid !== undefined ? { pid: facts.pid } : {}),
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
