// Renders the built webview script (dist/media/panel.js) in headless Chromium under the real CSP,
// with a stub acquireVsCodeApi and the fixture run's model, and checks what a user sees: table
// values, marks, the best-improvement highlight, theme-coloured chart pixels, kept toggles across a
// live update, and exports posted to the host. Saves test-artifacts/panel.png for a human look.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateWebviewMessage } from '../../client/src/panel/messageValidation';
import { applySweepEvent, emptyRunData } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureManifest, fixtureResults } from './fixtureRun';
import { seriesPalette } from '../../engine/src/report/palette';
import { chromiumPath, countPixels, openPanelPage, root, theme } from './support/webviewPage';

const [kernelColour, profileColour] = seriesPalette;

function fixtureModel(cells: number) {
  const data = emptyRunData('/runs/run-fixture');
  applySweepEvent(data, {
    type: 'run-started',
    runDir: data.runDir,
    manifest: fixtureManifest(),
    resumed: false,
    alreadyDone: 0,
  });
  fixtureResults()
    .slice(0, cells)
    .forEach((result, index) => applySweepEvent(data, { type: 'cell-finished', result, index, total: 12 }));
  return buildViewModel([data]);
}

test(
  'the built webview draws the fixture run under the strict CSP',
  { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium', timeout: 90_000 },
  async () => {
    const webview = await openPanelPage({ title: 'Onload Bench Results: run-fixture' });
    const { page, pageErrors, remoteRequests } = webview;
    try {
      // Mid-run model first (4 of 12 cells), then the full run: as a live sweep would.
      await webview.post({ type: 'model', model: fixtureModel(4) });
      await page.waitForSelector('#r0-g0-throughput-table');
      assert.equal(await page.textContent('#run-0 .progress-text'), '4 of 12 cells finished so far');
      assert.equal(
        await page.getAttribute(
          '#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="20"]',
          'data-state',
        ),
        'pending',
      );
      assert.equal(
        await page.textContent('#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="20"]'),
        'not run yet',
      );

      // The reader switches the throughput chart to its table view; a live update must keep that.
      await page.click('#chart-r0-g0-throughput button.view-toggle');
      await webview.post({ type: 'model', model: fixtureModel(12) });
      await page.waitForFunction(
        () => document.querySelector('#run-0 .progress')?.getAttribute('data-finished') === '12',
      );
      assert.equal(await page.getAttribute('#chart-r0-g0-throughput button.view-toggle', 'aria-pressed'), 'true');
      assert.equal(await page.isVisible('#chart-r0-g0-throughput .canvas-box'), false);
      assert.equal(await page.isVisible('#r0-g0-throughput-data'), true);
      const saved = await page.evaluate(
        () => (window as unknown as { __state: { views: Record<string, string>; runDirs: string[] } }).__state,
      );
      assert.deepEqual(saved.runDirs, ['/runs/run-fixture']);
      assert.equal(saved.views['r0-g0-throughput'], 'table');

      // What the user reads in the tables: the numbers of results.jsonl.
      assert.equal(await page.textContent('h1#panel-title'), 'Onload Bench Results: run-fixture');
      const kernel5 = '#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="5"]';
      assert.equal(await page.getAttribute(kernel5, 'data-value'), '10500');
      assert.equal(await page.textContent(kernel5), '10,500');
      const onload10 = '#r0-g0-throughput-table td.delta[data-stack="latency-best"][data-threads="10"]';
      assert.equal(Number(await page.getAttribute(onload10, 'data-delta')).toFixed(3), '59.459');
      assert.match((await page.getAttribute(onload10, 'class')) ?? '', /\bbest\b/);
      assert.equal(await page.textContent(onload10), '+59.5 % (±22.1) ★');
      assert.equal(await page.getAttribute(onload10, 'data-significant'), 'true');
      assert.match(
        (await page.getAttribute(onload10, 'title')) ?? '',
        /^95 % confidence interval \+\d+\.\d % to \+\d+\.\d %, p = 0\.\d{3}: significant$/,
      );
      const onload20 = '#r0-g0-throughput-table td.value[data-stack="latency-best"][data-threads="20"]';
      assert.equal(await page.getAttribute(onload20, 'data-state'), 'marked');
      assert.equal(await page.getAttribute(onload20, 'data-marks'), 'not-accelerated');
      assert.match(
        (await page.getAttribute(`${onload20} .mark[data-mark="not-accelerated"]`, 'title')) ?? '',
        /^Couchbase was not verified to run on Onload.*\(1 repetition\)$/,
      );
      assert.equal(await page.getAttribute(onload20, 'data-value'), '26000');
      assert.equal(await page.textContent(onload20), '26,000 (not accelerated)');
      const onloadDelta20 = '#r0-g0-throughput-table td.delta[data-stack="latency-best"][data-threads="20"]';
      assert.doesNotMatch((await page.getAttribute(onloadDelta20, 'class')) ?? '', /improvement|best/);
      assert.equal(await page.getAttribute(onloadDelta20, 'data-marked'), 'true');
      assert.equal(
        await page.textContent('#r0-g0-throughput-data td[data-stack="latency-best"][data-threads="20"]'),
        '26,000 (marked: not accelerated)',
      );
      assert.equal(
        await page.getAttribute('.best-box ol[data-metric="throughput"] li:first-child', 'data-percent'),
        '59.45945945945946',
      );
      assert.equal(
        await page.getAttribute(
          '#r0-g0-read-latency-table td.value[data-stack="latency-best"][data-threads="5"]',
          'data-value',
        ),
        '260',
      );
      assert.equal(
        await page.textContent('#r0-g0-read-latency-table td.delta[data-stack="latency-best"][data-threads="5"]'),
        '−36.6 % (±12.5)',
      );
      assert.equal(
        await page.textContent('#r0-g0-throughput-data td[data-stack="kernel"][data-threads="5"]'),
        '10,500 (10,000–11,000)',
      );
      assert.equal(
        await page.textContent('#r0-g0-throughput-table caption'),
        'Throughput: kernel vs Onload, 25G (127.0.0.1)',
      );

      // Charts drawn with the fixed palette (engine/src/report/palette.ts), never the theme's chart colours.
      const readCanvas = '#chart-r0-g0-read-latency-canvas';
      assert.ok((await countPixels(page, readCanvas, kernelColour)) > 30, 'kernel series in the palette blue');
      assert.ok((await countPixels(page, readCanvas, profileColour)) > 30, 'profile series in the palette vermillion');
      assert.equal(await countPixels(page, readCanvas, theme['--vscode-charts-blue']), 0, 'not the theme blue');
      assert.equal(await countPixels(page, readCanvas, theme['--vscode-charts-orange']), 0, 'not the theme orange');

      // The cross of a marked point (latency-best at 20 threads) is explained in the legend, on screen and in exports.
      assert.equal(
        await page.getAttribute('#chart-r0-g0-throughput-canvas', 'data-legend'),
        'kernel | Onload · latency-best | × every repetition marked',
      );
      assert.equal(
        await page.getAttribute('#chart-r0-g0-update-latency-canvas', 'data-legend'),
        'kernel | Onload · latency-best | × every repetition marked',
      );

      // A theme change (here its chart blue) leaves the series their palette colours.
      await page.evaluate(() => document.documentElement.style.setProperty('--vscode-charts-blue', '#00ff00'));
      await page.waitForTimeout(50);
      assert.equal(await countPixels(page, readCanvas, '#00ff00'), 0, 'the theme chart colour is not used');
      assert.ok((await countPixels(page, readCanvas, kernelColour)) > 30, 'kernel series keeps its colour');
      await page.evaluate(
        (blue) => document.documentElement.style.setProperty('--vscode-charts-blue', blue),
        theme['--vscode-charts-blue'],
      );

      mkdirSync(join(root, 'test-artifacts'), { recursive: true });
      // Keyboard: Space on the kernel checkbox hides the kernel series in every chart of the run.
      await page.focus('#run-0 fieldset.stack-filter input[data-stack="kernel"]');
      await page.keyboard.press('Space');
      assert.equal(await countPixels(page, readCanvas, kernelColour), 0, 'kernel hidden');
      assert.ok((await countPixels(page, readCanvas, profileColour)) > 30, 'profile still drawn');
      await page.keyboard.press('Space');
      assert.ok((await countPixels(page, readCanvas, kernelColour)) > 30, 'kernel shown again');

      // Export: the PNG button posts a validated-shape image message to the host.
      await page.click('#chart-r0-g0-read-latency button.save-png');
      await page.click('#chart-r0-g0-read-latency button.save-svg');
      await page.click('#run-0 button.export-csv');
      const posted = await webview.posted();
      const image = posted.find((message) => message.type === 'save-image');
      assert.ok(image);
      assert.equal(image.format, 'png');
      assert.equal(image.name, 'run-fixture-25G-read-latency');
      assert.match(String(image.data), /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      assert.deepEqual(
        posted.find((message) => message.type === 'export-csv'),
        { type: 'export-csv', runIndex: 0 },
      );
      // SVG is drawn as vectors: the series are stroked paths in the theme colours, the axes are text.
      const svg = posted.find((message) => message.type === 'save-image' && message.format === 'svg');
      assert.ok(svg);
      assert.equal(validateWebviewMessage(svg).ok, true, 'the host accepts it');
      const svgText = String(svg.data);
      assert.match(
        svgText,
        /^<svg[^>]*><title>Read average latency \(µs\), 25G \(127\.0\.0\.1\) · run run-fixture<\/title>/,
      );
      // Exported for a report: the title is drawn in the image, no attribute says `undefined`, a light page.
      assert.match(svgText, /<text[^>]*>Read average latency \(µs\)<\/text>/);
      assert.match(svgText, /<text[^>]*>25G \(127\.0\.0\.1\) · run run-fixture<\/text>/);
      assert.doesNotMatch(svgText, /undefined|NaN/);
      assert.match(svgText, /<rect fill="#ffffff"[^>]*width="960" height="540"/);
      // The median lines: unfilled paths through three (kernel) and two (profile) thread counts.
      assert.match(svgText, /<path fill="none" stroke="#0077BB"[^>]*d=" M [\d.]+ [\d.]+( L [\d.]+ [\d.]+){3}"/);
      assert.match(svgText, /<path fill="none" stroke="#D55E00"[^>]*d=" M [\d.]+ [\d.]+( L [\d.]+ [\d.]+){2}"/);
      assert.match(svgText, />YCSB threads<\/text>/);
      assert.doesNotMatch(svgText, /<image/);
      writeFileSync(join(root, 'test-artifacts', 'panel-chart.svg'), svgText);

      assert.deepEqual(await webview.violations(), []);
      assert.deepEqual(pageErrors, []);
      assert.deepEqual(remoteRequests, []);

      // The run's environment: hosts with their versions, and each profile's effective options.
      await page.click('#run-0 details.environment-box summary');
      assert.equal(
        await page.textContent('#run-0 table.environment dd[data-host="127.0.0.1"][data-fact="Kernel"]'),
        '6.1.0-fixture',
      );
      assert.equal(
        await page.textContent('#run-0 table.environment dd[data-host="127.0.0.2"][data-fact="YCSB"]'),
        '0.17.0',
      );
      // CPU, NUMA, governor and the tested NIC's NUMA node and IRQ affinity (engine/src/evidence/hostHardware.ts)
      assert.equal(
        await page.textContent('#run-0 table.environment dd[data-host="127.0.0.1"][data-fact="CPU"]'),
        'AMD EPYC 7313: 1 socket, 16 cores, 32 threads',
      );
      assert.equal(
        await page.textContent(
          '#run-0 table.environment dd[data-host="127.0.0.1"][data-fact="NUMA node of 127.0.0.1"]',
        ),
        '1',
      );
      assert.equal(
        await page.textContent(
          '#run-0 table.environment dd[data-host="127.0.0.1"][data-fact="IRQ affinity of 127.0.0.1"]',
        ),
        '2 IRQs (IRQ→CPUs): 90→8, 91→9',
      );
      assert.equal(
        await page.textContent('#run-0 table.environment dd[data-host="127.0.0.1"][data-fact="Frequency governor"]'),
        'performance (all 32 CPUs)',
      );
      assert.equal(
        await page.textContent('#run-0 table.profile-options[data-profile="latency-best"] caption'),
        'Onload profile latency-best: effective options',
      );

      await page.click('#chart-r0-g0-throughput button.view-toggle');
      mkdirSync(join(root, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(root, 'test-artifacts', 'panel.png'), fullPage: true });

      // Comparing two runs (B against A) is checked in webviewReport.test.ts.
      assert.deepEqual(pageErrors, []);
    } finally {
      await webview.close();
    }
  },
);
