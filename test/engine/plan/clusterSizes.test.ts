// Cluster sizes in the plan: a plan that names several server hosts and sweeps cluster sizes, checked as
// `lint` and `run` check it (checkPlanText), with the words a user reads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkPlanText } from '../../../engine/src/plan/plan';
import { clusterMembers, effectiveReplicas, planForCell, serverAddressOn } from '../../../engine/src/plan/clusterSizes';
import { withDefaults, type Plan } from '../../../engine/src/plan/planSchema';
import { loadRunPlan } from '../../../engine/src/sweep/runOpening';
import { dryRun } from '../../../engine/src/sweep/dryRun';
import { cellId, expandCells } from '../../../engine/src/plan/cells';
import { planPoints, pointId } from '../../../engine/src/sweep/schedule';
import { pointKey } from '../../../engine/src/evidence/armsAlike';
import { cellRecordProblem } from '../../../engine/src/results/cellRecordCheck';

const folder = mkdtempSync(join(tmpdir(), 'cluster-sizes-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(
  join(folder, 'workloada'),
  'recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\n',
);

const single = {
  servers: [{ host: 'cb-server' }],
  interfaces: { '25G': '10.20.128.35', '10G': '10.20.64.35' },
  clients: [{ host: 'ycsb-client', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'bench', replicas: 2 },
  workload: { path: 'workloada' },
  stacks: ['kernel'],
};

const cluster = {
  ...single,
  servers: [
    { host: 'cb1', services: ['kv', 'n1ql'] },
    { host: 'cb2', interfaces: { '25G': '10.20.128.36', '10G': '10.20.64.36' }, services: ['kv'] },
    { host: 'cb3', interfaces: { '25G': '10.20.128.37', '10G': '10.20.64.37' }, services: ['kv', 'index'] },
  ],
  clusterSizes: [1, 2, 3],
};

function messages(plan: unknown): string[] {
  return checkPlanText(JSON.stringify(plan), folder).errors.map((error) => error.message);
}

describe('cluster sizes in the plan', () => {
  it('accepts three hosts with their addresses and services swept over 1, 2 and 3 nodes', () => {
    assert.deepEqual(messages(cluster), []);
  });

  it('an old single-server plan is unchanged: no clusterSizes, its replicas as asked, its servers as they were', () => {
    assert.deepEqual(messages(single), []);
    const resolved = withDefaults(single as Plan);
    assert.equal('clusterSizes' in resolved, false);
    assert.equal(resolved.bucket.replicas, 2);
    assert.equal(resolved.servers[0].address, '10.20.128.35');
    assert.deepEqual(resolved.servers[0].services, ['kv']);
    assert.deepEqual(resolved.servers[0].interfaces, { '25G': '10.20.128.35', '10G': '10.20.64.35' });
  });

  it('a joining node manages through its own first address; a size is the first N servers', () => {
    const resolved = withDefaults(cluster as Plan);
    assert.deepEqual(resolved.clusterSizes, [1, 2, 3]);
    assert.equal(resolved.servers[1].address, '10.20.128.36');
    assert.deepEqual(
      clusterMembers(resolved, 2).map((server) => server.host),
      ['cb1', 'cb2'],
    );
    assert.throws(() => clusterMembers(resolved, 4), /a cluster of 4 nodes needs 4 servers; the plan names 3/);
  });

  it('replicas are min(requested, N - 1)', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((size) => effectiveReplicas(2, size)),
      [0, 1, 2, 2],
    );
    assert.equal(effectiveReplicas(0, 3), 0);
  });

  it('a size larger than the servers is refused at that size', () => {
    const { errors } = checkPlanText(JSON.stringify({ ...cluster, clusterSizes: [1, 4] }), folder);
    assert.deepEqual(
      errors.map((error) => error.path),
      ['clusterSizes[1]'],
    );
    assert.equal(errors[0].message, 'clusterSizes[1]: a cluster of 4 nodes needs 4 servers, but "servers" names 3');
  });

  it('the schema refuses an unknown service, an empty service list, a size of 0 and a repeated size', () => {
    const badService = structuredClone(cluster);
    badService.servers[1].services = ['kv', 'query'];
    assert.deepEqual(messages(badService), [
      'servers[1].services[1]: must be one of "kv", "n1ql", "index", "fts", "cbas", "eventing", "backup"',
    ]);
    const noService = structuredClone(cluster);
    noService.servers[2].services = [];
    assert.deepEqual(messages(noService), ['servers[2].services: must list at least 1 value']);
    assert.deepEqual(messages({ ...cluster, clusterSizes: [0, 2] }), ['clusterSizes[0]: must be >= 1']);
    assert.deepEqual(messages({ ...cluster, clusterSizes: [2, 2] }), ['clusterSizes[1]: repeats the value of item 0']);
  });

  it("a joining node without its addresses, with an unknown label or with another node's address is refused", () => {
    const noAddresses = structuredClone(cluster) as {
      servers: { host: string; interfaces?: Record<string, string> }[];
    };
    delete noAddresses.servers[1].interfaces;
    assert.deepEqual(messages(noAddresses), [
      'servers[1]: this node joins clusters of 2, 3 nodes and needs its address on every interface the cells use: missing "25G", "10G"',
    ]);

    const wrongLabel = structuredClone(cluster);
    (wrongLabel.servers[2] as { interfaces: Record<string, string> }).interfaces = {
      '25G': '10.20.128.37',
      '100G': '10.20.32.37',
    };
    assert.deepEqual(messages(wrongLabel), [
      'servers[2].interfaces["100G"]: "100G" is not one of the plan\'s interfaces (25G, 10G)',
      'servers[2].interfaces: this node joins clusters of 3 nodes and needs its address on every interface the cells use: missing "10G"',
    ]);

    const shared = structuredClone(cluster);
    shared.servers[2].interfaces = { '25G': '10.20.128.36', '10G': '10.20.64.37' };
    assert.deepEqual(messages(shared), [
      'servers[2].interfaces["25G"]: 10.20.128.36 is already servers[1]\'s address on "25G": each node has its own',
    ]);
  });

  it('a host named twice, and a first server without kv, are refused', () => {
    const twice = structuredClone(cluster);
    twice.servers[2].host = 'cb1';
    assert.deepEqual(messages(twice), [
      'servers[2].host: the server host "cb1" is also servers[0]: each node of a cluster is its own host',
    ]);
    const noKv = structuredClone(cluster);
    noKv.servers[0].services = ['n1ql'];
    assert.deepEqual(messages(noKv), [
      'servers[0].services: the first server is in every cluster size and holds the bucket: its services must include "kv"',
    ]);
  });

  it('durability one node cannot give is refused, in the workload properties and in an axis', () => {
    const durable = { ...cluster, workload: { path: 'workloada', properties: { 'couchbase.replicateTo': 1 } } };
    assert.deepEqual(messages(durable), [
      'workload.properties["couchbase.replicateTo"]: couchbase.replicateTo=1 needs 1 replica(s), but a cluster of 1 node (clusterSizes) gets 0 (min(bucket.replicas 2, 1 - 1)); every durable write would fail there (on one data node ns_server itself refuses durability: "You do not have enough data servers to support this durability level")',
    ]);
    assert.deepEqual(messages({ ...durable, clusterSizes: [2, 3] }), [], 'two nodes give one replica');
    const persisted = { ...cluster, clusterSizes: [2, 3], axes: { 'couchbase.persistTo': [1, 3] } };
    assert.deepEqual(messages(persisted), [
      'axes["couchbase.persistTo"]: couchbase.persistTo=3 needs 2 replica(s), but a cluster of 2 nodes (clusterSizes) gets 1 (min(bucket.replicas 2, 2 - 1)); every durable write would fail there',
    ]);
    assert.deepEqual(
      messages({ ...cluster, axes: { 'couchbase.persistTo': [0, 1] } }),
      [],
      'persistTo=1 is the active copy only',
    );
    assert.deepEqual(
      messages({ ...single, workload: { path: 'workloada', properties: { 'couchbase.replicateTo': 1 } } }),
      [],
      'a plan without clusterSizes is checked as before',
    );
  });
});

describe('a run of a plan that sweeps cluster sizes', () => {
  it('is accepted by run and the dry run', async () => {
    const options = {
      plan: cluster as Plan,
      planPath: join(folder, 'sizes.benchplan.json'),
      password: 'x',
    } as Parameters<typeof loadRunPlan>[0];
    const loaded = await loadRunPlan(options);
    assert.deepEqual(loaded.rawPlan.clusterSizes, [1, 2, 3]);
    assert.match(
      await dryRun(cluster as Plan, options.planPath),
      /# first cell of stack kernel at 3 nodes: 25G~kernel~n3~t5~r1/,
    );
  });

  it("a cell sees the members of its size as its servers, each with its own address on the cell's interface, and min(requested, N - 1) replicas", () => {
    const resolved = withDefaults(cluster as Plan);
    const two = planForCell(resolved, 2);
    assert.deepEqual(
      two.servers.map((server) => server.host),
      ['cb1', 'cb2'],
    );
    assert.equal(two.bucket.replicas, 1);
    assert.deepEqual(
      two.servers.map((server) => serverAddressOn(server, '10G', '10.20.64.35')),
      ['10.20.64.35', '10.20.64.36'],
    );
    assert.equal(planForCell(resolved, 1).bucket.replicas, 0);
    assert.equal(planForCell(resolved, undefined), resolved, 'a plan without sizes runs as it is');
  });

  it('an Onload arm is compared with the kernel arm of its own size only (other sizes run on other hosts)', () => {
    const key = { interface: '25G', address: '10.20.128.35', stack: 'kernel', threads: 5, axes: {}, repetition: 1 };
    assert.equal(pointKey({ ...key, clusterSize: 3 }), pointKey({ ...key, stack: 'latency', clusterSize: 3 }));
    assert.notEqual(pointKey({ ...key, clusterSize: 1 }), pointKey({ ...key, stack: 'latency', clusterSize: 3 }));
    assert.equal(
      pointKey(key),
      JSON.stringify(['25G', '10.20.128.35', 5, {}, 1]),
      'a plan without sizes keeps its points',
    );
  });
});

describe('cells of a plan that sweeps cluster sizes', () => {
  it("each stack runs its sizes in the plan's order, the size in the key and the id after the stack; each size is a point of its own", () => {
    const cells = expandCells(
      withDefaults({
        ...cluster,
        clusterSizes: [3, 1],
        threads: [10],
        interfaces: { '25G': '10.20.128.35' },
        servers: cluster.servers.map((server) =>
          server.interfaces ? { ...server, interfaces: { '25G': server.interfaces['25G'] } } : server,
        ),
        stacks: ['kernel', { name: 'lat', profile: 'lat.opf' }],
      } as Plan),
    );
    assert.deepEqual(cells.map(cellId), [
      '25G~kernel~n3~t10~r1',
      '25G~kernel~n1~t10~r1',
      '25G~lat~n3~t10~r1',
      '25G~lat~n1~t10~r1',
    ]);
    assert.equal(cells[0].clusterSize, 3);
    assert.deepEqual(planPoints(cells).map(pointId), ['25G~~n3~t10~r0', '25G~~n1~t10~r0']);
  });

  it('a plan without clusterSizes keeps its keys and ids as before', () => {
    const cells = expandCells(withDefaults({ ...single, threads: [10] } as Plan));
    assert.deepEqual(cells.map(cellId), ['25G~kernel~t10~r1', '10G~kernel~t10~r1']);
    assert.equal('clusterSize' in cells[0], false);
  });

  it("a record's key may carry its cluster size, a whole number from 1", () => {
    const record = (key: Record<string, unknown>) => ({
      kind: 'cell',
      id: 'x',
      key: { interface: '25G', stack: 'kernel', threads: 10, repetition: 1, axes: {}, ...key },
      status: 'ok',
    });
    assert.equal(cellRecordProblem(record({ clusterSize: 2 })), undefined);
    assert.equal(cellRecordProblem(record({ clusterSize: 0 })), 'key.clusterSize must be >= 1');
    assert.equal(cellRecordProblem(record({ clusterSize: 'two' })), 'key.clusterSize must be an integer');
  });
});
