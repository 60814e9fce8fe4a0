// The HTML report's SVG line charts (engine/src/report/svgChart.ts): where points land, gaps,
// bands and error bars, the nines scale, and that no text from a file can become markup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ninesLabel, ninesTicks, percentileToNines } from '../../../engine/src/report/percentileScale';
import { escapeXml, niceTicks, renderSvgChart, type SvgChartSpec } from '../../../engine/src/report/svgChart';

const base: SvgChartSpec = {
  title: 'Throughput',
  xLabel: 'YCSB threads',
  yLabel: 'ops/s',
  xScale: 'category',
  width: 400,
  height: 300,
  series: [],
};

test('nice ticks are round numbers that cover the data', () => {
  assert.deepEqual(niceTicks(0, 30000), [0, 10000, 20000, 30000]);
  assert.deepEqual(niceTicks(0, 26000), [0, 10000, 20000, 30000]);
  assert.deepEqual(niceTicks(0, 900), [0, 200, 400, 600, 800, 1000]);
  assert.deepEqual(niceTicks(0, 7.3), [0, 2, 4, 6, 8]);
  assert.deepEqual(niceTicks(0, 0), [0, 0.2, 0.4, 0.6, 0.8, 1]);
});

test('the nines scale places 0, 90, 99, 99.9 % one step apart and labels them', () => {
  assert.deepEqual(
    [0, 90, 99, 99.9, 99.99].map((p) => percentileToNines(p).toFixed(6)),
    ['0.000000', '1.000000', '2.000000', '3.000000', '4.000000'],
  );
  assert.equal(percentileToNines(100), 6);
  assert.deepEqual(
    ninesTicks(3.2).map((tick) => tick.label),
    ['0', '90', '99', '99.9', '99.99'],
  );
  assert.equal(ninesLabel(5), '99.999');
});

test('category x: points are evenly spaced, a null value breaks the line, hollow points are not joined', () => {
  const svg = renderSvgChart({
    ...base,
    series: [
      {
        label: 'kernel',
        colour: '#1f77b4',
        points: [
          { x: 5, y: 0 },
          { x: 10, y: 10000 },
          { x: 20, y: null },
          { x: 40, y: 20000 },
        ],
      },
    ],
  });
  // Plot area: left 64, right 384 (width 400 - 16); top 28, bottom 300 - (44 + 18) = 238. Four
  // categories over 320 px: 80 px each, centred at 104, 184, 264, 344. y ticks 0..20000: 0 at 238, 10000 at 133, 20000
  // at 28.
  assert.match(svg, /<path class="line" d="M104 238 L184 133" fill="none" stroke="#1f77b4" stroke-width="2"\/>/);
  assert.equal((svg.match(/<path class="line"/g) ?? []).length, 1, 'the lone point after the gap has no line');
  assert.match(svg, /<circle class="point" cx="344" cy="28" r="3" fill="#1f77b4"\/>/);
  assert.deepEqual(
    [...svg.matchAll(/<text class="x-tick"[^>]*>([^<]*)</g)].map((match) => match[1]),
    ['5', '10', '20', '40'],
  );
  const hollow = renderSvgChart({
    ...base,
    series: [
      {
        label: 'p',
        colour: '#ff7f0e',
        points: [
          { x: 5, y: 1 },
          { x: 10, y: 2, hollow: true },
          { x: 20, y: 3 },
        ],
      },
    ],
  });
  assert.equal((hollow.match(/<path class="line"/g) ?? []).length, 0);
  assert.equal((hollow.match(/class="point marked"/g) ?? []).length, 1);
  // Drawn as the panel draws it, a cross, and explained in the legend.
  assert.match(
    hollow,
    /<path class="point marked" d="M[\d.]+ [\d.]+ L[\d.]+ [\d.]+ M[\d.]+ [\d.]+ L[\d.]+ [\d.]+" stroke="#ff7f0e" stroke-width="2" fill="none"\/>/,
  );
  assert.match(hollow, /<g class="legend-item marked"><text [^>]*>× every repetition marked<\/text><\/g>/);
  assert.doesNotMatch(svg, /legend-item marked/, 'no marked point, no entry');
});

test('bands and error bars are drawn where the numbers say', () => {
  const svg = renderSvgChart({
    ...base,
    series: [
      {
        label: 'kernel',
        colour: '#1f77b4',
        points: [
          { x: 5, y: 10, low: 8, high: 12 },
          { x: 10, y: 20 },
        ],
        band: [
          { x: 5, low: 9, high: 11 },
          { x: 10, low: 18, high: 20 },
        ],
      },
    ],
  });
  // Two categories over 320 px, centred at 144 and 304. y ticks 0..20 over 210 px: 10.5 px per
  // unit; y(12) = 238 - 126 = 112, y(8) = 154.
  assert.match(svg, /<path class="error-bar" d="M144 154 L144 112 M140 154 L148 154 M140 112 L148 112"/);
  assert.equal((svg.match(/class="error-bar"/g) ?? []).length, 1, 'only the point with an interval');
  // Band: upper edge left to right, lower edge back.
  assert.match(svg, /<polygon class="band" points="144,122.5 304,28 304,49 144,143.5"/);
});

test('the nines x axis: a spectrum from 0 to 99.99 % spans five ticks', () => {
  const svg = renderSvgChart({
    ...base,
    xScale: 'nines',
    xLabel: 'percentile',
    yLabel: 'µs',
    series: [
      {
        label: 'kernel',
        colour: '#000000',
        points: [0, 90, 99, 99.9, 99.99].map((p, i) => ({ x: p, y: 100 * (i + 1) })),
      },
    ],
  });
  assert.deepEqual(
    [...svg.matchAll(/<text class="x-tick"[^>]*>([^<]*)</g)].map((match) => match[1]),
    ['0%', '90%', '99%', '99.9%', '99.99%'],
  );
  // Five nines positions 0..4 over 320 px: 80 px apart, the 99 % point at 64 + 160.
  assert.match(svg, /<circle class="point" cx="224" /);
});

test('labels from files are escaped: no element or attribute can be injected', () => {
  const evil = '</text><script>alert(1)</script><g onload="x">';
  const svg = renderSvgChart({
    ...base,
    title: evil,
    yLabel: '"><img src=x>',
    series: [
      {
        label: evil,
        colour: '" onclick="x',
        points: [
          { x: 1, y: 1 },
          { x: 2, y: 2 },
        ],
      },
    ],
  });
  assert.doesNotMatch(svg, /<script|<img|<g onload|" onclick/);
  assert.ok(svg.includes(escapeXml(evil)));
  assert.equal(escapeXml(`<a href="x">&'`), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
});

test('linear x with given ticks: cluster sizes 1, 2, 4 drawn to scale, no point on the plot edge', () => {
  const svg = renderSvgChart({
    ...base,
    xLabel: 'cluster size (nodes)',
    xScale: 'linear',
    xTicks: [1, 2, 4],
    formatX: String,
    series: [
      {
        label: 'kernel',
        colour: '#1f77b4',
        points: [
          { x: 1, y: 100 },
          { x: 2, y: 200 },
          { x: 4, y: 400 },
        ],
      },
    ],
  });
  const xs = [...svg.matchAll(/<circle class="point" cx="([\d.]+)"/g)].map((match) => Number(match[1]));
  assert.equal(xs.length, 3);
  // 2 → 4 is twice as wide as 1 → 2, so a linear ideal line stays straight.
  assert.ok(Math.abs(xs[2] - xs[1] - 2 * (xs[1] - xs[0])) < 0.1, xs.join(' '));
  // Plot area 64..384: the first and last points sit inside it, not on its edges.
  assert.ok(xs[0] > 64 + 5 && xs[2] < 384 - 5, xs.join(' '));
  assert.deepEqual(
    [...svg.matchAll(/<text class="x-tick"[^>]*>([^<]*)</g)].map((match) => match[1]),
    ['1', '2', '4'],
  );
});
