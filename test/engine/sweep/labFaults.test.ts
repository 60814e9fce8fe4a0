// Fault tests on the lab's real hosts: each fault gives a clear error naming host, step and a next
// action, nothing already written is lost, resume completes, and no remote process is left.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadPlan } from '../../../engine/src/index';
import type { RunOutcome, SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { runSweep, type SweepSeams } from '../../../engine/src/sweep/sweep';
import { writeLabPlan, type Lab, type LabPlanOptions, labUnavailable } from '../../lab/index';
import { labPerSuite } from '../../support/labSuite';
import { allProcesses } from '../../lab/processes';

interface SweepRecord {
  outcome: RunOutcome;
  events: SweepEvent[];
  results: CellResult[];
}

function readResults(runDir: string): CellResult[] {
  const path = join(runDir, 'results.jsonl');
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  assert.ok(text === '' || text.endsWith('\n'), 'results.jsonl ends with a whole line');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CellResult);
}

describe('engine faults on the lab', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  let counter = 0;
  labPerSuite({}, 'engine-faults-', (started) => ({ lab, work } = started));

  async function sweep(
    planPath: string,
    options: {
      onEvent?: (event: SweepEvent, controller: AbortController) => void;
      resumeRunDir?: string;
      resultsRoot?: string;
      seams?: SweepSeams;
      controlDir?: string;
    } = {},
  ): Promise<SweepRecord> {
    const { plan, errors } = await loadPlan(planPath);
    assert.deepEqual(errors, []);
    const controller = new AbortController();
    const events: SweepEvent[] = [];
    const outcome = await runSweep(
      {
        planPath,
        plan,
        resultsRoot: options.resultsRoot ?? join(work, 'results'),
        password: lab.couchbase.password,
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          options.onEvent?.(event, controller);
        },
        ssh: { configFile: lab.sshConfigPath, ...(options.controlDir ? { controlDir: options.controlDir } : {}) },
        ...(options.resumeRunDir ? { resumeRunDir: options.resumeRunDir } : {}),
      },
      options.seams,
    );
    return { outcome, events, results: outcome.runDir ? readResults(outcome.runDir) : [] };
  }

  function plan(options: Partial<LabPlanOptions> = {}): string {
    return writeLabPlan(lab, {
      dir: join(work, `plan-${++counter}`),
      stacks: ['kernel'],
      threads: [1, 2],
      interfaces: [lab.interfaces[0]],
      ...options,
    });
  }

  it('a YCSB crash is retried once, then recorded as failed, and the sweep goes on', { timeout: 90_000 }, async () => {
    lab.faults.set({ ycsbCrashAfterOps: 50 });
    const record = await sweep(plan(), {
      onEvent: (event) => {
        if (event.type === 'cell-finished') lab.faults.clear();
      },
    });
    assert.equal(record.outcome.error, undefined);
    assert.deepEqual([record.outcome.completed, record.outcome.failed], [1, 1]);
    const [crashed, next] = record.results;
    assert.equal(crashed.status, 'failed');
    assert.equal(crashed.attempts, 2);
    assert.equal(crashed.error?.code, 'ycsb-exit');
    assert.equal(crashed.error?.host, 'ycsb-client');
    assert.equal(crashed.error?.step, 'ycsb-load');
    assert.match(crashed.error?.action ?? '', /log/);
    assert.equal(crashed.logs.length, 2, 'the raw log of each attempt is kept');
    assert.equal(next.status, 'ok');
  });

  it(
    'a test node killed mid-run: the cell is retried on a restarted server and succeeds',
    { timeout: 90_000 },
    async () => {
      let killed = false;
      const record = await sweep(plan({ threads: [1], properties: { operationcount: 3000 } }), {
        onEvent: (event) => {
          if (event.type === 'phase' && event.phase === 'ycsb-run' && !killed) {
            killed = lab.faults.killCouchbase();
          }
        },
      });
      assert.ok(killed);
      assert.equal(record.outcome.error, undefined);
      assert.equal(record.results.length, 1);
      assert.equal(record.results[0].status, 'ok', JSON.stringify(record.results[0].error));
      assert.equal(record.results[0].attempts, 2);
    },
  );

  it(
    'cancel mid-cell stops YCSB and the Onload server, restores the kernel stack and writes nothing partial',
    { timeout: 90_000 },
    async () => {
      let timer: NodeJS.Timeout | undefined;
      const record = await sweep(plan({ stacks: ['latency'], threads: [1] }), {
        onEvent: (event, controller) => {
          if (event.type === 'phase' && event.phase === 'item-count') lab.faults.set({ ycsbHangAfterOps: 20 });
          if (event.type === 'phase' && event.phase === 'ycsb-run') timer = setTimeout(() => controller.abort(), 1500);
        },
      });
      clearTimeout(timer);
      assert.equal(record.outcome.cancelled, true);
      assert.equal(record.outcome.error, undefined);
      assert.deepEqual(record.results, []);
      const state = lab.couchbaseState();
      assert.deepEqual([state.running, state.accelerated], [true, false], 'Couchbase back on the kernel stack');
    },
  );

  // The bound is the test timeout, well under the three 15 s ConnectTimeouts the cleanup used to
  // wait out on a host that never answered.
  it(
    'cancel during pre-flight with an sshd that accepts but never answers settles as cancelled and leaves no ssh process',
    { timeout: 20_000 },
    async () => {
      const controlDir = mkdtempSync(join(tmpdir(), 'obc-'));
      const sshChildren = (): string[] =>
        allProcesses()
          .filter((info) => info.command.startsWith('ssh ') && info.command.includes(controlDir))
          .map((info) => `${info.pid} ${info.command}`);
      // a stopped sshd still completes TCP handshakes (the kernel's backlog) but never sends its banner
      lab.faults.freezeSshd('ycsb-client');
      let poller: NodeJS.Timeout | undefined;
      try {
        const record = await sweep(plan(), {
          controlDir,
          onEvent: (event, controller) => {
            // abort once ssh is stuck connecting to the silent host, i.e. inside the pre-flight
            if (event.type !== 'run-started') return;
            poller = setInterval(() => {
              if (sshChildren().some((line) => line.includes(' ycsb-client '))) {
                clearInterval(poller);
                controller.abort();
              }
            }, 50);
          },
        });
        assert.equal(record.outcome.cancelled, true);
        assert.equal(record.outcome.error, undefined);
        assert.equal(record.outcome.runDir, '', 'a run cancelled before its first cell leaves no folder');
        assert.ok(!record.events.some((event) => event.type === 'cell-started'));
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.deepEqual(sshChildren(), [], 'no local ssh process (command or ControlMaster) left');
      } finally {
        clearInterval(poller);
        lab.faults.freezeSshd('ycsb-client', false);
        rmSync(controlDir, { recursive: true, force: true });
      }
    },
  );

  it(
    'sshd killed mid-run: a clear error, nothing lost, and resume completes the sweep',
    { timeout: 90_000 },
    async () => {
      const planPath = plan({ threads: [1, 2, 3] });
      let cellsStarted = 0;
      const first = await sweep(planPath, {
        onEvent: (event) => {
          if (event.type === 'cell-started') cellsStarted++;
          if (event.type === 'phase' && event.phase === 'ycsb-run' && cellsStarted === 2)
            lab.faults.killSshd('ycsb-client');
        },
      });
      assert.equal(first.outcome.error?.code, 'ssh-unreachable', JSON.stringify(first.outcome.error));
      assert.equal(first.outcome.error?.host, 'ycsb-client');
      assert.match(first.outcome.error?.action ?? '', /resume/);
      assert.deepEqual(
        first.results.map((result) => result.status),
        ['ok'],
      );
      await lab.faults.startSshd('ycsb-client');
      const second = await sweep(planPath, { resumeRunDir: first.outcome.runDir });
      assert.equal(second.outcome.error, undefined);
      assert.deepEqual(
        second.results.map((result) => [result.key.threads, result.status]),
        [
          [1, 'ok'],
          [2, 'ok'],
          [3, 'ok'],
        ],
      );
      const started = second.events.find((event) => event.type === 'run-started');
      assert.ok(started && started.type === 'run-started' && started.resumed && started.alreadyDone === 1);
    },
  );

  it('a changed host key stops the run before anything changes, naming the host', { timeout: 90_000 }, async () => {
    await lab.faults.swapHostKey('cb-server');
    try {
      const record = await sweep(plan());
      assert.equal(record.outcome.error?.code, 'ssh-host-key');
      assert.equal(record.outcome.error?.host, 'cb-server');
      assert.match(record.outcome.error?.message ?? '', /CHANGED/);
      assert.match(record.outcome.error?.action ?? '', /ssh-keygen -R/);
      assert.deepEqual(record.results, []);
      assert.equal(record.outcome.runDir, '', 'no empty run folder is left to be offered for resume');
      const preflight = record.events.find((event) => event.type === 'preflight');
      assert.ok(
        preflight &&
          preflight.type === 'preflight' &&
          preflight.checks.some(
            (check) => check.id === 'reachable' && check.host === 'cb-server' && !check.ok && check.blocking,
          ),
      );
    } finally {
      await lab.faults.swapHostKey('cb-server', false);
    }
  });

  it('an unknown host key is refused, never accepted', { timeout: 90_000 }, async () => {
    const planPath = plan();
    const text = JSON.parse(readFileSync(planPath, 'utf8'));
    text.servers[0].host = lab.unknownHost;
    writeFileSync(planPath, JSON.stringify(text));
    const record = await sweep(planPath);
    assert.equal(record.outcome.error?.code, 'ssh-host-key');
    assert.equal(record.outcome.error?.host, lab.unknownHost);
    assert.match(record.outcome.error?.message ?? '', /not known/);
  });

  it(
    'refused bucket creation and a server that never comes up fail the cell with the reason',
    { timeout: 90_000 },
    async () => {
      lab.faults.set({ refuseBucketCreation: 'RAM quota cannot be less than 100 MB' });
      const refused = await sweep(plan({ threads: [1] }));
      assert.equal(refused.results[0].status, 'failed');
      assert.equal(refused.results[0].error?.code, 'bucket-create');
      assert.match(refused.results[0].error?.message ?? '', /RAM quota cannot be less than 100 MB/);
      lab.faults.set({ couchbaseNeverReady: true });
      const never = await sweep(
        plan({
          stacks: ['latency'],
          threads: [1],
          extra: { timeouts: { serverStartSec: 3, bucketReadySec: 10, cellSec: 30 } },
        }),
      );
      assert.equal(never.results[0].status, 'failed');
      assert.equal(never.results[0].error?.code, 'server-start');
      assert.equal(never.results[0].error?.host, 'cb-server');
      // the stand-in hangs without opening a port: the engine must report the time limit
      assert.match(
        never.results[0].error?.message ?? '',
        new RegExp(`REST port ${lab.interfaces[0].address.replace(/\./g, '\\.')}:8091 did not answer within 3 s`),
      );
      assert.match(never.results[0].error?.action ?? '', /couchbase-server/);
      lab.faults.clear();
    },
  );

  it(
    'a YCSB that hangs is stopped at the cell time limit and the cell is recorded as failed',
    { timeout: 90_000 },
    async () => {
      lab.faults.set({ ycsbHangAfterOps: 20 });
      const record = await sweep(
        plan({ threads: [1], extra: { timeouts: { serverStartSec: 20, bucketReadySec: 20, cellSec: 2 } } }),
      );
      assert.equal(record.results[0].status, 'failed');
      assert.equal(record.results[0].error?.code, 'remote-command');
      assert.equal(record.results[0].error?.host, 'ycsb-client');
      assert.equal(record.results[0].error?.step, 'ycsb-load');
      assert.match(record.results[0].error?.message ?? '', /did not finish within 2 s/);
    },
  );

  it('an Onload cell that is not accelerated is marked so', { timeout: 90_000 }, async () => {
    lab.faults.set({ onloadNotAccelerating: true });
    const record = await sweep(plan({ stacks: ['latency'], threads: [1] }));
    assert.equal(record.results[0].status, 'ok');
    assert.equal(record.results[0].accelerated, false);
    assert.ok(record.events.some((event) => event.type === 'log' && /NOT accelerated/.test(event.message)));
  });

  it(
    'a full results disk stops the sweep with a clear error; earlier lines stay and resume completes',
    { timeout: 90_000 },
    async () => {
      const mountPoint = join(work, 'small-disk');
      mkdirSync(mountPoint, { recursive: true });
      let mounted = false;
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mountPoint], { stdio: 'ignore' });
        mounted = true;
      } catch {
        // no tmpfs here: the injected write error below stands in for a full disk
      }
      try {
        const planPath = plan({ threads: [1, 2] });
        const filler = join(mountPoint, 'filler');
        let cellsStarted = 0;
        let failWrites = false;
        const seams: SweepSeams = mounted
          ? {}
          : {
              resultsIo: {
                open: async (path, flags) => {
                  const { open } = await import('node:fs/promises');
                  const handle = await open(path, flags);
                  return Object.assign(Object.create(handle), {
                    write: async (data: Buffer | string) => {
                      if (failWrites)
                        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
                      return typeof data === 'string' ? handle.write(data) : handle.write(data);
                    },
                    sync: () => handle.sync(),
                    close: () => handle.close(),
                    truncate: (length?: number) => handle.truncate(length),
                    stat: () => handle.stat(),
                  });
                },
              },
            };
        const first = await sweep(planPath, {
          resultsRoot: mountPoint,
          seams,
          onEvent: (event) => {
            if (event.type === 'cell-started') cellsStarted++;
            if (event.type === 'phase' && event.phase === 'ycsb-run' && cellsStarted === 2) {
              if (mounted) {
                try {
                  writeFileSync(filler, Buffer.alloc(1024 * 1024));
                } catch {
                  // ENOSPC: the disk is now full, which is the point
                }
              } else failWrites = true;
            }
          },
        });
        assert.equal(first.outcome.error?.code, 'results-write', JSON.stringify(first.outcome.error));
        assert.match(first.outcome.error?.message ?? '', /disk is full/);
        assert.match(first.outcome.error?.action ?? '', /Free space.*resume/);
        assert.deepEqual(
          first.results.map((result) => [result.key.threads, result.status]),
          [[1, 'ok']],
        );
        rmSync(filler, { force: true });
        failWrites = false;
        const second = await sweep(planPath, { resultsRoot: mountPoint, resumeRunDir: first.outcome.runDir, seams });
        assert.equal(second.outcome.error, undefined);
        assert.deepEqual(
          second.results.map((result) => [result.key.threads, result.status]),
          [
            [1, 'ok'],
            [2, 'ok'],
          ],
        );
      } finally {
        if (mounted) execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      }
    },
  );
});
