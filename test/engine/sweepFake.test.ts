// The sweep against fake hosts (no SSH, no Couchbase): retry and failure recording, resume after a
// fatal SSH error, and where the password goes. Fast and independent of the lab.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineFailure } from '../../engine/src/errors';
import type { SweepEvent } from '../../engine/src/events';
import type { CellResult } from '../../engine/src/model';
import type { Plan } from '../../engine/src/planSchema';
import type { RemoteResult, RemoteRunOptions, RemoteSession } from '../../engine/src/ssh';
import { runSweep } from '../../engine/src/sweep';

const password = 'p@ss w0rd';
const folder = mkdtempSync(join(tmpdir(), 'sweep-fake-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(join(folder, 'workloada'), 'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=100\noperationcount=100\nreadproportion=1\nupdateproportion=0\n');
const planPath = join(folder, 'fake.benchplan.json');
const plan: Plan = {
  servers: [{ host: 'srv', address: '127.0.0.1', restPort: 9 }],
  interfaces: { '25G': '10.0.0.1' },
  clients: [{ host: 'cli', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'bench' },
  workload: { path: 'workloada' },
  stacks: ['kernel'],
  threads: [1, 2],
};
writeFileSync(planPath, JSON.stringify(plan));

const loadReport = '[OVERALL], RunTime(ms), 500\n[OVERALL], Throughput(ops/sec), 200.0\n[INSERT], Operations, 100\n[INSERT], AverageLatency(us), 300.0\n[INSERT], Return=OK, 100\n';
const report = '[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 100.0\n[READ], Operations, 100\n[READ], AverageLatency(us), 250.0\n[READ], 99thPercentileLatency(us), 900\n[READ], Return=OK, 100\n';

interface Call { host: string; command: string; stdin?: string }

class FakeHost implements RemoteSession {
  constructor(readonly host: string, private readonly world: FakeWorld) {}
  async run(command: string, options: RemoteRunOptions): Promise<RemoteResult> {
    this.world.calls.push({ host: this.host, command, ...(options.stdin !== undefined ? { stdin: String(options.stdin) } : {}) });
    const failure = this.world.failNext(this.host, command);
    if (failure) throw failure;
    if (command.includes('@kernel')) {
      return ok(this.host === 'srv' ? '@kernel 6.1\n@couchbase-binary yes\n@couchbase 7.6.2\n@onload-binary yes\n@iface 10.0.0.1 device=eth0\n' : '@kernel 6.1\n@java-binary yes\n@ycsb-binary yes\n@ycsb 0.17.0\n');
    }
    if (command.includes('&& pwd')) return ok(`/home/u/.onload-bench\n`);
    // the launcher probe of pre-flight (REAL-LAB Y4)
    if (command.includes(' shell basic ')) return ok('YCSB Command Line client\nType "help" for command line help\n');
    if (command.includes('& wait $!')) {
      const threads = /-threads (\d+)/.exec(command)?.[1];
      if (this.world.ycsbFailures[threads ?? ''] > 0) {
        this.world.ycsbFailures[threads ?? '']--;
        return { exitCode: 1, stdout: '', stderr: 'Exception in thread "main" java.lang.OutOfMemoryError\n' };
      }
      options.onStderrLine?.('2026-01-01 00:00:00:000 1 sec: 50 operations; 50 current ops/sec; ');
      return { exitCode: 0, stdout: / load couchbase2 /.test(command) ? loadReport : report, stderr: 'YCSB Client 0.17.0\n' };
    }
    return ok('');
  }
  async upload(path: string, content: string | Buffer): Promise<void> {
    this.world.calls.push({ host: this.host, command: `upload ${path}`, stdin: String(content) });
  }
  async close(): Promise<void> {}
}

function ok(stdout: string): RemoteResult {
  return { exitCode: 0, stdout, stderr: '' };
}

class FakeWorld {
  calls: Call[] = [];
  ycsbFailures: Record<string, number> = {};
  /** Throws an SSH failure for the first YCSB command with these threads. */
  unreachableAtThreads: string | undefined;
  failNext(host: string, command: string): EngineFailure | undefined {
    if (this.unreachableAtThreads && command.includes('& wait $!') && command.includes(`-threads ${this.unreachableAtThreads}`)) {
      this.unreachableAtThreads = undefined;
      return new EngineFailure({ code: 'ssh-unreachable', host, step: 'ycsb-load', message: 'Lost the SSH connection.', action: 'Check the host, then resume the run.' });
    }
    return undefined;
  }
}

async function sweep(world: FakeWorld, resumeRunDir?: string): Promise<{ outcome: Awaited<ReturnType<typeof runSweep>>; events: SweepEvent[]; results: CellResult[] }> {
  const events: SweepEvent[] = [];
  const outcome = await runSweep(
    { planPath, plan, resultsRoot: join(folder, 'results'), password, signal: new AbortController().signal, onEvent: (event) => events.push(event), ...(resumeRunDir ? { resumeRunDir } : {}) },
    { sessionFactory: (host) => new FakeHost(host, world), bucket: { recreate: async () => undefined, itemCount: async () => 100 }, skipServerWait: true },
  );
  const text = outcome.runDir ? readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8') : '';
  return { outcome, events, results: text.split('\n').filter(Boolean).map((line) => JSON.parse(line)) };
}

describe('sweep with fake hosts', () => {
  it('retries a failing cell once, records it as failed with both logs, and goes on', async () => {
    const world = new FakeWorld();
    world.ycsbFailures['1'] = 2;
    const { outcome, results, events } = await sweep(world);
    assert.deepEqual([outcome.completed, outcome.failed, outcome.total, outcome.error], [1, 1, 2, undefined]);
    assert.deepEqual(results.map((result) => [result.key.threads, result.status, result.attempts]), [[1, 'failed', 2], [2, 'ok', 1]]);
    assert.equal(results[0].error?.code, 'ycsb-exit');
    assert.match(results[0].error?.message ?? '', /OutOfMemoryError/);
    assert.equal(results[0].logs.length, 2);
    assert.equal(results[1].run?.operations.READ.percentilesUs['99'], 900);
    assert.equal(results[1].load?.itemCount, 100);
    assert.ok(events.some((event) => event.type === 'status' && event.status.operations === 50));
  });

  it('the admin password never reaches a client; YCSB gets a generated bucket password over stdin only', async () => {
    const world = new FakeWorld();
    await sweep(world);
    assert.deepEqual(world.calls.filter((call) => call.command.includes(password) || call.command.includes('p@ss') || call.stdin?.includes('p@ss')), []);
    const carriers = world.calls.filter((call) => /couchbase\.password=[A-Za-z0-9_-]{20,}\n/.test(call.stdin ?? ''));
    assert.ok(carriers.length >= 4, 'one credentials file per YCSB phase');
    // REAL-LAB Y1: couchbase2 reads no username: the file carries the password alone
    for (const call of carriers) assert.doesNotMatch(call.stdin ?? '', /couchbase\.username/);
    for (const call of carriers) assert.match(call.command, /\(umask 077 && cat > '?\/home\/u\/\.onload-bench\/secret-[0-9a-f]+\.properties'?\) \|\| exit 1; setsid sh -c .* & wait \$!; rc=\$\?; rm -f .*secret-/);
    const generated = /couchbase\.password=(\S+)/.exec(carriers[0].stdin ?? "")?.[1] ?? "";
    assert.deepEqual(world.calls.filter((call) => call.command.includes(generated)), [], "not in any command line either");
  });

  it('a lost SSH connection stops the sweep; resume runs only the unfinished cells', async () => {
    const world = new FakeWorld();
    world.unreachableAtThreads = '2';
    const first = await sweep(world);
    assert.equal(first.outcome.error?.code, 'ssh-unreachable');
    assert.deepEqual(first.results.map((result) => result.key.threads), [1]);
    const second = await sweep(new FakeWorld(), first.outcome.runDir);
    assert.equal(second.outcome.error, undefined);
    assert.deepEqual(second.events.filter((event) => event.type === 'cell-started').map((event) => (event as { key: { threads: number } }).key.threads), [2]);
    assert.deepEqual(second.results.map((result) => result.key.threads), [1, 2]);
    assert.deepEqual([second.outcome.completed, second.outcome.total], [2, 2]);
  });
});
