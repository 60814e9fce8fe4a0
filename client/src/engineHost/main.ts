// Entry of dist/engineHost.js: runs one sweep in a plain Node process, forked by the extension.
// The Couchbase SDK's native module cannot load inside VS Code's extension host (Electron, or
// code-server's host that announces itself as Electron), and a long sweep should not share the
// editor's event loop. When the extension goes away (IPC disconnect) the run is aborted, so the
// engine still restores the hosts and closes the results file.
import { runSweep, SessionPool } from '../../../engine/src/index';
import { formatCommandLogLine, loggingSession, redactor } from './commandLog';
import type { FromEngine, ToEngine } from './protocol';

const abort = new AbortController();
let started = false;

function send(message: FromEngine): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected || !process.send) {
      resolve();
      return;
    }
    process.send(message, undefined, undefined, () => resolve());
  });
}

process.on('disconnect', () => abort.abort());

process.on('message', (message: ToEngine) => {
  if (message.type === 'abort') {
    abort.abort();
    return;
  }
  if (message.type !== 'run' || started) return;
  started = true;
  // The engine's own pool (below) gets its sessions from this one, wrapped so every remote command
  // reaches the log; this pool owns the SSH control sockets and is closed after the run.
  // ssh children get no copy of the password in their environment, whatever variable holds it
  const sessions = new SessionPool(message.request.ssh ?? {}, undefined, [message.request.password]);
  const redact = redactor(message.request.password);
  const sessionFactory = (host: string) =>
    loggingSession(
      sessions.get(host),
      (line) => void send({ type: 'remote', line: formatCommandLogLine(line) }),
      redact,
    );
  runSweep(
    { ...message.request, signal: abort.signal, onEvent: (event) => void send({ type: 'event', event }) },
    { sessionFactory },
  )
    .finally(() => sessions.closeAll())
    .then(
      (outcome) => send({ type: 'done', outcome }),
      (error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => {
      process.disconnect?.();
      // Open handles (a stuck SSH child) must not keep a finished engine alive.
      setTimeout(() => process.exit(0), 2000).unref();
    });
});
