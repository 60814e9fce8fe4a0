// After a kill of what a stop left behind (killLeftovers), the engine looks until nothing is left
// (every 100 ms, at most 5 s) in the same round trip as the kill, instead of sleeping a fixed second
// and looking again (issue 24). A real sh over a /proc shaped like a real one (comm, cmdline).
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import { killLeftoversScript, parseLeftovers } from '../../../engine/src/server/serverRestartProof';

const server = withDefaults({
  servers: [{ host: 's' }],
  interfaces: { a: '10.0.0.1' },
  clients: [{ host: 'c', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'b' },
  workload: { path: 'w' },
  stacks: ['kernel'],
}).servers[0];

function runSh(script: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', script], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}

describe('killing what a stop left', () => {
  it("returns as soon as the killed memcached is gone, in the kill's own trip", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leftovers-'));
    try {
      const proc = join(dir, 'proc');
      mkdirSync(join(proc, 'net'), { recursive: true });
      writeFileSync(join(proc, 'net', 'tcp'), 'header\n');
      writeFileSync(join(proc, 'net', 'tcp6'), 'header\n');
      mkdirSync(join(proc, '4242'));
      writeFileSync(join(proc, '4242', 'comm'), 'memcached\n');
      writeFileSync(
        join(proc, '4242', 'cmdline'),
        '/opt/couchbase/bin/memcached\0-C\0/opt/couchbase/var/lib/couchbase/config/memcached.json\0',
      );
      // the process disappears 300 ms after the kill (as the kernel reaps it)
      setTimeout(() => rmSync(join(proc, '4242'), { recursive: true, force: true }), 300);
      const started = performance.now();
      const output = await runSh(killLeftoversScript(server, '999999').replaceAll('/proc/', `${proc}/`));
      const tookMs = performance.now() - started;
      assert.deepEqual(parseLeftovers(output), { listeners: [], processes: [] });
      assert.ok(tookMs >= 250 && tookMs < 2_000, `looked until it was gone (${Math.round(tookMs)} ms)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes pids only', () => {
    assert.throws(() => killLeftoversScript(server, '1; rm -rf /'), /not a pid list/);
  });
});
