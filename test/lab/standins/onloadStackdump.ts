// Stand-in `onload_stackdump` inside the lab hosts, printing what the real tool prints (Xilinx-CNS/
// onload ef17681, src/tools/ip/stackdump.c main, libstack.c; REAL-LAB O5, test/lab/README.md). One
// "stack" per live process registered by the stand-in `onload` or by the stand-in Couchbase's
// processes started under it (every child of an accelerated babysitter inherits it, as every child
// maps libonload under the real launcher, O1): a file /run/onload-bench-lab/stacks/<pid> owned by
// that process's user, holding EF_NAME; numbered in pid order. The caller is the real user running
// this (root under sudo); only root or the stack's owner may map a stack (tcp_helper_resource.c:664).
//   (no argument) nothing when there are no stacks; else "#stack-id stack-name      pids" and per
//                 stack, highest id first, "%-9d %-16s<pids> " (name "-" when unnamed), or
//                 "%-9d inaccessible" for a stack the caller may not map (libstack.c:429-468)
//   lots          "User U:E cannot access full details of stack N(NAME) owned by U:E share_with=0"
//                 on stderr per stack the caller may not map (libstack.c:832-838); per accessible
//                 stack, lowest id first, the "====" line, "ci_netif_dump_to_logger: stack=N
//                 name=NAME", "  Onload VERSION uid=U pid=P ns_flags=80" (netif_debug.c:852-860),
//                 "pids: P" (libstack.c:353), the sockets banner, and per TCP socket the process holds
//                 (/proc/net/tcp{,6} and its fds; with the lab's Onload NICs, every socket of the stack's
// own namespace, standins/onloadStack.ts, REAL-LAB O6) "TCP N:S lcl=A:P rmt=B:Q STATE" with Onload's state
//                 names and address forms (waitable.c:337, tcp_misc.c:137, ipvx.h:189-235) and a few
//                 indented detail lines; the statistics sections are left out (only their banners)
//   stacks        as no argument; any other word: "unknown command: WORD" (stackdump.c:72), exit 0
// Without the drivers (the onloadDriversMissing fault; the lab's "drivers" are otherwise loaded): "Could not open
// /dev/onload (rc=-2) - check Onload drivers are loaded" on stderr, exit 255 (libstack.c:283-287).
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stacksDir } from '../hostFiles';
import { isAlive, loadHostConfig, readPidFile } from '../labFiles';

// /proc/net/tcp's state codes → Onload's names (tcp_misc.c:137); SYN_RECV is no socket in Onload
const states: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN-SENT',
  '04': 'FIN-WAIT1',
  '05': 'FIN-WAIT2',
  '06': 'TIME-WAIT',
  '07': 'CLOSED',
  '08': 'CLOSE-WAIT',
  '09': 'LAST-ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/** Onload's IPv6 form (ipvx.h ci_get_ip_str): bracketed, one run of zeros as "::", with its quirks. */
function onloadIpv6(groups: number[]): string {
  let out = '[';
  let inZero = false;
  let beenInZero = false;
  groups.forEach((group, index) => {
    if (index !== 0 && !inZero) out += ':';
    if (group === 0 && (inZero || !beenInZero)) {
      beenInZero = true;
      if (!inZero) {
        inZero = true;
        out += ':';
      }
    } else {
      inZero = false;
      out += group.toString(16);
    }
  });
  return `${out}${inZero ? ':' : ''}]`;
}

/** "0100007F:2BCA" (or 32 hex digits of IPv6) → Onload's "ADDR:PORT". */
function decode(hex: string): string {
  const [address, port] = hex.split(':');
  const portNumber = Number.parseInt(port, 16);
  if (address.length === 8)
    return `${address
      .match(/../g)!
      .map((byte) => Number.parseInt(byte, 16))
      .reverse()
      .join('.')}:${portNumber}`;
  const bytes = (address.match(/.{8}/g) ?? []).flatMap((word) =>
    word
      .match(/../g)!
      .map((byte) => Number.parseInt(byte, 16))
      .reverse(),
  );
  // IPv4-mapped addresses print as IPv4 (ipvx.h ci_is_addr_ip6)
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return `${bytes.slice(12).join('.')}:${portNumber}`;
  const groups = Array.from({ length: 8 }, (_, index) => bytes[2 * index] * 256 + bytes[2 * index + 1]);
  return `${onloadIpv6(groups)}:${portNumber}`;
}

/** TCP sockets by inode, from /proc/net/tcp and tcp6 (of `netDir`'s namespace). */
function tcpByInode(netDir = '/proc/net'): Map<string, { local: string; remote: string; state: string }> {
  const out = new Map<string, { local: string; remote: string; state: string }>();
  for (const file of [`${netDir}/tcp`, `${netDir}/tcp6`]) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || states[fields[3]] === undefined) continue;
      out.set(fields[9], { local: decode(fields[1]), remote: decode(fields[2]), state: states[fields[3]] });
    }
  }
  return out;
}

function socketInodes(pid: number): string[] {
  const out: string[] = [];
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) out.push(match[1]);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone
  }
  return out;
}

/** Registered stacks whose process still runs, in pid order. */
function registeredStacks(): { pid: number; owner: number; name: string }[] {
  let names: string[];
  try {
    names = readdirSync(stacksDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => /^\d+$/.test(name) && isAlive(Number(name)))
    .map((name) => {
      const file = join(stacksDir, name);
      let owner = 0;
      let stackName = '';
      try {
        owner = statSync(file).uid;
        stackName = readFileSync(file, 'utf8').trim();
      } catch {
        // gone meanwhile
      }
      return { pid: Number(name), owner, name: stackName };
    })
    .sort((a, b) => a.pid - b.pid);
}

function main(argv: string[]): number {
  if (argv.includes('--version')) {
    process.stdout.write('onload_stackdump (lab stand-in)\n');
    return 0;
  }
  const host = loadHostConfig();
  if (existsSync(join(host.faultsDir, 'onloadDriversMissing'))) {
    process.stderr.write('Could not open /dev/onload (rc=-2) - check Onload drivers are loaded\n');
    return 255;
  }
  const caller = process.getuid?.() ?? 0;
  const stacks = registeredStacks().map((stack, id) => ({
    id,
    pid: stack.pid,
    owner: stack.owner,
    name: stack.name,
    accessible: caller === 0 || stack.owner === caller,
  }));
  const command = argv[0];
  if (command === undefined || command === 'stacks') {
    if (stacks.length === 0) return 0;
    const lines = ['#stack-id stack-name      pids'];
    for (const stack of [...stacks].reverse()) {
      const id = `${String(stack.id).padEnd(9)} `;
      lines.push(stack.accessible ? `${id}${(stack.name || '-').padEnd(16)}${stack.pid} ` : `${id}inaccessible`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  if (command !== 'lots') {
    process.stdout.write(`unknown command: ${command}\n`);
    return 0;
  }
  const callerGid = process.getgid?.() ?? 0;
  for (const stack of stacks.filter((each) => !each.accessible)) {
    process.stderr.write(
      `User ${caller}:${callerGid} cannot access full details of stack ${stack.id}(${stack.name}) owned by ${stack.owner}:${stack.owner} share_with=0\n`,
    );
  }
  const sockets = tcpByInode();
  const lines: string[] = [];
  for (const stack of stacks.filter((each) => each.accessible)) {
    const uid = stack.owner;
    lines.push('============================================================');
    lines.push(`ci_netif_dump_to_logger: stack=${stack.id} name=${stack.name}`);
    lines.push(
      `  Onload ${process.env.ONLOAD_BENCH_LAB_ONLOAD_VERSION ?? host.versions.onload} uid=${uid} pid=${stack.pid} ns_flags=80`,
    );
    lines.push(`ci_netif_dump_extra_to_logger: stack=${stack.id}`);
    lines.push('  in_poll=0 post_poll_list_empty=1 poll_did_wake=0');
    lines.push(`pids: ${stack.pid}`);
    lines.push('--------------------- sockets ------------------------------');
    let socketId = 1;
    // with the lab's Onload NICs (lab option onloadNics), the stack's sockets are those of its own
    // namespace: the listener and the connections that came through an Onload NIC, and no kernel socket
    const netPid = readPidFile(join(stacksDir, `${stack.pid}.net`));
    const stackSockets =
      netPid !== undefined && isAlive(netPid) ? [...tcpByInode(`/proc/${netPid}/net`).values()] : undefined;
    for (const socket of stackSockets ?? socketInodes(stack.pid).map((inode) => sockets.get(inode))) {
      if (!socket) continue;
      lines.push(`TCP ${stack.id}:${socketId++} lcl=${socket.local} rmt=${socket.remote} ${socket.state}`);
      lines.push('  lock: 0 ');
      lines.push(`  uid=${uid} s_flags: BOUND`);
      lines.push('------------------------------------------------------------');
    }
    lines.push('--------------------- config opts --------------------------');
    lines.push('--------------------- stack time ---------------------------');
    lines.push('--------------------- process env --------------------------');
  }
  process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return 0;
}

process.exit(main(process.argv.slice(2)));
