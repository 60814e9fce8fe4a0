// The engine against a lab that behaves like the real YCSB and Couchbase (REAL-LAB Y1-Y8, C4, C5,
// C6, C8): each test names its row and fails on the engine before issue 9 (see test/lab/README.md).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan, runPreflight, runSweep } from '../../../engine/src/index';
import type { PreflightCheck, RunOutcome, SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { startLab, writeLabPlan, type Lab, type LabPlanOptions, labUnavailable } from '../../lab/index';
import { labJavaOptions, python27 } from '../../lab/realYcsb';
import { labPerSuite } from '../../support/labSuite';

interface Record_ {
  outcome: RunOutcome;
  events: SweepEvent[];
  results: CellResult[];
  logs: string[];
  phaseTimes: { phase: string; at: number }[];
}

async function sweep(lab: Lab, planPath: string, resultsRoot: string): Promise<Record_> {
  const { plan, errors } = await loadPlan(planPath);
  assert.deepEqual(errors, []);
  const events: SweepEvent[] = [];
  const phaseTimes: { phase: string; at: number }[] = [];
  const onEvent = (event: SweepEvent): void => {
    events.push(event);
    if (event.type === 'phase') phaseTimes.push({ phase: event.phase, at: Date.now() });
  };
  const outcome = await runSweep({
    planPath,
    plan,
    resultsRoot,
    password: lab.couchbase.password,
    signal: new AbortController().signal,
    onEvent,
    ssh: { configFile: lab.sshConfigPath },
  });
  const file = outcome.runDir ? join(outcome.runDir, 'results.jsonl') : '';
  const results =
    file && existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as CellResult)
      : [];
  const logs = events.filter((event) => event.type === 'log').map((event) => (event as { message: string }).message);
  return { outcome, events, results, logs, phaseTimes };
}

async function preflightChecks(lab: Lab, planPath: string, resultsRoot: string): Promise<PreflightCheck[]> {
  const { plan } = await loadPlan(planPath);
  return runPreflight({
    planPath,
    plan,
    resultsRoot,
    password: lab.couchbase.password,
    signal: new AbortController().signal,
    onEvent: () => undefined,
    ssh: { configFile: lab.sshConfigPath },
  });
}

function explain(record: Record_): string {
  return JSON.stringify(
    { error: record.outcome.error, cells: record.results.map((result) => result.error), logs: record.logs.slice(-5) },
    null,
    1,
  );
}

describe('engine on a lab that behaves like real YCSB and Couchbase', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  let counter = 0;
  labPerSuite({ clients: 2 }, 'engine-real-', (started) => ({ lab, work } = started));
  const plan = (options: Partial<LabPlanOptions>): string =>
    writeLabPlan(lab, {
      dir: join(work, `plan-${++counter}`),
      stacks: ['kernel'],
      threads: [1],
      interfaces: [lab.interfaces[0]],
      clients: [lab.clientHost],
      ...options,
    });

  it(
    'Y1-Y4, C4, C6, C8: YCSB logs in as the bucket user with a generated password, through ycsb.sh; the bucket waits are recorded',
    { timeout: 120_000 },
    async () => {
      const javaOptions = `${labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort)} -Xmx64m`;
      const path = plan({
        threads: [1, 2],
        extra: { clients: [{ host: lab.clientHost, ycsbHome: lab.ycsbHome, javaOptions }] },
      });
      const record = await sweep(lab, path, join(work, 'results'));
      assert.equal(record.outcome.error, undefined, explain(record));
      assert.deepEqual(
        record.results.map((result) => result.status),
        ['ok', 'ok'],
        explain(record),
      );
      const [first, second] = record.results;
      const ycsb = first.evidence?.ycsb as {
        launcher: Record<string, string>;
        binding: string;
        keys: Record<string, { properties: Record<string, unknown>; credentialsFile: string[] }>;
      };
      assert.deepEqual(ycsb.launcher, { [lab.clientHost]: 'bin/ycsb.sh' });
      assert.equal(ycsb.binding, 'couchbase2');
      const runKeys = ycsb.keys[`${lab.clientHost} run`];
      assert.deepEqual(runKeys.credentialsFile, ['couchbase.password']);
      for (const key of ['couchbase.username', 'couchbase.adminport', 'couchbase.carrierport', 'couchbase.kvPort'])
        assert.equal(key in runKeys.properties, false, key);
      // JAVA_OPTS reached the JVM (bin/ycsb.sh prints the java command line it runs)
      const runLog = readFileSync(
        join(record.outcome.runDir, first.logs.find((log) => log.endsWith('-run.log')) as string),
        'utf8',
      );
      assert.match(
        runLog,
        /\/usr\/bin\/java -Dcom\.couchbase\.bootstrapCarrierDirectPort=\d+ -Dcom\.couchbase\.bootstrapHttpDirectPort=\d+ -Xbootclasspath\/a:\S+ -Xmx64m -classpath /,
      );
      assert.match(
        runLog,
        /^# cd .* && JAVA_OPTS='-Dcom\.couchbase\.\S+ -Dcom\.couchbase\.\S+ -Xbootclasspath\/a:\S+ -Xmx64m' exec bin\/ycsb\.sh run couchbase2 /m,
      );
      // the second cell dropped the first one's bucket: the deletion finished later (REAL-LAB C4)
      const bucket = second.evidence?.bucket as {
        dropped: boolean;
        dropAnswer?: string;
        waitGone?: { polls: number };
        warmup?: { polls: number };
        itemCount?: { first: number; final: number; expected: number; polls: number };
        writeQueue?: { drained: boolean };
        ycsbUser?: { name: string };
      };
      assert.equal(bucket.dropped, true);
      assert.match(bucket.dropAnswer ?? '', /deletion not yet complete/);
      assert.ok((bucket.waitGone?.polls ?? 0) >= 2, 'waited for the 404');
      assert.ok((bucket.warmup?.polls ?? 0) >= 1);
      assert.equal(bucket.itemCount?.final, 200);
      assert.equal(bucket.itemCount?.expected, 200);
      assert.equal(bucket.writeQueue?.drained, true);
      assert.equal(bucket.ycsbUser?.name, 'bench');
      assert.equal(JSON.stringify(record.results).includes(lab.couchbase.password), false);
    },
  );

  it(
    'Y5: run limits (maxexecutiontime, target, operationcount) do not cut the load short',
    { timeout: 120_000 },
    async () => {
      // at 50 ops/s, 300 records would need 6 s: a load given these limits would stop short at 4 s
      // (the real YCSB counts maxexecutiontime from its start, bootstrap included: a 1 s run does nothing)
      const record = await sweep(
        lab,
        plan({ properties: { recordcount: 300, operationcount: 100, maxexecutiontime: 4, target: 50 } }),
        join(work, 'results'),
      );
      assert.equal(record.outcome.error, undefined, explain(record));
      const [cell] = record.results;
      assert.equal(cell.status, 'ok', explain(record));
      assert.equal(cell.load?.itemCount, 300);
      assert.equal(cell.load?.report.operations.INSERT?.returnCodes.OK, 300);
      const keys = (cell.evidence?.ycsb as { keys: Record<string, { properties: Record<string, unknown> }> }).keys;
      assert.deepEqual(
        [
          keys[`${lab.clientHost} load`].properties.maxexecutiontime,
          keys[`${lab.clientHost} load`].properties.target,
          'operationcount' in keys[`${lab.clientHost} load`].properties,
        ],
        [0, 0, false],
      );
      assert.deepEqual(
        [keys[`${lab.clientHost} run`].properties.maxexecutiontime, keys[`${lab.clientHost} run`].properties.target],
        [4, 50],
      );
    },
  );

  it(
    'Y6, Y10: workload D (latest) from two clients, bounded by time alone: each client loads and inserts into its own table and reads only what exists',
    { timeout: 120_000 },
    async () => {
      const properties = {
        recordcount: 200,
        operationcount: 0,
        maxexecutiontime: 8,
        readproportion: 0.7,
        updateproportion: 0,
        insertproportion: 0.3,
        requestdistribution: 'latest',
        'couchbase.upsert': false,
        'status.interval': 1,
      };
      const path = plan({
        clients: lab.clientHosts,
        properties,
        extra: { workload: { path: 'workloada', properties } },
      });
      const record = await sweep(lab, path, join(work, 'results'));
      assert.equal(record.outcome.error, undefined, explain(record));
      const [cell] = record.results;
      assert.equal(cell.status, 'ok', explain(record));
      assert.equal(cell.load?.itemCount, 200);
      assert.deepEqual(
        cell.clients?.map((client) => client.host),
        lab.clientHosts,
      );
      for (const client of cell.clients ?? []) {
        const operations = client.report?.operations ?? {};
        assert.ok((operations.READ?.returnCodes.OK ?? 0) > 0, `${client.host} read: ${JSON.stringify(operations)}`);
        assert.ok((operations.INSERT?.returnCodes.OK ?? 0) > 0, `${client.host} inserted`);
        assert.deepEqual(
          Object.keys(operations).filter((name) => name.endsWith('-FAILED')),
          [],
          `${client.host}: every read found its key, no insert collided`,
        );
      }
      const keys = (cell.evidence?.ycsb as { keys: Record<string, { properties: Record<string, unknown> }> }).keys;
      assert.deepEqual(
        lab.clientHosts.map((host) => [
          keys[`${host} load`].properties.table,
          keys[`${host} load`].properties.insertcount,
        ]),
        [
          ['usertable-c1', 100],
          ['usertable-c2', 100],
        ],
      );
      assert.deepEqual(
        lab.clientHosts.map((host) => [
          keys[`${host} run`].properties.table,
          keys[`${host} run`].properties.recordcount,
          keys[`${host} run`].properties.operationcount,
        ]),
        [
          ['usertable-c1', 100, 2147483647],
          ['usertable-c2', 100, 2147483647],
        ],
      );
    },
  );

  it(
    'Y7: a scanning workload gets a primary index; without the query service pre-flight says so',
    { timeout: 120_000 },
    async () => {
      const record = await sweep(
        lab,
        plan({ workload: 'e', properties: { recordcount: 100, operationcount: 60 } }),
        join(work, 'results'),
      );
      assert.equal(record.outcome.error, undefined, explain(record));
      const [cell] = record.results;
      assert.equal(cell.status, 'ok', explain(record));
      assert.ok((cell.run?.operations.SCAN?.returnCodes.OK ?? 0) > 0);
      assert.equal(cell.run?.operations['SCAN-FAILED'], undefined);
      assert.equal((cell.evidence?.bucket as { primaryIndex?: { created: boolean } }).primaryIndex?.created, true);

      lab.faults.set({ nodeServices: ['kv'] });
      const checks = await preflightChecks(lab, plan({ workload: 'e' }), join(work, 'results'));
      const services = checks.find((check) => check.id === 'query-services');
      assert.deepEqual([services?.ok, services?.blocking], [false, true]);
      assert.match(services?.detail ?? '', /no node runs n1ql and index/);
    },
  );

  it(
    'C11: a scanning run starts once the primary index has caught up with the load; no scan reads a lagging index',
    { timeout: 120_000 },
    async () => {
      const nodeLog = lab.nodeLogPath;
      const before = existsSync(nodeLog) ? readFileSync(nodeLog, 'utf8').length : 0;
      // an indexer that needs ~10 s for the load's 200 records, longer than YCSB takes to start
      lab.faults.set({ indexItemsPerSec: 20 });
      const record = await sweep(
        lab,
        plan({ workload: 'e', properties: { recordcount: 200, operationcount: 60 } }),
        join(work, 'results'),
      );
      assert.equal(record.outcome.error, undefined, explain(record));
      const [cell] = record.results;
      assert.equal(cell.status, 'ok', explain(record));
      const behind = [
        ...readFileSync(nodeLog, 'utf8')
          .slice(before)
          .matchAll(/scan of bench read the primary index (\d+) mutation\(s\) behind/g),
      ].map((match) => Number(match[1]));
      assert.ok(
        Math.max(0, ...behind) < 20,
        `scans read an index still ${Math.max(...behind)} mutations behind the load`,
      );
      const caughtUp = (cell.evidence?.bucket as { indexCatchUp?: { indexedItems: number; ms: number } }).indexCatchUp;
      assert.equal(caughtUp?.indexedItems, 200, 'the index held every loaded record before the run');
      assert.ok((cell.run?.operations.SCAN?.returnCodes.OK ?? 0) > 0);
    },
  );

  it(
    'C10: the run starts once a stats sample newer than the load shows every persistence queue empty; a missing stat is not an empty queue',
    { timeout: 120_000 },
    async () => {
      const nodeLog = lab.nodeLogPath;
      const before = existsSync(nodeLog) ? readFileSync(nodeLog, 'utf8').length : 0;
      // Prometheus-like: a scrape every 2 s; a write waits 1.5 s in the checkpoint queue
      // (ep_queue_size), then 4.5 s with the flusher (ep_flusher_todo) before it is on disk
      lab.faults.set({ statsScrapeMs: 2000, persistDelayMs: 6000 });
      const record = await sweep(
        lab,
        plan({ properties: { recordcount: 200, operationcount: 100 } }),
        join(work, 'results'),
      );
      assert.equal(record.outcome.error, undefined, explain(record));
      const [cell] = record.results;
      assert.equal(cell.status, 'ok', explain(record));
      const persisted = [
        ...readFileSync(nodeLog, 'utf8')
          .slice(before)
          .matchAll(/^(\S+) .*persistence: every mutation of bench is on disk$/gm),
      ].map((match) => Date.parse(match[1]));
      const runStarted = record.phaseTimes.find((entry) => entry.phase === 'ycsb-run')?.at ?? 0;
      assert.ok(
        persisted.length > 0 && persisted[0] <= runStarted,
        `the run started before the load was on disk (${persisted.length > 0 ? `by ${persisted[0] - runStarted} ms` : 'its writes kept the queue busy to the end'})`,
      );
      const queues = (cell.evidence?.bucket as { writeQueue?: { queues: Record<string, number>; sampledAt?: number } })
        .writeQueue;
      assert.deepEqual(Object.keys(queues?.queues ?? {}), [
        'ep_queue_size',
        'ep_flusher_todo',
        'ep_diskqueue_items',
        'vb_active_queue_size',
        'vb_replica_queue_size',
        'vb_pending_queue_size',
      ]);
      assert.ok((queues?.sampledAt ?? 0) >= persisted[0], 'judged on a sample taken after the load was on disk');
    },
  );

  it('C5: a bucket under 100 MiB is refused by pre-flight with the reason', async () => {
    const path = plan({});
    const text = JSON.parse(readFileSync(path, 'utf8'));
    text.bucket.ramQuotaMB = 64;
    writeFileSync(path, JSON.stringify(text));
    const checks = await preflightChecks(lab, path, join(work, 'results'));
    const quota = checks.filter((check) => check.id === 'bucket-quota' && !check.ok);
    assert.equal(quota.length, 1);
    assert.match(quota[0].detail, /64 MiB; Couchbase needs at least 100 MiB/);
  });

  it('Y4: a plan launcher that does not work blocks pre-flight with what was tried', async () => {
    const path = plan({
      extra: { clients: [{ host: lab.clientHost, ycsbHome: lab.ycsbHome, ycsbCommand: 'bin/ycsb' }] },
    });
    const checks = await preflightChecks(lab, path, join(work, 'results'));
    const launcher = checks.find((check) => check.id === 'ycsb-launcher');
    assert.deepEqual([launcher?.ok, launcher?.blocking], [false, true]);
    assert.match(launcher?.detail ?? '', /bin\/ycsb: exit 127/);
    assert.match(launcher?.action ?? '', /Python 2/);
  });
});

describe(
  'engine with a client that has Python 2 (REAL-LAB Y4)',
  { skip: labUnavailable() || (python27() === undefined ? 'no Python 2.7 on this machine' : false) },
  () => {
    let lab: Lab;
    let work: string;
    before(async () => {
      lab = await startLab({ python2: true });
      work = mkdtempSync(join(tmpdir(), 'engine-python2-'));
    });
    after(async () => {
      await lab?.stop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it(
      'pre-flight picks python2 bin/ycsb and the sweep passes javaOptions as -jvm-args',
      { timeout: 90_000 },
      async () => {
        const javaOptions = `${labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort)} -Xmx64m`;
        const path = writeLabPlan(lab, {
          dir: join(work, 'plan'),
          stacks: ['kernel'],
          threads: [1],
          interfaces: [lab.interfaces[0]],
          extra: { clients: [{ host: lab.clientHost, ycsbHome: lab.ycsbHome, javaOptions }] },
        });
        const checks = await preflightChecks(lab, path, join(work, 'results'));
        assert.match(
          checks.find((check) => check.id === 'ycsb-launcher')?.detail ?? '',
          /^python2 bin\/ycsb starts YCSB/,
        );
        const record = await sweep(lab, path, join(work, 'results'));
        assert.equal(record.outcome.error, undefined, explain(record));
        const [cell] = record.results;
        assert.equal(cell.status, 'ok', explain(record));
        const runLog = readFileSync(
          join(record.outcome.runDir, cell.logs.find((log) => log.endsWith('-run.log')) as string),
          'utf8',
        );
        assert.match(
          runLog,
          /^# cd .* && exec python2 bin\/ycsb run couchbase2 '-jvm-args=-Dcom\.couchbase\.\S+ -Dcom\.couchbase\.\S+ -Xbootclasspath\/a:\S+ -Xmx64m' /m,
        );
        // the real bin/ycsb (Python 2.7) prints the java command on stderr, its JVM options first
        assert.match(runLog, /^java -Dcom\.couchbase\.\S+ -Dcom\.couchbase\.\S+ -Xbootclasspath\/a:\S+ -Xmx64m -cp /m);
      },
    );
  },
);
