// "Run Couchbase benchmark" from the palette against the lab (test/lab), as a person would: pick
// the SIMULATED LAB plan, type the password into the input box, watch the results panel fill,
// then check from the webview's DOM and pixels that tables and charts show the values in the
// run's results.jsonl, including what the cells' evidence adds (CPU charts, the latency spectrum,
// the marks legend, a time series opened from a table cell), then exports a chart at print
// resolution and compares the run with a changed copy. Screenshots go to test-artifacts/e2e/
// (results-panel.png for the README).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openBrowser, type BrowserSession } from '../support/browser';
import { installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { changedRunCopy } from '../support/runCopies';
import { uiContext } from './context';
import { openAtStartVariable } from '../../../client/src/openAtStartPaths';
import {
  expectVisible,
  openWorkbench,
  pickFromCommand,
  repoFileMentions,
  resultsFrame,
  runCommand,
  selectors,
  shot,
  endStateHooks,
} from './workbench';

const context = uiContext();
const missing = !repoFileMentions('package.json', 'onloadBench.runBenchmark')
  ? 'package.json does not contribute onloadBench.runBenchmark yet'
  : !context.lab
    ? `no lab: ${context.labMissingReason ?? 'unknown reason'}`
    : undefined;

interface CellLine {
  id: string;
  status: string;
  error?: { step?: string; message?: string };
  key: { interface: string; stack: string; threads: number; repetition: number; axes?: Record<string, unknown> };
  run?: { throughputOpsPerSec: number; operations?: Record<string, { percentilesSource?: string }> };
  marks?: { code: string }[];
  accelerated?: boolean | null;
  evidence?: {
    cpu?: { hosts?: Record<string, { role: string; busyPct: number }> };
    timeseries?: { status?: Record<string, unknown[]>; hdr?: unknown };
  };
}

/**
 * The panel's server CPU figure of a point: the median over its unmarked repetitions (all of them when every one is
 * marked).
 */
function serverBusyMedian(cells: CellLine[], cell: CellLine): { value: number; marked: boolean } | undefined {
  const same = cells.filter(
    (other) =>
      other.status === 'ok' &&
      other.key.interface === cell.key.interface &&
      other.key.stack === cell.key.stack &&
      other.key.threads === cell.key.threads &&
      JSON.stringify(other.key.axes ?? {}) === JSON.stringify(cell.key.axes ?? {}),
  );
  const busy = (line: CellLine) => {
    const servers = Object.values(line.evidence?.cpu?.hosts ?? {}).filter((host) => host.role === 'server');
    return servers.length === 0 ? undefined : servers.reduce((sum, host) => sum + host.busyPct, 0) / servers.length;
  };
  const isMarked = (line: CellLine) => (line.marks?.length ?? 0) > 0 || line.accelerated === false;
  const clean = same.filter((line) => !isMarked(line) && busy(line) !== undefined);
  const counted = (clean.length > 0 ? clean : same.filter((line) => busy(line) !== undefined))
    .map((line) => busy(line)!)
    .sort((a, b) => a - b);
  if (counted.length === 0) return undefined;
  const middle = Math.floor(counted.length / 2);
  return {
    value: counted.length % 2 === 1 ? counted[middle] : (counted[middle - 1] + counted[middle]) / 2,
    marked: clean.length === 0,
  };
}

function readCells(resultsFolder: string): CellLine[] {
  if (!existsSync(resultsFolder)) return [];
  const runs = readdirSync(resultsFolder).filter((name) => existsSync(join(resultsFolder, name, 'results.jsonl')));
  if (runs.length !== 1) return [];
  return readFileSync(join(resultsFolder, runs[0], 'results.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as CellLine];
      } catch {
        return [];
      }
    });
}

const unreachableHost = '127.0.0.9';
const unreachablePlanName = 'UNREACHABLE-SERVER';
const unreachablePlanFile = `${unreachablePlanName}.benchplan.json`;

describe('running a benchmark from the palette', { concurrency: false, skip: missing }, () => {
  let server: CodeServer;
  let session: BrowserSession;

  before(async () => {
    // A plan whose server nobody answers for (127.0.0.9:22 refuses): pre-flight must stop it.
    const labPlan = JSON.parse(readFileSync(join(context.workspace, context.lab!.info.plan), 'utf8'));
    writeFileSync(
      join(context.workspace, 'lab', unreachablePlanFile),
      JSON.stringify(
        {
          ...labPlan,
          name: unreachablePlanName,
          servers: labPlan.servers.map((server: Record<string, unknown>) => ({ ...server, host: unreachableHost })),
        },
        null,
        2,
      ) + '\n',
    );
    const stateDir = `${context.stateDir}-run`;
    await installVsix(stateDir, context.vsix);
    // The ssh config of the lab, but no password variable: the person types the password.
    // As npm start: the Welcome page at start-up, so the walkthrough follows what the person does,
    // and the simulated lab's plan opened beside it by the extension.
    server = await startCodeServer(context.workspace, {
      stateDir,
      settings: { ...context.lab?.settings, 'workbench.startupEditor': 'welcomePage' },
      env: { [openAtStartVariable]: context.lab!.info.plan },
    });
    session = await openBrowser();
    await openWorkbench(session.page, server.origin, context.workspace);
  });

  endStateHooks(context.artifactsDir, () => ({ session, server }));

  it(
    'starts as npm start does: the walkthrough on the Welcome page, and the simulated lab plan open beside it',
    { timeout: 60_000 },
    async () => {
      const { page } = session;
      const lab = context.lab!;
      const planFile = lab.info.plan.split('/').pop()!;
      await expectVisible(page.locator('.tab', { hasText: 'Welcome' }), 'the Welcome tab', 30_000);
      // the Welcome page turned to our walkthrough: its steps, the first one unticked yet
      const welcome = page.locator('.editor-group-container').first().locator('.gettingStartedContainer');
      await expectVisible(
        welcome
          .locator('.getting-started-category h2, .category-title', {
            hasText: 'Benchmark Couchbase with and without Onload',
          })
          .first(),
        "our walkthrough's title in the Welcome editor",
        30_000,
      );
      await expectVisible(
        welcome
          .locator(
            'button.getting-started-step[data-step-id$="#runPlan"], button.getting-started-step[data-step-id="runPlan"]',
          )
          .first(),
        "the walkthrough's Run step",
        30_000,
      );
      // "Open the examples" is done: this folder has profiles and plans
      await expectVisible(
        welcome.locator('button.getting-started-step[data-step-id$="#openExamples"][aria-checked="true"]'),
        'the step "Open the examples" ticked',
        15_000,
      );
      const planTab = page.locator('.tab', { hasText: planFile });
      await expectVisible(planTab, `the plan ${planFile} in a tab`, 30_000);
      await expectVisible(
        page.locator(`${selectors.editorLines} .view-line`, { hasText: 'SIMULATED LAB' }),
        "the plan's text in an editor",
      );
      // Beside, not instead: two editor groups, the Welcome page still showing in the first.
      assert.equal(
        await page.locator('.editor-group-container').count(),
        2,
        'the plan did not open in a second group beside the Welcome page',
      );
      assert.ok(await welcome.isVisible(), 'the Welcome page is not showing in the first group');
      await shot(page, context.artifactsDir, '05-start-welcome-and-plan');
    },
  );

  it(
    'runs the simulated lab plan with the password typed into the input box, and the panel fills with the results',
    { timeout: 300_000 },
    async () => {
      const { page } = session;
      const lab = context.lab!;
      await pickFromCommand(
        page,
        'Run Couchbase benchmark',
        lab.info.planName,
        `the plan ${lab.info.planName} in the plan picker`,
        () => shot(page, context.artifactsDir, '10-plan-picker'),
      );

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
        if (Date.now() > deadline)
          assert.fail(
            `only ${cells.length} of ${lab.info.cells} cells were written to ${lab.info.resultsFolder} within 240 s`,
          );
        await delay(1000);
        cells = readCells(lab.info.resultsFolder);
      }
      for (const cell of cells)
        assert.equal(cell.status, 'ok', `cell ${cell.id} failed at ${cell.error?.step}: ${cell.error?.message}`);

      for (const cell of cells) {
        const td = panel
          .locator(
            `section.group[data-interface="${cell.key.interface}"] td.value[data-metric="throughput"][data-stack="${cell.key.stack}"][data-threads="${cell.key.threads}"]`,
          )
          .first();
        await expectVisible(td, `the throughput cell for ${cell.id} in the panel`, 30_000);
        const shown = Number(await td.getAttribute('data-value'));
        const expected = cell.run!.throughputOpsPerSec;
        assert.ok(
          Math.abs(shown - expected) <= Math.abs(expected) * 1e-9,
          `panel shows ${shown} ops/s for ${cell.id}, results.jsonl has ${expected}`,
        );
        const text = (await td.innerText()).replace(/[\s,\u00a0\u202f]/g, '');
        assert.ok(text.length > 0 && /\d/.test(text), `the cell for ${cell.id} shows no number ("${text}")`);
      }

      // Pixels: the throughput chart's canvas has been drawn on (Chart.js leaves it transparent otherwise).
      const canvas = panel
        .locator('figure.chart[data-metric="throughput"] canvas, .chart[data-metric="throughput"] canvas')
        .first();
      await expectVisible(canvas, 'the throughput chart');
      const drawn = await canvas.evaluate((element) => {
        const c = element as HTMLCanvasElement;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
        return { painted, total: c.width * c.height };
      });
      assert.ok(
        drawn.total > 0 && drawn.painted / drawn.total > 0.005,
        `the throughput chart is blank (${drawn.painted} of ${drawn.total} pixels painted)`,
      );

      // Issue 10, from the run's own records: CPU charts, the latency spectrum, upper-bound labels,
      // the marks legend, the time-series view of a clicked table cell, Export report.
      await expectVisible(panel.locator('section.run button.export-report').first(), 'the Export report button');
      const withCpu = cells.filter((cell) =>
        Object.values(cell.evidence?.cpu?.hosts ?? {}).some((host) => host.role === 'server'),
      );
      if (withCpu.length > 0) {
        const cpuCanvas = panel.locator('.cpu-box figure.chart[data-metric="server-cpu"] canvas').first();
        await expectVisible(cpuCanvas, 'the server CPU chart');
        const painted = await cpuCanvas.evaluate((element) => {
          const c = element as HTMLCanvasElement;
          const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          let count = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count++;
          return count / (c.width * c.height);
        });
        assert.ok(painted > 0.005, `the server CPU chart is blank (${painted})`);
        const sample = withCpu[0];
        const expected = serverBusyMedian(cells, sample);
        if (expected && !expected.marked) {
          const td = panel
            .locator(
              `section.group[data-interface="${sample.key.interface}"] .cpu-box table.chart-data[data-metric="server-cpu"] td[data-stack="${sample.key.stack}"][data-threads="${sample.key.threads}"]`,
            )
            .first();
          const shown = Number(await td.getAttribute('data-median'));
          assert.ok(
            Math.abs(shown - expected.value) <= 1e-9 * Math.max(1, Math.abs(expected.value)),
            `the panel shows ${shown} % server CPU for ${sample.id}, results.jsonl gives ${expected.value}`,
          );
        }
      }
      const okCells = cells.filter((cell) => cell.status === 'ok');
      if (
        okCells.some((cell) => cell.evidence?.timeseries?.hdr || Object.keys(cell.run?.operations ?? {}).length > 0)
      ) {
        await expectVisible(
          panel.locator('.spectrum-box figure.spectrum canvas').first(),
          'the latency spectrum chart',
        );
        const stacks = new Set(okCells.map((cell) => cell.key.stack));
        const columns = await panel
          .locator('.spectrum-box table.spectrum-data')
          .first()
          .locator('th[data-source]')
          .count();
        assert.ok(columns >= Math.min(2, stacks.size), `the spectrum overlays ${columns} stacks of ${stacks.size}`);
      }
      if (
        okCells.some((cell) =>
          Object.values(cell.run?.operations ?? {}).some((operation) => operation.percentilesSource === 'client-max'),
        )
      ) {
        await expectVisible(
          panel.locator('p.chart-note', { hasText: 'upper bound (max of clients)' }).first(),
          'the upper-bound label of client-max percentiles',
        );
      }
      for (const code of new Set(
        okCells.flatMap((cell) => [
          ...(cell.marks ?? []).map((mark) => mark.code),
          ...(cell.accelerated === false ? ['not-accelerated'] : []),
        ]),
      )) {
        await expectVisible(
          panel.locator(`section.marks-legend dt[data-mark="${code}"]`).first(),
          `the legend entry of the mark ${code}`,
        );
      }
      const timed = okCells.find((cell) => Object.keys(cell.evidence?.timeseries?.status ?? {}).length > 0);
      if (timed) {
        const group = panel.locator(`section.group[data-interface="${timed.key.interface}"]`).first();
        await group
          .locator(
            `td.value[data-metric="throughput"][data-stack="${timed.key.stack}"][data-threads="${timed.key.threads}"]`,
          )
          .first()
          .click();
        const box = group.locator('.timeseries-box:not([hidden])');
        await expectVisible(
          box.locator('figure[data-kind="throughput"] canvas'),
          `the time series of ${timed.id}`,
          15_000,
        );
        const title = (await box.locator('.timeseries-title').innerText()).trim();
        // The stack is named as a stack (`kernel`, `Onload · latency`), the threads in the singular for 1.
        const stackShown = timed.key.stack === 'kernel' ? 'kernel' : `Onload · ${timed.key.stack}`;
        assert.ok(
          title.startsWith('Over time: ') &&
            title.endsWith(`${stackShown}, ${timed.key.threads} thread${timed.key.threads === 1 ? '' : 's'}`),
          title,
        );
        // Issue 13's drill-down from here: the point's records and YCSB logs.
        await expectVisible(box.locator('button.open-cell-logs'), "the time series' Open records and logs button");
        await shot(page, context.artifactsDir, '13-results-time-series');
        await box.locator('button.close-timeseries').click();
        assert.equal(await group.locator('.timeseries-box:not([hidden])').count(), 0, 'Close hides the time series');
      }
      // The README's picture: the panel without the terminal under it.
      await runCommand(page, 'View: Hide Panel', 5_000).catch(() => undefined);
      await runCommand(page, 'Notifications: Clear All Notifications', 5_000).catch(() => undefined);
      await runCommand(page, 'View: Close Primary Side Bar', 5_000).catch(() => undefined);
      await page.setViewportSize({ width: 1400, height: 1150 });
      // States, not times: the workbench laid out at the new size, no notification toast left.
      await page.waitForFunction(
        () => document.querySelector('.monaco-workbench')?.getBoundingClientRect().width === 1400,
        undefined,
        { timeout: 10_000 },
      );
      await page
        .locator('.notifications-toasts .notification-toast')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
      await expectVisible(canvas, 'the throughput chart after the resize');
      // the panel alone (the walkthrough shares the window since start-up), from its top
      await runCommand(page, 'View: Toggle Maximize Editor Group', 5_000);
      await page.locator('.gettingStartedContainer').first().waitFor({ state: 'hidden', timeout: 10_000 });
      await panel
        .locator('section.run')
        .first()
        .evaluate(() => window.scrollTo(0, 0));
      await page.waitForFunction(
        () => document.querySelector('.monaco-workbench')?.getBoundingClientRect().width === 1400,
        undefined,
        { timeout: 10_000 },
      );
      await shot(page, context.artifactsDir, 'results-panel');
      await runCommand(page, 'View: Toggle Maximize Editor Group', 5_000);
    },
  );

  it(
    'exports the throughput chart as a PNG at print resolution, then offers Open and Reveal in File Manager',
    { timeout: 120_000 },
    async () => {
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
      // The dialog shows the folder first and then completes the proposed name: wait for that state.
      await page
        .waitForFunction(
          () =>
            /-throughput\.png$/.test(
              (document.querySelector('.quick-input-widget .quick-input-box input') as HTMLInputElement | null)
                ?.value ?? '',
            ),
          undefined,
          { timeout: 15_000 },
        )
        .catch(async () =>
          assert.fail(
            `the save dialog proposes ${await dialogInput.inputValue()}, not <run>-<interface>-throughput.png`,
          ),
        );
      await page.keyboard.press('Enter');
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'throughput.png' });
      await expectVisible(toast, 'the notification after the export');
      await expectVisible(
        toast.locator('a.monaco-button, .monaco-button', { hasText: 'Reveal in File Manager' }),
        'the Reveal in File Manager button',
      );
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
    },
  );

  it(
    'a run that fails pre-flight shows what failed and its next steps as buttons, and leaves no run folder',
    { timeout: 120_000 },
    async () => {
      const { page } = session;
      const lab = context.lab!;
      const foldersBefore = existsSync(lab.info.resultsFolder) ? readdirSync(lab.info.resultsFolder).sort() : [];
      await pickFromCommand(
        page,
        'Run Couchbase benchmark',
        unreachablePlanName,
        `the plan ${unreachablePlanName} in the plan picker`,
      );
      const passwordBox = page.locator('.quick-input-widget input[type="password"]');
      await expectVisible(passwordBox, 'the password input box (another cluster)');
      await passwordBox.fill('not-used');
      await page.keyboard.press('Enter');

      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'did not start' });
      await expectVisible(toast, 'the pre-flight failure notification', 90_000);
      const message = (await toast.first().locator('.notification-list-item-message').innerText()).replace(/\s+/g, ' ');
      assert.match(
        message,
        new RegExp(
          `${unreachablePlanFile.replace(/\./g, '\\.')} did not start: pre-flight failed on ${unreachableHost.replace(/\./g, '\\.')}`,
        ),
      );
      assert.match(message, /Next: /);
      assert.doesNotMatch(message, /resume the run/i, 'a run that never started has nothing to resume');
      const buttons = await toast
        .first()
        .locator('.notification-list-item-buttons-container .monaco-button')
        .allInnerTexts();
      assert.deepEqual(
        buttons.map((text) => text.trim()),
        ['Open plan at the host', 'Retry', 'Show log'],
      );
      await shot(page, context.artifactsDir, '20-preflight-failure-notice');
      const foldersAfter = existsSync(lab.info.resultsFolder) ? readdirSync(lab.info.resultsFolder).sort() : [];
      assert.deepEqual(foldersAfter, foldersBefore, 'the failed run left no run folder behind');

      await toast.first().locator('.monaco-button', { hasText: 'Open plan at the host' }).click();
      const hostLine = page.locator(`${selectors.editorLines} .view-line`, { hasText: unreachableHost });
      await expectVisible(hostLine, `the plan's host ${unreachableHost} in the editor`);
      await expectVisible(page.locator('.editor-instance .monaco-editor .selected-text'), 'the selected host value');
      await expectVisible(
        page.locator('.tab.active', { hasText: unreachablePlanFile }),
        'the plan as the active editor tab',
      );
      await shot(page, context.artifactsDir, '21-plan-at-the-host');
    },
  );

  it(
    'the walkthrough has ticked the steps the person did: password, run, results; each step has its picture',
    { timeout: 60_000 },
    async () => {
      const { page } = session;
      await runCommand(page, 'Welcome: Open Walkthrough...', 15_000);
      const row = page.locator(selectors.quickInputRows, { hasText: 'Benchmark Couchbase with and without Onload' });
      await expectVisible(row, 'our walkthrough in the walkthrough picker');
      await row.first().click();
      const step = (id: string) =>
        page
          .locator(
            `button.getting-started-step[data-step-id$="#${id}"], button.getting-started-step[data-step-id="${id}"]`,
          )
          .first();
      await expectVisible(step('runPlan'), 'the walkthrough steps', 30_000);
      for (const id of ['openExamples', 'setPassword', 'runPlan', 'readResults']) {
        assert.equal(await step(id).getAttribute('aria-checked'), 'true', `walkthrough step ${id} is not ticked`);
      }
      await step('runPlan').click();
      // The step's Markdown is rendered in a webview: wait (bounded) until a frame shows its picture.
      const alt = 'img[alt="Plan, pre-flight, sweep, results"]';
      const deadline = Date.now() + 20_000;
      let shown = false;
      while (!shown) {
        for (const frame of page.frames())
          if (
            (await frame
              .locator(alt)
              .count()
              .catch(() => 0)) > 0
          )
            shown = true;
        if (!shown && Date.now() > deadline) assert.fail("the run step's picture did not appear within 20 s");
        if (!shown) await page.waitForEvent('framenavigated', { timeout: 2_000 }).catch(() => undefined);
      }
      await shot(page, context.artifactsDir, '30-walkthrough-ticked');
    },
  );

  it(
    'compares the run with a changed copy: what changed first, then run B against run A with its difference',
    { timeout: 120_000 },
    async () => {
      const { page } = session;
      const resultsFolder = context.lab!.info.resultsFolder;
      const runDir = onlyRunDir(resultsFolder);
      // Run B: the same cells with 10 % more throughput and another server kernel, as a second run folder.
      const runA = basename(runDir);
      const runB = changedRunCopy(runDir, resultsFolder, {
        tweak: (manifest) => {
          const server = Object.entries(manifest.environment?.hosts ?? {}).find(([, host]) => host.role === 'server');
          if (server) server[1].kernel = 'kernel-of-run-b';
        },
      });

      await runCommand(page, 'View: Close All Editors', 5_000).catch(() => undefined);
      await runCommand(page, 'Compare two runs', 30_000);
      // The baseline (run A) in a first pick, then the candidate (run B) in a second, moving with the arrow keys.
      await expectVisible(page.locator(selectors.quickInputRows, { hasText: runB }), `run ${runB} in the picker`);
      const highlight = async (label: string) => {
        const focused = page.locator('.quick-input-widget .monaco-list-row.focused .label-name');
        for (let step = 0; step < 6; step++) {
          const current = (
            (await focused
              .first()
              .textContent()
              .catch(() => '')) ?? ''
          ).trim();
          if (current === label) return;
          await page.keyboard.press('ArrowDown');
          // a state, not a time: the highlight has moved on
          await page
            .waitForFunction(
              (previous) =>
                (
                  document.querySelector('.quick-input-widget .monaco-list-row.focused .label-name')?.textContent ?? ''
                ).trim() !== previous,
              current,
              { timeout: 5_000 },
            )
            .catch(() => undefined);
        }
        assert.fail(`could not highlight ${label} in the run picker`);
      };
      await highlight(runA);
      await page.keyboard.press('Enter');
      await expectVisible(
        page.locator('.quick-input-widget', { hasText: `the candidate, compared against ${runA}` }),
        'the candidate picker, naming the baseline',
      );
      await highlight(runB);
      await page.keyboard.press('Enter');

      const panel = resultsFrame(page, 'Onload Bench Results');
      const differences = panel.locator('#comparison table.differences');
      await expectVisible(differences, 'the compare view with what changed', 30_000);
      assert.equal(
        await panel.locator('h1#panel-title').textContent(),
        `Onload Bench Results: ${runB} against ${runA}`,
      );
      const kernelRow = panel.locator('#comparison table.differences tr[data-section="environment"]', {
        hasText: 'kernel-of-run-b',
      });
      await expectVisible(kernelRow, 'the changed kernel among the differences');
      const delta = panel
        .locator('#comparison table.compare[data-metric="throughput"] td.delta[data-stack="kernel"]')
        .first();
      await expectVisible(delta, 'a B-vs-A throughput difference');
      assert.ok(
        Math.abs(Number(await delta.getAttribute('data-delta')) - 10) < 1e-6,
        `B is 10 % above A (${await delta.getAttribute('data-delta')})`,
      );
      assert.match((await delta.innerText()).trim(), /^\+10\.0 % \(/);
      const compareCanvas = panel.locator('figure.compare-chart[data-metric="throughput"] canvas').first();
      await expectVisible(compareCanvas, 'the compare chart');
      assert.match((await compareCanvas.getAttribute('aria-label')) ?? '', /run B \(solid\) against run A \(dashed\)/);
      await shot(page, context.artifactsDir, '14-compare-view');
    },
  );
});

/** The one run folder the palette run wrote (the compare test adds a copy later). */
function onlyRunDir(resultsFolder: string): string {
  const runs = readdirSync(resultsFolder).filter(
    (name) => existsSync(join(resultsFolder, name, 'results.jsonl')) && !name.endsWith('-b'),
  );
  assert.equal(runs.length, 1, `one run folder in ${resultsFolder}: ${runs.join(', ')}`);
  return join(resultsFolder, runs[0]);
}
