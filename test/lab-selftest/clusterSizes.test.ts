// Issue 23: the engine's cell cluster steps (couchbase/cellCluster.ts formCellCluster) with real
// REST calls to test nodes that form a cluster as ns_server does (test/lab/clusterMembership.ts),
// each in a process of its own on this machine's loopback addresses: sizes formed in the order
// 3, 1, 2 end in the same clusters as 1, 2, 3 (a node just ejected is waited for until it has left,
// K16); an engine stopped mid-rebalance leaves a rebalance
// that the next resize follows to its end; a member that restarts is still a member (its
// membership kept in its data folder); the cluster map spreads the vBuckets over the members, so
// the real SDK sends each key to its node, and the engine reads each node's share. Bounded: every
// node is stopped by its process in after().
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as couchbase from 'couchbase';
import { recreateBucket } from '../../engine/src/couchbase/bucket';
import { readItemCount } from '../../engine/src/couchbase/bucketLifecycle';
import { formCellCluster, readBucketSpread } from '../../engine/src/couchbase/cellCluster';
import { planForCell } from '../../engine/src/plan/clusterSizes';
import { resizeCluster, type ResizeClock } from '../../engine/src/couchbase/clusterResizeSteps';
import { wantedMembers } from '../../engine/src/couchbase/clusterResize';
import { clusterMembers } from '../../engine/src/plan/clusterSizes';
import { withDefaults, type Plan, type ResolvedPlan } from '../../engine/src/plan/planSchema';
import {
  startTestNode,
  stopAllTestNodes,
  stopTestNode,
  type TestNodeProcess as Node,
  type TestNodeStart,
} from '../lab/testNodeProcesses';

const username = 'Administrator';
const password = 'cluster-sizes pass';
const folder = mkdtempSync(join(tmpdir(), 'cluster-sizes-lab-'));
after(() => {
  stopAllTestNodes();
  rmSync(folder, { recursive: true, force: true });
});

const startNode = (address: string, extra: Omit<TestNodeStart, 'username' | 'password'> = {}): Promise<Node> =>
  startTestNode(address, { username, password, ...extra });
const stopNode = stopTestNode;

async function pool(
  node: Node,
): Promise<{ balanced: boolean; nodes: { otpNode: string; clusterMembership: string }[] }> {
  const response = await fetch(`http://${node.address}:${node.restPort}/pools/default`, {
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
  });
  return (await response.json()) as { balanced: boolean; nodes: { otpNode: string; clusterMembership: string }[] };
}

function planOf(nodes: Node[]): ResolvedPlan {
  return withDefaults({
    servers: nodes.map((node, index) => ({
      host: `cb${index + 1}`,
      address: node.address,
      restPort: node.restPort,
      kvPort: node.kvPort,
      services: ['kv', 'index', 'n1ql'],
      ...(index > 0 ? { interfaces: { lo: node.address } } : {}),
    })),
    interfaces: { lo: nodes[0].address },
    clients: [],
    bucket: { name: 'bench', replicas: 2 },
    workload: { path: 'w' },
    stacks: ['kernel'],
    clusterSizes: nodes.map((_, index) => index + 1),
  } as unknown as Plan);
}

const fastClock: ResizeClock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.min(ms, 100));
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    }),
};
const target = (plan: ResolvedPlan, signal?: AbortSignal) => ({
  server: plan.servers[0],
  password,
  ...(signal ? { signal } : {}),
});
const members = (state: { nodes: { otpNode: string; clusterMembership: string }[] }): string[] =>
  state.nodes.map((node) => `${node.otpNode} ${node.clusterMembership}`);

describe('cluster sizes against test nodes (real REST)', { timeout: 180_000 }, () => {
  it('sizes formed as 3, 1, 2 give the clusters 1, 2, 3 give, with the evidence a cell records', async () => {
    // 127.0.0.3 takes 3 s to leave once ejected (K16), so that growing 1 -> 2 meets it still leaving
    const nodes = await Promise.all(
      ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((address, index) =>
        startNode(address, index === 1 ? { faults: { leaveMs: 3000 } } : {}),
      ),
    );
    const plan = planOf(nodes);
    const seen = new Map<number, string[]>();
    for (const size of [3, 1, 2, 1, 2, 3]) {
      const evidence = await formCellCluster(target(plan), plan, size, 30, { clock: fastClock, pollMs: 100 });
      assert.equal(evidence.size, size);
      if (size === 2) {
        // the node the size-1 resize just ejected refuses to join until it has left: asked again, not failed
        assert.deepEqual(
          evidence.waitedForLeave?.map((wait) => wait.hostname),
          [`127.0.0.3:${nodes[1].restPort}`],
          JSON.stringify(evidence),
        );
        assert.ok(
          evidence.waitedForLeave![0].ms >= 1000 && evidence.waitedForLeave![0].attempts > 1,
          JSON.stringify(evidence.waitedForLeave),
        );
      } else assert.equal(evidence.waitedForLeave, undefined, JSON.stringify(evidence.waitedForLeave));
      assert.deepEqual(evidence.replicas, { requested: 2, effective: Math.min(2, size - 1) });
      assert.equal(evidence.rebalance.outcome, 'balanced', `size ${size} was formed by a rebalance`);
      const state = await pool(nodes[0]);
      assert.equal(state.balanced, true);
      const now = members(state);
      assert.deepEqual(
        now,
        clusterMembers(plan, size).map((server) => `ns_1@${server.address} active`),
      );
      if (seen.has(size)) assert.deepEqual(now, seen.get(size), 'the same cluster whatever the order');
      seen.set(size, now);
    }
    // the second cell of a size finds it formed
    const again = await formCellCluster(target(plan), plan, 3, 30, { clock: fastClock, pollMs: 100 });
    assert.deepEqual([again.rebalance.outcome, again.added, again.ejected], ['not needed', [], []]);
    await Promise.all(nodes.map(stopNode));
  });

  it('an engine stopped mid-rebalance: the next resize follows the rebalance left running, then forms its size', async () => {
    const nodes = await Promise.all(
      ['127.0.0.5', '127.0.0.6', '127.0.0.7'].map((address, index) =>
        startNode(address, index === 0 ? { faults: { rebalanceMs: 3000 } } : {}),
      ),
    );
    const plan = planOf(nodes);
    const stop = new AbortController();
    const killed = resizeCluster(target(plan, stop.signal), wantedMembers(clusterMembers(plan, 2)), fastClock, {
      pollMs: 100,
    });
    // stopped once the rebalance runs (not at a fixed time: a loaded machine is slow to get there)
    for (let polls = 0; polls < 600 && !stop.signal.aborted; polls++) {
      const tasks = (await (
        await fetch(`http://${nodes[0].address}:${nodes[0].restPort}/pools/default/tasks`, {
          headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
        })
      ).json()) as { status: string }[];
      if (tasks[0]?.status === 'running') stop.abort();
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await assert.rejects(killed, /Cancelled/);
    assert.deepEqual(
      members(await pool(nodes[0])),
      ['ns_1@127.0.0.5 active', 'ns_1@127.0.0.6 inactiveAdded'],
      'the rebalance goes on without the engine',
    );
    const evidence = await formCellCluster(target(plan), plan, 3, 30, { clock: fastClock, pollMs: 100 });
    assert.equal(evidence.earlierRebalance?.outcome, 'ended');
    assert.ok((evidence.earlierRebalance?.ms ?? 0) > 500, JSON.stringify(evidence.earlierRebalance));
    assert.deepEqual([evidence.added, evidence.rebalance.outcome], [['ns_1@127.0.0.7'], 'balanced']);
    assert.deepEqual(members(await pool(nodes[0])), [
      'ns_1@127.0.0.5 active',
      'ns_1@127.0.0.6 active',
      'ns_1@127.0.0.7 active',
    ]);
    await Promise.all(nodes.map(stopNode));
  });

  it('a member and the orchestrator that restart are still the cluster (membership kept in the data folder)', async () => {
    const files = ['127.0.0.8', '127.0.0.9'].map((address) => join(folder, `${address}.membership.json`));
    let [first, second] = await Promise.all([
      startNode('127.0.0.8', { membershipFile: files[0] }),
      startNode('127.0.0.9', { membershipFile: files[1] }),
    ]);
    const plan = planOf([first, second]);
    await formCellCluster(target(plan), plan, 2, 30, { clock: fastClock, pollMs: 100 });
    await Promise.all([stopNode(first), stopNode(second)]);
    [first, second] = await Promise.all([
      startNode('127.0.0.8', { membershipFile: files[0], restPort: first.restPort, kvPort: first.kvPort }),
      // this time it takes 5 s to leave once ejected: stopped below before it has left
      startNode('127.0.0.9', {
        membershipFile: files[1],
        restPort: second.restPort,
        kvPort: second.kvPort,
        faults: { leaveMs: 5000 },
      }),
    ]);
    const state = await pool(first);
    assert.deepEqual([state.balanced, members(state)], [true, ['ns_1@127.0.0.8 active', 'ns_1@127.0.0.9 active']]);
    const evidence = await formCellCluster(target(plan), plan, 2, 30, { clock: fastClock, pollMs: 100 });
    assert.equal(evidence.rebalance.outcome, 'not needed');
    // the restarted member still refuses another cluster (K3)
    const third = await startNode('127.0.0.10');
    const answer = await fetch(`http://127.0.0.10:${third.restPort}/controller/addNode`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        hostname: `127.0.0.9:${second.restPort}`,
        user: username,
        password,
        services: 'kv',
      }).toString(),
    });
    assert.deepEqual(
      [answer.status, await answer.json()],
      [400, ['Prepare join failed. Node is already part of cluster.']],
    );
    // ejected, it forgets the cluster, also when it restarts before it finished leaving (K16's leave marker)
    await formCellCluster(target(plan), plan, 1, 30, { clock: fastClock, pollMs: 100 });
    await stopNode(second);
    assert.equal(
      (JSON.parse(readFileSync(files[1], 'utf8')) as { leaving?: boolean }).leaving,
      true,
      'told to leave, stopped before it was done',
    );
    second = await startNode('127.0.0.9', {
      membershipFile: files[1],
      restPort: second.restPort,
      kvPort: second.kvPort,
    });
    const grown = await formCellCluster(target(plan), plan, 2, 30, { clock: fastClock, pollMs: 100 });
    assert.deepEqual(grown.added, ['ns_1@127.0.0.9']);
    await Promise.all([first, second, third].map(stopNode));
  });

  it("the cluster map spreads the bucket over the members: the real SDK sends each key to its node, and the engine reads each node's share", async () => {
    const nodes = await Promise.all(
      ['127.0.0.11', '127.0.0.12', '127.0.0.13'].map((address) =>
        startNode(address, { faults: { statsIntervalMs: 0 } }),
      ),
    );
    const plan = planOf(nodes);
    const evidence = await formCellCluster(target(plan), plan, 3, 30, { clock: fastClock, pollMs: 100 });
    assert.equal(evidence.rebalance.outcome, 'balanced');
    const cell = planForCell(plan, 3);
    await recreateBucket(target(cell), cell.bucket, 30);
    const cluster = await couchbase.connect(`couchbase://${nodes[0].address}:${nodes[0].kvPort}`, {
      username,
      password,
      timeouts: { kvTimeout: 5000, connectTimeout: 10_000 },
    });
    try {
      const collection = cluster.bucket('bench').defaultCollection();
      for (let index = 0; index < 300; index++) await collection.upsert(`user${index}`, { field0: 'x'.repeat(10) });
    } finally {
      await cluster.close();
    }
    assert.equal(await readItemCount(target(cell), 'bench'), 300, "the first server counts every member's items");
    const spread = await readBucketSpread(target(cell), 'bench');
    // the test node has 64 vBuckets (a real one 1024): 22, 21, 21 active, each with two replicas on the others
    assert.deepEqual(
      Object.entries(spread).map(([hostname, node]) => [hostname, node.activeVBuckets, node.replicaVBuckets]),
      [
        [`127.0.0.11:${nodes[0].restPort}`, 22, 42],
        [`127.0.0.12:${nodes[1].restPort}`, 21, 43],
        [`127.0.0.13:${nodes[2].restPort}`, 21, 43],
      ],
    );
    const items = Object.values(spread).map((node) => node.items ?? 0);
    assert.equal(
      items.reduce((sum, count) => sum + count, 0),
      300,
    );
    // CRC32 spreads 300 keys over 64 vBuckets: every node gets its share, none all of them
    for (const count of items) assert.ok(count > 50 && count < 150, JSON.stringify(items));
    await Promise.all(nodes.map(stopNode));
  });
});
