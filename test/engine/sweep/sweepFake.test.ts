// The sweep against fake hosts (no SSH, no Couchbase): retry and failure recording, resume after a
// fatal SSH error, and where the password goes. Fast and independent of the lab.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineFailure } from '../../../engine/src/errors';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { build, HistogramLogWriter } from 'hdr-histogram-js';
import { logFolderName } from '../../../engine/src/results/logFolders';
import { FakeHosts, fakeHostsPlan, fakeWorkload, ok } from '../../support/fakeHosts';

const password = 'p@ss w0rd';
const folder = mkdtempSync(join(tmpdir(), 'sweep-fake-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(join(folder, 'workloada'), fakeWorkload);
const planPath = join(folder, 'fake.benchplan.json');
const plan = fakeHostsPlan();
writeFileSync(planPath, JSON.stringify(plan));

/** Fake hosts whose YCSB fails (exit 1) `ycsbFailures[threads]` times, or loses SSH once at `unreachableAtThreads`. */
function fakeHosts(script: { ycsbFailures?: Record<number, number>; unreachableAtThreads?: number } = {}): FakeHosts {
  const failures = { ...script.ycsbFailures };
  let unreachable = script.unreachableAtThreads;
  return new FakeHosts({
    ycsb: ({ host, threads }) => {
      if (threads === unreachable) {
        unreachable = undefined;
        throw new EngineFailure({
          code: 'ssh-unreachable',
          host,
          step: 'ycsb-load',
          message: 'Lost the SSH connection.',
          action: 'Check the host, then resume the run.',
        });
      }
      if ((failures[threads] ?? 0) > 0) {
        failures[threads]--;
        return { exitCode: 1, stdout: '', stderr: 'Exception in thread "main" java.lang.OutOfMemoryError\n' };
      }
      return undefined;
    },
  });
}

async function sweep(
  hosts: FakeHosts,
  resumeRunDir?: string,
): Promise<{ outcome: Awaited<ReturnType<typeof runSweep>>; events: SweepEvent[]; results: CellResult[] }> {
  const events: SweepEvent[] = [];
  const outcome = await runSweep(
    {
      planPath,
      plan,
      resultsRoot: join(folder, 'results'),
      password,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
      ...(resumeRunDir ? { resumeRunDir } : {}),
    },
    {
      sessionFactory: hosts.sessionFactory,
      bucket: { recreate: async () => undefined, itemCount: async () => 100 },
      skipServerWait: true,
    },
  );
  const text = outcome.runDir ? readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8') : '';
  return {
    outcome,
    events,
    results: text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
  };
}

describe('sweep with fake hosts', () => {
  it('retries a failing cell once, records it as failed with both logs, and goes on', async () => {
    const { outcome, results, events } = await sweep(fakeHosts({ ycsbFailures: { 1: 2 } }));
    assert.deepEqual([outcome.completed, outcome.failed, outcome.total, outcome.error], [1, 1, 2, undefined]);
    assert.deepEqual(
      results.map((result) => [result.key.threads, result.status, result.attempts]),
      [
        [1, 'failed', 2],
        [2, 'ok', 1],
      ],
    );
    assert.equal(results[0].error?.code, 'ycsb-exit');
    assert.match(results[0].error?.message ?? '', /OutOfMemoryError/);
    assert.equal(results[0].logs.length, 2);
    assert.equal(results[1].run?.operations.READ.percentilesUs['99'], 900);
    assert.equal(results[1].load?.itemCount, 100);
    assert.ok(events.some((event) => event.type === 'status' && event.status.operations === 50));
  });

  it('the admin password never reaches a client; YCSB gets a generated bucket password over stdin only', async () => {
    const hosts = fakeHosts();
    await sweep(hosts);
    assert.deepEqual(
      hosts.calls.filter(
        (call) => call.command.includes(password) || call.command.includes('p@ss') || call.stdin?.includes('p@ss'),
      ),
      [],
    );
    const carriers = hosts.calls.filter((call) => /couchbase\.password=[A-Za-z0-9_-]{20,}\n/.test(call.stdin ?? ''));
    assert.ok(carriers.length >= 4, 'one credentials file per YCSB phase');
    // REAL-LAB Y1: couchbase2 reads no username: the file carries the password alone
    for (const call of carriers) assert.doesNotMatch(call.stdin ?? '', /couchbase\.username/);
    for (const call of carriers)
      assert.match(
        call.command,
        /\(umask 077 && cat > '?\/home\/u\/\.onload-bench\/secret-[0-9a-f]+\.properties'?\) \|\| exit 1; setsid sh -c .* & wait \$!; rc=\$\?; rm -f .*secret-/,
      );
    const generated = /couchbase\.password=(\S+)/.exec(carriers[0].stdin ?? '')?.[1] ?? '';
    assert.deepEqual(
      hosts.calls.filter((call) => call.command.includes(generated)),
      [],
      'not in any command line either',
    );
  });

  it('a lost SSH connection stops the sweep; resume runs only the unfinished cells', async () => {
    const first = await sweep(fakeHosts({ unreachableAtThreads: 2 }));
    assert.equal(first.outcome.error?.code, 'ssh-unreachable');
    assert.deepEqual(
      first.results.map((result) => result.key.threads),
      [1],
    );
    const second = await sweep(fakeHosts(), first.outcome.runDir);
    assert.equal(second.outcome.error, undefined);
    assert.deepEqual(
      second.events
        .filter((event) => event.type === 'cell-started')
        .map((event) => (event as { key: { threads: number } }).key.threads),
      [2],
    );
    assert.deepEqual(
      second.results.map((result) => result.key.threads),
      [1, 2],
    );
    assert.deepEqual([second.outcome.completed, second.outcome.total], [2, 2]);
  });
  it('warns before the first start when a foreground Onload arm run as couchbase cannot reach {profile} in a 0700 home', async () => {
    writeFileSync(join(folder, 'tuned.opf'), 'onload_set EF_POLL_USEC 100000\n');
    const foregroundPlan = fakeHostsPlan({
      servers: [
        {
          host: 'srv',
          address: '127.0.0.1',
          restPort: 9,
          serverStart: 'foreground',
          kernelRunCommand: 'sudo -n -u couchbase {couchbaseServerPath} -- -noinput',
          onloadRunCommand: 'sudo -n -u couchbase onload --profile={profile} {couchbaseServerPath} -- -noinput',
        },
      ],
      stacks: ['kernel', { name: 'tuned', profile: 'tuned.opf' }],
      threads: [1],
    });
    const foregroundPlanPath = join(folder, 'foreground.benchplan.json');
    writeFileSync(foregroundPlanPath, JSON.stringify(foregroundPlan));
    const events: SweepEvent[] = [];
    await runSweep(
      {
        planPath: foregroundPlanPath,
        plan: foregroundPlan,
        resultsRoot: join(folder, 'results-foreground'),
        password,
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
      },
      {
        sessionFactory: new FakeHosts().sessionFactory,
        bucket: { recreate: async () => undefined, itemCount: async () => 100 },
        skipServerWait: true,
      },
    );
    const warnings = events
      .filter((event) => event.type === 'log' && event.level === 'warn')
      .map((event) => (event as { message: string }).message);
    assert.ok(
      warnings.some((message) =>
        message.startsWith(
          'srv: onloadRunCommand runs as another user, who must read {profile} in /home/u/.onload-bench/profiles, but other users may not enter /home/u:',
        ),
      ),
      warnings.join('\n'),
    );
  });

  it("keeps the HDR logs in the cell's own log folder, beside its YCSB logs, however long its id", async () => {
    // YCSB 0.17.0's HdrHistogramLog: one READ.hdr per client, fetched back by one command
    let hdrText = '';
    const writer = new HistogramLogWriter((chunk) => (hdrText += chunk));
    writer.outputComment('[Logging for: READ]');
    writer.outputLogFormatVersion();
    writer.outputStartTime(1_700_000_000_000);
    writer.baseTime = 1_700_000_000_000;
    writer.outputLegend();
    const histogram = build({ numberOfSignificantValueDigits: 3 });
    for (let value = 100; value <= 1_000; value += 10) histogram.recordValue(value);
    histogram.startTimeStampMsec = 1_700_000_000_000;
    histogram.endTimeStampMsec = 1_700_000_001_000;
    writer.outputIntervalHistogram(histogram, undefined, undefined, 1_000_000);
    // the client's end of the run: its sampler stopped (none found: 3) and its HDR logs, one script (batchScript.ts)
    const hosts = new FakeHosts({
      answer: (command) =>
        command.includes('@@hdr-file')
          ? ok(`@@part sampler 3\n@@part hdr 0\n@@hdr-file READ.hdr\n${hdrText}\n`)
          : undefined,
    });
    // a further axis with a long value: the id (about 300 characters) is no file name
    const longPlan = fakeHostsPlan({ threads: [1], axes: { table: ['t'.repeat(280)] } });
    const longPlanPath = join(folder, 'long.benchplan.json');
    writeFileSync(longPlanPath, JSON.stringify(longPlan));
    const events: SweepEvent[] = [];
    const outcome = await runSweep(
      {
        planPath: longPlanPath,
        plan: longPlan,
        resultsRoot: join(folder, 'results-long'),
        password,
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
      },
      {
        sessionFactory: hosts.sessionFactory,
        bucket: { recreate: async () => undefined, itemCount: async () => 100 },
        skipServerWait: true,
      },
    );
    assert.equal(outcome.error, undefined);
    const [result] = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CellResult);
    const folderName = logFolderName(result.id);
    assert.deepEqual(
      result.logs.map((log) =>
        log.replace(/attempt1-cli-(load|run)\.log$/, '<ycsb>').replace(/attempt1-cli-hdr\/READ\.hdr$/, '<hdr>'),
      ),
      [`logs/${folderName}/<ycsb>`, `logs/${folderName}/<ycsb>`, `logs/${folderName}/<hdr>`],
    );
    assert.equal(
      readFileSync(join(outcome.runDir, 'logs', folderName, 'attempt1-cli-hdr', 'READ.hdr'), 'utf8'),
      `${hdrText.trimEnd()}\n`,
    );
    assert.equal(result.run?.operations.READ.percentilesSource, 'hdr-merged');
    assert.deepEqual(
      events.filter((event) => event.type === 'log' && /HDR/.test(event.message)),
      [],
    );
  });
});
