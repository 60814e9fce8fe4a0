// What issue 13 changed in the results webview, checked in the built page under the real CSP:
// the compare view (B against A), exports fit for a report, the pre-flight states, drill-down to a
// cell's files and the polish (one title, local time, "1 thread", ms, no ".0", stack headers,
// tooltips, Export disabled, no "so far" once finished). Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CellResult, RunManifest } from '../../engine/src/model';
import { applySweepEvent, emptyRunData, runDataFromFiles, type RunData } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureManifest, fixtureResults } from './fixtureRun';
import { chromiumPath, openPanelPage, pngSize, root, type PanelPage } from './support/webviewPage';

const skip = !existsSync(chromiumPath) && 'no /usr/bin/chromium';
let panel: PanelPage;
const artifacts = join(root, 'test-artifacts');

before(async () => {
  if (skip) return;
  mkdirSync(artifacts, { recursive: true });
  panel = await openPanelPage({ timezoneId: 'Europe/Paris' });
});
after(async () => {
  await panel?.close();
});

function liveRun(cells: number, finished = false): RunData {
  const data = emptyRunData('/runs/run-fixture');
  applySweepEvent(data, {
    type: 'run-started',
    runDir: data.runDir,
    manifest: fixtureManifest(),
    resumed: false,
    alreadyDone: 0,
  });
  applySweepEvent(data, {
    type: 'preflight',
    checks: [{ id: 'reachable', host: '127.0.0.1', ok: true, detail: 'OpenSSH answered', blocking: true }],
  });
  fixtureResults()
    .slice(0, cells)
    .forEach((result, index) => applySweepEvent(data, { type: 'cell-finished', result, index, total: 12 }));
  if (finished)
    applySweepEvent(data, {
      type: 'run-finished',
      outcome: { runDir: data.runDir, completed: 10, failed: 2, total: 12, cancelled: false },
    });
  return data;
}

async function show(model: unknown, selector: string): Promise<void> {
  await panel.post({ type: 'model', model });
  await panel.page.waitForSelector(selector, { state: 'attached' });
}

test(
  'polish: one title, local start time, "1 thread", no "so far" once finished, Export disabled without cells',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    const empty = liveRun(0);
    applySweepEvent(empty, {
      type: 'cell-started',
      id: 'x',
      key: { interface: '25G', address: '127.0.0.1', stack: 'kernel', threads: 1, axes: {}, repetition: 1 },
      index: 0,
      total: 12,
      attempt: 1,
    });
    await show(buildViewModel([empty]), '#run-0 .progress-text');
    assert.equal(await page.locator('h1, h2').count(), 1, 'one title');
    assert.equal(
      await page.textContent('#run-0 .progress-text'),
      '0 of 12 cells finished so far; running 25G · kernel · 1 thread · repetition 1 (cell 1 of 12)',
    );
    assert.equal(await page.isDisabled('#run-0 button.export-csv'), true, 'nothing to export yet');
    // 10:00 UTC is 11:00 in Paris in January.
    assert.match((await page.textContent('#run-0 .run-meta time.started')) ?? '', /11:00/);
    assert.equal(await page.getAttribute('#run-0 .run-meta time.started', 'datetime'), '2026-01-01T10:00:00.000Z');

    await show(buildViewModel([liveRun(12, true)]), '#r0-g0-throughput-table');
    await page.waitForFunction(
      () => document.querySelector('#run-0 .progress')?.getAttribute('data-finished') === '12',
    );
    const summary = (await page.textContent('#run-0 .progress-text')) ?? '';
    assert.doesNotMatch(summary, /so far/);
    assert.equal(summary, '12 of 12 cells finished; 2 failed; run finished');
    assert.equal(await page.isDisabled('#run-0 button.export-csv'), false);
    assert.match((await page.textContent('.best-box li:first-child')) ?? '', / at 10 threads, /);
    // The verdict opens the run, right under its header: better by its sign and its word, not by colour alone.
    assert.equal(await page.textContent('#run-0 > header.run-header + section.verdict-box h3'), 'Verdict');
    assert.deepEqual(await page.locator('#run-0 .verdict-box li').allTextContents(), [
      '25G (127.0.0.1) · Onload · latency-best vs kernel: ▲ better: throughput +59.5 % (95 % CI +39.5 % to +83.8 %) at 10 threads; 2 marked points left out',
    ]);
    assert.equal(await page.textContent('#run-0 .verdict-box li[data-kind="better"] .cue'), '▲ better');
  },
);

test(
  'numbers: percentiles without ".0", latency in ms from 10,000 µs, tooltips with unit and spread, stack headers apart from units',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    // A profile literally named `latency`, and read latencies 40 times the fixture's (16 ms and up).
    const rename = (text: string) => JSON.parse(text.replace(/latency-best/g, 'latency')) as unknown;
    const results = (rename(JSON.stringify(fixtureResults())) as CellResult[]).map((result) => {
      const read = result.run?.operations.READ;
      if (read?.averageUs !== undefined) read.averageUs *= 40;
      return result;
    });
    const data = runDataFromFiles(
      '/runs/run-fixture',
      rename(JSON.stringify(fixtureManifest())) as RunManifest,
      results,
    );
    await show(buildViewModel([data]), '#r0-g0-read-latency-table');
    const headers = await page.locator('#r0-g0-throughput-table thead th').allTextContents();
    // A profile called `latency` is named as a stack, never as the metric.
    assert.deepEqual(headers, [
      'Threads',
      'kernel',
      'Onload · latency',
      'median (ops/s)',
      'median (ops/s)',
      'vs kernel',
    ]);
    assert.deepEqual(await page.locator('#run-0 fieldset.stack-filter label').allTextContents(), [
      'kernel',
      'Onload · latency',
    ]);
    assert.deepEqual(await page.locator('#r0-g0-read-latency-data thead th').allTextContents(), [
      'Threads',
      'kernel',
      'Onload · latency',
    ]);
    assert.equal(
      await page.getAttribute('#r0-g0-throughput-table th.stack-head[data-stack="latency"]', 'colspan'),
      '2',
    );
    // Read average: kernel at 5 threads is the median of 16,000 and 16,800 µs.
    assert.deepEqual(await page.locator('#r0-g0-read-latency-table thead tr:nth-child(2) th').allTextContents(), [
      'median (ms)',
      'median (ms)',
      'vs kernel',
    ]);
    const kernel5 = '#r0-g0-read-latency-table td.value[data-stack="kernel"][data-threads="5"]';
    assert.equal(await page.textContent(kernel5), '16.4');
    assert.equal(await page.getAttribute(kernel5, 'data-value'), '16400');
    assert.match(
      (await page.getAttribute(kernel5, 'title')) ?? '',
      /^16\.4 ms: median of 2 repetitions, 2 of 2 finished, min–max 16–16\.8 ms, spread 4\.9 %/,
    );
    // p95 stays in µs and reads as whole numbers.
    assert.equal(
      await page.textContent('#r0-g0-read-p95-data td[data-stack="kernel"][data-threads="5"]'),
      '820 (800–840)',
    );
    // One unit for the metric: the chart's heading, its axis and its table say ms like the cookbook table.
    assert.equal(await page.textContent('#chart-r0-g0-read-latency h4'), 'Read average latency (ms)');
    assert.equal(
      await page.getAttribute('#chart-r0-g0-read-latency canvas', 'aria-label'),
      'Read average latency (ms) against YCSB threads for 25G (127.0.0.1); the table view lists every value',
    );
    assert.equal(await page.getAttribute('#chart-r0-g0-read-latency canvas', 'data-y-title'), 'ms');
    assert.equal(
      await page.textContent('#r0-g0-read-latency-data td[data-stack="kernel"][data-threads="5"]'),
      '16.4 (16–16.8)',
    );
    assert.equal(await page.textContent('#chart-r0-g0-read-p95 h4'), 'Read p95 latency (µs)');
    await page.screenshot({ path: join(artifacts, 'panel-ms-latency.png'), fullPage: true });
  },
);

test(
  'exports: PNG at 2x with a light page, SVG with a drawn title and no "undefined"',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    await show(buildViewModel([liveRun(12, true)]), '#chart-r0-g0-throughput');
    const before = (await panel.posted()).length;
    await page.click('#chart-r0-g0-throughput button.save-png');
    await page.click('#chart-r0-g0-throughput button.save-svg');
    const images = (await panel.posted()).slice(before);
    const png = String(images.find((message) => message.format === 'png')?.data);
    const size = pngSize(png);
    const shown = await page.$eval('#chart-r0-g0-throughput canvas', (canvas) => ({
      width: canvas.clientWidth,
      height: canvas.clientHeight,
    }));
    assert.ok(
      size.width >= 2 * shown.width && size.height >= 2 * shown.height,
      `PNG ${size.width}x${size.height} is at least twice the ${shown.width}x${shown.height} on screen`,
    );
    assert.deepEqual(size, { width: 1920, height: 1080 });
    // Corner and centre-top pixels of the PNG: white page (the theme is dark), dark title text somewhere in the top
    // band.
    const pixels = await page.evaluate(async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const corner = [...context.getImageData(1, 1, 1, 1).data];
      const band = context.getImageData(0, 0, image.width, 60).data;
      let dark = 0;
      for (let i = 0; i < band.length; i += 4) if (band[i] < 100 && band[i + 1] < 100 && band[i + 2] < 100) dark++;
      // The last x tick label (20 threads) lies inside the image: dark text near the bottom right, before the edge.
      const right = context.getImageData(image.width - 40, image.height - 120, 40, 120).data;
      let edge = 0;
      for (let i = 0; i < right.length; i += 4) if (right[i] < 100) edge++;
      return { corner, dark, edge };
    }, png);
    assert.deepEqual(pixels.corner, [255, 255, 255, 255]);
    assert.ok(pixels.dark > 200, `the title is drawn in the top band (${pixels.dark} dark pixels)`);
    assert.equal(pixels.edge, 0, 'nothing is drawn in the right margin: the last tick is not clipped');
    const svg = String(images.find((message) => message.format === 'svg')?.data);
    assert.doesNotMatch(svg, /undefined/);
    assert.match(svg, /<rect fill="#ffffff"/);

    // With onloadBench.results.exportBackground = theme the image keeps the theme's dark page.
    const themed = buildViewModel([liveRun(12, true)]);
    themed.exportBackground = 'theme';
    await show(themed, '#chart-r0-g0-throughput');
    const count = (await panel.posted()).length;
    await page.click('#chart-r0-g0-throughput button.save-png');
    const themedPng = String((await panel.posted()).slice(count).find((message) => message.format === 'png')?.data);
    const themedCorner = await page.evaluate(async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      return [...canvas.getContext('2d')!.getImageData(1, 1, 1, 1).data];
    }, themedPng);
    assert.deepEqual(themedCorner, [0x1e, 0x1e, 0x1e, 255]);
    assert.match(svg, /<text[^>]*>Throughput \(ops\/s\)<\/text>/);
    assert.match(svg, /<text[^>]*>kernel<\/text>/, 'the legend is in the image');
  },
);

test(
  'pre-flight: checks appear as they complete; a failure says what failed and the next step, with no run shown',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    const data = emptyRunData('/runs/run-gone');
    applySweepEvent(data, {
      type: 'run-started',
      runDir: data.runDir,
      manifest: { ...fixtureManifest(), runId: 'run-gone' },
      resumed: false,
      alreadyDone: 0,
    });
    applySweepEvent(data, {
      type: 'preflight-check',
      check: { id: 'reachable', host: '127.0.0.1', ok: true, detail: 'OpenSSH answered', blocking: true },
    });
    await show(buildViewModel([data]), '#run-0 section.preflight li[data-check="reachable"]');
    assert.equal(await page.getAttribute('#run-0 section.preflight', 'data-state'), 'running');
    assert.equal(
      await page.textContent('#run-0 section.preflight li[data-check="reachable"]'),
      '✓ Host reachable over SSH (127.0.0.1): OpenSSH answered',
    );
    assert.match((await page.textContent('#run-0 .progress-text')) ?? '', /^Pre-flight checks running \(1 done\)/);
    assert.equal(await page.isVisible('#run-0 .groups .placeholder'), false, 'no "No cells" while checking');

    const failed = {
      id: 'couchbase-version',
      host: '127.0.0.2',
      ok: false,
      detail: 'couchbase-server is not installed',
      action: 'Install Couchbase Server 7.6 on 127.0.0.2.',
      blocking: true,
    };
    applySweepEvent(data, { type: 'preflight', checks: [data.preflight!.checks[0], failed] });
    applySweepEvent(data, {
      type: 'run-finished',
      outcome: {
        runDir: '',
        completed: 0,
        failed: 0,
        total: 0,
        cancelled: false,
        error: {
          code: 'preflight',
          host: '127.0.0.2',
          step: 'preflight',
          message: 'couchbase-version: couchbase-server is not installed',
          action: 'Install Couchbase Server 7.6 on 127.0.0.2.',
        },
      },
    });
    await show(buildViewModel([data]), '#run-0 .failure');
    assert.equal(
      await page.textContent('h1#panel-title'),
      'Onload Bench Results: pre-flight failed, no run was created',
    );
    assert.equal(await page.textContent('#run-0 .failure h3'), 'Pre-flight failed');
    assert.equal(
      await page.textContent('#run-0 .failure .what'),
      '127.0.0.2: couchbase-version: couchbase-server is not installed',
    );
    assert.equal(
      await page.textContent('#run-0 .failure .next-step'),
      'Next step: Install Couchbase Server 7.6 on 127.0.0.2.',
    );
    assert.equal(await page.getAttribute('#run-0 li[data-check="couchbase-version"]', 'data-ok'), 'false');
    assert.equal(
      await page.isVisible('#run-0 header.run-header'),
      false,
      'no run facts or export for a run that does not exist',
    );
    assert.equal(await page.locator('#run-0 table.comparison').count(), 0);
    await page.screenshot({ path: join(artifacts, 'panel-preflight-failed.png') });
  },
);

test(
  'compare: what changed first, only common points, B against A with its interval, A dashed and B solid',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    const a = runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults());
    // B: 10 % more throughput, a newer kernel on the server, no 20-thread point.
    const manifestB = fixtureManifest();
    manifestB.runId = 'run-b';
    manifestB.cells = manifestB.cells.filter((cell) => cell.key.threads !== 20);
    manifestB.environment!.hosts['127.0.0.1'].kernel = '6.8.0';
    const resultsB = fixtureResults()
      .filter((result) => result.key.threads !== 20)
      .map((result) => {
        if (result.run) result.run.throughputOpsPerSec *= 1.1;
        return result;
      });
    const b = runDataFromFiles('/runs/run-b', manifestB, resultsB);
    await show(buildViewModel([a, b]), '#comparison table.differences').catch((error: Error) =>
      assert.fail(`${error.message}; page errors: ${panel.pageErrors.join(' | ')}`),
    );
    assert.equal(await page.textContent('h1#panel-title'), 'Onload Bench Results: run-b against run-fixture');
    assert.equal(await page.isVisible('#runs'), false, 'no side-by-side reports');
    // What changed comes before any result.
    const order = await page.$$eval('#comparison > *', (elements) => elements.map((element) => element.className));
    assert.ok(order.indexOf('differences-box') < order.indexOf('group compare-group'));
    const kernelRow = '#comparison table.differences tr[data-section="environment"][data-name="127.0.0.1 kernel"]';
    assert.equal(await page.textContent(`${kernelRow} td.side-a`), '6.1.0-fixture');
    assert.equal(await page.textContent(`${kernelRow} td.side-b`), '6.8.0');
    // Only 5 and 10 threads: run A's 20-thread point is left out, and said so.
    assert.deepEqual(
      await page.$$eval('#cmp-g0-throughput-table tbody tr', (rows) =>
        rows.map((row) => row.getAttribute('data-threads')),
      ),
      ['5', '10'],
    );
    assert.match((await page.textContent('#comparison details.left-out')) ?? '', /20 threads: only in run A/);
    const delta = '#cmp-g0-throughput-table td.delta[data-stack="kernel"][data-threads="5"]';
    assert.equal(Number(await page.getAttribute(delta, 'data-delta')).toFixed(6), '10.000000');
    assert.match((await page.textContent(delta)) ?? '', /^\+10\.0 % \(±\d+\.\d(, not significant)?\)$/);
    assert.ok(
      Number(await page.getAttribute(delta, 'data-low')) < 10 &&
        Number(await page.getAttribute(delta, 'data-high')) > 10,
    );
    assert.equal(
      Number(
        await page.getAttribute(
          '#cmp-g0-throughput-table td.value[data-side="b"][data-stack="kernel"][data-threads="5"]',
          'data-value',
        ),
      ).toFixed(3),
      '11550.000',
    );
    // One chart, both runs: kernel's colour drawn for A (dashed) and B (solid) on the same axes.
    const legend = await page.$eval('#chart-cmp-g0-throughput canvas', (canvas) => canvas.getAttribute('aria-label'));
    assert.match(legend ?? '', /run B \(solid\) against run A \(dashed\)/);
    const blue = await page.$eval('#chart-cmp-g0-throughput canvas', (canvas) => {
      const c = canvas as HTMLCanvasElement;
      const [left, top, right, bottom] = (c.dataset.plotArea ?? '').split(',').map(Number);
      const data = c.getContext('2d')!.getImageData(left, top, right - left, bottom - top).data;
      let count = 0;
      // The palette's kernel blue #0077BB (engine/src/report/palette.ts).
      for (let i = 0; i < data.length; i += 4)
        if (data[i] === 0x00 && data[i + 1] === 0x77 && data[i + 2] === 0xbb) count++;
      return count;
    });
    assert.ok(blue > 60, `both kernel lines drawn (${blue} pixels)`);
    // Did Onload's gain over the kernel change? B is 10 % faster on both stacks: the gain is the same.
    assert.equal(
      await page.textContent('#cmp-g0-throughput-gain caption'),
      "Throughput: did Onload's gain over the kernel change (B against A)?, 25G (127.0.0.1)",
    );
    assert.deepEqual(await page.locator('#cmp-g0-throughput-gain tr[data-threads="5"] > *').allTextContents(), [
      '5',
      'Onload · latency-best',
      '+47.6 %',
      '+47.6 %',
      '±0.0 points (±35.2, not significant)',
    ]);
    // A value of run B opens run B's cells (runIndex 1).
    const count = (await panel.posted()).length;
    await page.click('#cmp-g0-throughput-table td.value[data-side="b"][data-stack="kernel"][data-threads="10"]');
    assert.deepEqual((await panel.posted()).slice(count), [
      { type: 'open-cell', runIndex: 1, cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'] },
    ]);
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.screenshot({ path: join(artifacts, 'panel-compare.png'), fullPage: true });
    await page.setViewportSize({ width: 1100, height: 1400 });
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.pageErrors, []);
  },
);

test(
  "compare keeps marked points: drawn as crosses in the stack's colour and explained in the legend",
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    const a = runDataFromFiles('/runs/run-fixture', fixtureManifest(), fixtureResults());
    // B: the profile's 10-thread point client-bound in both repetitions (marked), nothing else drawn for it.
    const manifestB = fixtureManifest();
    manifestB.runId = 'run-marked';
    const resultsB = fixtureResults().map((result) =>
      result.key.stack === 'latency-best' && result.key.threads === 10
        ? {
            ...result,
            marks: [{ code: 'client-bound', host: '127.0.0.2', message: 'Client 127.0.0.2 was 95 % busy.' }],
          }
        : result,
    );
    const b = runDataFromFiles('/runs/run-marked', manifestB, resultsB);
    await panel.post({ type: 'model', model: buildViewModel([a, b]) });
    await page.waitForFunction(() => document.querySelector('h1#panel-title')?.textContent?.includes('run-marked'));
    await page.waitForSelector('#chart-cmp-g0-throughput canvas[data-legend]', { state: 'attached' });
    assert.equal(
      await page.getAttribute('#chart-cmp-g0-throughput canvas', 'data-legend'),
      'kernel A | kernel B | Onload · latency-best A | Onload · latency-best B | × every repetition marked',
    );
    // The marked point of B keeps its number in the table, its mark beside it.
    assert.match(
      (await page.textContent(
        '#cmp-g0-throughput-table td.value[data-side="b"][data-stack="latency-best"][data-threads="10"]',
      )) ?? '',
      /^\d{2},\d{3} \(client-bound\)$/,
    );
  },
);

test(
  'drill-down: a table cell (click or Enter) opens its time series, whose header (or Shift) opens its records and logs',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    await show(buildViewModel([liveRun(12, true)]), '#r0-g0-throughput-table');
    const kernel10 = '#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="10"]';
    const since = async (start: number) =>
      (await panel.posted())
        .slice(start)
        .filter((message) => message.type === 'open-cell' || message.type === 'open-timeseries');
    // A click asks for the point's time series (issue 10), not yet for its logs.
    let before = (await panel.posted()).length;
    await page.click(kernel10);
    const [request, ...others] = await since(before);
    assert.deepEqual(others, []);
    assert.equal(request.type, 'open-timeseries');
    assert.deepEqual(
      [request.runIndex, request.stack, request.threads, request.cellIds],
      [0, 'kernel', 10, ['25G-kernel-t10-r1', '25G-kernel-t10-r2']],
    );
    // The host answers (these cells recorded no series): the view's header opens their records and logs, by mouse and
    // by keyboard.
    await panel.post({
      type: 'timeseries',
      view: {
        runIndex: 0,
        title: request.title,
        stack: 'kernel',
        threads: 10,
        cellIds: request.cellIds,
        cells: [],
        missing: ['25G · kernel · 10 threads · repetition 1', '25G · kernel · 10 threads · repetition 2'],
      },
    });
    const logs = '#ts-r0-g0:not([hidden]) button.open-cell-logs';
    await page.waitForSelector(logs);
    before = (await panel.posted()).length;
    await page.click(logs);
    await page.focus(logs);
    await page.keyboard.press('Enter');
    assert.deepEqual(await since(before), [
      { type: 'open-cell', runIndex: 0, cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'] },
      { type: 'open-cell', runIndex: 0, cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'] },
    ]);
    // Shift+click and Shift+Enter on a cell open its records and logs straight away.
    before = (await panel.posted()).length;
    await page.click(kernel10, { modifiers: ['Shift'] });
    await page.focus('#r0-g0-throughput-table td.value[data-stack="latency-best"][data-threads="5"]');
    await page.keyboard.press('Shift+Enter');
    assert.deepEqual(await since(before), [
      { type: 'open-cell', runIndex: 0, cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'] },
      { type: 'open-cell', runIndex: 0, cellIds: ['25G-latency-best-t5-r1', '25G-latency-best-t5-r2'] },
    ]);
    // Enter alone: its time series.
    before = (await panel.posted()).length;
    await page.keyboard.press('Enter');
    assert.deepEqual(
      (await since(before)).map((message) => [message.type, message.stack, message.threads]),
      [['open-timeseries', 'latency-best', 5]],
    );
    assert.match(
      (await page.getAttribute(kernel10, 'title')) ?? '',
      /Click \(or Enter\) for its time series; Shift\+click \(or Shift\+Enter\) to open its records and YCSB logs/,
    );
    // A chart point: click the middle of the throughput chart's plot area, where the 10-thread points are.
    const chartCanvas = page.locator('#chart-r0-g0-throughput canvas');
    await chartCanvas.scrollIntoViewIfNeeded();
    const area = ((await chartCanvas.getAttribute('data-plot-area')) ?? '').split(',').map(Number);
    const start = (await panel.posted()).length;
    await chartCanvas.click({ position: { x: (area[0] + area[2]) / 2, y: (area[1] + area[3]) / 2 } });
    await page.waitForTimeout(100);
    const fromChart = (await since(start)).find((message) => message.type === 'open-timeseries');
    assert.ok(fromChart, "a click on the chart asks for the nearest point's time series");
    assert.equal(fromChart.threads, 10);
    assert.match(String((fromChart.cellIds as string[])[0]), /^25G-(kernel|latency-best)-t10-r1$/);
  },
);

test(
  'keyboard: tables shown only to screen readers are out of the tab order; Escape from a time series returns focus to its cell',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    await show(buildViewModel([liveRun(12, true)]), '#r0-g0-throughput-table');
    // Charts in chart view: their data tables are visually hidden, and nothing in them takes Tab.
    const tabbableHidden = () =>
      page.evaluate(
        () =>
          Array.from(document.querySelectorAll<HTMLElement>('.data-box.visually-hidden *')).filter(
            (element) => element.tabIndex >= 0,
          ).length,
      );
    assert.ok(
      (await page.locator('.data-box.visually-hidden td[data-cells]').count()) > 0,
      'hidden tables hold openable cells',
    );
    const culprits = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.data-box.visually-hidden *'))
        .filter((element) => element.tabIndex >= 0)
        .slice(0, 3)
        .map((element) => `${element.tagName} in ${element.closest('figure')?.id}`),
    );
    assert.equal(await tabbableHidden(), 0, culprits.join(', '));
    // Shown as a table, its cells take Tab again; back to the chart, they leave the order.
    await page.click('#chart-r0-g0-read-latency button.view-toggle');
    assert.equal(
      await page.evaluate(
        () => document.querySelector<HTMLElement>('#chart-r0-g0-read-latency .data-box td[data-cells]')!.tabIndex,
      ),
      0,
    );
    await page.click('#chart-r0-g0-read-latency button.view-toggle');
    assert.equal(await tabbableHidden(), 0);

    // Enter on a cell opens its time series, which takes the focus; Escape closes it and the cell has the focus again.
    const cell = '#r0-g0-throughput-table td.value[data-stack="kernel"][data-threads="5"]';
    await page.focus(cell);
    const before = (await panel.posted()).length;
    await page.keyboard.press('Enter');
    const request = (await panel.posted()).slice(before).find((message) => message.type === 'open-timeseries')!;
    await panel.post({
      type: 'timeseries',
      view: {
        runIndex: 0,
        title: request.title,
        stack: 'kernel',
        threads: 5,
        cellIds: request.cellIds,
        cells: [],
        missing: [],
      },
    });
    await page.waitForSelector('#ts-r0-g0:not([hidden]) button.close-timeseries');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'close-timeseries');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.threads), '5');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.stack), 'kernel');
  },
);

test(
  'keyboard: the first tab stop is a skip link to the tables and charts, a landmark of their own',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    await show(buildViewModel([liveRun(12, true)]), '#r0-g0-throughput-table');
    // The first element of the page that takes Tab.
    const first = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll<HTMLElement>('a[href], button, input, select, [tabindex]')).find(
          (element) => element.tabIndex >= 0 && !element.closest('[hidden]'),
        )?.textContent,
    );
    assert.equal(first, 'Skip to the tables and charts');
    await page.focus('a.skip-link');
    assert.ok(await page.isVisible('a.skip-link'), 'shown while it has the focus');
    await page.keyboard.press('Enter');
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Tables and charts of run run-fixture',
    );
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'region');
    // The next Tab lands inside the results, not back in the header.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('.groups'))), true);
    assert.equal(await page.locator('main#app').count(), 1);
  },
);

test(
  'keyboard: one tab stop per table; the arrow keys, Home and End move between its values',
  { skip, timeout: 60_000 },
  async () => {
    const { page } = panel;
    await show(buildViewModel([liveRun(12, true)]), '#r0-g0-throughput-table');
    const table = '#r0-g0-throughput-table';
    const stopsIn = (selector: string) =>
      page.evaluate(
        (sel) =>
          Array.from(document.querySelectorAll<HTMLElement>(`${sel} *`)).filter((element) => element.tabIndex >= 0)
            .length,
        selector,
      );
    assert.ok(
      (await page.locator(`${table} td[data-cells]`).count()) > 4,
      'the table has several values that open their cells',
    );
    assert.equal(await stopsIn(table), 1, 'one tab stop in the table');
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return `${element?.dataset.stack} ${element?.dataset.threads}`;
      });
    await page.focus(`${table} td[data-cells]`);
    const first = await focused();
    await page.keyboard.press('ArrowRight');
    const right = await focused();
    assert.notEqual(right, first, 'ArrowRight moves to the next value');
    assert.equal(await stopsIn(table), 1, 'the tab stop moved with the focus');
    await page.keyboard.press('ArrowDown');
    const down = await focused();
    assert.notEqual(down.split(' ')[1], right.split(' ')[1], 'ArrowDown moves to the next thread count');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), right, 'ArrowUp comes back');
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    assert.equal(await focused(), first);
    // Tab leaves the table at once.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate((sel) => document.activeElement?.closest(sel) === null, table),
      true,
      'Tab left the table',
    );
    // A redraw keeps the reader's place: the stop is still the value last used.
    await show(buildViewModel([liveRun(12, true)]), table);
    assert.equal(await stopsIn(table), 1);
    assert.equal(
      await page.evaluate((sel) => {
        const stop = Array.from(document.querySelectorAll<HTMLElement>(`${sel} td[data-cells]`)).find(
          (cell) => cell.tabIndex === 0,
        );
        return `${stop?.dataset.stack} ${stop?.dataset.threads}`;
      }, table),
      right,
    );
  },
);
