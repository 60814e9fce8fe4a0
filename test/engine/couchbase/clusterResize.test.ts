// Issue 23, step 3, the pure half: the requests a resize sends and the rules that judge ns_server's
// answers, on answers shaped as ns_server gives them (lab README K1-K11).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketSpread } from '../../../engine/src/couchbase/cellCluster';
import {
  endpointKey,
  judgeAddNodeAnswer,
  judgeRebalanceAnswer,
  parsePoolState,
  postConditionProblems,
  rebalanceForm,
  rebalanceStallMs,
  rebalanceTaskOf,
  resizeRequests,
  startWatch,
  watchRebalance,
  wantedMembers,
  type PoolState,
} from '../../../engine/src/couchbase/clusterResize';

/** /pools/default of a two-node cluster, the fields ns_server's menelaus_web_node builds (K4, K7). */
const twoNodes = {
  name: 'default',
  balanced: true,
  rebalanceStatus: 'none',
  nodes: [
    {
      otpNode: 'ns_1@10.0.0.1',
      hostname: '10.0.0.1:8091',
      services: ['kv', 'n1ql'],
      clusterMembership: 'active',
      status: 'healthy',
      recoveryType: 'none',
      uptime: '100',
    },
    {
      otpNode: 'ns_1@10.0.0.2',
      hostname: '10.0.0.2:8091',
      services: ['kv'],
      clusterMembership: 'active',
      status: 'healthy',
      recoveryType: 'none',
      uptime: '90',
    },
  ],
};

function pool(json: unknown): PoolState {
  const state = parsePoolState(json);
  assert.ok(!('problem' in state), JSON.stringify(state));
  return state;
}

describe('resize requests', () => {
  it('growing 2 -> 3 adds one node with only hostname, user, password and services (K1), ejects none', () => {
    const requests = resizeRequests(
      pool(twoNodes),
      [
        { hostname: '10.0.0.1:8091', services: ['kv', 'n1ql'] },
        { hostname: '10.0.0.2:8091', services: ['kv'] },
        { hostname: '10.0.0.3:8091', services: ['kv', 'index'] },
      ],
      'Administrator',
    );
    assert.deepEqual(requests, {
      add: [
        {
          hostname: '10.0.0.3:8091',
          form: { hostname: '10.0.0.3:8091', user: 'Administrator', password: '', services: 'kv,index' },
        },
      ],
      eject: [],
      nothingToDo: false,
    });
  });

  it('shrinking 2 -> 1 ejects the second node; the rebalance form names every otpNode and the ejected one (K5)', () => {
    const state = pool(twoNodes);
    const requests = resizeRequests(state, [{ hostname: '10.0.0.1:8091', services: ['n1ql', 'kv'] }], 'Administrator');
    assert.ok(!('problem' in requests));
    assert.deepEqual(requests.eject, ['ns_1@10.0.0.2']);
    assert.deepEqual(rebalanceForm(state, requests.eject), {
      knownNodes: 'ns_1@10.0.0.1,ns_1@10.0.0.2',
      ejectedNodes: 'ns_1@10.0.0.2',
    });
  });

  it('the same members, balanced, need nothing; an added node not yet rebalanced still needs a rebalance', () => {
    const same = [
      { hostname: '10.0.0.1:8091', services: ['kv', 'n1ql'] as const },
      { hostname: '10.0.0.2:8091', services: ['kv'] as const },
    ].map((member) => ({ ...member, services: [...member.services] }));
    assert.deepEqual(resizeRequests(pool(twoNodes), same, 'Administrator'), { add: [], eject: [], nothingToDo: true });
    const pending = structuredClone(twoNodes);
    pending.nodes[1].clusterMembership = 'inactiveAdded';
    assert.equal((resizeRequests(pool(pending), same, 'Administrator') as { nothingToDo: boolean }).nothingToDo, false);
  });

  it('a member with other services, or failed over, is a problem in words, not a request', () => {
    assert.deepEqual(
      resizeRequests(pool(twoNodes), [{ hostname: '10.0.0.1:8091', services: ['kv'] }], 'Administrator'),
      {
        problem:
          "10.0.0.1:8091 (ns_1@10.0.0.1) runs services kv,n1ql but the plan wants kv; a member's services cannot change: remove it from the cluster by hand (or fix servers[].services)",
      },
    );
    const failed = structuredClone(twoNodes);
    failed.nodes[1].clusterMembership = 'inactiveFailed';
    assert.deepEqual(
      resizeRequests(
        pool(failed),
        [
          { hostname: '10.0.0.1:8091', services: ['kv', 'n1ql'] },
          { hostname: '10.0.0.2:8091', services: ['kv'] },
        ],
        'Administrator',
      ),
      {
        problem: '10.0.0.2:8091 (ns_1@10.0.0.2) is failed over; recover or remove it by hand before a resize',
      },
    );
  });

  it('IPv6 members compare in any text form (REAL-LAB H5)', () => {
    assert.equal(endpointKey('[2001:db8:0:0:0:0:0:a]:8091'), endpointKey('[2001:db8::a]:8091'));
    assert.notEqual(endpointKey('10.0.0.1:8091'), endpointKey('10.0.0.1:9000'));
    assert.equal(endpointKey('10.0.0.1'), endpointKey('10.0.0.1:8091'));
  });

  it("the wanted members of a plan's servers: address (IPv6 in brackets) and REST port, with their services", () => {
    const servers = [
      { address: '10.0.0.1', restPort: 8091, services: ['kv', 'n1ql'] },
      { address: '2001:db8::2', restPort: 9000, services: ['index'] },
    ] as unknown as Parameters<typeof wantedMembers>[0];
    assert.deepEqual(wantedMembers(servers), [
      { hostname: '10.0.0.1:8091', services: ['kv', 'n1ql'] },
      { hostname: '[2001:db8::2]:9000', services: ['index'] },
    ]);
  });

  it('a /pools/default without nodes is said so', () => {
    assert.deepEqual(parsePoolState({ isAdminCreds: true }), { problem: '/pools/default has no "nodes" list' });
  });
});

describe("ns_server's answers", () => {
  it('addNode: the otpNode, or the JSON list of refusals as ns_server words them, a node still in a cluster told apart (K1, K3, K16)', () => {
    assert.deepEqual(judgeAddNodeAnswer(200, '{"otpNode":"ns_1@10.0.0.3"}', { otpNode: 'ns_1@10.0.0.3' }), {
      otpNode: 'ns_1@10.0.0.3',
    });
    assert.deepEqual(
      judgeAddNodeAnswer(400, '["Prepare join failed. Node is already part of cluster."]', [
        'Prepare join failed. Node is already part of cluster.',
      ]),
      { refused: 'HTTP 400: Prepare join failed. Node is already part of cluster.', stillInACluster: true },
    );
    assert.deepEqual(judgeAddNodeAnswer(400, '', ['Got unknown parameters: ["port"]', 'Unknown services: ["query"]']), {
      refused: 'HTTP 400: Got unknown parameters: ["port"]; Unknown services: ["query"]',
      stillInACluster: false,
    });
  });

  it('rebalance: started (with the 7.6 id), the mismatch answer, or refused with its words (K5)', () => {
    assert.deepEqual(judgeRebalanceAnswer(200, '{"rebalance_id":"a1b2"}', { rebalance_id: 'a1b2' }), {
      kind: 'started',
      rebalanceId: 'a1b2',
    });
    assert.deepEqual(judgeRebalanceAnswer(200, '', undefined), { kind: 'started' });
    assert.deepEqual(judgeRebalanceAnswer(400, '{"mismatch":1}', { mismatch: 1 }), { kind: 'mismatch' });
    assert.deepEqual(
      judgeRebalanceAnswer(503, '{"error":"Cannot rebalance during rebalance"}', {
        error: 'Cannot rebalance during rebalance',
      }),
      { kind: 'refused', detail: 'HTTP 503: {"error":"Cannot rebalance during rebalance"}' },
    );
  });

  it('the rebalance task among the others of /pools/default/tasks (K6)', () => {
    const tasks = [
      { type: 'xdcr', status: 'running' },
      {
        statusId: 's2',
        type: 'rebalance',
        subtype: 'rebalance',
        recommendedRefreshPeriod: 0.25,
        status: 'running',
        progress: 37.5,
        perNode: {},
        rebalanceId: 'r2',
      },
    ];
    assert.deepEqual(rebalanceTaskOf(tasks), { running: true, progress: 37.5, statusId: 's2', rebalanceId: 'r2' });
    assert.deepEqual(
      rebalanceTaskOf([
        {
          statusId: 's3',
          type: 'rebalance',
          status: 'notRunning',
          statusIsStale: false,
          errorMessage: 'Rebalance failed. See logs for detailed reason. You can try again.',
          lastReportURI: '/logs/rebalanceReport?reportID=0123456789abcdef0123456789abcdef',
        },
      ]),
      {
        running: false,
        statusId: 's3',
        errorMessage: 'Rebalance failed. See logs for detailed reason. You can try again.',
        lastReportURI: '/logs/rebalanceReport?reportID=0123456789abcdef0123456789abcdef',
      },
    );
  });
});

describe('following a rebalance', () => {
  const previous = { running: false, statusId: 's1' };

  it("the previous rebalance's notRunning entry is not the end of this one; a new statusId is", () => {
    let verdict = watchRebalance(startWatch(previous, 0), previous, 1000);
    assert.equal(verdict.kind, 'running');
    verdict = watchRebalance(startWatch(previous, 0), { running: false, statusId: 's2' }, 2000);
    assert.equal(verdict.kind, 'ended', 'a fast rebalance that ended between two polls');
  });

  it('progress that has not moved for 600 s has hung; moving progress restarts the count (K11)', () => {
    let watch = startWatch(previous, 0);
    const at = (progress: number, now: number) =>
      watchRebalance(watch, { running: true, progress, statusId: 's2' }, now);
    let verdict = at(10, 1000);
    assert.equal(verdict.kind, 'running');
    watch = (verdict as { watch: typeof watch }).watch;
    verdict = at(10, 1000 + rebalanceStallMs - 1);
    assert.equal(verdict.kind, 'running');
    verdict = at(12, 1000 + rebalanceStallMs - 1);
    watch = (verdict as { watch: typeof watch }).watch;
    verdict = at(12, 1000 + 2 * rebalanceStallMs - 2);
    assert.equal(verdict.kind, 'running', 'a millisecond short of 600 s');
    verdict = at(12, 1000 + 2 * rebalanceStallMs - 1);
    assert.deepEqual(verdict, {
      kind: 'stalled',
      message: "the rebalance's progress stayed at 12 % for 600 s (perfrunner's limit is 600 s)",
    });
  });

  it('a rebalance that never starts is stalled after 600 s too', () => {
    assert.deepEqual(watchRebalance(startWatch(previous, 0), previous, rebalanceStallMs), {
      kind: 'stalled',
      message: 'the rebalance did not start within 600 s (/pools/default/tasks still shows no new rebalance)',
    });
  });

  it('an end with an errorMessage is a failure with its report', () => {
    const running = watchRebalance(startWatch(previous, 0), { running: true, progress: 50, statusId: 's2' }, 1000);
    assert.equal(running.kind, 'running');
    const verdict = watchRebalance(
      (running as { watch: ReturnType<typeof startWatch> }).watch,
      {
        running: false,
        statusId: 's3',
        errorMessage: 'Rebalance exited with reason {buckets_shutdown_wait_failed}',
        lastReportURI: '/logs/rebalanceReport?reportID=ffffffffffffffffffffffffffffffff',
      },
      2000,
    );
    assert.deepEqual(verdict, {
      kind: 'failed',
      message: 'Rebalance exited with reason {buckets_shutdown_wait_failed}',
      reportUri: '/logs/rebalanceReport?reportID=ffffffffffffffffffffffffffffffff',
    });
  });
});

describe('after the rebalance (K4, K7, K10)', () => {
  const wanted = [
    { hostname: '10.0.0.1:8091', services: ['kv' as const, 'n1ql' as const] },
    { hostname: '10.0.0.2:8091', services: ['kv' as const] },
  ];

  it('balanced, the wanted members, active and healthy: done', () => {
    assert.deepEqual(postConditionProblems(pool(twoNodes), wanted), []);
  });

  it('each shortfall in words', () => {
    const bad = structuredClone(twoNodes) as typeof twoNodes & { balanced: boolean };
    bad.balanced = false;
    bad.nodes[1].status = 'warmup';
    bad.nodes.push({
      otpNode: 'ns_1@10.0.0.3',
      hostname: '10.0.0.3:8091',
      services: ['kv'],
      clusterMembership: 'active',
      status: 'healthy',
      recoveryType: 'none',
      uptime: '5',
    });
    assert.deepEqual(postConditionProblems(pool(bad), wanted), [
      '/pools/default says balanced: false',
      '10.0.0.2:8091 is warmup, not healthy',
      '10.0.0.3:8091 (ns_1@10.0.0.3) is still in the cluster',
    ]);
  });
});

describe('the bucket spread over its nodes (K13)', () => {
  it('counts active and replica vBuckets per node from vBucketServerMap and takes items from interestingStats', () => {
    const answer = {
      nodes: [
        {
          hostname: '10.0.0.2:8091',
          services: ['kv'],
          ports: { direct: 11210 },
          interestingStats: { curr_items: 40, vb_replica_curr_items: 60 },
        },
        {
          hostname: '10.0.0.1:8091',
          services: ['kv', 'n1ql'],
          ports: { direct: 11210 },
          interestingStats: { curr_items: 60, vb_replica_curr_items: 40 },
        },
      ],
      vBucketServerMap: {
        hashAlgorithm: 'CRC',
        numReplicas: 1,
        serverList: ['10.0.0.1:11210', '10.0.0.2:11210'],
        vBucketMap: [
          [0, 1],
          [0, 1],
          [1, 0],
          [0, -1],
        ],
      },
    };
    assert.deepEqual(bucketSpread(answer), {
      '10.0.0.1:8091': { services: ['kv', 'n1ql'], activeVBuckets: 3, replicaVBuckets: 1, items: 60, replicaItems: 40 },
      '10.0.0.2:8091': { services: ['kv'], activeVBuckets: 1, replicaVBuckets: 2, items: 40, replicaItems: 60 },
    });
    assert.deepEqual(bucketSpread({ nodes: [] }), {
      problem: 'the bucket has no vBucketServerMap (serverList, vBucketMap)',
    });
  });
});
