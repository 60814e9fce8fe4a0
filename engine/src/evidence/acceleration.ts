// Is memcached really on Onload? A mapped libonload proves nothing: `onload` preloads it into every
// child of the babysitter (REAL-LAB O1), and sockets still fall back to the kernel on a non-Onload
// NIC, with EF_DONT_ACCELERATE or after a failed stack creation (O2). The proof: memcached's pid
// (found by what it is, serverProcess.ts) is among `onload_stackdump`'s stacks AND its KV
// listener or connections are sockets of that stack (`onload_stackdump lots`). It runs through
// `sudo -n`; a refusal makes the answer "unverified", never "not accelerated". Kernel cells are
// checked too.
//
// The real output (Xilinx-CNS/onload ef17681, read in src/tools/ip/ and src/lib/transport/ip/):
// - no argument (stackdump.c:643-653 → libstack.c:429-468 libstack_stack_mapping_print): nothing at
//   all when there are no stacks; else "#stack-id stack-name      pids", then per stack, highest id
//   first, "%-9d " + name "%-16s" ("-" unnamed, "<zombie>") + pids "a,b" or "-" + " ". A name of 16+
//   characters (up to 26) runs into the pids. A stack the caller may not map (another user's,
//   tcp_helper_resource.c:664 efab_thr_user_can_access_stack: same euid or uid 0) is
//   "<id>        inaccessible"; pids come from /proc/PID/fd links (libstack.c:159 is_onloaded),
//   so other users' processes are missing without root (O5). `list` is no command: "unknown
//   command: list" (stackdump.c:72).
// - `lots` (libstack.c:2273 stack_lots) per accessible stack: a "====" line, "ci_netif_dump_to_logger:
//   stack=N name=NAME" and "  Onload VERSION uid=U pid=CREATOR ns_flags=..." (netif_debug.c:852-860),
//   "pids: a,b" (libstack.c:353, wrapped at 61 columns, continuation indented 6), then per socket
//   "TCP N:S lcl=ADDR:PORT rmt=ADDR:PORT STATE" (waitable.c:337, ip_log.h:169/428) with indented
//   detail lines. IPv4 (and v4-mapped) dotted, IPv6 in brackets (ipvx.h:189-235); states are
//   Onload's spelling: LISTEN, ESTABLISHED, SYN-SENT, CLOSE-WAIT, TIME-WAIT, FIN-WAIT1... (tcp_misc.c:137).
//   Stacks the caller may not map: "User U:E cannot access full details of stack N(NAME) owned by
//   U:E share_with=S" on stderr (libstack.c:832-838).
// - without the drivers both print "Could not open /dev/onload (rc=-2) - check Onload drivers are
//   loaded" on stderr and exit 255 (libstack.c:283-287, stackdump.c:643); no stacks: exit 0, silent.
import type { ResolvedServer } from '../plan/planSchema';
import type { ServerProcessFacts } from '../server/serverProcess';
import type { RemoteSession } from '../remote/ssh';

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

/**
 * Prints the stack listing and `lots` under `@list`/`@lots` sections, through sudo -n when allowed.
 * The listing runs once under sudo: a failure of the tool itself (no drivers) is not a refusal by sudo.
 */
export function stackdumpScript(): string {
  return [
    'if ! command -v onload_stackdump >/dev/null 2>&1; then echo "@missing"; exit 0; fi',
    'sd="sudo -n onload_stackdump"',
    'if list=$(sudo -n onload_stackdump 2>&1); then echo "@rights sudo"',
    'else',
    '  case "$list" in',
    '    *"Could not open /dev/onload"*|*"should not itself be run under onload"*) echo "@rights sudo" ;;',
    '    *) echo "@rights no-sudo: $(printf \'%s\\n\' "$list" | head -n 1)"; sd="onload_stackdump"; list=$(onload_stackdump 2>&1) ;;',
    '  esac',
    'fi',
    'echo "@list"',
    'printf \'%s\\n\' "$list"',
    'echo "@lots"',
    '$sd lots 2>&1',
    'echo "@end"',
    'exit 0',
  ].join('\n');
}

export interface StackdumpSocket {
  local: string;
  port: number;
  state: string;
  /** `ADDR:PORT` of the other end (`0.0.0.0:0` for a listener). */
  remote?: string;
}

export interface StackdumpFacts {
  missing: boolean;
  rights: string;
  /** stack id → pids, from the listing's rows and `lots`' "pids:" lines (the creator's `pid=` when neither). */
  stackPids: Map<string, number[]>;
  /** stack id → its TCP sockets, from `lots` ("TCP 3:5 lcl=A:P rmt=B:Q STATE"). */
  stackSockets: Map<string, StackdumpSocket[]>;
  /** Stacks the caller may not map (another user's, without root): listed "inaccessible". */
  inaccessible: string[];
  /** The tool's own failure, e.g. "Could not open /dev/onload (rc=-2) - check Onload drivers are loaded". */
  failure?: string;
}

const pidList = /^(?:\d+,)*\d+$/;

/** A listing row: "%-9d " id, "%-16s" name, pids or "-"; a name of 16+ characters runs into the pids. */
function parseListingRow(line: string): { id: string; pids: number[]; inaccessible: boolean } | undefined {
  const row = /^(\d+)\s+(\S.*?)\s*$/.exec(line);
  if (!row) return undefined;
  const [, id, rest] = row;
  if (rest === 'inaccessible') return { id, pids: [], inaccessible: true };
  const tokens = rest.split(/\s+/);
  const last = tokens[tokens.length - 1];
  let pids: string;
  if (tokens.length >= 2 && (last === '-' || pidList.test(last))) pids = last === '-' ? '' : last;
  else if (tokens.length === 1) pids = /^.{16,}?((?:\d+,)*\d+)$/.exec(rest)?.[1] ?? '';
  else return undefined;
  return { id, pids: pids ? pids.split(',').map(Number) : [], inaccessible: false };
}

function addPids(map: Map<string, number[]>, stack: string, pids: number[]): void {
  const known = map.get(stack) ?? [];
  map.set(stack, [...known, ...pids.filter((pid) => !known.includes(pid))]);
}

/** Reads the output of `stackdumpScript`. Pure; tolerant of extra lines and fields. */
export function parseStackdump(output: string): StackdumpFacts {
  const facts: StackdumpFacts = {
    missing: false,
    rights: 'no-sudo',
    stackPids: new Map(),
    stackSockets: new Map(),
    inaccessible: [],
  };
  const creators = new Map<string, number>();
  let section: 'none' | 'list' | 'lots' = 'none';
  let currentStack: string | undefined;
  let inPids = false;
  for (const raw of output.split('\n')) {
    const line = raw.trimEnd();
    const wasInPids = inPids;
    inPids = false;
    if (line === '@missing') facts.missing = true;
    else if (line.startsWith('@rights ')) facts.rights = line.slice(8);
    else if (line === '@list') section = 'list';
    else if (line === '@lots') section = 'lots';
    else if (line === '@end') section = 'none';
    else if (section === 'none') continue;
    else if (/^Could not open \/dev\/onload|should not itself be run under onload/.test(line)) facts.failure ??= line;
    else if (/cannot access full details of stack (\d+)/.test(line)) {
      const id = /cannot access full details of stack (\d+)/.exec(line)?.[1] as string;
      if (!facts.inaccessible.includes(id)) facts.inaccessible.push(id);
    } else if (section === 'list') {
      const row = parseListingRow(line);
      if (!row) continue;
      if (row.inaccessible) {
        if (!facts.inaccessible.includes(row.id)) facts.inaccessible.push(row.id);
      } else addPids(facts.stackPids, row.id, row.pids);
    } else {
      if (/^=+$/.test(line)) currentStack = undefined;
      const header = /^\w+: stack=(\d+)\b/.exec(line);
      if (header) currentStack = header[1];
      const creator = /^\s+\S+ \S+ uid=-?\d+ pid=(\d+) ns_flags=/.exec(line);
      if (creator && currentStack !== undefined) creators.set(currentStack, Number(creator[1]));
      const pids = /^pids: ([\d,]+)$/.exec(line) ?? (wasInPids ? /^ {6}([\d,]+)$/.exec(line) : null);
      if (pids && currentStack !== undefined) {
        addPids(facts.stackPids, currentStack, pids[1].split(',').filter(Boolean).map(Number));
        inPids = true;
      }
      const socket = /^(TCP|UDP) (\d+):\d+ lcl=(\S+):(\d+) rmt=(\S+:\d+) (\S+)/.exec(line);
      if (socket && socket[1] === 'TCP') {
        const list = facts.stackSockets.get(socket[2]) ?? [];
        list.push({ local: socket[3], port: Number(socket[4]), state: socket[6], remote: socket[5] });
        facts.stackSockets.set(socket[2], list);
      }
    }
  }
  // --nopids or a pid that has gone: the stack's creator is the best left
  for (const [stack, pid] of creators) if (!facts.stackPids.get(stack)?.length) facts.stackPids.set(stack, [pid]);
  return facts;
}

/** The verdict from memcached's facts and stackdump's. Pure. */
export function judgeAcceleration(
  process: Pick<ServerProcessFacts, 'pid' | 'name' | 'libonloadMapped' | 'foundBy'>,
  stackdump: StackdumpFacts,
  kvPort: number,
): AccelerationCheck {
  const rights = stackdump.rights;
  // how memcached was found is in evidence.server.process.foundBy; only the listener fallback is said here
  const who =
    process.pid !== undefined
      ? `${process.name ?? 'process'} ${process.pid}${process.foundBy === undefined || process.foundBy === 'its KV listener' ? ' (KV listener)' : ''}`
      : '';
  if (process.pid === undefined)
    return {
      accelerated: undefined,
      evidence: `no memcached of this installation was found and nothing listens on the KV port ${kvPort} as a kernel socket`,
      stacks: [],
      rights,
    };
  if (stackdump.missing)
    return {
      accelerated: undefined,
      evidence: `onload_stackdump is not installed; ${who}${process.libonloadMapped ? ' maps libonload (which proves nothing)' : ''}`,
      stacks: [],
      rights,
    };
  if (stackdump.failure !== undefined) {
    // no /dev/onload (rc -ENOENT/-ENXIO): no process can have a stack; anything else (a driver of
    // another version, the tool run under onload) leaves the question open
    const noDrivers = /check Onload drivers are loaded/.test(stackdump.failure);
    return {
      accelerated: noDrivers ? false : undefined,
      evidence: `${noDrivers ? 'the Onload drivers are not loaded' : 'onload_stackdump failed'} (${stackdump.failure}); ${who}${process.libonloadMapped ? ' maps libonload (which proves nothing)' : ''}`,
      stacks: [],
      rights,
    };
  }
  const stacks = [...stackdump.stackPids].filter(([, pids]) => pids.includes(process.pid as number)).map(([id]) => id);
  if (stacks.length === 0) {
    if (!rights.startsWith('sudo')) {
      const hidden =
        stackdump.inaccessible.length > 0
          ? `; stack${stackdump.inaccessible.length > 1 ? 's' : ''} ${stackdump.inaccessible.join(',')} inaccessible to this user`
          : '';
      return {
        accelerated: undefined,
        evidence: `${who} is not among the stacks onload_stackdump shows without root rights (sudo -n refused: ${rights.replace(/^no-sudo:?\s*/, '') || 'no reason given'}); it lists only the caller's own stacks${hidden}`,
        stacks,
        rights,
      };
    }
    return {
      accelerated: false,
      evidence: `${who} is in no Onload stack${process.libonloadMapped ? ' although it maps libonload' : ''}`,
      stacks,
      rights,
    };
  }
  const sockets = stacks.flatMap((id) =>
    (stackdump.stackSockets.get(id) ?? [])
      .filter((socket) => socket.port === kvPort)
      .map((socket) => `${socket.local}:${socket.port} ${socket.state}`),
  );
  if (sockets.length === 0) {
    return {
      accelerated: false,
      evidence: `${who} owns Onload stack ${stacks.join(',')}, but its KV port ${kvPort} is not a socket of that stack (kernel fallback)`,
      stacks,
      rights,
    };
  }
  return {
    accelerated: true,
    evidence: `${who} in Onload stack ${stacks.join(',')} with ${sockets.slice(0, 4).join(', ')}${sockets.length > 4 ? ` and ${sockets.length - 4} more` : ''}`,
    stacks,
    rights,
  };
}

/**
 * The verdict for memcached as found; `stackdumpOutput` is the `stackdumpScript` output when it ran
 * in the same trip as the look-up, else the script runs now.
 */
export async function checkAcceleration(
  session: RemoteSession,
  server: ResolvedServer,
  process: ServerProcessFacts,
  signal?: AbortSignal,
  stackdumpOutput?: string,
): Promise<AccelerationCheck> {
  const output =
    stackdumpOutput ??
    (
      await session.run(stackdumpScript(), {
        step: 'check-acceleration',
        ...(signal ? { signal } : {}),
        timeoutMs: 60_000,
      })
    ).stdout;
  return judgeAcceleration(process, parseStackdump(output), server.kvPort);
}
