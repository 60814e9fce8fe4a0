// Issue 23 in the results panel: the host's model of a run with cluster sizes and a fieldlength
// axis (test/fixtures/clusterSizeRun.ts), then the built webview in headless Chromium: the axis
// picker puts the cluster size or fieldlength on x (tables, chart axis and labels), the scaling view
// draws the ideal line and the efficiencies, and the price (the plan's, or one typed in the panel)
// gives the cost of a million operations beside the best size per price.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { clusterCells, clusterManifest } from '../fixtures/clusterSizeRun';
import { chromiumPath, openPanelPage } from './support/webviewPage';

const model = () => buildViewModel([runDataFromFiles('/runs/cluster-size-run', clusterManifest(), clusterCells())]);

describe('the panel model of a run with cluster sizes', () => {
  const run = model().runs[0];

  it('lists the axes, keeps threads as the default groups (one per size and fieldlength) and adds the groups of each other axis', () => {
    assert.deepEqual(run.axes, [
      { id: 'threads', title: 'YCSB threads' },
      { id: 'clusterSize', title: 'cluster size (nodes)' },
      { id: 'fieldlength', title: 'fieldlength' },
    ]);
    assert.equal(run.groups.length, 6);
    assert.equal(run.groups[2].label, '25G (10.0.0.1), 2 nodes, fieldlength=100');
    const bySize = run.axisGroups!.clusterSize;
    assert.deepEqual(
      bySize.map((group) => group.id),
      ['r0-a1-g0', 'r0-a1-g1', 'r0-a1-g2', 'r0-a1-g3'],
    );
    const throughput = bySize[1].charts.find((chart) => chart.metric === 'throughput')!;
    assert.deepEqual(throughput.xAxis, { id: 'clusterSize', title: 'cluster size (nodes)' });
    assert.deepEqual(throughput.xValues, [1, 2, 3]);
    assert.deepEqual(
      throughput.series[0].points.map((point) => [point.x, point.threads, point.median]),
      [
        [1, 16, 100_000],
        [2, 16, 198_000],
        [3, 16, 240_000],
      ],
    );
    const table = bySize[1].tables.find((candidate) => candidate.metric === 'throughput')!;
    assert.deepEqual(
      table.rows.map((row) => [
        row.x,
        row.profiles[0].deltaPercent?.toFixed(1),
        row.profiles[0].deltaInterval ? 'interval' : 'none',
      ]),
      [
        [1, '30.0', 'interval'],
        [2, '26.3', 'interval'],
        [3, '37.5', 'interval'],
      ],
    );
  });

  it("carries the scaling view and the plan's price", () => {
    assert.deepEqual(run.cost, { pricePerNodeHour: 2.5, currency: 'EUR' });
    const group = run.scaling!.groups[1];
    assert.equal(group.title, '25G (10.0.0.1), 16 threads, fieldlength=100');
    assert.deepEqual(
      group.series[0].points.map((point) => point.ideal),
      [100_000, 200_000, 300_000],
    );
    assert.deepEqual(
      group.series[0].steps.map((step) => step.text),
      ['99.0 % (95 % CI 96.4 to 101.6 %)', '80.8 % (95 % CI 79.0 to 82.7 %)'],
    );
    assert.match(group.series[0].best, /^1 node \(100,000 ops\/s per node\); not distinguishable from it: 2 nodes/);
  });
});

describe('the webview against any axis', { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium' }, () => {
  it('the axis picker, the scaling view and the price', { timeout: 120_000 }, async () => {
    const webview = await openPanelPage({ title: 'Onload Bench Results: cluster-size-run' });
    const { page, pageErrors } = webview;
    try {
      await webview.post({ type: 'model', model: model() });
      await page.waitForSelector('#r0-g2-throughput-table');
      // Threads by default: the cookbook's tables, one group per size.
      assert.equal(await page.inputValue('#run-0 select.x-axis'), 'threads');
      assert.deepEqual(
        await page.$$eval('#run-0 select.x-axis option', (options) => options.map((option) => option.textContent)),
        ['YCSB threads', 'cluster size (nodes)', 'fieldlength'],
      );
      assert.equal(await page.getAttribute('#chart-r0-g0-throughput canvas', 'data-x-title'), 'YCSB threads');

      // The cluster size on x: a row per size, the interval per size, the chart's axis and labels.
      await page.selectOption('#run-0 select.x-axis', 'clusterSize');
      await page.waitForSelector('#r0-a1-g1-throughput-table');
      assert.equal(await page.$('#r0-g0-throughput-table'), null, 'the threads groups are gone');
      assert.equal(await page.textContent('#r0-a1-g1-throughput-table thead th'), 'Cluster size (nodes)');
      assert.deepEqual(
        await page.$$eval('#r0-a1-g1-throughput-table tbody tr', (rows) =>
          rows.map((row) => row.getAttribute('data-x')),
        ),
        ['1', '2', '3'],
      );
      assert.equal(
        await page.textContent('#r0-a1-g1-throughput-table td.delta[data-stack="latency"][data-threads="16"] >> nth=2'),
        '+37.5 % (±3.2) ★',
      );
      await page.waitForFunction(
        () => document.querySelector('#chart-r0-a1-g1-throughput canvas')?.getAttribute('data-x-labels') === '1,2,3',
      );
      assert.equal(
        await page.getAttribute('#chart-r0-a1-g1-throughput canvas', 'data-x-title'),
        'cluster size (nodes)',
      );
      assert.match((await page.textContent('#chart-r0-a1-g1-throughput h4')) ?? '', /^Throughput \(ops\/s\)$/);
      const state = await page.evaluate(
        () => (window as unknown as { __state: { xAxis: Record<string, string> } }).__state,
      );
      assert.deepEqual(state.xAxis, { '/runs/cluster-size-run': 'clusterSize' });

      // A size's value opens the time series of its own cells.
      await page.click('#r0-a1-g1-throughput-table tr[data-x="2"] td.value[data-stack="kernel"]');
      const request = (await webview.posted()).filter((message) => message.type === 'open-timeseries').pop()!;
      assert.deepEqual(request.cellIds, [
        '25G~kernel~n2~t16~fieldlength=100~r1',
        '25G~kernel~n2~t16~fieldlength=100~r2',
        '25G~kernel~n2~t16~fieldlength=100~r3',
      ]);
      assert.equal(request.threads, 16);
      // Named by the size, the threads being held in the group's label (not "16 threads" twice).
      assert.equal(request.title, '25G (10.0.0.1), 16 threads, fieldlength=100, kernel, 2 nodes');
      // The answer is shown in the group it was asked from, a group against the cluster size.
      await webview.post({
        type: 'timeseries',
        view: {
          runIndex: 0,
          title: request.title,
          stack: 'kernel',
          threads: 16,
          cellIds: request.cellIds,
          cells: [],
          missing: ['no series recorded'],
        },
      });
      await page.waitForSelector('#group-r0-a1-g1 .timeseries-box:not([hidden])');

      // fieldlength on x: the size and threads held.
      await page.selectOption('#run-0 select.x-axis', 'fieldlength');
      await page.waitForSelector('#r0-a2-g0-throughput-table');
      await page.waitForFunction(
        () => document.querySelector('#chart-r0-a2-g0-throughput canvas')?.getAttribute('data-x-labels') === '100,1000',
      );
      assert.equal(await page.getAttribute('#chart-r0-a2-g0-throughput canvas', 'data-x-title'), 'fieldlength');

      // The scaling view: the ideal line through the smallest size, the efficiency per step, the plan's price.
      const scaling = '#r0-scaling-g1';
      await page.waitForFunction(
        (id) => document.querySelector(`${id} canvas`)?.getAttribute('data-series') !== null,
        scaling,
      );
      const series = (await page.getAttribute(`${scaling} canvas`, 'data-series'))!;
      assert.match(series, /kernel: ideal \(linear from 1 node\)=1:100000 2:200000 3:300000/);
      assert.match(series, /(^| \| )kernel=1:100000 2:198000 3:240000/);
      // Sizes to scale, the first and last inside the plot area, not on its edges (where a marker is cut in half).
      const [left, , right] = (await page.getAttribute(`${scaling} canvas`, 'data-plot-area'))!.split(',').map(Number);
      const ticks = (await page.getAttribute(`${scaling} canvas`, 'data-x-tick-pixels'))!.split(',').map(Number);
      assert.equal(ticks.length, 3);
      assert.ok(ticks[0] > left + 5 && ticks[2] < right - 5, `${ticks} within ${left}..${right}`);
      assert.ok(Math.abs(ticks[2] - ticks[1] - (ticks[1] - ticks[0])) <= 1, `${ticks}`);
      assert.equal(
        await page.textContent(`${scaling} table.scaling[data-stack="kernel"] tr[data-size="3"] td.efficiency`),
        '80.8 % (95 % CI 79.0 to 82.7 %)',
      );
      assert.equal(
        await page.textContent(`${scaling} table.scaling[data-stack="kernel"] tr[data-size="1"] td.cost`),
        '0.00694 EUR',
      );
      assert.match(
        (await page.textContent(`${scaling} p.best-size[data-stack="kernel"]`))!,
        /^Best performance per price: 1 node \(100,000 ops\/s per node\); not distinguishable from it: 2 nodes \(−1\.0 %, 95 % CI −3\.2 to \+1\.3 %\); 0\.00694 EUR per million operations at 1 node\.$/,
      );
      assert.equal(await page.textContent('#run-0 .price-source'), "the plan's price");
      // Saved as SVG like every chart of the panel, the ideal line in it.
      await page.click(`${scaling} button.save-svg`);
      const saved = (await webview.posted()).filter((message) => message.type === 'save-image');
      assert.equal(saved.length, 1);
      assert.equal(saved[0].format, 'svg');
      assert.match(String(saved[0].name), /scaling/);
      assert.match(String(saved[0].data), /cluster size \(nodes\)/);
      assert.match(String(saved[0].data), /ideal \(linear from 1 node\)/);

      // A price typed in the panel replaces the plan's, and is kept.
      await page.fill('#run-0-currency', 'USD');
      await page.fill('#run-0-price', '3');
      await page.press('#run-0-price', 'Enter');
      await page.waitForFunction(
        (id) =>
          document.querySelector(`${id} table.scaling[data-stack="kernel"] tr[data-size="1"] td.cost`)?.textContent ===
          '0.00833 USD',
        scaling,
      );
      assert.equal(await page.textContent('#run-0 .price-source'), 'set here');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'run-0-price', 'focus stays on the price');
      const kept = await page.evaluate(
        () => (window as unknown as { __state: { price: Record<string, unknown> } }).__state.price,
      );
      assert.deepEqual(kept, { '/runs/cluster-size-run': { pricePerNodeHour: 3, currency: 'USD' } });
      // Cleared: no cost column.
      await page.fill('#run-0-price', '');
      await page.press('#run-0-price', 'Enter');
      await page.waitForFunction((id) => document.querySelector(`${id} table.scaling td.cost`) === null, scaling);
      assert.deepEqual(pageErrors, []);
    } finally {
      await webview.close();
    }
  });
});
