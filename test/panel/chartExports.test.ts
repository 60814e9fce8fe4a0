// Issue 25 items 7 and 8 in the built webview (headless Chromium, the real CSP): the compare view
// has the run charts' toolbar (table view, PNG, SVG), the latency spectrum exports as PNG and SVG,
// and the markers of a chart are drawn inside its plot area, never cut at its edge.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { validateWebviewMessage } from '../../client/src/panel/messageValidation';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureManifest, fixtureResults } from './fixtureRun';
import { chromiumPath, openWebview, pngSize, type WebviewPage } from './support/webviewPage';

const skip = !existsSync(chromiumPath) && 'no /usr/bin/chromium';

async function lastPosted(webview: WebviewPage, format: 'png' | 'svg'): Promise<Record<string, unknown>> {
  await webview.page.waitForFunction(
    (wanted) =>
      (window as unknown as { __posted: { type: string; format?: string }[] }).__posted.some(
        (m) => m.type === 'save-image' && m.format === wanted,
      ),
    format,
    { timeout: 10_000 },
  );
  return (await webview.posted())
    .filter((message) => message.type === 'save-image' && message.format === format)
    .at(-1)!;
}

function numbers(text: string | null): number[] {
  return (text ?? '').split(',').map(Number);
}

test(
  'the compare view has the toolbar of the run charts: table view, PNG and SVG',
  { skip, timeout: 90_000 },
  async () => {
    const webview = await openWebview();
    const { page } = webview;
    try {
      const resultsB = fixtureResults().map((result) => {
        if (result.run) result.run.throughputOpsPerSec *= 1.1;
        return result;
      });
      const manifestB = fixtureManifest();
      manifestB.runId = 'run-b';
      const model = buildViewModel([
        runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults()),
        runDataFromFiles('/runs/run-b', manifestB, resultsB),
      ]);
      await webview.post({ type: 'model', model });
      const figure = '#comparison figure.compare-chart[data-metric="throughput"]';
      await page.waitForSelector(`${figure} canvas`);
      assert.deepEqual(
        await page.$$eval(`${figure} .toolbar button`, (buttons) => buttons.map((button) => button.textContent)),
        ['Show table', 'PNG', 'SVG'],
      );

      // The table view: the chart's values in place of the chart, in the tab order only while shown.
      assert.equal(await page.isVisible(`${figure} .data-box`), false);
      const tabStops = () =>
        page.$$eval(
          `${figure} .data-box [tabindex="0"], ${figure} .data-box button`,
          (elements) => elements.filter((element) => (element as HTMLElement).tabIndex >= 0).length,
        );
      assert.equal(await tabStops(), 0, 'the hidden table is out of the tab order');
      await page.click(`${figure} button.view-toggle`);
      assert.ok((await tabStops()) > 0, "the shown table's values open their cells from the keyboard");
      assert.equal(await page.isVisible(`${figure} .canvas-box`), false);
      assert.equal(await page.isVisible(`${figure} .data-box table.compare`), true);
      assert.equal(await page.getAttribute(`${figure} button.view-toggle`, 'aria-pressed'), 'true');
      assert.match(
        (await page.textContent(`${figure} .data-box td.delta[data-stack="kernel"][data-threads="5"]`)) ?? '',
        /^\+10\.0 %/,
      );
      await page.click(`${figure} button.view-toggle`);
      assert.equal(await page.isVisible(`${figure} .canvas-box`), true);

      await page.click(`${figure} button.save-png`);
      const png = await lastPosted(webview, 'png');
      assert.equal(validateWebviewMessage(png).ok, true, 'the host accepts it');
      assert.equal(png.name, 'run-b-vs-run-fixture-25G-throughput');
      assert.deepEqual(pngSize(String(png.data)), { width: 1920, height: 1080 });
      await page.click(`${figure} button.save-svg`);
      const svg = await lastPosted(webview, 'svg');
      assert.equal(validateWebviewMessage(svg).ok, true, 'the host accepts it');
      const text = String(svg.data);
      assert.match(
        text,
        /<title>Throughput \(ops\/s\), 25G \(127\.0\.0\.1\) · run B run-b \(solid\) against run A run-fixture \(dashed\)<\/title>/,
      );
      // short legends, drawn in the file: a stack and the run's letter
      assert.match(text, />kernel A<\/text>/);
      assert.match(text, />Onload · latency-best B<\/text>/);
      assert.match(text, /<rect fill="#ffffff"[^>]*width="960" height="540"/);
      assert.doesNotMatch(text, /undefined|NaN/);
      assert.deepEqual(await webview.violations(), []);
    } finally {
      await webview.close();
    }
  },
);

test(
  'the latency spectrum exports as PNG and SVG, titled with its point and run',
  { skip, timeout: 90_000 },
  async () => {
    const webview = await openWebview();
    const { page } = webview;
    try {
      await webview.post({
        type: 'model',
        model: buildViewModel([runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults())]),
      });
      const spectrum = '#spectrum-r0-g0';
      await page.waitForSelector(`${spectrum} canvas`);
      assert.deepEqual(
        await page.$$eval(`${spectrum} .toolbar button`, (buttons) => buttons.map((button) => button.textContent)),
        ['Show table', 'PNG', 'SVG'],
      );
      await page.click(`${spectrum} button.save-svg`);
      const svg = await lastPosted(webview, 'svg');
      assert.equal(validateWebviewMessage(svg).ok, true, 'the host accepts it');
      assert.equal(svg.name, 'run-fixture-25G-spectrum-READ-10');
      assert.match(
        String(svg.data),
        /<title>READ latency by percentile \(µs\) at 10 threads, 25G \(127\.0\.0\.1\) · run run-fixture<\/title>/,
      );
      assert.match(String(svg.data), />percentile \(%\)<\/text>/);
      await page.click(`${spectrum} button.save-png`);
      const png = await lastPosted(webview, 'png');
      assert.deepEqual(pngSize(String(png.data)), { width: 1920, height: 1080 });
    } finally {
      await webview.close();
    }
  },
);

test('the markers of a chart are drawn inside its plot area', { skip, timeout: 90_000 }, async () => {
  const webview = await openWebview();
  const { page } = webview;
  try {
    await webview.post({
      type: 'model',
      model: buildViewModel([runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults())]),
    });
    for (const metric of ['throughput', 'read-latency', 'read-p99']) {
      const canvas = `#chart-r0-g0-${metric}-canvas`;
      await page.waitForSelector(`${canvas}[data-marker-reach]`);
      const [left, top, right, bottom] = numbers(await page.getAttribute(canvas, 'data-plot-area'));
      const [reachLeft, reachTop, reachRight, reachBottom] = numbers(
        await page.getAttribute(canvas, 'data-marker-reach'),
      );
      assert.ok(
        reachLeft >= left && reachRight <= right,
        `${metric}: markers ${reachLeft}–${reachRight} across, plot area ${left}–${right}`,
      );
      assert.ok(
        reachTop >= top && reachBottom <= bottom + 0.5,
        `${metric}: markers ${reachTop}–${reachBottom} down, plot area ${top}–${bottom}`,
      );
    }
  } finally {
    await webview.close();
  }
});
