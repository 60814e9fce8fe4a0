// Run until stable and the cell order through the real sweep, against fake hosts whose YCSB
// throughput depends on the stack and threads: the noisy point gets extra repetitions (appended to
// the manifest as decided), the steady one does not, and a resumed run keeps those cells.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan, fakeWorkload, ycsbPhaseResult, ycsbReport } from '../../support/fakeHosts';

const folder = mkdtempSync(join(tmpdir(), 'sweep-stable-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(join(folder, 'workloada'), fakeWorkload);
writeFileSync(join(folder, 'fast.opf'), 'onload_set EF_POLL_USEC 100000\n');
const planPath = join(folder, 'stable.benchplan.json');
const plan = fakeHostsPlan({
  stacks: ['kernel', { name: 'fast', profile: 'fast.opf' }],
  repetitions: { min: 2, max: 4, targetCi: 2 },
  order: 'interleaved',
  seed: 5,
});
writeFileSync(planPath, JSON.stringify(plan));

/**
 * Fake hosts whose throughput depends on the arm the server runs (the Onload drop-in installed or
 * not): 1 thread steady (±0.1 %), 2 threads noisy (±30 %); the profile 20 % faster.
 */
class FakeWorld {
  runs = new Map<string, number>();
  ycsbRuns: string[] = [];
  readonly hosts = new FakeHosts({
    ycsb: (invocation) => {
      if (invocation.phase !== 'run') return undefined;
      const stack = this.hosts.dropInInstalled('srv') ? 'fast' : 'kernel';
      this.ycsbRuns.push(`${stack}/t${invocation.threads}`);
      const throughput = this.throughput(stack, invocation.threads);
      return ycsbPhaseResult(invocation, ycsbReport('run', throughput, throughput));
    },
  });
  throughput(stack: string, threads: number): number {
    const key = `${stack}/${threads}`;
    const n = (this.runs.get(key) ?? 0) + 1;
    this.runs.set(key, n);
    const base = stack === 'kernel' ? 1000 : 1200;
    return base + (n % 2 === 0 ? 1 : -1) * (threads === 1 ? 1 : 300);
  }
}

async function sweep(world: FakeWorld, resumeRunDir?: string) {
  const events: SweepEvent[] = [];
  const outcome = await runSweep(
    {
      planPath,
      plan,
      resultsRoot: join(folder, 'results'),
      password: 'secret',
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
      ...(resumeRunDir ? { resumeRunDir } : {}),
    },
    {
      sessionFactory: world.hosts.sessionFactory,
      bucket: { recreate: async () => undefined, itemCount: async () => 100 },
      skipServerWait: true,
    },
  );
  const results: CellResult[] = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const manifest: RunManifest = JSON.parse(readFileSync(join(outcome.runDir, 'manifest.json'), 'utf8'));
  return { outcome, events, results, manifest };
}

describe('run until stable through the sweep', () => {
  it('adds repetitions to the noisy point only, records them in the manifest, and estimates "up to"', async () => {
    const world = new FakeWorld();
    const { outcome, events, results, manifest } = await sweep(world);
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    assert.deepEqual(manifest.order, { mode: 'interleaved', seed: 5 });
    // min: 2 repetitions × 2 points × 2 stacks, interleaved point by point
    assert.deepEqual(world.ycsbRuns.slice(0, 8), [
      'kernel/t1',
      'fast/t1',
      'fast/t2',
      'kernel/t2',
      'kernel/t1',
      'fast/t1',
      'fast/t2',
      'kernel/t2',
    ]);
    // each round starts with the stack the server is on: no restart between rounds
    assert.deepEqual(
      manifest.cells.filter((cell) => cell.extra).map((cell) => cell.id),
      ['25G~kernel~t2~r3', '25G~fast~t2~r3', '25G~fast~t2~r4', '25G~kernel~t2~r4'],
    );
    assert.equal(manifest.cells.length, 12);
    assert.deepEqual([outcome.completed, outcome.total], [12, 12]);
    assert.equal(results.length, 12);
    assert.ok(
      events.some(
        (event) => event.type === 'log' && /Run until stable: 2 more cell\(s\) for 1 point\(s\)/.test(event.message),
      ),
    );
    const finished = events.filter((event) => event.type === 'cell-finished') as Extract<
      SweepEvent,
      { type: 'cell-finished' }
    >[];
    assert.equal(finished[0].remainingEstimateUpTo, true, 'the first estimate counts up to max repetitions');
    assert.equal(finished.at(-1)?.remainingEstimateUpTo, undefined);
    const preflight = events.find((event) => event.type === 'preflight') as Extract<SweepEvent, { type: 'preflight' }>;
    assert.equal(
      preflight.checks.find((check) => check.id === 'plan-size')?.detail,
      '8 cells (up to 16 until stable), 5 server restarts (up to 9) (interleaved; grouped would need 4: 1 more); order interleaved',
    );

    // resume after the last line was lost: only that extra cell runs again, nothing more is added
    const resultsPath = join(outcome.runDir, 'results.jsonl');
    const lines = readFileSync(resultsPath, 'utf8').split('\n').filter(Boolean);
    truncateSync(resultsPath, statSync(resultsPath).size - lines.at(-1)!.length - 1);
    const again = new FakeWorld();
    const resumed = await sweep(again, outcome.runDir);
    assert.equal(resumed.outcome.error, undefined);
    assert.deepEqual(
      resumed.events.filter((event) => event.type === 'cell-started').map((event) => (event as { id: string }).id),
      ['25G~kernel~t2~r4'],
    );
    assert.equal(resumed.manifest.cells.length, 12);
    assert.deepEqual([resumed.outcome.completed, resumed.outcome.total], [12, 12]);
  });
});
