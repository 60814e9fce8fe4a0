// Entry point of dist/server.js. With `--stdio` it serves any LSP client; started by the VS Code
// client it talks over IPC (`--node-ipc`). Both transports go through the life-cycle gate
// (lifecycle.ts); stdio also through the frame guard (frameGuard.ts), because only a byte stream
// can carry a broken header. Other transports (`--socket`, `--pipe`) are left to the library.
// The process ends on `exit` and at the end of stdin (processExit.ts).
import {
  createConnection,
  IPCMessageReader,
  IPCMessageWriter,
  type MessageReader,
  type MessageWriter,
  ProposedFeatures,
  type ResponseMessage,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver/node';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FrameGuard } from './adapter/frameGuard';
import { LifecycleGate, parseError } from './adapter/lifecycle';
import { exitProcess } from './adapter/processExit';
import { startServer } from './server';

function transport(): { reader: MessageReader; writer: MessageWriter; input?: NodeJS.ReadableStream } | undefined {
  const args = process.argv.slice(2);
  if (args.includes('--stdio')) {
    const writer = new StreamMessageWriter(process.stdout);
    const parseErrorResponse = (message: string): ResponseMessage => ({
      jsonrpc: '2.0',
      id: null,
      error: { code: parseError, message },
    });
    const guard = new FrameGuard(({ reason }) => void writer.write(parseErrorResponse(`Bad frame skipped: ${reason}`)));
    process.stdin.pipe(guard);
    process.stdin.on('end', () => guard.end());
    const reader = new StreamMessageReader(guard);
    // A frame whose body is not JSON: the reader drops it; the client hears why.
    reader.onError((error) => {
      void writer.write(parseErrorResponse(`Bad message skipped: ${error.message}`));
    });
    return { reader, writer, input: process.stdin };
  }
  if (args.includes('--node-ipc') && process.send) {
    return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process) };
  }
  return undefined;
}

const chosen = transport();
const gate = chosen ? new LifecycleGate(chosen.reader, chosen.writer) : undefined;
const connection =
  chosen && gate ? createConnection(ProposedFeatures.all, gate, chosen.writer) : createConnection(ProposedFeatures.all);
// The page each diagnostic code links to: docs/diagnostics.md beside dist/, in the repository and the .vsix.
startServer(connection, undefined, {
  diagnosticDocs: pathToFileURL(join(__dirname, '..', 'docs', 'diagnostics.md')).toString(),
});
// `exit`, and the end of the input (a client gone without `exit`): 0 after `shutdown`, else 1.
const exitCode = () => (gate?.shutdownReceived ? 0 : 1);
connection.onExit(() => exitProcess(exitCode()));
chosen?.input?.on('end', () => exitProcess(exitCode()));
