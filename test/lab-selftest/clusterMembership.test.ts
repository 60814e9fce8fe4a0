// Issue 23, step 4: test nodes as members of one cluster, each in a process of its own on this
// machine's loopback addresses (the lab boots one server host so far), refusing what ns_server
// refuses (lab README K1-K9) and resized by the engine's own resize edge (clusterResizeSteps.ts).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RebalanceFailure, resizeCluster, type ResizeClock } from '../../engine/src/couchbase/clusterResizeSteps';
import type { RestTarget } from '../../engine/src/couchbase/couchbaseRest';
import { withDefaults, type Plan } from '../../engine/src/plan/planSchema';

const username = 'Administrator';
const password = 'cluster-test pass';
const children: ChildProcess[] = [];

interface Node {
  address: string;
  restPort: number;
  kvPort: number;
}

async function startNode(address: string, faults: Record<string, unknown> = {}): Promise<Node> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '..', 'lab', 'testNodeProcess.ts'), address],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdin!.write(`${JSON.stringify({ username, password, faults })}\n`);
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`test node on ${address} exited ${code}: ${err}`)));
  });
  return { address, ...(JSON.parse(line) as { restPort: number; kvPort: number }) };
}

async function rest(
  node: Node,
  method: string,
  path: string,
  form?: Record<string, string>,
  auth = `${username}:${password}`,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://${node.address}:${node.restPort}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(auth).toString('base64')}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // text
  }
  return { status: response.status, body };
}

function targetOf(node: Node): RestTarget {
  const plan = withDefaults({
    servers: [{ host: `lab-${node.address}`, address: node.address, restPort: node.restPort }],
    interfaces: { lo: node.address },
    clients: [],
    bucket: { name: 'bench' },
    workload: { path: 'w' },
    stacks: ['kernel'],
  } as unknown as Plan);
  return { server: plan.servers[0], password };
}

const member = (node: Node) => ({
  hostname: `${node.address}:${node.restPort}`,
  services: ['kv' as const, 'index' as const, 'n1ql' as const],
});
const fastClock: ResizeClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 100))),
};

let a: Node;
let b: Node;
before(async () => {
  [a, b] = await Promise.all([startNode('127.0.0.2'), startNode('127.0.0.3')]);
});
after(() => {
  for (const child of children) {
    child.stdin?.end();
    child.kill('SIGTERM');
  }
});

describe('test nodes forming a cluster (lab README K1-K9)', () => {
  it("addNode refuses unknown parameters and services, a missing password, itself and a wrong password, in ns_server's words", async () => {
    assert.deepEqual(
      await rest(a, 'POST', '/controller/addNode', {
        hostname: `${b.address}:${b.restPort}`,
        user: username,
        password,
        services: 'kv,query',
        port: '8091',
      }),
      {
        status: 400,
        body: ['Got unknown parameters: ["port"]', 'Unknown services: ["query"]'],
      },
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/addNode', { hostname: `${b.address}:${b.restPort}`, user: username }),
      { status: 400, body: ['password is missing'] },
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/addNode', {
        hostname: `${a.address}:${a.restPort}`,
        user: username,
        password,
        services: 'kv',
      }),
      { status: 400, body: ['Prepare join failed. Joining node to itself is not allowed.'] },
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/addNode', {
        hostname: `${b.address}:${b.restPort}`,
        user: username,
        password: 'wrong',
        services: 'kv',
      }),
      { status: 400, body: ['Prepare join failed. Authentication failed. Verify username and password.'] },
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/addNode', {
        hostname: '127.0.0.9:1',
        user: username,
        password,
        services: 'kv',
      }),
      {
        status: 400,
        body: [
          'Failed to connect to http://127.0.0.9:1. Could not connect to "127.0.0.9" on port 1.  This could be due to an incorrect host/port combination or a firewall in place between the servers.',
        ],
      },
    );
    const pools = (await rest(a, 'GET', '/pools/default')).body as { nodes: unknown[]; balanced: boolean };
    assert.equal(pools.nodes.length, 1, 'nothing was added');
    assert.equal(pools.balanced, true);
  });

  it('the engine grows the cluster to two; the member cannot be added twice, and a stale knownNodes is a mismatch', async () => {
    const facts = await resizeCluster(targetOf(a), [member(a), member(b)], fastClock, { pollMs: 200 });
    assert.deepEqual(facts.added, ['ns_1@127.0.0.3']);
    assert.deepEqual(facts.members, ['ns_1@127.0.0.2', 'ns_1@127.0.0.3']);
    assert.equal(facts.rebalance?.mismatchRetried, false);
    assert.match(facts.rebalance?.rebalanceId ?? '', /^[0-9a-f]{32}$/);

    const pools = (await rest(a, 'GET', '/pools/default')).body as {
      balanced: boolean;
      nodes: { otpNode: string; hostname: string; clusterMembership: string; status: string }[];
    };
    assert.equal(pools.balanced, true);
    assert.deepEqual(
      pools.nodes.map((node) => [node.otpNode, node.hostname, node.clusterMembership, node.status]),
      [
        ['ns_1@127.0.0.2', `127.0.0.2:${a.restPort}`, 'active', 'healthy'],
        ['ns_1@127.0.0.3', `127.0.0.3:${b.restPort}`, 'active', 'healthy'],
      ],
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/addNode', {
        hostname: `${b.address}:${b.restPort}`,
        user: username,
        password,
        services: 'kv',
      }),
      { status: 400, body: ['Prepare join failed. Node is already part of cluster.'] },
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/rebalance', { knownNodes: 'ns_1@127.0.0.2', ejectedNodes: '' }),
      { status: 400, body: { mismatch: 1 } },
    );
    assert.deepEqual(
      await rest(a, 'POST', '/controller/rebalance', {
        knownNodes: 'ns_1@127.0.0.2,ns_1@127.0.0.3',
        ejectedNodes: 'ns_1@127.0.0.9',
      }),
      { status: 400, body: { mismatch: 1 } },
    );
    assert.deepEqual(await rest(a, 'POST', '/controller/rebalance', { ejectedNodes: '' }), {
      status: 400,
      body: { empty_known_nodes: 1 },
    });
    const tasks = (await rest(a, 'GET', '/pools/default/tasks')).body as {
      type: string;
      status: string;
      lastReportURI?: string;
    }[];
    assert.deepEqual(
      tasks.map((task) => [task.type, task.status]),
      [['rebalance', 'notRunning']],
    );
    assert.equal(
      (await rest(a, 'GET', tasks[0].lastReportURI!)).body &&
        ((await rest(a, 'GET', tasks[0].lastReportURI!)).body as { completionMessage: string }).completionMessage,
      'Rebalance completed successfully.',
    );
  });

  it('shrinking ejects the node, which leaves: its memcached restarts (its KV connections close) and it can join again', async () => {
    const kv: Socket = connect({ host: b.address, port: b.kvPort });
    await new Promise<void>((resolve, reject) => kv.once('connect', resolve).once('error', reject));
    const closed = new Promise<void>((resolve) => kv.once('close', () => resolve()));
    const facts = await resizeCluster(targetOf(a), [member(a)], fastClock, { pollMs: 200 });
    assert.deepEqual(facts.ejected, ['ns_1@127.0.0.3']);
    assert.deepEqual(facts.members, ['ns_1@127.0.0.2']);
    await closed;
    const again = await resizeCluster(targetOf(a), [member(a), member(b)], fastClock, { pollMs: 200 });
    assert.deepEqual(again.added, ['ns_1@127.0.0.3']);
    await resizeCluster(targetOf(a), [member(a)], fastClock, { pollMs: 200 });
  });

  it('a rebalance whose progress stops is reported hung by the engine after 600 s of its clock, and stopped', async () => {
    const [c, d] = await Promise.all([
      startNode('127.0.0.4', { rebalanceStallAtPercent: 40, rebalanceMs: 200 }),
      startNode('127.0.0.5'),
    ]);
    let virtual = 0;
    const clock: ResizeClock = {
      now: () => virtual,
      sleep: async (ms) => {
        virtual += ms;
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    };
    await assert.rejects(
      resizeCluster(targetOf(c), [member(c), member(d)], clock, { pollMs: 10_000 }),
      (error: Error) => {
        assert.ok(error instanceof RebalanceFailure, String(error));
        assert.match(
          error.error.message,
          /^The rebalance hung: the rebalance's progress stayed at 40 % for 60\d s \(perfrunner's limit is 600 s\)\. The engine stopped it \(POST \/controller\/stopRebalance\)\. The rebalance report says: Rebalance stopped by user\.$/,
        );
        return true;
      },
    );
    // K15: stopped, the added node waits for the next rebalance, which may start at once
    const tasks = (await rest(c, 'GET', '/pools/default/tasks')).body as { status: string; progress?: number }[];
    assert.deepEqual(
      tasks.map((task) => task.status),
      ['notRunning'],
    );
    const pools = (await rest(c, 'GET', '/pools/default')).body as {
      balanced: boolean;
      nodes: { clusterMembership: string }[];
    };
    assert.deepEqual(
      [pools.balanced, pools.nodes.map((node) => node.clusterMembership)],
      [false, ['active', 'inactiveAdded']],
    );
    assert.equal(
      (
        await rest(c, 'POST', '/controller/rebalance', {
          knownNodes: 'ns_1@127.0.0.4,ns_1@127.0.0.5',
          ejectedNodes: '',
        })
      ).status,
      200,
    );
    assert.deepEqual(
      await rest(c, 'POST', '/controller/rebalance', { knownNodes: 'ns_1@127.0.0.4,ns_1@127.0.0.5', ejectedNodes: '' }),
      { status: 503, body: { error: 'Cannot rebalance during rebalance' } },
    );
  });

  it("a rebalance that fails ends with the task's errorMessage and the report's completionMessage, and leaves the cluster unbalanced", async () => {
    const [e, f] = await Promise.all([
      startNode('127.0.0.6', { rebalanceFailure: '{badmatch,{error,timeout}}', rebalanceMs: 200 }),
      startNode('127.0.0.7'),
    ]);
    await assert.rejects(
      resizeCluster(targetOf(e), [member(e), member(f)], fastClock, { pollMs: 100 }),
      (error: Error) => {
        assert.ok(error instanceof RebalanceFailure, String(error));
        assert.equal(
          error.error.message,
          'The rebalance failed: Rebalance failed. See logs for detailed reason. You can try again. The rebalance report says: Rebalance exited with reason {badmatch,{error,timeout}}',
        );
        assert.equal(
          (JSON.parse(error.report ?? '{}') as { completionMessage?: string }).completionMessage,
          'Rebalance exited with reason {badmatch,{error,timeout}}',
        );
        return true;
      },
    );
    const pools = (await rest(e, 'GET', '/pools/default')).body as {
      balanced: boolean;
      nodes: { clusterMembership: string }[];
    };
    assert.deepEqual(
      [pools.balanced, pools.nodes.map((node) => node.clusterMembership)],
      [false, ['active', 'inactiveAdded']],
    );
  });
});
