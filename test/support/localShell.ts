// A RemoteSession that runs each command with the local `sh`, as sshd would on a host: stdout lines
// streamed to onStdoutLine, stderr collected, abort kills the shell. For tests of remote scripts
// that need a real shell but no SSH (the host lock): `env` adds to the environment (the lock's
// ONLOAD_BENCH_LOCK_DIR), `uid` runs the shell as another user (root only).
import { spawn } from 'node:child_process';
import type { RemoteResult, RemoteRunOptions, RemoteSession } from '../../engine/src/remote/ssh';

export class LocalShell implements RemoteSession {
  constructor(
    readonly host: string,
    private readonly options: { env?: Record<string, string>; uid?: number } = {},
  ) {}

  run(command: string, options: RemoteRunOptions): Promise<RemoteResult> {
    return new Promise((resolve) => {
      const { uid } = this.options;
      const child = spawn('sh', ['-c', command], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...this.options.env },
        ...(uid !== undefined ? { uid, gid: uid, cwd: '/' } : {}),
      });
      let stdout = '';
      let stderr = '';
      let pending = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        pending += chunk;
        let index: number;
        while ((index = pending.indexOf('\n')) >= 0) {
          options.onStdoutLine?.(pending.slice(0, index));
          pending = pending.slice(index + 1);
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      options.signal?.addEventListener('abort', () => child.kill('SIGTERM'), { once: true });
      child.on('close', (code) => resolve({ exitCode: code ?? 255, stdout, stderr }));
    });
  }

  async upload(): Promise<void> {}
  async close(): Promise<void> {}
}
