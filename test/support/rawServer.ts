// The bundled server (`node dist/server.js --stdio`) driven byte by byte, for tests of what a
// well-behaved LSP client library would never send: requests out of order, broken frames,
// malformed params, stdin closed without `exit`.
import { spawn } from 'node:child_process';

export interface RawServer {
  send(message: object): void;
  /** Closes the server's stdin (end of input). */
  end(): void;
  raw(bytes: string): void;
  /** The next message the server writes that matches. */
  next(match: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  stop(): void;
}

export function startRaw(): RawServer {
  const child = spawn(process.execPath, ['dist/server.js', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = Buffer.alloc(0);
  const messages: Record<string, unknown>[] = [];
  const waiters: { match: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] =
    [];
  const deliver = () => {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())![1]);
      if (buffer.length < end + 4 + length) return;
      messages.push(JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8')));
      buffer = buffer.subarray(end + 4 + length);
    }
  };
  const settle = () => {
    for (const waiter of [...waiters]) {
      const index = messages.findIndex(waiter.match);
      if (index !== -1) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(messages.splice(index, 1)[0]!);
      }
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    deliver();
    settle();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    send(message) {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
      child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
    },
    raw: (bytes) => child.stdin.write(bytes),
    end: () => child.stdin.end(),
    next(match) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching message within 10 s')), 10_000);
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
        settle();
      });
    },
    exited,
    // SIGKILL: a server stuck in a blocking read ignores nothing else reliably.
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
