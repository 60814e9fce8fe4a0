// Resizing a cluster between cells, the edge: resizeCluster against an HTTP server on this machine that answers
// as ns_server does (the shapes of lab README K1-K8), with a clock the test moves. Asserts the
// exact forms sent and the words a user reads.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { RebalanceFailure, resizeCluster, type ResizeClock } from '../../../engine/src/couchbase/clusterResizeSteps';
import { withDefaults, type Plan } from '../../../engine/src/plan/planSchema';
import type { RestTarget } from '../../../engine/src/couchbase/couchbaseRest';

interface Seen {
  method: string;
  path: string;
  body: string;
}
type Answer = { status: number; json: unknown };

let server: Server;
let target: RestTarget;
let seen: Seen[];
/** Answers per `METHOD path`, taken in order; the last one repeats. */
let script: Map<string, Answer[]>;

before(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const key = `${request.method} ${request.url}`;
      seen.push({ method: request.method ?? '', path: request.url ?? '', body });
      const queue = script.get(key);
      const answer = queue && queue.length > 1 ? queue.shift()! : queue?.[0];
      if (!answer) {
        response.writeHead(404).end('"not scripted"');
        return;
      }
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(answer.json === undefined ? '' : JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const plan = withDefaults({
    servers: [{ host: 'cb1', address: '127.0.0.1', restPort: port }],
    interfaces: { '25G': '127.0.0.1' },
    clients: [],
    bucket: { name: 'bench' },
    workload: { path: 'w' },
    stacks: ['kernel'],
  } as unknown as Plan);
  target = { server: plan.servers[0], password: 's3cret pass&word' };
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  script = new Map([['GET /pools/default/buckets', [{ status: 200, json: [] }]]]);
});

/** A clock whose sleeps move time at once. */
function virtualClock(): ResizeClock & { slept: number } {
  const clock = {
    at: 0,
    slept: 0,
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.at += ms;
      clock.slept += 1;
    },
  };
  return clock;
}

const node = (n: number, membership = 'active', services = ['kv']) => ({
  otpNode: `ns_1@10.0.0.${n}`,
  hostname: `10.0.0.${n}:8091`,
  services,
  clusterMembership: membership,
  status: 'healthy',
});
const oneNode = { balanced: true, nodes: [node(1)] };
const twoAdded = { balanced: false, nodes: [node(1), node(2, 'inactiveAdded')] };
const twoActive = { balanced: true, nodes: [node(1), node(2)] };
const wantTwo = [
  { hostname: '10.0.0.1:8091', services: ['kv' as const] },
  { hostname: '10.0.0.2:8091', services: ['kv' as const] },
];
const idle = (statusId: string, extra: Record<string, unknown> = {}) => ({
  status: 200,
  json: [
    {
      statusId,
      type: 'rebalance',
      subtype: 'rebalance',
      status: 'notRunning',
      statusIsStale: false,
      masterRequestTimedOut: false,
      ...extra,
    },
  ],
});
const running = (progress: number) => ({
  status: 200,
  json: [
    {
      statusId: 's2',
      type: 'rebalance',
      subtype: 'rebalance',
      status: 'running',
      progress,
      perNode: {},
      rebalanceId: 'r-77',
    },
  ],
});

describe('resizeCluster', () => {
  it('grows 1 -> 2: addNode with only its four keys, a stale list re-read once after {"mismatch":1}, progress followed to the end, then balanced', async () => {
    script.set('GET /pools/default', [
      { status: 200, json: oneNode },
      { status: 200, json: { ...twoAdded, nodes: [node(1)] } },
      { status: 200, json: twoAdded },
      { status: 200, json: { ...twoActive, balanced: false } },
      { status: 200, json: twoActive },
    ]);
    script.set('POST /controller/addNode', [{ status: 200, json: { otpNode: 'ns_1@10.0.0.2' } }]);
    script.set('GET /pools/default/tasks', [idle('s1'), running(0), running(50), idle('s2')]);
    script.set('POST /controller/rebalance', [
      { status: 400, json: { mismatch: 1 } },
      { status: 200, json: { rebalance_id: 'r-77' } },
    ]);
    const clock = virtualClock();
    const facts = await resizeCluster(target, wantTwo, clock);
    assert.deepEqual(facts, {
      members: ['ns_1@10.0.0.1', 'ns_1@10.0.0.2'],
      added: ['ns_1@10.0.0.2'],
      ejected: [],
      rebalance: { rebalanceId: 'r-77', ms: 4000, polls: 3, mismatchRetried: true },
    });
    const posts = seen.filter((request) => request.method === 'POST');
    assert.deepEqual(
      posts.map((request) => [request.path, Object.fromEntries(new URLSearchParams(request.body))]),
      [
        [
          '/controller/addNode',
          { hostname: '10.0.0.2:8091', user: 'Administrator', password: 's3cret pass&word', services: 'kv' },
        ],
        ['/controller/rebalance', { knownNodes: 'ns_1@10.0.0.1', ejectedNodes: '' }],
        ['/controller/rebalance', { knownNodes: 'ns_1@10.0.0.1,ns_1@10.0.0.2', ejectedNodes: '' }],
      ],
    );
  });

  it('shrinks 2 -> 1: every known otpNode and the ejected one', async () => {
    script.set('GET /pools/default', [
      { status: 200, json: twoActive },
      { status: 200, json: twoActive },
      { status: 200, json: oneNode },
    ]);
    script.set('GET /pools/default/tasks', [idle('s1'), idle('s2')]);
    script.set('POST /controller/rebalance', [{ status: 200, json: undefined }]);
    const facts = await resizeCluster(target, wantTwo.slice(0, 1), virtualClock());
    assert.deepEqual(facts.ejected, ['ns_1@10.0.0.2']);
    assert.deepEqual(facts.members, ['ns_1@10.0.0.1']);
    assert.deepEqual(
      Object.fromEntries(new URLSearchParams(seen.find((request) => request.path === '/controller/rebalance')!.body)),
      { knownNodes: 'ns_1@10.0.0.1,ns_1@10.0.0.2', ejectedNodes: 'ns_1@10.0.0.2' },
    );
  });

  it('a rebalance left running (an engine stopped mid-rebalance) is followed to its end before the resize', async () => {
    script.set('GET /pools/default', [
      { status: 200, json: { ...twoAdded, balanced: false } },
      { status: 200, json: twoActive },
    ]);
    script.set('GET /pools/default/tasks', [running(40), running(80), idle('s2')]);
    const facts = await resizeCluster(target, wantTwo, virtualClock());
    assert.deepEqual(facts, {
      members: ['ns_1@10.0.0.1', 'ns_1@10.0.0.2'],
      added: [],
      ejected: [],
      earlierRebalance: { ms: 2000, polls: 2, outcome: 'ended' },
    });
    assert.deepEqual(
      seen.filter((request) => request.method === 'POST'),
      [],
      'no addNode or rebalance while one runs, none needed after it',
    );
  });

  it('the cluster already wanted: no request but the read', async () => {
    script.set('GET /pools/default', [{ status: 200, json: twoActive }]);
    assert.deepEqual(await resizeCluster(target, wantTwo, virtualClock()), {
      members: ['ns_1@10.0.0.1', 'ns_1@10.0.0.2'],
      added: [],
      ejected: [],
    });
    assert.deepEqual(
      seen.map((request) => `${request.method} ${request.path}`),
      ['GET /pools/default/buckets', 'GET /pools/default'],
    );
  });

  it('a cluster that still holds a bucket is not resized (K10: no data moves)', async () => {
    script.set('GET /pools/default/buckets', [{ status: 200, json: [{ name: 'bench', bucketType: 'membase' }] }]);
    await assert.rejects(
      resizeCluster(target, wantTwo, virtualClock()),
      /The cluster still holds "bench": a cluster is resized with no bucket, so that no data moves\. Next: Drop the bucket \(and wait until it answers 404\) before the resize\./,
    );
    assert.deepEqual(
      seen.map((request) => `${request.method} ${request.path}`),
      ['GET /pools/default/buckets'],
    );
  });

  it("a refused addNode stops with ns_server's words and no password", async () => {
    script.set('GET /pools/default', [{ status: 200, json: oneNode }]);
    script.set('POST /controller/addNode', [
      { status: 400, json: ['Prepare join failed. Authentication failed. Verify username and password.'] },
    ]);
    await assert.rejects(resizeCluster(target, wantTwo, virtualClock()), (error: Error) => {
      assert.equal(
        error.message,
        '[cluster-resize] cb1: resize-cluster: Couchbase refused to add 10.0.0.2:8091 to the cluster (POST /controller/addNode: HTTP 400: Prepare join failed. Authentication failed. Verify username and password.). Next: Check 10.0.0.2:8091: a Couchbase node that is in no other cluster, with the same admin user and password, whose REST port the first server reaches.',
      );
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    });
    assert.equal(
      seen.filter((request) => request.path === '/controller/addNode').length,
      1,
      'a refusal other than "already part of cluster" is not retried',
    );
    assert.equal(seen.filter((request) => request.path === '/controller/rebalance').length, 0);
  });

  it('a node still leaving the cluster that ejected it (K16) is asked again every second until it joins, and the wait is recorded', async () => {
    script.set('GET /pools/default', [
      { status: 200, json: oneNode },
      { status: 200, json: twoAdded },
      { status: 200, json: twoActive },
    ]);
    const leaving = { status: 400, json: ['Prepare join failed. Node is already part of cluster.'] };
    script.set('POST /controller/addNode', [leaving, leaving, { status: 200, json: { otpNode: 'ns_1@10.0.0.2' } }]);
    script.set('GET /pools/default/tasks', [idle('s1'), idle('s2')]);
    script.set('POST /controller/rebalance', [{ status: 200, json: { rebalance_id: 'r-78' } }]);
    const facts = await resizeCluster(target, wantTwo, virtualClock());
    assert.deepEqual(facts.added, ['ns_1@10.0.0.2']);
    assert.deepEqual(facts.waitedForLeave, [{ hostname: '10.0.0.2:8091', ms: 2000, attempts: 3 }]);
    assert.equal(seen.filter((request) => request.path === '/controller/addNode').length, 3);
  });

  it('a node that says it is part of a cluster for 60 s stops the resize, naming both causes', async () => {
    script.set('GET /pools/default', [{ status: 200, json: oneNode }]);
    script.set('POST /controller/addNode', [
      { status: 400, json: ['Prepare join failed. Node is already part of cluster.'] },
    ]);
    const clock = virtualClock();
    await assert.rejects(resizeCluster(target, wantTwo, clock), (error: Error) => {
      assert.equal(
        error.message,
        '[cluster-resize] cb1: resize-cluster: Couchbase refused to add 10.0.0.2:8091 to the cluster for 60 s (POST /controller/addNode: HTTP 400: Prepare join failed. Node is already part of cluster.). A node ejected by an earlier resize leaves its cluster in the background once the rebalance has ended (ns_server restarts on it, usually within seconds); one that still belongs to a cluster after that is in another cluster, or its leave did not finish. Next: Check 10.0.0.2:8091: if it is in another cluster, remove it there; if this run ejected it, read its Couchbase logs (ns_cluster, "leaving cluster") and restart its service.',
      );
      return true;
    });
    assert.equal(clock.now(), 60_000);
    assert.equal(
      seen.filter((request) => request.path === '/controller/addNode').length,
      61,
      'once at once, then every second for 60 s',
    );
    assert.equal(seen.filter((request) => request.path === '/controller/rebalance').length, 0);
  });

  it('{"mismatch":1} twice stops, saying so', async () => {
    script.set('GET /pools/default', [
      { status: 200, json: oneNode },
      { status: 200, json: twoAdded },
    ]);
    script.set('POST /controller/addNode', [{ status: 200, json: { otpNode: 'ns_1@10.0.0.2' } }]);
    script.set('GET /pools/default/tasks', [idle('s1')]);
    script.set('POST /controller/rebalance', [{ status: 400, json: { mismatch: 1 } }]);
    await assert.rejects(
      resizeCluster(target, wantTwo, virtualClock()),
      /Couchbase answered \{"mismatch":1\} to the rebalance twice: its node list changed again after it was re-read\./,
    );
    assert.equal(seen.filter((request) => request.path === '/controller/rebalance').length, 2);
  });

  it("progress that stays put for 600 s is a hung rebalance, with the report's message kept", async () => {
    script.set('GET /pools/default', [
      { status: 200, json: oneNode },
      { status: 200, json: twoAdded },
    ]);
    script.set('POST /controller/addNode', [{ status: 200, json: { otpNode: 'ns_1@10.0.0.2' } }]);
    script.set('GET /pools/default/tasks', [idle('s1'), running(20)]);
    script.set('POST /controller/rebalance', [{ status: 200, json: { rebalance_id: 'r-77' } }]);
    const report = { completionMessage: 'Rebalance stopped by janitor.', is_rebalancing: false };
    script.set('GET /logs/rebalanceReport', [{ status: 200, json: report }]);
    script.set('POST /controller/stopRebalance', [{ status: 200, json: undefined }]);
    const clock = virtualClock();
    await assert.rejects(resizeCluster(target, wantTwo, clock, { pollMs: 10_000 }), (error: Error) => {
      assert.ok(error instanceof RebalanceFailure);
      assert.equal(
        error.error.message,
        "The rebalance hung: the rebalance's progress stayed at 20 % for 600 s (perfrunner's limit is 600 s). The engine stopped it (POST /controller/stopRebalance). The rebalance report says: Rebalance stopped by janitor.",
      );
      assert.deepEqual(JSON.parse(error.report ?? 'null'), report);
      return true;
    });
    assert.equal(clock.now(), 610_000, 'seen running at 10 s, hung at 610 s');
    assert.equal(
      seen.filter((request) => request.path === '/controller/stopRebalance').length,
      1,
      'a hung rebalance is stopped, so that a retry starts afresh',
    );
  });

  it('a failed rebalance reads the report its task names', async () => {
    script.set('GET /pools/default', [
      { status: 200, json: oneNode },
      { status: 200, json: twoAdded },
    ]);
    script.set('POST /controller/addNode', [{ status: 200, json: { otpNode: 'ns_1@10.0.0.2' } }]);
    const reportUri = '/logs/rebalanceReport?reportID=0123456789abcdef0123456789abcdef';
    script.set('GET /pools/default/tasks', [
      idle('s1'),
      running(10),
      idle('s3', {
        errorMessage: 'Rebalance failed. See logs for detailed reason. You can try again.',
        lastReportURI: reportUri,
      }),
    ]);
    script.set('POST /controller/rebalance', [{ status: 200, json: undefined }]);
    script.set(`GET ${reportUri}`, [
      {
        status: 200,
        json: { completionMessage: 'Rebalance exited with reason {pre_rebalance_janitor_run_failed,"bench"}' },
      },
    ]);
    await assert.rejects(
      resizeCluster(target, wantTwo, virtualClock()),
      /The rebalance failed: Rebalance failed\. See logs for detailed reason\. You can try again\. The rebalance report says: Rebalance exited with reason \{pre_rebalance_janitor_run_failed,"bench"\}/,
    );
  });

  it('a rebalance that ends without a balanced, healthy cluster within 20 s fails with what is wrong', async () => {
    const warm = { balanced: false, nodes: [node(1), { ...node(2), status: 'warmup' }] };
    script.set('GET /pools/default', [
      { status: 200, json: oneNode },
      { status: 200, json: twoAdded },
      { status: 200, json: warm },
    ]);
    script.set('POST /controller/addNode', [{ status: 200, json: { otpNode: 'ns_1@10.0.0.2' } }]);
    script.set('GET /pools/default/tasks', [idle('s1'), idle('s2')]);
    script.set('POST /controller/rebalance', [{ status: 200, json: undefined }]);
    await assert.rejects(
      resizeCluster(target, wantTwo, virtualClock()),
      /The rebalance ended but the cluster is not what was asked: \/pools\/default says balanced: false; 10\.0\.0\.2:8091 is warmup, not healthy\./,
    );
  });
});
