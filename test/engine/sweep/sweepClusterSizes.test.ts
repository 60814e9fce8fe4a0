// Cluster size as a sweep axis against fake hosts and a fake first server's REST API
// (test/support/fakeCluster.ts): the order the sizes are formed in, the per-node evidence in
// results.jsonl, a failed or hung rebalance stopping its cell with the report's words (the report
// kept in the cell's logs), the same cells for the sizes listed as 3, 1, 2, and resume after an
// engine killed mid-rebalance. Fast; the lab test runs the real REST calls against test nodes.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import type { Plan } from '../../../engine/src/plan/planSchema';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { dryRun } from '../../../engine/src/sweep/dryRun';
import { FakeCluster } from '../../support/fakeCluster';
import { FakeHosts, fakeHostsPlan, fakeWorkload } from '../../support/fakeHosts';

const password = 'p@ss w0rd';
const folder = mkdtempSync(join(tmpdir(), 'sweep-sizes-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(join(folder, 'workloada'), fakeWorkload);
writeFileSync(join(folder, 'tuned.opf'), 'onload_set EF_POLL_USEC 100000\n');

function sizedPlan(port: number, clusterSizes: number[], extra: Partial<Plan> = {}): Plan {
  return fakeHostsPlan({
    servers: [
      { host: 'srv', address: '127.0.0.1', restPort: port },
      { host: 'srv2', address: '127.0.0.2', interfaces: { '25G': '10.0.0.2' } },
      { host: 'srv3', address: '127.0.0.3', interfaces: { '25G': '10.0.0.3' } },
    ],
    bucket: { name: 'bench', replicas: 2 },
    stacks: ['kernel', { name: 'tuned', profile: 'tuned.opf' }],
    threads: [1, 2],
    clusterSizes,
    ...extra,
  });
}

interface Swept {
  outcome: Awaited<ReturnType<typeof runSweep>>;
  events: SweepEvent[];
  results: CellResult[];
  hosts: FakeHosts;
  replicasCreated: number[];
}

async function sweep(
  cluster: FakeCluster,
  plan: Plan,
  name: string,
  options: { resumeRunDir?: string; stopAfterCells?: number } = {},
): Promise<Swept> {
  const planPath = join(folder, `${name}.benchplan.json`);
  writeFileSync(planPath, JSON.stringify(plan));
  const hosts = new FakeHosts();
  const events: SweepEvent[] = [];
  const replicasCreated: number[] = [];
  const controller = new AbortController();
  const outcome = await runSweep(
    {
      planPath,
      plan,
      resultsRoot: join(folder, `results-${name}`),
      password,
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (
          options.stopAfterCells !== undefined &&
          event.type === 'cell-finished' &&
          events.filter((seen) => seen.type === 'cell-finished').length >= options.stopAfterCells
        )
          controller.abort();
      },
      ...(options.resumeRunDir ? { resumeRunDir: options.resumeRunDir } : {}),
    },
    {
      sessionFactory: hosts.sessionFactory,
      bucket: {
        recreate: async (bucket) => {
          replicasCreated.push(bucket.replicas);
          cluster.createBucket(bucket.name, bucket.replicas);
        },
        itemCount: async () => {
          cluster.setItems(100);
          return 100;
        },
      },
      skipServerWait: true,
      resize: { pollMs: 1, settleMs: 50 },
    },
  );
  const text =
    outcome.runDir && existsSync(join(outcome.runDir, 'results.jsonl'))
      ? readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
      : '';
  return {
    outcome,
    events,
    hosts,
    replicasCreated,
    results: text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CellResult),
  };
}

async function withCluster<T>(body: (cluster: FakeCluster) => Promise<T>): Promise<T> {
  const cluster = new FakeCluster();
  await cluster.start();
  try {
    return await body(cluster);
  } finally {
    await cluster.stop();
  }
}

describe('sweep over cluster sizes (fake hosts, fake REST)', () => {
  it("forms each size once per repetition, puts both arms on every node, and records each node's share", async () => {
    await withCluster(async (cluster) => {
      const { outcome, results, replicasCreated, hosts } = await sweep(
        cluster,
        sizedPlan(cluster.port, [1, 2, 3]),
        'grow',
      );
      assert.equal(outcome.error, undefined);
      assert.deepEqual([outcome.completed, outcome.failed, outcome.total], [12, 0, 12]);
      // sizes one after the other; each size starts on the stack the last one ended on
      assert.deepEqual(
        results.map((result) => result.id),
        [
          '25G~kernel~n1~t1~r1',
          '25G~kernel~n1~t2~r1',
          '25G~tuned~n1~t1~r1',
          '25G~tuned~n1~t2~r1',
          '25G~tuned~n2~t1~r1',
          '25G~tuned~n2~t2~r1',
          '25G~kernel~n2~t1~r1',
          '25G~kernel~n2~t2~r1',
          '25G~kernel~n3~t1~r1',
          '25G~kernel~n3~t2~r1',
          '25G~tuned~n3~t1~r1',
          '25G~tuned~n3~t2~r1',
        ],
      );
      assert.deepEqual(
        cluster.formed,
        [2, 3],
        'a rebalance only when the size changes (size 1 was already the cluster)',
      );
      assert.deepEqual(replicasCreated, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2], 'min(requested 2, N - 1)');
      // addNode carries only the K1 keys
      const adds = cluster.forms
        .filter((entry) => entry.path === '/controller/addNode')
        .map((entry) => Object.keys(entry.form).sort().join(','));
      assert.deepEqual(adds, ['hostname,password,services,user', 'hostname,password,services,user']);

      const three = results.find((result) => result.id === '25G~tuned~n3~t2~r1')!;
      const cluster3 = three.evidence?.cluster;
      assert.equal(cluster3?.size, 3);
      assert.deepEqual(
        cluster3?.members.map((member) => [member.host, member.hostname, member.services.join(',')]),
        [
          ['srv', `127.0.0.1:${cluster.port}`, 'kv'],
          ['srv2', '127.0.0.2:8091', 'kv'],
          ['srv3', '127.0.0.3:8091', 'kv'],
        ],
      );
      assert.deepEqual(cluster3?.replicas, { requested: 2, effective: 2 });
      assert.deepEqual(cluster3?.rebalance, { outcome: 'not needed' }, 'the second cell of a size finds it formed');
      assert.equal(cluster3?.balanced, true);
      assert.deepEqual(
        Object.entries(cluster3?.nodes ?? {}).map(([hostname, node]) => [
          hostname,
          node.activeVBuckets,
          node.replicaVBuckets,
          node.items,
        ]),
        [
          [`127.0.0.1:${cluster.port}`, 342, 682, 34],
          ['127.0.0.2:8091', 341, 683, 33],
          ['127.0.0.3:8091', 341, 683, 33],
        ],
      );
      const firstOfThree = results.find((result) => result.id === '25G~kernel~n3~t1~r1')!.evidence?.cluster;
      assert.equal(firstOfThree?.rebalance.outcome, 'balanced');
      assert.deepEqual([firstOfThree?.added, firstOfThree?.ejected], [['ns_1@127.0.0.3'], []]);
      assert.match(String((firstOfThree?.rebalance as { rebalanceId?: string }).rebalanceId), /^rebalance-\d+$/);
      // every member's restart proof and acceleration evidence, and no other server's
      assert.deepEqual(Object.keys(three.evidence?.server ?? {}).sort(), ['srv', 'srv2', 'srv3']);
      for (const host of ['srv', 'srv2', 'srv3'])
        assert.ok(
          (three.evidence?.server as Record<string, { start?: unknown; acceleration?: unknown }>)[host].start !==
            undefined,
          host,
        );
      // the server CPU of every member was sampled, on its own address of the cell's interface
      const samplers = hosts.calls.filter((call) => call.step === 'cpu-sampler' && call.command.includes('ip -o addr'));
      assert.deepEqual(
        ['srv', 'srv2', 'srv3'].map((host) =>
          samplers.some(
            (call) =>
              call.host === host && call.command.includes(`-v a=10.0.0.${host === 'srv' ? 1 : host.slice(-1)} `),
          ),
        ),
        [true, true, true],
      );
      const one = results.find((result) => result.id === '25G~tuned~n1~t1~r1')!;
      assert.deepEqual(Object.keys(one.evidence?.server ?? {}), ['srv']);
      // the Onload arm is installed on every node (the drop-in), the kernel one removes it everywhere
      assert.deepEqual(
        ['srv', 'srv2', 'srv3'].map((host) => hosts.dropInInstalled(host)),
        [false, false, false],
        'back on the kernel at the end',
      );
      assert.ok(
        ['srv', 'srv2', 'srv3'].every((host) =>
          hosts.calls.some(
            (call) =>
              call.host === host && call.command.includes('onload-bench.conf') && call.command.includes('install -m'),
          ),
        ),
      );
    });
  });

  it('the sizes listed as 3, 1, 2 give the same cells, formed in that order', async () => {
    await withCluster(async (cluster) => {
      const { outcome, results } = await sweep(
        cluster,
        sizedPlan(cluster.port, [3, 1, 2], { stacks: ['kernel'] }),
        'order',
      );
      assert.equal(outcome.error, undefined);
      assert.deepEqual(
        results.map((result) => result.key.clusterSize),
        [3, 3, 1, 1, 2, 2],
      );
      assert.deepEqual(cluster.formed, [3, 1, 2]);
      assert.deepEqual(results.map((result) => result.id).sort(), [
        '25G~kernel~n1~t1~r1',
        '25G~kernel~n1~t2~r1',
        '25G~kernel~n2~t1~r1',
        '25G~kernel~n2~t2~r1',
        '25G~kernel~n3~t1~r1',
        '25G~kernel~n3~t2~r1',
      ]);
      assert.deepEqual(results.find((result) => result.key.clusterSize === 1)?.evidence?.cluster?.ejected, [
        'ns_1@127.0.0.2',
        'ns_1@127.0.0.3',
      ]);
    });
  });

  it("a failed rebalance stops its cell with the report's words, the report kept in the cell's logs", async () => {
    await withCluster(async (cluster) => {
      const plan = sizedPlan(cluster.port, [1, 2], { stacks: ['kernel'], threads: [1] });
      // both attempts of the size-2 cell meet a failing rebalance
      cluster.faults = {
        fail: {
          errorMessage: 'Rebalance exited with reason {buckets_shutdown_wait_failed}',
          report: 'Rebalance failed: node 127.0.0.2 did not answer.',
          times: 2,
        },
      };
      const { outcome, results } = await sweep(cluster, plan, 'failed');
      assert.deepEqual(
        results.map((result) => [result.id, result.status]),
        [
          ['25G~kernel~n1~t1~r1', 'ok'],
          ['25G~kernel~n2~t1~r1', 'failed'],
        ],
      );
      const failed = results[1];
      assert.equal(failed.error?.code, 'cluster-resize');
      assert.equal(
        failed.error?.message,
        'The rebalance failed: Rebalance exited with reason {buckets_shutdown_wait_failed}. The rebalance report says: Rebalance failed: node 127.0.0.2 did not answer.',
      );
      const reports = failed.logs.filter((log) => log.endsWith('rebalance-report.json'));
      assert.equal(reports.length, 2, 'one report per attempt');
      assert.match(
        readFileSync(join(outcome.runDir, reports[0]), 'utf8'),
        /"completionMessage":"Rebalance failed: node 127.0.0.2 did not answer."/,
      );
    });
  });

  it('a rebalance whose progress stops for 600 s stops its cell, saying so', async () => {
    await withCluster(async (cluster) => {
      const plan = sizedPlan(cluster.port, [2], { stacks: ['kernel'], threads: [1] });
      cluster.faults = { stall: true };
      const clock = {
        at: 0,
        now: () => clock.at,
        sleep: async (ms: number) => {
          clock.at += ms;
        },
      };
      const planPath = join(folder, 'stall.benchplan.json');
      writeFileSync(planPath, JSON.stringify(plan));
      const warnings: string[] = [];
      const outcome = await runSweep(
        {
          planPath,
          plan,
          resultsRoot: join(folder, 'results-stall'),
          password,
          signal: new AbortController().signal,
          onEvent: (event) => {
            if (event.type === 'log' && event.level === 'warn') warnings.push(event.message);
          },
        },
        {
          sessionFactory: new FakeHosts().sessionFactory,
          bucket: { recreate: async () => undefined, itemCount: async () => 100 },
          skipServerWait: true,
          resize: { clock, pollMs: 1000, settleMs: 1000 },
        },
      );
      const [result] = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CellResult);
      assert.equal(result.status, 'failed');
      // the engine stops a hung rebalance (K15): the retry starts its own, which hangs too here
      assert.equal(
        result.error?.message,
        "The rebalance hung: the rebalance's progress stayed at 68 % for 600 s (perfrunner's limit is 600 s). The engine stopped it (POST /controller/stopRebalance). The rebalance report says: Rebalance stopped by user.",
      );
      assert.equal(result.attempts, 2);
      assert.ok(
        warnings.some((message) =>
          message.startsWith(
            "25G~kernel~n2~t1~r1: [cluster-resize] srv: resize-cluster: The rebalance hung: the rebalance's progress stayed at 68 % for 600 s (perfrunner's limit is 600 s). The engine stopped it (POST /controller/stopRebalance).",
          ),
        ),
        warnings.join('\n'),
      );
    });
  });

  it('resume after an engine killed mid-rebalance follows the rebalance left running, then forms the size', async () => {
    await withCluster(async (cluster) => {
      const plan = sizedPlan(cluster.port, [1, 3], { stacks: ['kernel'], threads: [1] });
      const first = await sweep(cluster, plan, 'killed', { stopAfterCells: 1 });
      assert.equal(first.outcome.cancelled, true);
      assert.deepEqual(
        first.results.map((result) => result.id),
        ['25G~kernel~n1~t1~r1'],
      );
      // the engine died after addNode and the rebalance's start: the cluster goes on without it
      cluster.leaveRebalanceRunning(['127.0.0.2:8091']);
      const second = await sweep(cluster, plan, 'killed', { resumeRunDir: first.outcome.runDir });
      assert.equal(second.outcome.error, undefined);
      assert.deepEqual(
        second.results.map((result) => [result.id, result.status]),
        [
          ['25G~kernel~n1~t1~r1', 'ok'],
          ['25G~kernel~n3~t1~r1', 'ok'],
        ],
      );
      const evidence = second.results[1].evidence?.cluster;
      assert.equal(evidence?.earlierRebalance?.outcome, 'ended');
      assert.deepEqual([evidence?.added, evidence?.rebalance.outcome], [['ns_1@127.0.0.3'], 'balanced']);
      assert.deepEqual(cluster.formed.slice(-2), [2, 3]);
    });
  });

  it('the dry run lists the resize of each size before its bucket', async () => {
    // recordcount on the command line: the dry run's YCSB reports the whole slice loaded
    const plan = sizedPlan(8091, [1, 2], {
      stacks: ['kernel'],
      threads: [1],
      workload: { path: 'workloada', properties: { recordcount: 100 } },
    });
    const planPath = join(folder, 'dry.benchplan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    const text = await dryRun(plan, planPath);
    assert.match(text, /# first cell of stack kernel at 2 nodes: 25G~kernel~n2~t1~r1/);
    const second = text.slice(text.indexOf('at 2 nodes'));
    assert.match(
      second,
      /## resize-cluster\n\[srv\] REST as Administrator \(password \*{8}\): DELETE http:\/\/127\.0\.0\.1:8091\/pools\/default\/buckets\/bench/,
    );
    assert.match(second, /the cluster of 2 nodes is 127\.0\.0\.1:8091 \(kv\), 127\.0\.0\.2:8091 \(kv\)/);
    assert.match(second, /the bucket is created with 1 replica\(s\): min\(bucket\.replicas 2, 2 - 1\)/);
    assert.ok(second.indexOf('resize-cluster') < second.indexOf('recreate-bucket'));
    assert.match(second, /## cluster-spread\n\[srv\] REST .*vBucketServerMap/);
  });
});
