// The panel shows how a point's acceleration and interface were proven, or why not (issue 21: "the
// results panel, report and the HTML report show how each cell's acceleration and interface were
// proven"): the time-series view of a point lists, per repetition and server host, the same words
// as `report` (engine/src/report/evidence/cellProofs.ts), each claim with its source.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { timeSeriesView } from '../../client/src/panel/evidenceModel';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import type { CellResult } from '../../engine/src/model';
import { fixtureManifest, fixtureResults } from './fixtureRun';
import { chromiumPath, inTimeSeriesView } from './support/webviewPage';

const id = '25G-kernel-t10-r1';
const server = {
  process: { pid: 4242, foundBy: 'memcached binary /opt/couchbase/bin/memcached, user couchbase', foundAfterMs: 2000 },
  acceleration: { accelerated: false, evidence: 'memcached 4242 has no Onload stack' },
  traffic: { samples: 9, localAddresses: { '10.0.2.1': 9 }, sources: { '/proc/net/tcp': { '10.0.2.1': 9 } } },
};

function results(): CellResult[] {
  return fixtureResults().map((result) =>
    result.id === id
      ? { ...result, evidence: { ...(result.evidence ?? {}), server: { 'cb-server': server } } }
      : result,
  );
}

test(
  "the panel's time-series view says how each repetition's acceleration and interface were proven",
  { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium', timeout: 90_000 },
  async () => {
    const data = runDataFromFiles('/runs/run-fixture', fixtureManifest(), results());
    const view = timeSeriesView(data, 0, {
      cellIds: [id],
      stack: 'kernel',
      threads: 10,
      title: '25G (127.0.0.1), kernel, 10 threads',
    });
    assert.deepEqual(view.cells[0].proofs, [
      {
        host: 'cb-server',
        acceleration:
          'kernel arm; before the run, onload_stackdump: not in a stack (memcached 4242 has no Onload stack)',
        interface: '10.0.2.1 (/proc/net/tcp)',
        memcached: 'memcached 4242 found by memcached binary /opt/couchbase/bin/memcached, user couchbase after 2 s',
      },
    ]);
    await inTimeSeriesView(buildViewModel([data]), view, '#ts-r0-g0:not([hidden]) section.proofs', async (page) => {
      assert.equal(await page.textContent('#ts-r0-g0 section.proofs p.proof-of'), 'Repetition 1, cb-server');
      assert.deepEqual(
        await page.$$eval('#ts-r0-g0 section.proofs dl.proof > *', (items) => items.map((item) => item.textContent)),
        [
          'Acceleration',
          'kernel arm; before the run, onload_stackdump: not in a stack (memcached 4242 has no Onload stack)',
          'Interface',
          '10.0.2.1 (/proc/net/tcp)',
          'memcached',
          'memcached 4242 found by memcached binary /opt/couchbase/bin/memcached, user couchbase after 2 s',
        ],
      );
    });
  },
);
