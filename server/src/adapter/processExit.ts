// How the server process ends: on `exit` and on the end of its input, whatever else is going on.
// The LSP asks a server to exit on `exit` (0 after `shutdown`, else 1); a client that goes away
// without it (closed stdin; eglot, ALE and scripts do) must not leave the server running until
// its process id disappears, or for ever when it gave none. `process.exit` waits for libuv's
// worker threads, so a file read stuck in the kernel (a network mount that stopped answering)
// would hold the process: a read still going after a second is taken for stuck, and the server
// then ends itself with SIGKILL, the one signal that cannot wait. A read just started is let
// finish (process.exit waits for it), so an ordinary exit keeps its exit code.
import { oldestReadAgeMs } from '../common/boundedRead';

const stuckAfterMs = 1000;

/** `oldestReadMs`: how long the oldest file read in progress has been going (a parameter for the test). */
export function exitProcess(code: number, oldestReadMs = oldestReadAgeMs()): never {
  if (oldestReadMs >= stuckAfterMs) process.kill(process.pid, 'SIGKILL');
  process.exit(code);
}
