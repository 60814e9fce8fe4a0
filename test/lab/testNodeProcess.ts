// One Couchbase test node in a process of its own, for tests that need several nodes that do not
// share memory (issue 23's cluster of test nodes on this machine's loopback addresses). The
// address comes as the argument; the admin's name and password as one JSON line on stdin (never on
// a command line), with optionally the file that keeps its cluster membership across a restart
// and the ports to take again; the node's ports go to stdout as one JSON line. It stops at the end of stdin.
import { startCouchbaseTestNode } from './couchbaseTestNode';

const address = process.argv[2] ?? '127.0.0.1';
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  input += chunk;
  const newline = input.indexOf('\n');
  if (newline < 0 || started) return;
  started = true;
  const { username, password, faults, membershipFile, restPort, kvPort } = JSON.parse(input.slice(0, newline)) as {
    username: string;
    password: string;
    faults?: Record<string, unknown>;
    membershipFile?: string;
    restPort?: number;
    kvPort?: number;
  };
  void startCouchbaseTestNode({
    addresses: [address],
    username,
    password,
    nodeName: address,
    faults: () => faults ?? {},
    log: (line) => process.stderr.write(`${line}\n`),
    ...(membershipFile !== undefined ? { membershipFile } : {}),
    ...(restPort !== undefined ? { restPort } : {}),
    ...(kvPort !== undefined ? { kvPort } : {}),
  }).then((node) => {
    process.stdout.write(`${JSON.stringify({ restPort: node.restPort, kvPort: node.kvPort })}\n`);
    process.stdin.on('end', () => void node.stop().then(() => process.exit(0)));
  });
});
let started = false;
