// Issue 10 in the built webview, in headless Chromium under the real CSP, with the fixture run's
// model: the CPU charts (both arms drawn in the palette's colours, error bars, the table view's
// numbers), the latency spectrum (the arms overlaid in two colours, the upper-bound label), the
// time-series view opening on a table-cell click and on a chart-point click, the marks legend and
// badges, the percentile caveat, and the Export report button. Saves test-artifacts/panel-evidence.png.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { timeSeriesView } from '../../client/src/panel/evidenceModel';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import type { CellResult } from '../../engine/src/model';
import { fixtureManifest, fixtureResults } from './fixtureRun';
import { seriesPalette } from '../../engine/src/report/palette';
import { chromiumPath, countPixels, openWebview, root, type WebviewPage } from './support/webviewPage';

// Series colours: the fixed palette (engine/src/report/palette.ts), kernel first.
const [blue, orange] = seriesPalette;

/** The fixture, with the kernel's first repetition at 5 threads marked client-bound (the client at 95 % busy). */
function fixtureData() {
  const results: CellResult[] = fixtureResults().map((result) =>
    result.id === '25G-kernel-t5-r1'
      ? {
          ...result,
          marks: [
            {
              code: 'client-bound',
              host: '127.0.0.2',
              message: 'Client 127.0.0.2 was 95 % busy during the run phase.',
            },
          ],
        }
      : result,
  );
  return runDataFromFiles('/runs/run-fixture', fixtureManifest(), results);
}

async function waitForPosted(webview: WebviewPage, type: string): Promise<Record<string, unknown>> {
  await webview.page.waitForFunction(
    (wanted) => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === wanted),
    type,
    { timeout: 5_000 },
  );
  return (await webview.posted()).filter((message) => message.type === type).at(-1)!;
}

test(
  'CPU charts, the latency spectrum, the time-series view and the marks legend in the webview',
  { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium', timeout: 90_000 },
  async () => {
    const webview = await openWebview();
    const { page } = webview;
    try {
      const data = fixtureData();
      await webview.post({ type: 'model', model: buildViewModel([data]) });
      await page.waitForSelector('#chart-r0-g0-server-cpu-canvas');

      // CPU utilisation and CPU per operation against threads, in the group's CPU box, kernel blue and the profile
      // orange.
      assert.deepEqual(
        await page.$$eval('#group-r0-g0 .cpu-box figure.chart', (figures) =>
          figures.map((figure) => (figure as HTMLElement).dataset.metric),
        ),
        ['server-cpu', 'client-cpu', 'server-cpu-per-op', 'ops-per-busy-core'],
      );
      assert.equal(await page.textContent('#chart-r0-g0-server-cpu figcaption h4'), 'Server CPU busy (%)');
      for (const canvas of ['#chart-r0-g0-server-cpu-canvas', '#chart-r0-g0-server-cpu-per-op-canvas']) {
        assert.ok((await countPixels(page, canvas, blue)) > 30, `kernel drawn in ${canvas}`);
        assert.ok((await countPixels(page, canvas, orange)) > 30, `profile drawn in ${canvas}`);
      }
      // The table view of the CPU chart holds the evidence's numbers: kernel 31 and 32 % at 5 threads,
      // the client-bound 31 % left out of the median.
      assert.equal(
        await page.getAttribute('#r0-g0-server-cpu-data td[data-stack="kernel"][data-threads="5"]', 'data-median'),
        '32',
      );
      // Whole numbers without ".0" (issue 13's number polish).
      assert.equal(
        await page.textContent('#r0-g0-server-cpu-data td[data-stack="kernel"][data-threads="10"]'),
        '41.5 (41–42)',
      );
      await page.click('#chart-r0-g0-server-cpu button.view-toggle');
      assert.equal(await page.isVisible('#r0-g0-server-cpu-data'), true, 'the CPU chart has its table view');
      await page.click('#chart-r0-g0-server-cpu button.view-toggle');
      // Error bars: the 95 % interval of each mean with 2+ repetitions (both arms at 5 and 10 threads; the kernel's 5
      // is client-bound: one left).
      assert.equal(await page.getAttribute('#chart-r0-g0-throughput-canvas', 'data-error-bars'), '3');

      // The spectrum: the busiest point where both arms have merged HDR logs, the arms overlaid in two colours.
      const spectrum = '#spectrum-r0-g0';
      await page.waitForSelector(`${spectrum} canvas`);
      assert.equal(await page.getAttribute(spectrum, 'data-spectrum'), 'r0-g0-spectrum-t10-READ');
      assert.ok((await countPixels(page, `${spectrum} canvas`, blue)) > 30, 'kernel spectrum in blue');
      assert.ok((await countPixels(page, `${spectrum} canvas`, orange)) > 30, 'profile spectrum in orange');
      assert.equal(
        await page.getAttribute(`${spectrum} td[data-stack="kernel"][data-percentile="99"]`, 'data-value'),
        '850',
      );
      // At 20 threads the kernel has no HDR logs: its line is YCSB's percentiles, labelled an upper bound.
      await page.selectOption(`${spectrum} select.spectrum-select`, 'r0-g0-spectrum-t20-READ');
      assert.equal(await page.getAttribute(spectrum, 'data-spectrum'), 'r0-g0-spectrum-t20-READ');
      assert.match(
        (await page.textContent(`${spectrum} .chart-note`)) ?? '',
        /kernel: dashed, upper bound \(max of clients\)\./,
      );
      assert.equal(
        await page.textContent(`${spectrum} th[data-source="client-max"]`),
        'kernel (rep. 1, upper bound (max of clients))',
      );
      assert.ok((await countPixels(page, `${spectrum} canvas`, blue)) > 10, 'the redrawn kernel spectrum');
      // The p99 chart says its 20-thread kernel point is an upper bound.
      assert.equal(
        await page.textContent('#chart-r0-g0-read-p99 p.chart-note'),
        'Upper bound (max of clients), no HDR logs to merge: kernel at 20 threads.',
      );

      // Marked cells are explained: the legend names each code met, the badge carries the cell's own message.
      assert.equal(
        await page.textContent('#run-0 section.marks-legend dt[data-mark="client-bound"]'),
        '(client-bound) 1 cell',
      );
      assert.match(
        (await page.textContent('#run-0 section.marks-legend dd[data-mark="client-bound"]')) ?? '',
        /above about 90 % CPU busy/,
      );
      assert.match(
        (await page.textContent('#run-0 section.marks-legend dd[data-mark="not-accelerated"]')) ?? '',
        /not verified to run on Onload/,
      );
      assert.match(
        (await page.getAttribute(
          '#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="5"] .mark[data-mark="client-bound"]',
          'title',
        )) ?? '',
        /^Client 127\.0\.0\.2 was 95 % busy/,
      );

      // A table cell opens its point's time series: the webview asks the host, the host answers.
      await page.click('#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="10"]');
      const request = await waitForPosted(webview, 'open-timeseries');
      assert.deepEqual(request, {
        type: 'open-timeseries',
        runIndex: 0,
        cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'],
        stack: 'kernel',
        threads: 10,
        title: '25G (127.0.0.1), kernel, 10 threads',
      });
      await webview.post({ type: 'timeseries', view: timeSeriesView(data, 0, request as never) });
      await page.waitForSelector('#ts-r0-g0:not([hidden]) canvas');
      assert.equal(
        await page.textContent('#ts-r0-g0 .timeseries-title'),
        'Over time: 25G (127.0.0.1), kernel, 10 threads',
      );
      assert.deepEqual(
        await page.$$eval('#ts-r0-g0 figure', (figures) =>
          figures.map((figure) => (figure as HTMLElement).dataset.kind),
        ),
        ['throughput', 'latency', 'cpu'],
      );
      // Status lines: 80 % of 18 000 ops/s in the first interval of repetition 1, then steady.
      assert.equal(await page.getAttribute('#ts-r0-g0 td[data-series="rep. 1"][data-t="10"]', 'data-value'), '14400');
      assert.equal(await page.getAttribute('#ts-r0-g0 td[data-series="rep. 2"][data-t="60"]', 'data-value'), '19000');
      assert.equal(
        await page.getAttribute('#ts-r0-g0 td[data-series="127.0.0.1 (server) rep. 1"][data-t="5"]', 'data-value'),
        '41',
      );
      assert.ok(
        (await countPixels(page, '#ts-r0-g0 figure[data-kind="throughput"] canvas', blue)) > 30,
        'repetition 1 drawn',
      );
      await page.keyboard.press('Escape');
      assert.equal(await page.isHidden('#ts-r0-g0'), true, 'Escape closes the view');

      // A chart point opens it too: the point nearest the click, at 10 threads (the middle of three).
      const area = (await page.getAttribute('#chart-r0-g0-throughput-canvas', 'data-plot-area'))!
        .split(',')
        .map(Number);
      const box = (await page.locator('#chart-r0-g0-throughput-canvas').boundingBox())!;
      await page.mouse.click(box.x + (area[0] + area[2]) / 2, box.y + area[3] - 2);
      await page.waitForFunction(
        () =>
          (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'open-timeseries')
            .length === 2,
        undefined,
        { timeout: 5_000 },
      );
      const fromChart = (await webview.posted()).filter((message) => message.type === 'open-timeseries').at(-1)!;
      assert.deepEqual(
        [fromChart.stack, fromChart.threads, fromChart.cellIds],
        ['kernel', 10, ['25G-kernel-t10-r1', '25G-kernel-t10-r2']],
      );

      // Export report asks the host for the HTML file of this run.
      await page.click('#run-0 button.export-report');
      assert.deepEqual(await waitForPosted(webview, 'export-report'), { type: 'export-report', runIndex: 0 });

      // With a warm-up, a dashed line shows where the statistics start, and the notes say so.
      const withWarmup = timeSeriesView(data, 0, request as never);
      withWarmup.cells[0].warmupSec = 15;
      await webview.post({ type: 'timeseries', view: withWarmup });
      await page.waitForSelector('#ts-r0-g0:not([hidden]) canvas');
      assert.equal(await page.getAttribute('#ts-r0-g0 figure[data-kind="throughput"] canvas', 'data-markers'), '15');
      assert.match(
        (await page.textContent('#ts-r0-g0 .timeseries-notes')) ?? '',
        /The first 15 s are warm-up \(dashed line\)/,
      );
      mkdirSync(join(root, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(root, 'test-artifacts', 'panel-evidence.png'), fullPage: true });
      assert.deepEqual(await webview.violations(), []);
      assert.deepEqual(webview.pageErrors, []);
      assert.deepEqual(webview.remoteRequests, []);
    } finally {
      await webview.close();
    }
  },
);
