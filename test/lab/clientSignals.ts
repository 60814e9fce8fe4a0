// Faults on the real YCSB (issue 20) across the lab's real hosts (issue 19): the test node sees its
// Nth operation in the server host, but YCSB's JVM runs in a client host, in PID and network
// namespaces the node cannot see. So the node writes a request (which connection, which signal)
// into a folder bound from this machine into the server host, and the lab, on this machine where
// every host's processes and /proc/<pid>/net tables are visible, finds the process that holds the
// client's end of that connection in the host that has the client's address, and signals it.
import { readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { procNet6MappedAddress, procNetAddress, socketInode } from './socketOwner';

/** Inside the server host: where the node leaves its requests (a writable bind of the lab's `signals/`). */
export const hostSignalsDir = '/var/lib/onload-bench-lab/signals';

export interface ClientSignalRequest {
  nodeAddress: string;
  nodePort: number;
  clientAddress: string;
  clientPort: number;
  signal: NodeJS.Signals;
}

/** In the server host (the stand-in memcached): asks the lab to signal the client's process; returns what it logged. */
export function requestClientSignal(connection: Omit<ClientSignalRequest, 'signal'>, signal: NodeJS.Signals): string {
  const request: ClientSignalRequest = { ...connection, signal };
  const name = `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.json`;
  try {
    // complete files only: written aside, then renamed, so the lab never reads half a request
    writeFileSync(join(hostSignalsDir, `.${name}`), JSON.stringify(request));
    renameSync(join(hostSignalsDir, `.${name}`), join(hostSignalsDir, name));
  } catch (error) {
    return `could not ask the lab for ${signal} (${String(error)})`;
  }
  return `${signal} asked of the lab for the process holding ${connection.clientAddress}:${connection.clientPort}`;
}

/** On this machine: the pid (this machine's) holding `request`'s client end in the host whose init is `leaderPid`. */
export function clientProcess(leaderPid: number, request: ClientSignalRequest): number | undefined {
  const read = (path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  let inode: string | undefined;
  try {
    // the host's own tables: /proc/<pid>/net is the network namespace of that process
    inode =
      socketInode(
        read(`/proc/${leaderPid}/net/tcp`),
        procNetAddress(request.clientAddress, request.clientPort),
        procNetAddress(request.nodeAddress, request.nodePort),
      ) ??
      socketInode(
        read(`/proc/${leaderPid}/net/tcp6`),
        procNet6MappedAddress(request.clientAddress, request.clientPort),
        procNet6MappedAddress(request.nodeAddress, request.nodePort),
      );
  } catch {
    return undefined; // an IPv6 connection: no fault test uses one
  }
  if (!inode || inode === '0') return undefined;
  const netns = (pid: number | string): string | undefined => {
    try {
      return readlinkSync(`/proc/${pid}/ns/net`);
    } catch {
      return undefined;
    }
  };
  const hostNetns = netns(leaderPid);
  const wanted = `socket:[${inode}]`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || netns(name) !== hostNetns) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${name}/fd/${fd}`) === wanted) return Number(name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/**
 * On this machine: reads the requests in `dir` (this machine's side of hostSignalsDir) every
 * `everyMs`, signals each client's process in the host `hostOf(clientAddress)` names, and removes
 * the request. Returns the stop function.
 */
export function serveClientSignals(
  dir: string,
  hostOf: (clientAddress: string) => number | undefined,
  log: (line: string) => void,
  everyMs = 50,
): () => void {
  const timer = setInterval(() => {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .sort();
    } catch {
      return;
    }
    for (const name of names) {
      const file = join(dir, name);
      let request: ClientSignalRequest;
      try {
        request = JSON.parse(readFileSync(file, 'utf8')) as ClientSignalRequest;
      } catch {
        continue;
      } finally {
        rmSync(file, { force: true });
      }
      const leader = hostOf(request.clientAddress);
      const pid = leader === undefined ? undefined : clientProcess(leader, request);
      if (pid === undefined) {
        log(`client signal: no process holds ${request.clientAddress}:${request.clientPort} on a lab host`);
        continue;
      }
      try {
        process.kill(pid, request.signal);
        log(`client signal: ${request.signal} sent to ${pid} (${request.clientAddress}:${request.clientPort})`);
      } catch (error) {
        log(`client signal: ${request.signal} to ${pid} failed: ${String(error)}`);
      }
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
