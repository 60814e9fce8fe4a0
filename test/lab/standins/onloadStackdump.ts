// Stand-in `onload_stackdump` for the loopback lab. One "stack" per process started under the
// stand-in `onload` of this lab (every child of an accelerated babysitter inherits it, as every
// child maps libonload under the real launcher, REAL-LAB O1). Like the real tool (O5), it lists
// only the caller's own stacks unless the caller is root: the caller is the lab's user-equivalent
// ONLOAD_BENCH_LAB_USER (`bench` in SSH sessions, `root` under sudo), a stack's owner that of the
// process. Output:
//   (no argument)  #stack-id stack-name      pids
//                  0         -               12345
//   lots           per stack a header ("ci_netif_dump_to_logger: stack=N name=X" and its owner line
//                  with uid= and pid=), then one line per TCP socket the process holds:
//                  "TCP N:M lcl=A:P rmt=B:Q STATE" (read from /proc/net/tcp and the process's fds)
// Exit 0 even when there are no stacks, as the real tool.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { labProcesses } from '../processes';

const states: Record<string, string> = { '01': 'ESTABLISHED', '0A': 'LISTEN', '06': 'TIME_WAIT', '08': 'CLOSE_WAIT' };

function decode(hex: string): string {
  const [address, port] = hex.split(':');
  const portNumber = Number.parseInt(port, 16);
  if (address.length === 8) return `${address.match(/../g)!.map((byte) => Number.parseInt(byte, 16)).reverse().join('.')}:${portNumber}`;
  const bytes = (address.match(/.{8}/g) ?? []).flatMap((word) => word.match(/../g)!.map((byte) => Number.parseInt(byte, 16)).reverse());
  if (bytes[10] === 0xff && bytes[11] === 0xff) return `${bytes.slice(12).join('.')}:${portNumber}`;
  return `[v6]:${portNumber}`;
}

/** TCP sockets by inode, from /proc/net/tcp and tcp6. */
function tcpByInode(): Map<string, { local: string; remote: string; state: string }> {
  const out = new Map<string, { local: string; remote: string; state: string }>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      out.set(fields[9], { local: decode(fields[1]), remote: decode(fields[2]), state: states[fields[3]] ?? fields[3] });
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

function main(argv: string[]): number {
  const labId = process.env.ONLOAD_BENCH_LAB_ID ?? '';
  if (argv.includes('--version')) {
    process.stdout.write('onload_stackdump (loopback lab stand-in)\n');
    return 0;
  }
  const caller = process.env.ONLOAD_BENCH_LAB_USER ?? 'root';
  const stacks = labProcesses(labId)
    .filter((info) => info.env.get('ONLOAD_BENCH_LAB_ACCELERATED') === '1')
    .filter((info) => caller === 'root' || (info.env.get('ONLOAD_BENCH_LAB_USER') ?? 'root') === caller)
    .sort((a, b) => a.pid - b.pid);
  if (argv[0] === 'lots') {
    const sockets = tcpByInode();
    const lines: string[] = [];
    stacks.forEach((info, index) => {
      const owner = info.env.get('ONLOAD_BENCH_LAB_USER') ?? 'root';
      lines.push('============================================================');
      lines.push(`ci_netif_dump_to_logger: stack=${index} name=${info.env.get('EF_NAME') ?? ''}`);
      lines.push(`  ver=lab uid=${owner === 'root' ? 0 : 996} pid=${info.pid} ns_flags=0`);
      let socketId = 1;
      for (const inode of socketInodes(info.pid)) {
        const socket = sockets.get(inode);
        if (socket) lines.push(`TCP ${index}:${socketId++} lcl=${socket.local} rmt=${socket.remote} ${socket.state}`);
      }
    });
    process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
    return 0;
  }
  const lines = ['#stack-id stack-name      pids'];
  stacks.forEach((info, index) => {
    const name = info.env.get('EF_NAME') || '-';
    lines.push(`${String(index).padEnd(10)}${name.padEnd(16)}${info.pid}`);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

process.exit(main(process.argv.slice(2)));
