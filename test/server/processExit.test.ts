// The server's way out (server/src/adapter/processExit.ts) when a file read is stuck in the
// kernel: `process.exit` would wait for the blocked libuv worker for ever; the server must end
// anyway. A FIFO nobody writes to stands in for a network mount that stopped answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function endsWithin(script: string, ms: number): Promise<{ ended: boolean; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: 'ignore' });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ended: false, signal: null });
    }, ms);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ ended: true, signal });
    });
  });
}

test(
  'with a read stuck in the kernel the process still ends (plain process.exit does not); without one it exits with its code',
  { timeout: 30_000 },
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stuck-read-'));
    const fifo = join(folder, 'stuck');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const stuck = `require('node:fs').readFile(${JSON.stringify(fifo)}, () => undefined);`;
    try {
      // What the server does on exit with a read going on for 5 s.
      const server = await endsWithin(
        `${stuck} setTimeout(() => require('./server/src/adapter/processExit.ts').exitProcess(0, 5000), 200);`,
        10_000,
      );
      assert.deepEqual(server, { ended: true, signal: 'SIGKILL' });
      // With no read stuck, an ordinary exit (its code kept).
      const ordinary = spawnSync(
        process.execPath,
        ['--import', 'tsx', '-e', "require('./server/src/adapter/processExit.ts').exitProcess(3)"],
        { timeout: 10_000 },
      );
      assert.equal(ordinary.status, 3);
      // The reason for it: the plain way hangs.
      assert.equal((await endsWithin(`${stuck} setTimeout(() => process.exit(0), 200);`, 3_000)).ended, false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);
