// The latency spectrum as issue 25 found it: YCSB's internal CLEANUP listed as an operation, "1
// threads", percentiles printed like 36.904266. The model leaves CLEANUP out; the webview writes
// percentiles to the digits a nines scale tells apart (media/src/format.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureManifest, fixtureResults } from './fixtureRun';

test("the spectrum offers the workload's operations, never CLEANUP", () => {
  const results = fixtureResults().map((result) => {
    const copy = structuredClone(result);
    if (copy.run)
      copy.run.operations.CLEANUP = {
        operation: 'CLEANUP',
        operations: 4,
        averageUs: 2000,
        minUs: 1,
        maxUs: 4000,
        percentilesUs: { '95': 3000 },
        returnCodes: {},
      };
    return copy;
  });
  const model = buildViewModel([runDataFromFiles('/runs/a', fixtureManifest(), results)]);
  const operations = new Set(model.runs[0].groups[0].spectra!.map((spectrum) => spectrum.operation));
  assert.deepEqual([...operations].sort(), ['READ', 'UPDATE']);
});

test('percentiles are rounded to what a nines scale tells apart', async () => {
  const { formatPercentile, threadsText } = await import('../../media/src/format.js');
  assert.deepEqual([36.904266, 50, 90, 99, 99.9, 99.99, 99.9968, 100, 99.9999999].map(formatPercentile), [
    '36.9',
    '50',
    '90',
    '99',
    '99.9',
    '99.99',
    '99.997',
    '100',
    '100',
  ]);
  assert.equal(threadsText(1), '1 thread');
});
