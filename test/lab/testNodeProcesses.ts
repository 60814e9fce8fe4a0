// Starting and stopping Couchbase test nodes as processes of their own (testNodeProcess.ts) on this
// machine's loopback addresses, for the tests of issue 23's clusters: several nodes that share no
// memory, each stopped by its own process (stopAllTestNodes in a test file's after hook, also when
// a test failed).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface TestNodeProcess {
  address: string;
  restPort: number;
  kvPort: number;
  child: ChildProcess;
}

export interface TestNodeStart {
  username: string;
  password: string;
  faults?: Record<string, unknown>;
  /** Keeps the node's cluster membership across a restart (clusterMembership.ts `saved`). */
  membershipFile?: string;
  /** The ports to take again when a node restarts. */
  restPort?: number;
  kvPort?: number;
}

const running = new Set<ChildProcess>();

/** Starts a node on `address` and waits (60 s at most) for the ports it listens on. */
export async function startTestNode(address: string, start: TestNodeStart): Promise<TestNodeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'testNodeProcess.ts'), address], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdin!.write(`${JSON.stringify(start)}\n`);
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`test node on ${address} did not start in 60 s: ${err}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.slice(0, out.indexOf('\n')));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`test node on ${address} exited ${code}: ${err}`));
    });
  });
  return { address, child, ...(JSON.parse(line) as { restPort: number; kvPort: number }) };
}

/** Ends a node as its stdin closes (it stops its listeners first) and waits for its exit. */
export async function stopTestNode(node: TestNodeProcess): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => node.child.once('exit', () => resolve()));
  node.child.stdin?.end();
  await exited;
}

/** Kills every node still running (a test file's after hook). */
export function stopAllTestNodes(): void {
  for (const child of running) {
    child.stdin?.end();
    child.kill('SIGKILL');
  }
}
