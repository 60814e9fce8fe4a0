// "Run Couchbase benchmark" from the palette against the loopback lab, as a person would: pick
// the SIMULATED LAB plan, type the password into the input box, watch the results panel fill,
// then check from the webview's DOM and pixels that tables and charts show the values in the
// run's results.jsonl. Screenshots go to test-artifacts/e2e/ (results-panel.png for the README).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openBrowser, type BrowserSession } from '../support/browser';
import { installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { uiContext } from './context';
import { expectVisible, openWorkbench, repoFileMentions, resultsFrame, runCommand, selectors, shot, endStateHooks } from './workbench';

const context = uiContext();
const missing = !repoFileMentions('package.json', 'onloadBench.runBenchmark')
  ? 'package.json does not contribute onloadBench.runBenchmark yet'
  : !context.lab
    ? `no loopback lab: ${context.labMissingReason ?? 'unknown reason'}`
    : undefined;

interface CellLine { id: string; status: string; error?: { step?: string; message?: string }; key: { interface: string; stack: string; threads: number }; run?: { throughputOpsPerSec: number } }

function readCells(resultsFolder: string): CellLine[] {
  if (!existsSync(resultsFolder)) return [];
  const runs = readdirSync(resultsFolder).filter((name) => existsSync(join(resultsFolder, name, 'results.jsonl')));
  if (runs.length !== 1) return [];
  return readFileSync(join(resultsFolder, runs[0], 'results.jsonl'), 'utf8').split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => { try { return [JSON.parse(line) as CellLine]; } catch { return []; } });
}

describe('running a benchmark from the palette', { concurrency: false, skip: missing }, () => {
  let server: CodeServer;
  let session: BrowserSession;

  before(async () => {
    const stateDir = `${context.stateDir}-run`;
    await installVsix(stateDir, context.vsix);
    // The ssh config of the lab, but no password variable: the person types the password.
    server = await startCodeServer(context.workspace, { stateDir, settings: context.lab?.settings });
    session = await openBrowser();
    await openWorkbench(session.page, server.origin, context.workspace);
  });

  endStateHooks(context.artifactsDir, () => ({ session, server }));

  it('runs the simulated lab plan with the password typed into the input box, and the panel fills with the results', { timeout: 300_000 }, async () => {
    const { page } = session;
    const lab = context.lab!;
    await runCommand(page, 'Run Couchbase benchmark', 60_000);
    const planRow = page.locator(selectors.quickInputRows, { hasText: lab.info.planName });
    await expectVisible(planRow, `the plan ${lab.info.planName} in the plan picker`);
    await shot(page, context.artifactsDir, '10-plan-picker');
    await planRow.first().click();

    const passwordBox = page.locator('.quick-input-widget input[type="password"]');
    await expectVisible(passwordBox, 'the password input box');
    await passwordBox.fill(lab.password);
    await shot(page, context.artifactsDir, '11-password-box');
    await page.keyboard.press('Enter');

    const panel = resultsFrame(page, 'Onload Bench Results');
    await expectVisible(panel.locator('section.run'), 'the results panel', 60_000);
    await shot(page, context.artifactsDir, '12-results-panel-filling');

    // Wait (bounded) until every cell is on disk, then until the panel shows the last one.
    const deadline = Date.now() + 240_000;
    let cells = readCells(lab.info.resultsFolder);
    while (cells.length < lab.info.cells) {
      if (Date.now() > deadline) assert.fail(`only ${cells.length} of ${lab.info.cells} cells were written to ${lab.info.resultsFolder} within 240 s`);
      await delay(1000);
      cells = readCells(lab.info.resultsFolder);
    }
    for (const cell of cells) assert.equal(cell.status, 'ok', `cell ${cell.id} failed at ${cell.error?.step}: ${cell.error?.message}`);

    for (const cell of cells) {
      const td = panel.locator(
        `section.group[data-interface="${cell.key.interface}"] td.value[data-metric="throughput"][data-stack="${cell.key.stack}"][data-threads="${cell.key.threads}"]`,
      ).first();
      await expectVisible(td, `the throughput cell for ${cell.id} in the panel`, 30_000);
      await page.waitForTimeout(0);
      const shown = Number(await td.getAttribute('data-value'));
      const expected = cell.run!.throughputOpsPerSec;
      assert.ok(Math.abs(shown - expected) <= Math.abs(expected) * 1e-9, `panel shows ${shown} ops/s for ${cell.id}, results.jsonl has ${expected}`);
      const text = (await td.innerText()).replace(/[\s,\u00a0\u202f]/g, '');
      assert.ok(text.length > 0 && /\d/.test(text), `the cell for ${cell.id} shows no number ("${text}")`);
    }

    // Pixels: the throughput chart's canvas has been drawn on (Chart.js leaves it transparent otherwise).
    const canvas = panel.locator('figure.chart[data-metric="throughput"] canvas, .chart[data-metric="throughput"] canvas').first();
    await expectVisible(canvas, 'the throughput chart');
    const drawn = await canvas.evaluate((element) => {
      const c = element as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { painted, total: c.width * c.height };
    });
    assert.ok(drawn.total > 0 && drawn.painted / drawn.total > 0.005, `the throughput chart is blank (${drawn.painted} of ${drawn.total} pixels painted)`);
    // The README's picture: the panel without the terminal under it.
    await runCommand(page, 'View: Hide Panel', 5_000).catch(() => undefined);
    await runCommand(page, 'Notifications: Clear All Notifications', 5_000).catch(() => undefined);
    await runCommand(page, 'View: Close Primary Side Bar', 5_000).catch(() => undefined);
    await page.setViewportSize({ width: 1400, height: 1150 });
    await page.waitForTimeout(1500);
    await shot(page, context.artifactsDir, 'results-panel');
  });

  it('exports the throughput chart as a PNG at print resolution, then offers Open and Reveal in File Manager', { timeout: 120_000 }, async () => {
    const { page } = session;
    const runDir = onlyRunDir(context.lab!.info.resultsFolder);
    const panel = resultsFrame(page, 'Onload Bench Results');
    const canvas = panel.locator('figure.chart[data-metric="throughput"] canvas').first();
    await expectVisible(canvas, 'the throughput chart');
    const shownWidth = await canvas.evaluate((element) => (element as HTMLCanvasElement).clientWidth);
    await panel.locator('figure.chart[data-metric="throughput"] button.save-png').first().click();
    // The save dialog proposes <run folder>/<run>-<interface>-throughput.png: accept it.
    const dialogInput = page.locator(selectors.quickInput);
    await expectVisible(dialogInput, 'the save dialog');
    assert.match(await dialogInput.inputValue(), /-throughput\.png$/);
    await page.keyboard.press('Enter');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'throughput.png' });
    await expectVisible(toast, 'the notification after the export');
    await expectVisible(toast.locator('a.monaco-button, .monaco-button', { hasText: 'Reveal in File Manager' }), 'the Reveal in File Manager button');
    await expectVisible(toast.locator('a.monaco-button, .monaco-button', { hasText: 'Open' }), 'the Open button');
    await shot(page, context.artifactsDir, '13-export-notification');
    const png = readdirSync(runDir).find((name) => name.endsWith('-throughput.png'));
    assert.ok(png, `the PNG is in ${runDir}`);
    const bytes = readFileSync(join(runDir, png));
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    assert.ok(width >= 2 * shownWidth, `the PNG is ${width} px wide, at least twice the ${shownWidth} px on screen`);
    assert.ok(width >= 1920 && height >= 1080, `print resolution (${width}x${height})`);
    await runCommand(page, 'Notifications: Clear All Notifications', 5_000).catch(() => undefined);
  });

  it('compares the run with a changed copy: what changed first, then run B against run A with its difference', { timeout: 120_000 }, async () => {
    const { page } = session;
    const resultsFolder = context.lab!.info.resultsFolder;
    const runDir = onlyRunDir(resultsFolder);
    // Run B: the same cells with 10 % more throughput and another server kernel, as a second run folder.
    const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as { runId: string; createdAt: string; environment?: { hosts: Record<string, { role: string; kernel?: string }> } };
    const runA = manifest.runId;
    manifest.runId = `${runA}-b`;
    manifest.createdAt = new Date(Date.parse(manifest.createdAt) + 60_000).toISOString();
    const server = Object.entries(manifest.environment?.hosts ?? {}).find(([, host]) => host.role === 'server');
    if (server) server[1].kernel = 'kernel-of-run-b';
    const copy = join(resultsFolder, manifest.runId);
    mkdirSync(copy, { recursive: true });
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const lines = readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => {
      const cell = JSON.parse(line) as { run?: { throughputOpsPerSec: number } };
      if (cell.run) cell.run.throughputOpsPerSec *= 1.1;
      return JSON.stringify(cell);
    });
    writeFileSync(join(copy, 'results.jsonl'), lines.join('\n') + '\n');

    await runCommand(page, 'View: Close All Editors', 5_000).catch(() => undefined);
    await runCommand(page, 'Compare two runs', 30_000);
    // Enter on run A, then Enter on run B, moving with the arrow keys: the picker accepts Enter.
    await expectVisible(page.locator(selectors.quickInputRows, { hasText: manifest.runId }), `run ${manifest.runId} in the picker`);
    const highlight = async (label: string) => {
      const focused = page.locator('.quick-input-widget .monaco-list-row.focused .label-name');
      for (let step = 0; step < 6; step++) {
        if (((await focused.first().textContent().catch(() => '')) ?? '').trim() === label) return;
        await page.keyboard.press('Down');
        await page.waitForTimeout(150);
      }
      assert.fail(`could not highlight ${label} in the run picker`);
    };
    await highlight(runA);
    await page.keyboard.press('Enter');
    await highlight(manifest.runId);
    await page.keyboard.press('Enter');

    const panel = resultsFrame(page, 'Onload Bench Results');
    const differences = panel.locator('#comparison table.differences');
    await expectVisible(differences, 'the compare view with what changed', 30_000);
    assert.equal(await panel.locator('h1#panel-title').textContent(), `Onload Bench Results: ${manifest.runId} against ${runA}`);
    const kernelRow = panel.locator('#comparison table.differences tr[data-section="environment"]', { hasText: 'kernel-of-run-b' });
    await expectVisible(kernelRow, 'the changed kernel among the differences');
    const delta = panel.locator('#comparison table.compare[data-metric="throughput"] td.delta[data-stack="kernel"]').first();
    await expectVisible(delta, 'a B-vs-A throughput difference');
    assert.ok(Math.abs(Number(await delta.getAttribute('data-delta')) - 10) < 1e-6, `B is 10 % above A (${await delta.getAttribute('data-delta')})`);
    assert.match((await delta.innerText()).trim(), /^\+10\.0 % \(/);
    const compareCanvas = panel.locator('figure.compare-chart[data-metric="throughput"] canvas').first();
    await expectVisible(compareCanvas, 'the compare chart');
    assert.match((await compareCanvas.getAttribute('aria-label')) ?? '', /run B \(solid\) against run A \(dashed\)/);
    await shot(page, context.artifactsDir, '14-compare-view');
  });
});

/** The one run folder the palette run wrote (the compare test adds a copy later). */
function onlyRunDir(resultsFolder: string): string {
  const runs = readdirSync(resultsFolder).filter((name) => existsSync(join(resultsFolder, name, 'results.jsonl')) && !name.endsWith('-b'));
  assert.equal(runs.length, 1, `one run folder in ${resultsFolder}: ${runs.join(', ')}`);
  return join(resultsFolder, runs[0]);
}
