// The lab's Onload stand-in seen the way Onload's own source says a reader of the server sees a
// real Onload stack (REAL-LAB O6, O7; lab option onloadNics, standins/onloadStack.ts): memcached's
// IPv4 KV listener and the connections that come through an Onload NIC are in no /proc/net/tcp of
// the server and in no socket of memcached's descriptor table, and only `onload_stackdump lots`
// shows them, with their addresses; its IPv6 listener stays a kernel socket; a connection through
// an interface the lab declares "not an Onload NIC" stays a kernel socket of memcached.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { labUnavailable, startLab, type Lab } from '../lab/index';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A memcached binary NOOP answered: proof that the connection carries traffic both ways. */
async function noop(host: string, port: number): Promise<Socket> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const each = connect({ host, port }, () => resolve(each));
    each.once('error', reject);
  });
  const header = Buffer.alloc(24);
  header[0] = 0x80;
  header[1] = 0x0a;
  const answer = await new Promise<Buffer>((resolve, reject) => {
    socket.once('data', resolve);
    socket.once('error', reject);
    socket.write(header);
  });
  assert.equal(answer[0], 0x81, `${host}: a memcached answer`);
  return socket;
}

/** `ADDR:PORT` of every TCP socket of a /proc/net/tcp{,6} text, with its state, as hex fields. */
function kvEntries(text: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 9 && fields[1].endsWith(`:${hexPort}`))
    .map((fields) => `${fields[1]} ${fields[2]} ${fields[3]} ${fields[9]}`);
}

/** An IPv4 address as /proc/net/tcp prints it (little-endian hex). */
function procHex(address: string): string {
  return address
    .split('.')
    .map((byte) => Number(byte).toString(16).toUpperCase().padStart(2, '0'))
    .reverse()
    .join('');
}

describe("the lab's Onload stack (REAL-LAB O6, O7)", { skip: labUnavailable() }, () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({ onloadNics: ['eth0', 'eth1'] });
  });
  after(async () => {
    await lab?.stop();
  });

  it(
    "hides the accelerated IPv4 listener and Onload-NIC connections from /proc/net and memcached's sockets; onload_stackdump lots shows them",
    { timeout: 90_000 },
    async () => {
      assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server')).code, 0);
      await lab.ssh(
        lab.serverHost,
        `setsid sudo -n -u couchbase onload --profile=latency ${lab.couchbaseServerPath} -- -noinput > cb.log 2>&1 < /dev/null &`,
      );
      for (let i = 0; i < 150 && lab.couchbaseState().pid === undefined; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const pid = lab.couchbaseState().pid;
      assert.ok(pid !== undefined, `memcached runs: ${(await lab.ssh(lab.serverHost, 'cat cb.log')).stdout}`);
      const [onloadNic, , otherNic] = lab.interfaces.map((each) => each.address);
      const port = lab.couchbase.kvPort;
      const sockets: Socket[] = [];
      try {
        sockets.push(
          await noop(onloadNic, port),
          await noop(otherNic, port),
          await noop(lab.ipv6Interface.address, port),
        );
        const tcp = kvEntries((await lab.ssh(lab.serverHost, 'cat /proc/net/tcp')).stdout, port);
        const tcp6 = kvEntries((await lab.ssh(lab.serverHost, 'cat /proc/net/tcp6')).stdout, port);
        // O6: nothing of the Onload NICs (eth0, eth1) in /proc/net/tcp
        assert.deepEqual(
          tcp.filter(
            (entry) => entry.startsWith(procHex(onloadNic)) || entry.startsWith(procHex(lab.interfaces[1].address)),
          ),
          [],
          tcp.join('\n'),
        );
        // O6: the connection through eth2 (no Onload NIC) is a kernel socket, established, memcached's
        const kernelConnection = tcp.find(
          (entry) => entry.startsWith(`${procHex(otherNic)}:`) && entry.split(' ')[2] === '01',
        );
        assert.ok(kernelConnection, `eth2's connection in /proc/net/tcp:\n${tcp.join('\n')}`);
        // O7: the IPv6 listener and its connection are kernel sockets
        assert.equal(tcp6.filter((entry) => entry.split(' ')[2] === '0A').length, 1, tcp6.join('\n'));
        assert.equal(tcp6.filter((entry) => entry.split(' ')[2] === '01').length, 1, tcp6.join('\n'));
        // memcached's descriptor table: its sockets are exactly the kernel ones (IPv6 listener and
        // connection, eth2's connection); no listener of /proc/net/tcp is its own
        const fds = (await lab.ssh(lab.serverHost, `sudo -n sh -c 'ls -l /proc/${pid}/fd'`)).stdout;
        const inodes = new Set([...fds.matchAll(/socket:\[(\d+)\]/g)].map((match) => match[1]));
        const visible = [...tcp, ...tcp6].filter((entry) => inodes.has(entry.split(' ')[3]));
        assert.deepEqual(
          visible.map((entry) => entry.split(' ')[2]).sort(),
          ['01', '01', '0A'],
          `memcached's kernel sockets on ${port}:\n${visible.join('\n')}`,
        );
        // O6: only onload_stackdump lots shows the stack's listeners and the eth0 connection, with addresses
        const lots = (await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump lots')).stdout;
        const memcachedStack =
          lots
            .split('============================================================')
            .find((section) => new RegExp(`^pids: ${pid}$`, 'm').test(section)) ?? '';
        const listed = [...memcachedStack.matchAll(/^TCP \d+:\d+ lcl=(\S+) rmt=(\S+) (\S+)$/gm)].map(
          (match) => `${match[1]} ${match[2]} ${match[3]}`,
        );
        const local = sockets[0].localAddress!;
        const localPort = sockets[0].localPort!;
        assert.deepEqual(
          listed.sort(),
          [
            `${lab.interfaces[0].address}:${port} 0.0.0.0:0 LISTEN`,
            `${lab.interfaces[1].address}:${port} 0.0.0.0:0 LISTEN`,
            `${onloadNic}:${port} ${local}:${localPort} ESTABLISHED`,
          ].sort(),
          lots,
        );
        assert.doesNotMatch(memcachedStack, new RegExp(`lcl=${escape(otherNic)}:`), 'eth2 is not an Onload NIC');
      } finally {
        for (const socket of sockets) socket.destroy();
        await lab.ssh(lab.serverHost, `sudo -n -u couchbase ${lab.couchbaseServerPath} -k`);
      }
    },
  );
});
