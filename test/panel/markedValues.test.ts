// A marked point keeps its number (issue 25: tooltips said "latency: marked", tables "marked: …"):
// the webview's tooltip line (media/src/charts.ts pointTooltip) gives the value with its unit and
// the marks beside it, under the stack's label.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SeriesPoint } from '../../client/src/panel/protocol';

const marked: SeriesPoint = {
  threads: 20,
  median: null,
  min: null,
  max: null,
  state: 'marked',
  repetitions: 1,
  finished: 1,
  planned: 1,
  failed: 0,
  marked: 1,
  markedLeftOut: 0,
  marks: [
    {
      code: 'not-accelerated',
      label: 'not accelerated',
      message: 'Couchbase was not verified to run on Onload.',
      repetitions: 1,
    },
  ],
  markedValue: 26000,
};

test("a marked point's tooltip gives its value, unit and marks; a pending one says so", async () => {
  // The webview's sources are ES modules (media/src/package.json).
  const { pointTooltip } = await import('../../media/src/charts.js');
  const { useStackLabels } = await import('../../media/src/stackNames.js');
  useStackLabels({ latency: 'Onload · latency' });
  assert.deepEqual(pointTooltip('latency', marked, 'ops/s'), [
    'Onload · latency: 26,000 ops/s (marked: not accelerated)',
  ]);
  assert.deepEqual(pointTooltip('latency', { ...marked, markedValue: 16400 }, 'ms', 'B'), [
    'Onload · latency B: 16.4 ms (marked: not accelerated)',
  ]);
  assert.deepEqual(
    pointTooltip('latency', { ...marked, state: 'pending', marks: [], markedValue: undefined }, 'ops/s'),
    ['Onload · latency: pending'],
  );
  useStackLabels({});
});
