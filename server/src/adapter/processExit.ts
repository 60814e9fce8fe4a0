// How the server process ends: on `exit` and on the end of its input, whatever else is going on.
// The LSP asks a server to exit on `exit` (0 after `shutdown`, else 1); a client that goes away
// without it (closed stdin; eglot, ALE and scripts do) must not leave the server running until
// its process id disappears, or for ever when it gave none. `process.exit` waits for libuv's
// worker threads, so a file read stuck in the kernel (a network mount that stopped answering)
// would hold the process: then the server ends itself with SIGKILL, the one signal that cannot wait.
import { filesBeingRead } from '../common/boundedRead';

/** `reads`: file reads in progress (the bounded reader's count; a parameter for the test). */
export function exitProcess(code: number, reads = filesBeingRead()): never {
  if (reads > 0) process.kill(process.pid, 'SIGKILL');
  process.exit(code);
}
