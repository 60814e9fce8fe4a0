// Which process holds the other end of a loopback TCP connection: the lab's faults act on the real
// YCSB (its JVM) when the test node sees its Nth operation, and the node knows only the socket.
// Linux: the peer's socket is the /proc/net/tcp entry whose local and remote ends are the node's
// remote and local ends, or the /proc/net/tcp6 one with IPv4-mapped addresses (a JVM's sockets are
// IPv6 ones unless java.net.preferIPv4Stack is set); its inode is the `socket:[inode]` link in the
// owner's /proc/PID/fd.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** `127.0.0.2:11210` as /proc/net/tcp writes it: the address's bytes in host (little-endian) order, then the port. */
export function procNetAddress(address: string, port: number): string {
  const bytes = address.split('.').map(Number);
  if (bytes.length !== 4 || bytes.some((byte) => !Number.isInteger(byte) || byte < 0 || byte > 255))
    throw new Error(`not an IPv4 address: ${address}`);
  const hex = bytes
    .reverse()
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  return `${hex}:${port.toString(16).padStart(4, '0').toUpperCase()}`;
}

/** The same end as /proc/net/tcp6 writes an IPv4-mapped address (::ffff:a.b.c.d), word by word in host order. */
export function procNet6MappedAddress(address: string, port: number): string {
  const [v4, portHex] = procNetAddress(address, port).split(':');
  return `0000000000000000FFFF0000${v4}:${portHex}`;
}

/** The inode of the socket whose local end is `local` and remote end `remote` (both in procNetAddress form). */
export function socketInode(tcpTable: string, local: string, remote: string): string | undefined {
  for (const line of tcpTable.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] === local && fields[2] === remote) return fields[9];
  }
  return undefined;
}

/**
 * The pid of the process that holds the client end of a connection the node accepted, among the
 * processes `accept` agrees to (the lab passes its own id check); undefined if none.
 */
export function peerProcess(
  node: { address: string; port: number },
  peer: { address: string; port: number },
  accept: (pid: number) => boolean,
): number | undefined {
  const read = (path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  const inode =
    socketInode(
      read('/proc/net/tcp'),
      procNetAddress(peer.address, peer.port),
      procNetAddress(node.address, node.port),
    ) ??
    socketInode(
      read('/proc/net/tcp6'),
      procNet6MappedAddress(peer.address, peer.port),
      procNet6MappedAddress(node.address, node.port),
    );
  if (!inode || inode === '0') return undefined;
  const wanted = `socket:[${inode}]`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${name}/fd/${fd}`) === wanted) return accept(Number(name)) ? Number(name) : undefined;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
