// Is memcached really on Onload? A mapped libonload proves nothing: `onload` preloads it into every
// child of the babysitter (REAL-LAB O1), and sockets still fall back to the kernel on a non-Onload
// NIC, with EF_DONT_ACCELERATE or after a failed stack creation (O2). The proof: memcached's pid
// (found by its KV listener, serverProcess.ts) is among `onload_stackdump`'s stacks AND its KV
// listener or connections are sockets of that stack (`onload_stackdump lots`). stackdump shows
// only the caller's stacks unless run as root (O5): it runs through `sudo -n`, and a refusal makes
// the answer "unverified", never "not accelerated". Kernel cells are checked too.
import type { ResolvedServer } from './planSchema';
import type { ServerProcessFacts } from './serverProcess';
import type { RemoteSession } from './ssh';

export interface AccelerationCheck {
  /** true: proven; false: memcached runs and is not in an Onload stack; undefined: could not tell. */
  accelerated: boolean | undefined;
  /** What was found, for logs and the cell's record. */
  evidence: string;
  /** Stack ids holding memcached's pid. */
  stacks: string[];
  /** Whether onload_stackdump ran with root rights (sudo -n). */
  rights: string;
}

/** Prints the stack listing and `lots` under `@list`/`@lots` sections, through sudo -n when allowed. */
export function stackdumpScript(): string {
  return [
    'if ! command -v onload_stackdump >/dev/null 2>&1; then echo "@missing"; exit 0; fi',
    'if sudo -n onload_stackdump >/dev/null 2>&1; then sd="sudo -n onload_stackdump"; echo "@rights sudo"; else sd="onload_stackdump"; echo "@rights no-sudo: $(sudo -n onload_stackdump 2>&1 >/dev/null | head -n 1)"; fi',
    'echo "@list"',
    '$sd 2>&1',
    'echo "@lots"',
    '$sd lots 2>&1',
    'echo "@end"',
    'exit 0',
  ].join('\n');
}

export interface StackdumpFacts {
  missing: boolean;
  rights: string;
  /** stack id → pids, from the listing (`#stack-id stack-name pids`). */
  stackPids: Map<string, number[]>;
  /** stack id → `lcl` ports of its TCP sockets with state, from `lots` (`TCP 0:3 lcl=A:P rmt=B:Q STATE`). */
  stackSockets: Map<string, { local: string; port: number; state: string }[]>;
}

/** Reads the output of `stackdumpScript`. Pure. */
export function parseStackdump(output: string): StackdumpFacts {
  const facts: StackdumpFacts = { missing: false, rights: 'no-sudo', stackPids: new Map(), stackSockets: new Map() };
  let section: 'none' | 'list' | 'lots' = 'none';
  let currentStack: string | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.trimEnd();
    if (line === '@missing') facts.missing = true;
    else if (line.startsWith('@rights ')) facts.rights = line.slice(8);
    else if (line === '@list') section = 'list';
    else if (line === '@lots') section = 'lots';
    else if (line === '@end') section = 'none';
    else if (section === 'list') {
      // "0         -               12345,12346" (the real listing; pids comma separated)
      const match = /^\s*(\d+)\s+(\S+)\s+([\d,\s]+)$/.exec(line);
      if (match) facts.stackPids.set(match[1], match[3].split(/[,\s]+/).filter(Boolean).map(Number));
    } else if (section === 'lots') {
      // stack header: "ci_netif_dump_to_logger: stack=3 name=..." ; its owner line has "pid=N"
      const header = /\bstack=(\d+)\b/.exec(line);
      if (header) currentStack = header[1];
      const socket = /^\s*(TCP|UDP)\s+(\d+):\d+\s+lcl=(\S+):(\d+)\s+rmt=\S+\s+(\S+)/.exec(line);
      if (socket && socket[1] === 'TCP') {
        const stack = socket[2];
        const list = facts.stackSockets.get(stack) ?? [];
        list.push({ local: socket[3], port: Number(socket[4]), state: socket[5] });
        facts.stackSockets.set(stack, list);
      }
      const owner = /\bpid=(\d+)\b/.exec(line);
      if (owner && currentStack !== undefined && !facts.stackPids.has(currentStack)) facts.stackPids.set(currentStack, [Number(owner[1])]);
    }
  }
  return facts;
}

/** The verdict from memcached's facts and stackdump's. Pure. */
export function judgeAcceleration(process: Pick<ServerProcessFacts, 'pid' | 'name' | 'libonloadMapped'>, stackdump: StackdumpFacts, kvPort: number): AccelerationCheck {
  const rights = stackdump.rights;
  const who = process.pid !== undefined ? `${process.name ?? 'process'} ${process.pid} (KV listener)` : '';
  if (process.pid === undefined) return { accelerated: undefined, evidence: `nothing listens on the KV port ${kvPort}`, stacks: [], rights };
  if (stackdump.missing) return { accelerated: undefined, evidence: `onload_stackdump is not installed; ${who}${process.libonloadMapped ? ' maps libonload (which proves nothing)' : ''}`, stacks: [], rights };
  const stacks = [...stackdump.stackPids].filter(([, pids]) => pids.includes(process.pid as number)).map(([id]) => id);
  if (stacks.length === 0) {
    if (!rights.startsWith('sudo')) {
      return { accelerated: undefined, evidence: `${who} is not among the stacks onload_stackdump shows without root rights (sudo -n refused: ${rights.replace(/^no-sudo:?\s*/, '') || 'no reason given'}); it lists only the caller's own stacks`, stacks, rights };
    }
    return { accelerated: false, evidence: `${who} is in no Onload stack${process.libonloadMapped ? ' although it maps libonload' : ''}`, stacks, rights };
  }
  const sockets = stacks.flatMap((id) => (stackdump.stackSockets.get(id) ?? []).filter((socket) => socket.port === kvPort).map((socket) => `${socket.local}:${socket.port} ${socket.state}`));
  if (sockets.length === 0) {
    return { accelerated: false, evidence: `${who} owns Onload stack ${stacks.join(',')}, but its KV port ${kvPort} is not a socket of that stack (kernel fallback)`, stacks, rights };
  }
  return { accelerated: true, evidence: `${who} in Onload stack ${stacks.join(',')} with ${sockets.slice(0, 4).join(', ')}${sockets.length > 4 ? ` and ${sockets.length - 4} more` : ''}`, stacks, rights };
}

export async function checkAcceleration(session: RemoteSession, server: ResolvedServer, process: ServerProcessFacts, signal?: AbortSignal): Promise<AccelerationCheck> {
  const result = await session.run(stackdumpScript(), { step: 'check-acceleration', ...(signal ? { signal } : {}), timeoutMs: 60_000 });
  return judgeAcceleration(process, parseStackdump(result.stdout), server.kvPort);
}
