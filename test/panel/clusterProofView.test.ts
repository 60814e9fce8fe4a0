// Issue 23: the panel's time-series view of a point of a plan with cluster sizes says, per
// repetition, how the cluster was formed and how the bucket spread over its nodes: the same words
// as `report` (engine/src/report/evidence/clusterProof.ts), the nodes in a table with a caption.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { timeSeriesView } from '../../client/src/panel/evidenceModel';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureManifest, fixtureResults, withCluster } from './fixtureRun';
import { chromiumPath, inTimeSeriesView } from './support/webviewPage';

const id = '25G-kernel-t10-r1';

test(
  "the time-series view lists the cluster of each repetition: how it was formed, the replicas, each node's vBuckets and items with their sources",
  { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium', timeout: 90_000 },
  async () => {
    const results = fixtureResults().map((result) => (result.id === id ? withCluster(result) : result));
    const data = runDataFromFiles('/runs/run-fixture', fixtureManifest(), results);
    const view = timeSeriesView(data, 0, {
      cellIds: [id],
      stack: 'kernel',
      threads: 10,
      title: '25G (127.0.0.1), kernel, 10 threads',
    });
    assert.equal(view.cells[0].cluster?.nodes.length, 2);
    await inTimeSeriesView(buildViewModel([data]), view, '#ts-r0-g0:not([hidden]) section.cluster', async (page) => {
      assert.equal(await page.textContent('#ts-r0-g0 section.cluster p.cluster-of'), 'Repetition 1');
      assert.deepEqual(
        await page.$$eval('#ts-r0-g0 section.cluster dl.proof > *', (items) => items.map((item) => item.textContent)),
        [
          'Formed',
          '2 nodes (cb1, cb2); 10.0.0.2:8091 still leaving the cluster that ejected it: added after 2.1 s (3 addNode requests); rebalanced in 4.2 s (id r-77): added ns_1@10.0.0.2; /pools/default balanced',
          'Replicas',
          '1 replica (2 asked; 2 nodes hold at most 1)',
        ],
      );
      assert.equal(
        await page.textContent('#ts-r0-g0 section.cluster table.cluster-nodes caption'),
        'Repetition 1: the bucket over its nodes',
      );
      assert.deepEqual(
        await page.$$eval('#ts-r0-g0 section.cluster table.cluster-nodes tbody tr', (rows) =>
          rows.map((row) => Array.from(row.children).map((cell) => cell.textContent)),
        ),
        [
          [
            'cb1 (10.0.0.1:8091)',
            'kv',
            '512 active, 512 replica (vBucketServerMap)',
            '5012 active, 4988 replica (interestingStats)',
          ],
          ['cb2 (10.0.0.2:8091)', 'kv, index', '512 active, 512 replica (vBucketServerMap)', 'not read'],
        ],
      );
    });
  },
);
