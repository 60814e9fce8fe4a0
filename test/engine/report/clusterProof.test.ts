// Issue 23: a cell of a plan with cluster sizes says how its cluster was formed and how the bucket
// spread over the nodes (engine/src/report/evidence/clusterProof.ts), in the text report and the HTML
// report, each figure with its source; a cell of a one-server plan says nothing of the kind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clusterProof } from '../../../engine/src/report/evidence/clusterProof';
import { buildHtmlReport } from '../../../engine/src/report/htmlReport';
import { renderReport } from '../../../engine/src/report/report';
import { fixtureManifest, fixtureResults, twoNodes, withCluster } from '../../panel/fixtureRun';

test("a cell's cluster in words: size, members, the rebalance, the wait for a leaving node, replicas, and each node's share with its source", () => {
  const cell = fixtureResults().find((result) => result.status === 'ok')!;
  assert.deepEqual(clusterProof(withCluster(cell)), {
    formed:
      '2 nodes (cb1, cb2); 10.0.0.2:8091 still leaving the cluster that ejected it: added after 2.1 s (3 addNode requests); rebalanced in 4.2 s (id r-77): added ns_1@10.0.0.2; /pools/default balanced',
    replicas: '1 replica (2 asked; 2 nodes hold at most 1)',
    nodes: [
      {
        node: 'cb1 (10.0.0.1:8091)',
        services: 'kv',
        vBuckets: '512 active, 512 replica (vBucketServerMap)',
        items: '5012 active, 4988 replica (interestingStats)',
      },
      {
        node: 'cb2 (10.0.0.2:8091)',
        services: 'kv, index',
        vBuckets: '512 active, 512 replica (vBucketServerMap)',
        items: 'not read',
      },
    ],
  });
  const formedAlready = clusterProof(
    withCluster(cell, {
      ...twoNodes,
      added: [],
      waitedForLeave: undefined,
      rebalance: { outcome: 'not needed' },
      replicas: { requested: 1, effective: 1 },
      nodes: undefined,
    }),
  );
  assert.equal(
    formedAlready?.formed,
    '2 nodes (cb1, cb2); already formed: no rebalance needed; /pools/default balanced',
  );
  assert.equal(formedAlready?.replicas, '1 replica, as asked');
  assert.deepEqual(formedAlready?.nodes, []);
  assert.equal(clusterProof(cell), undefined, 'a one-server plan has no cluster to prove');
});

test("the text and HTML reports show each cell's cluster", () => {
  const cell = withCluster(fixtureResults().find((result) => result.status === 'ok')!);
  const text = renderReport([], [cell]);
  assert.match(text, /repetition 1, cluster:\n {4}formed: 2 nodes \(cb1, cb2\); 10\.0\.0\.2:8091 still leaving/);
  assert.match(text, /\n {4}replicas: 1 replica \(2 asked; 2 nodes hold at most 1\)\n/);
  assert.match(
    text,
    /\n {4}cb2 \(10\.0\.0\.2:8091\) \[kv, index\]: vBuckets 512 active, 512 replica \(vBucketServerMap\); items not read/,
  );
  const html = buildHtmlReport({ runDir: '/runs/run-fixture', results: [cell], manifest: fixtureManifest() });
  const item = /<li data-cell="[^"]+" data-cluster="2">[\s\S]*?<\/li>/.exec(html)?.[0] ?? '';
  assert.match(item, /<dt>Formed<\/dt><dd>2 nodes \(cb1, cb2\);/);
  assert.match(
    item,
    /<tr><td>cb1 \(10\.0\.0\.1:8091\)<\/td><td>kv<\/td><td>512 active, 512 replica \(vBucketServerMap\)<\/td><td>5012 active, 4988 replica \(interestingStats\)<\/td><\/tr>/,
  );
});
