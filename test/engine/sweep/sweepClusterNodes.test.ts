// Cluster sizes as a sweep axis, as far as this machine goes without several server hosts: the whole
// sweep (runSweep) over 1, 2 and 3 nodes x kernel/Onload x two thread counts, with real REST calls
// to three Couchbase test nodes that form one cluster as ns_server does (test/lab/clusterMembership.ts,
// each node a process of its own on a loopback address), the real SDK for the bucket, and the
// cluster map spreading the keys over the members. SSH and YCSB are the fake hosts' (the load
// writes its records through the real SDK, so the item counts and each node's share are real).
// Asserts on results.jsonl: per-node evidence, the same cells for the order 3, 1, 2, a failed
// rebalance stopping its cell with the report's words, and resume after a kill mid-rebalance.
// Bounded: 240 s per test, every node process ended in after() also on failure.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as couchbase from 'couchbase';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import type { Plan } from '../../../engine/src/plan/planSchema';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan, ycsbPhaseResult, ycsbReport } from '../../support/fakeHosts';
import { startTestNode, stopAllTestNodes, type TestNodeProcess as Node } from '../../lab/testNodeProcesses';

const username = 'Administrator';
const password = 'cluster nodes pass';
const folder = mkdtempSync(join(tmpdir(), 'sweep-cluster-nodes-'));
after(() => {
  stopAllTestNodes();
  rmSync(folder, { recursive: true, force: true });
});
writeFileSync(
  join(folder, 'workloada'),
  'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=120\noperationcount=100\nreadproportion=1\nupdateproportion=0\n',
);
writeFileSync(join(folder, 'tuned.opf'), 'onload_set EF_POLL_USEC 100000\n');

const startNode = (address: string, faults: Record<string, unknown> = {}): Promise<Node> =>
  startTestNode(address, { username, password, faults });

function clusterPlan(nodes: Node[], clusterSizes: number[], extra: Partial<Plan> = {}): Plan {
  return fakeHostsPlan({
    servers: nodes.map((node, index) => ({
      host: `srv${index + 1}`,
      address: node.address,
      restPort: node.restPort,
      kvPort: node.kvPort,
      services: ['kv', 'index', 'n1ql'] as ('kv' | 'index' | 'n1ql')[],
      ...(index > 0 ? { interfaces: { '25G': node.address } } : {}),
    })),
    interfaces: { '25G': nodes[0].address },
    bucket: { name: 'bench', replicas: 2, ramQuotaMB: 100 },
    stacks: ['kernel', { name: 'tuned', profile: 'tuned.opf' }],
    threads: [1, 2],
    clusterSizes,
    ...extra,
  });
}

/** Fake hosts whose YCSB load writes its records into the cluster through the real SDK. */
function hostsWritingThrough(nodes: Node[]): FakeHosts {
  return new FakeHosts({
    answer: async (command, host, options) => {
      const match = / load (\S+) .*-threads (\d+) -s\b/.exec(command);
      if (!command.includes('& wait $!') || !match) return undefined;
      const cluster = await couchbase.connect(`couchbase://${nodes[0].address}:${nodes[0].kvPort}`, {
        username,
        password,
        timeouts: { kvTimeout: 5000, connectTimeout: 10_000 },
      });
      try {
        const collection = cluster.bucket('bench').defaultCollection();
        for (let index = 0; index < 120; index++) await collection.upsert(`user${index}`, { field0: 'x'.repeat(20) });
      } finally {
        await cluster.close();
      }
      return ycsbPhaseResult(
        { host, phase: 'load', threads: Number(match[2]), command, options },
        ycsbReport('load', 120),
      );
    },
  });
}

async function sweep(
  plan: Plan,
  hosts: FakeHosts,
  name: string,
  options: { resumeRunDir?: string; onEvent?: (event: SweepEvent, abort: () => void) => void } = {},
): Promise<{ outcome: Awaited<ReturnType<typeof runSweep>>; results: CellResult[] }> {
  const planPath = join(folder, `${name}.benchplan.json`);
  writeFileSync(planPath, JSON.stringify(plan));
  const controller = new AbortController();
  // every remote command and wait listens to the run's signal while it runs: none may stay behind,
  // and the many in flight at once with three servers must not print Node's listener-leak warning
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const outcome = await runSweep(
    {
      planPath,
      plan,
      resultsRoot: join(folder, `results-${name}`),
      password,
      signal: controller.signal,
      timeouts: { bucketReadySec: 30 },
      onEvent: (event) => options.onEvent?.(event, () => controller.abort()),
      ...(options.resumeRunDir ? { resumeRunDir: options.resumeRunDir } : {}),
    },
    { sessionFactory: hosts.sessionFactory, skipServerWait: true, resize: { pollMs: 100 } },
  ).finally(() => process.off('warning', onWarning));
  assert.deepEqual(
    warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning')),
    [],
  );
  assert.equal(
    getEventListeners(controller.signal, 'abort').length,
    0,
    "a listener on the run's signal outlived the sweep",
  );
  const text = outcome.runDir ? readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8') : '';
  return {
    outcome,
    results: text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CellResult),
  };
}

const shares = (result: CellResult): [number, number, number][] =>
  Object.values(result.evidence?.cluster?.nodes ?? {}).map((node) => [
    node.activeVBuckets,
    node.replicaVBuckets,
    node.items ?? -1,
  ]);

describe('a sweep over 1, 2 and 3 test nodes (real REST and SDK, fake SSH and YCSB)', { timeout: 240_000 }, () => {
  it("runs every size x arm x threads, with each node's share; the order 3, 1, 2 gives the same cells", async () => {
    const nodes = await Promise.all(['127.0.0.21', '127.0.0.22', '127.0.0.23'].map((address) => startNode(address)));
    const first = await sweep(clusterPlan(nodes, [1, 2, 3]), hostsWritingThrough(nodes), 'grow');
    assert.equal(first.outcome.error, undefined, JSON.stringify(first.outcome.error));
    assert.deepEqual(
      first.results.filter((result) => result.status !== 'ok').map((result) => [result.id, result.error?.message]),
      [],
    );
    assert.equal(first.results.length, 12);
    for (const result of first.results) {
      const cluster = result.evidence?.cluster;
      const size = result.key.clusterSize ?? 0;
      assert.equal(cluster?.size, size);
      assert.deepEqual(cluster?.replicas, { requested: 2, effective: Math.min(2, size - 1) });
      assert.deepEqual(
        Object.keys(result.evidence?.server ?? {}).sort(),
        ['srv1', 'srv2', 'srv3'].slice(0, size),
        'every member on the arm, with its evidence',
      );
      assert.equal(result.load?.itemCount, 120, "the cluster's count");
      const spread = shares(result);
      assert.equal(spread.length, size);
      // the test node's 64 vBuckets (a real node has 1024), each active once and with its replicas
      assert.equal(
        spread.reduce((sum, [active]) => sum + active, 0),
        64,
      );
      assert.equal(
        spread.reduce((sum, [, replica]) => sum + replica, 0),
        64 * Math.min(2, size - 1),
      );
      assert.equal(
        spread.reduce((sum, [, , items]) => sum + items, 0),
        120,
      );
      if (size > 1)
        for (const [, , items] of spread)
          assert.ok(items > 0 && items < 120, `each node holds a share: ${JSON.stringify(spread)}`);
    }
    const formed = first.results
      .filter((result) => result.evidence?.cluster?.rebalance.outcome === 'balanced')
      .map((result) => result.key.clusterSize);
    assert.deepEqual(formed, [2, 3], 'a rebalance when the size changes, none for the other cells of a size');

    const second = await sweep(clusterPlan(nodes, [3, 1, 2]), hostsWritingThrough(nodes), 'order');
    assert.equal(second.outcome.error, undefined, JSON.stringify(second.outcome.error));
    assert.deepEqual(
      second.results.map((result) => result.key.clusterSize),
      [3, 3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 2],
    );
    assert.deepEqual(second.results.map((result) => result.id).sort(), first.results.map((result) => result.id).sort());
    assert.deepEqual(second.results.find((result) => result.key.clusterSize === 1)?.evidence?.cluster?.ejected, [
      'ns_1@127.0.0.22',
      'ns_1@127.0.0.23',
    ]);
  });

  it("a failed rebalance stops its cell with the report's words; resume after a kill mid-rebalance finishes the run", async () => {
    // the orchestrator's rebalances fail half way; the next node set's take 3 s
    const failing = await Promise.all(
      ['127.0.0.24', '127.0.0.25'].map((address, index) =>
        startNode(address, index === 0 ? { rebalanceFailure: '{badmatch,{error,timeout}}', rebalanceMs: 200 } : {}),
      ),
    );
    const failed = await sweep(
      clusterPlan(failing, [1, 2], { stacks: ['kernel'], threads: [1] }),
      hostsWritingThrough(failing),
      'failed',
    );
    assert.deepEqual(
      failed.results.map((result) => [result.id, result.status]),
      [
        ['25G~kernel~n1~t1~r1', 'ok'],
        ['25G~kernel~n2~t1~r1', 'failed'],
      ],
    );
    assert.equal(
      failed.results[1].error?.message,
      'The rebalance failed: Rebalance failed. See logs for detailed reason. You can try again. The rebalance report says: Rebalance exited with reason {badmatch,{error,timeout}}',
    );
    assert.ok(failed.results[1].logs.some((log) => log.endsWith('attempt2-rebalance-report.json')));

    const slow = await Promise.all(
      ['127.0.0.26', '127.0.0.27', '127.0.0.28'].map((address, index) =>
        startNode(address, index === 0 ? { rebalanceMs: 3000 } : {}),
      ),
    );
    const plan = clusterPlan(slow, [1, 3], { stacks: ['kernel'], threads: [1] });
    // killed (cancelled) while the size-3 cell's rebalance runs
    let rebalanceSeen = false;
    const killed = await sweep(plan, hostsWritingThrough(slow), 'killed', {
      onEvent: (event, abort) => {
        if (event.type !== 'phase' || event.phase !== 'resize-cluster' || !event.id.includes('~n3~')) return;
        const watch = setInterval(() => {
          void fetch(`http://${slow[0].address}:${slow[0].restPort}/pools/default/tasks`, {
            headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
          })
            .then((answer) => answer.json() as Promise<{ status: string }[]>)
            .then((tasks) => {
              if (tasks[0]?.status !== 'running') return;
              clearInterval(watch);
              rebalanceSeen = true;
              abort();
            })
            .catch(() => undefined);
        }, 50);
        watch.unref();
      },
    });
    assert.ok(rebalanceSeen, 'the engine was stopped while the rebalance ran');
    assert.equal(killed.outcome.cancelled, true);
    assert.deepEqual(
      killed.results.map((result) => result.id),
      ['25G~kernel~n1~t1~r1'],
    );
    const resumed = await sweep(plan, hostsWritingThrough(slow), 'killed', { resumeRunDir: killed.outcome.runDir });
    assert.equal(resumed.outcome.error, undefined, JSON.stringify(resumed.outcome.error));
    assert.deepEqual(
      resumed.results.map((result) => [result.id, result.status]),
      [
        ['25G~kernel~n1~t1~r1', 'ok'],
        ['25G~kernel~n3~t1~r1', 'ok'],
      ],
    );
    assert.equal(resumed.results[1].evidence?.cluster?.size, 3);
    assert.equal(shares(resumed.results[1]).length, 3);
  });
});
