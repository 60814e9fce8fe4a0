// Lab stand-in for the part of Onload that lives outside the accelerated process: the endpoints of
// an Onload stack and the kernel socket behind an accelerated listener (REAL-LAB O6, O7). Onload's
// drivers cannot load here, so the lab imitates what a reader of the server host can see:
// - `stack ADDR... PORT`: run (through `nsenter`) in the server's "Onload stack" network namespace,
//   which the lab makes per server (labNetwork.ts createOnloadStack): packets for the KV port that
//   arrive on an Onload NIC are redirected there by tc before the host's kernel sees them, as the
//   NIC hands them to Onload. The listener and its connections are therefore missing from the
//   host's /proc/net/tcp and from `ss`; the stand-in onload_stackdump lists them (O6).
// - `kernel ADDR... PORT`: the listener's kernel socket, for connections that arrive through an
//   interface that is not an Onload NIC (eth2, loopback): those are kernel sockets, visible in
//   /proc/net/tcp and in memcached's descriptor table (O6, "not accelerated even when the listener is").
// Either way the listener is held here, not by memcached (in real Onload it is in no process's
// descriptor table at all); each accepted connection is handed to memcached, the parent, over
// Node's IPC channel (fd 3). Started by the stand-in memcached (couchbaseServer.ts) through
// `sudo -n -C 4 /usr/local/sbin/onload-lab-stack` (hostFiles.ts), which only the lab's sudoers
// line for `couchbase` allows. It goes when memcached does (its IPC channel closes).
import { createServer, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';

function main(argv: string[]): void {
  const [where, ...rest] = argv;
  const port = Number(rest.pop());
  if (
    (where !== 'stack' && where !== 'kernel') ||
    !Number.isInteger(port) ||
    rest.length === 0 ||
    typeof process.send !== 'function'
  ) {
    process.stderr.write(
      'usage: onload-lab-stack stack|kernel ADDRESS... PORT (started by the lab memcached, with an IPC channel)\n',
    );
    process.exit(2);
  }
  try {
    writeFileSync('/proc/self/comm', where === 'stack' ? 'onload-lab-stk' : 'onload-lab-os');
  } catch {
    // the name only helps a reader of ps
  }
  const send = process.send.bind(process);
  let listening = 0;
  for (const address of rest) {
    const server = createServer({ pauseOnConnect: true }, (socket: Socket) => {
      send({ kind: 'kv', where }, socket); // Node closes its copy once sent
    });
    server.on('error', (error) => {
      process.stderr.write(`onload-lab-stack ${where}: ${address}:${port}: ${error.message}\n`);
      process.exit(1);
    });
    server.listen({ host: address, port, exclusive: true }, () => {
      listening += 1;
      if (listening === rest.length) send({ kind: 'listening', where, pid: process.pid });
    });
  }
  process.on('disconnect', () => process.exit(0));
}

main(process.argv.slice(2));
