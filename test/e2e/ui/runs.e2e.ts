// The Runs view in the side bar (issue 25 item 12), used as a person would with the lab (test/lab):
// a run started from the view's title bar shows up with its state and verdict; a click opens its
// results, whose verdict, units, palette contrast (light and dark themes) and keyboard path to a time series and back
// are checked in the real editor; its context menu compares it (as the baseline) with a changed copy, resumes it once
// cells are missing, deletes the copy after a confirmation; a failed pre-flight goes into its own
// group. Run folders other suites left in the results folder are set aside by name.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type BrowserSession } from '../support/browser';
import { installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { passwordEnvVar } from '../support/simulatedLab';
import { contrastRatio, seriesPalette } from '../../../engine/src/report/palette';
import { changedRunCopy } from '../support/runCopies';
import { uiContext } from './context';
import {
  endStateHooks,
  expectVisible,
  openWorkbench,
  pickFromCommand,
  repoFileMentions,
  resultsFrame,
  runCommand,
  selectors,
  shot,
} from './workbench';

const context = uiContext();
const missing = !repoFileMentions('package.json', 'onloadBench.runs')
  ? 'package.json does not contribute the Runs view yet'
  : !context.lab
    ? `no lab: ${context.labMissingReason ?? 'unknown reason'}`
    : undefined;

const unreachablePlanName = 'RUNS-VIEW-UNREACHABLE';

function runsPane(page: Page): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header[aria-label^="Runs"]') });
}

/** The whole label, never a prefix: run B's folder is run A's name with `-b` after it. */
function exactly(label: string): RegExp {
  return new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** The view's row of a run folder (or a group), by its label. */
function row(page: Page, label: string): Locator {
  return runsPane(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: exactly(label) }) });
}

/**
 * Runs `item` from `target`'s context menu: a right-click opens the menu, then the keyboard chooses
 * the item (arrow keys until it has the focus, Enter), as a keyboard user does. No mouse click on
 * the item: VS Code's menu item listens for its mouse-up only 100 ms after the menu is drawn
 * (base/browser/ui/menu/menu.ts, `runOnceToEnableMouseUp`, there against the right-click's own
 * mouse-up), and ignores the click event. Playwright's click, ready as soon as the item is visible
 * and stable, often comes sooner: measured in code-server 4.139.1 on this view, 6 of 10 such clicks
 * had their mouse-up 58-96 ms after the menu appeared and were dropped (the menu stayed open), the
 * other 4 came after 146-253 ms and were taken; plain mouse clicks 200 ms after it were all taken.
 * A dropped click left the menu open and it blocked every later click (two full e2e runs of three;
 * a race against the machine's speed, not something the earlier suites left). Enter has no delay.
 */
async function contextMenu(page: Page, target: Locator, item: string): Promise<void> {
  await target.first().click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  await expectVisible(menu.locator('.action-item', { hasText: item }), `"${item}" in the context menu`);
  const focusedLabel = () =>
    page.evaluate(() =>
      (
        document.querySelector('.context-view .monaco-menu .action-item.focused .action-label')?.textContent ?? ''
      ).trim(),
    );
  const seen: string[] = [];
  for (let current = await focusedLabel(); current !== item; current = await focusedLabel()) {
    seen.push(current || '(none)');
    if (seen.length > 12)
      throw new Error(`"${item}" never took the focus in the context menu (focus went ${seen.join(' → ')})`);
    await page.keyboard.press('ArrowDown');
    // a state, not a time: the focus has moved on
    await page
      .waitForFunction(
        (previous) =>
          (
            document.querySelector('.context-view .monaco-menu .action-item.focused .action-label')?.textContent ?? ''
          ).trim() !== previous,
        current,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
  }
  await page.keyboard.press('Enter');
  await menu
    .first()
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => {
      throw new Error(`Enter on "${item}" left the context menu open`);
    });
}

/** Run folders in the results folder, but those other suites left there before this one started. */
let earlierFolders = new Set<string>();
function runFolders(resultsFolder: string): string[] {
  const all = existsSync(resultsFolder)
    ? readdirSync(resultsFolder).filter((name) => existsSync(join(resultsFolder, name, 'manifest.json')))
    : [];
  return all.filter((name) => !earlierFolders.has(name)).sort();
}

describe('the Runs view', { concurrency: false, skip: missing }, () => {
  let server: CodeServer;
  let session: BrowserSession;
  let resultsFolder: string;
  let runA: string;
  const runB = () => `${runA}-b`;

  before(async () => {
    resultsFolder = context.lab!.info.resultsFolder;
    earlierFolders = new Set(runFolders(resultsFolder));
    const labPlan = JSON.parse(readFileSync(join(context.workspace, context.lab!.info.plan), 'utf8'));
    writeFileSync(
      join(context.workspace, 'lab', `${unreachablePlanName}.benchplan.json`),
      JSON.stringify(
        {
          ...labPlan,
          name: unreachablePlanName,
          servers: labPlan.servers.map((entry: Record<string, unknown>) => ({ ...entry, host: '127.0.0.9' })),
        },
        null,
        2,
      ) + '\n',
    );
    const stateDir = `${context.stateDir}-runs-view`;
    await installVsix(stateDir, context.vsix);
    server = await startCodeServer(context.workspace, {
      stateDir,
      settings: {
        ...context.lab?.settings,
        'onloadBench.couchbase.passwordEnvVar': passwordEnvVar,
        'onloadBench.offerResumeOnStartup': false,
        'workbench.preferredDarkColorTheme': 'Dark Modern',
        'workbench.preferredLightColorTheme': 'Light Modern',
      },
      env: { [passwordEnvVar]: context.lab!.password },
    });
    session = await openBrowser();
    await openWorkbench(session.page, server.origin, context.workspace);
  });

  endStateHooks(context.artifactsDir, () => ({ session, server }));

  it(
    'starts a run from its title bar; the run shows up running, then complete with its verdict',
    { timeout: 300_000 },
    async () => {
      const { page } = session;
      await runCommand(page, 'Onload Bench: Focus on Runs View', 60_000);
      if (earlierFolders.size === 0)
        await expectVisible(
          runsPane(page).locator('.welcome-view', { hasText: 'No runs in the results folder yet' }),
          'the empty Runs view saying how to start',
          30_000,
        );
      // the view's title bar (the side bar's, while the view is the only one in its container)
      await page.locator('.part.sidebar .title-actions .action-label[aria-label^="Run Couchbase benchmark"]').click();
      const planRow = page.locator(selectors.quickInputRows, { hasText: context.lab!.info.planName });
      await expectVisible(planRow, `the plan ${context.lab!.info.planName} in the plan picker`);
      await planRow.first().click();

      await expectVisible(
        runsPane(page).locator('.monaco-list-row .label-description', { hasText: /^running · / }),
        'the new run listed as running',
        60_000,
      );
      const folders = runFolders(resultsFolder);
      assert.equal(folders.length, 1, `one run folder in ${resultsFolder}: ${folders.join(', ')}`);
      runA = folders[0]!;
      const cells = context.lab!.info.cells;
      await expectVisible(
        row(page, runA).locator('.label-description', { hasText: `complete · ${cells}/${cells} cells` }),
        `${runA} listed as complete`,
        240_000,
      );
      // its verdict lines below it, as the panel opens with them
      await expectVisible(
        runsPane(page).locator('.monaco-list-row .label-name', { hasText: /Onload · latency/ }),
        "the run's verdict line under it",
        30_000,
      );
      await shot(page, context.artifactsDir, '40-runs-view-complete');
    },
  );

  it('a click on the run opens its results, and a second click reuses that tab', { timeout: 120_000 }, async () => {
    const { page } = session;
    await runCommand(page, 'View: Close All Editors', 5_000).catch(() => undefined);
    await row(page, runA).first().click();
    const panel = resultsFrame(page, 'Onload Bench Results');
    await expectVisible(panel.locator('h1#panel-title', { hasText: runA }), `the results panel of ${runA}`, 30_000);
    await expectVisible(
      panel.locator('.verdict li, #verdict li', { hasText: /Onload · latency/ }).first(),
      "the panel's verdict line",
    );

    // One unit per metric: the heading says the unit the y axis is titled with.
    const latencyFigure = panel.locator('figure.chart[data-metric="read-latency"]').first();
    await expectVisible(latencyFigure.locator('canvas[data-y-title]'), 'the read latency chart, drawn');
    const axis = await latencyFigure.locator('canvas').getAttribute('data-y-title');
    assert.match(axis ?? '', /^(µs|ms)$/);
    assert.equal(await latencyFigure.locator('figcaption h4').textContent(), `Read average latency (${axis})`);

    // The colours the panel draws its series in (its stack filter's swatches) against the editor
    // background each theme gives the webview: at least 3:1 (WCAG 1.4.11), in a light and a dark theme.
    const background = () =>
      panel
        .locator('body')
        .evaluate(() =>
          getComputedStyle(document.documentElement)
            .getPropertyValue('--vscode-editor-background')
            .trim()
            .toLowerCase(),
        );
    const checkPalette = async (themeName: string) => {
      const shown = await background();
      assert.match(shown, /^#[0-9a-f]{6}$/i, `${themeName}: the editor background (${shown})`);
      const colours = await panel
        .locator('fieldset.stack-filter .swatch')
        .evaluateAll((swatches) => swatches.map((swatch) => getComputedStyle(swatch).backgroundColor));
      assert.ok(colours.length >= 2, `the stack filter shows ${colours.length} swatches`);
      for (const rgb of colours) {
        const parts = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(rgb);
        assert.ok(parts, `${themeName}: a solid series colour (${rgb})`);
        const hex = `#${parts
          .slice(1, 4)
          .map((part) => Number(part).toString(16).padStart(2, '0'))
          .join('')}`;
        assert.ok(
          seriesPalette.some((colour) => colour.toLowerCase() === hex),
          `${themeName}: ${hex} is one of the fixed palette's colours`,
        );
        assert.ok(
          contrastRatio(hex, shown) >= 3,
          `${themeName}: ${hex} on ${shown}: ${contrastRatio(hex, shown).toFixed(2)}:1`,
        );
      }
      return shown;
    };
    // The webview gets a theme's colours after the workbench: wait (bounded) until its editor background is the
    // workbench's.
    const workbenchBackground = () =>
      page.evaluate(() =>
        getComputedStyle(document.querySelector('.monaco-workbench')!)
          .getPropertyValue('--vscode-editor-background')
          .trim()
          .toLowerCase(),
      );
    const untilWebviewFollows = async (themeName: string, previous?: string) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [wanted, shown] = [await workbenchBackground(), await background()];
        if (wanted !== '' && wanted !== previous && wanted === shown) return;
        if (Date.now() > deadline)
          assert.fail(
            `${themeName}: the panel's editor background is ${shown}, the workbench's ${wanted} (before: ${previous ?? 'any'})`,
          );
        await page.waitForTimeout(200);
      }
    };
    // Then the other kinds, as a person switches them: Preferences: Toggle between Light/Dark Themes,
    // to the preferred dark theme (Dark Modern, the one of issue 25), then to the preferred light one.
    const seen = [await checkPalette('the starting theme')];
    for (const step of ['the toggled theme', 'the theme toggled back']) {
      await runCommand(page, 'Preferences: Toggle between Light/Dark Themes', 30_000);
      await untilWebviewFollows(step, seen.at(-1));
      seen.push(await checkPalette(step));
    }
    assert.ok(
      seen.some((shown) => contrastRatio(shown, '#ffffff') < 1.5) &&
        seen.some((shown) => contrastRatio(shown, '#000000') < 1.5),
      `a light and a dark background were both checked (${seen.join(', ')})`,
    );

    // Keyboard only: a value's Enter opens its time series, Escape brings the focus back to that value.
    const value = panel.locator('table.comparison td.value[data-cells]').first();
    await value.focus();
    const stack = await value.getAttribute('data-stack');
    const threads = await value.getAttribute('data-threads');
    await page.keyboard.press('Enter');
    await expectVisible(
      panel.locator('.timeseries-box:not([hidden]) button.close-timeseries'),
      'the time series the value opened',
      30_000,
    );
    assert.equal(await panel.locator('button.close-timeseries:focus').count(), 1, 'the time series takes the focus');
    await page.keyboard.press('Escape');
    await expectVisible(
      panel.locator(`td.value:focus[data-stack="${stack}"][data-threads="${threads}"]`),
      'the focus back on the value that opened it',
      10_000,
    );
    await row(page, runA).first().click();
    await expectVisible(page.locator('.tab', { hasText: runA }), `the ${runA} tab`);
    assert.equal(await page.locator('.tab', { hasText: runA }).count(), 1, 'a second click opened a second tab');
  });

  it(
    'Compare two runs on the run takes it as the baseline and asks only for the candidate',
    { timeout: 120_000 },
    async () => {
      const { page } = session;
      // Run B: the same cells with 10 % more throughput, as a second run folder.
      const runDir = join(resultsFolder, runA);
      changedRunCopy(runDir, resultsFolder, { runId: runB() });
      await expectVisible(row(page, runB()), `the copy ${runB()} in the Runs view`, 30_000);

      await contextMenu(page, row(page, runA), 'Compare two runs');
      await expectVisible(
        page.locator('.quick-input-widget', { hasText: `the candidate, compared against ${runA}` }),
        'the candidate picker, naming the baseline',
      );
      const candidate = page.locator(selectors.quickInputRows, {
        has: page.locator('.label-name', { hasText: exactly(runB()) }),
      });
      await expectVisible(candidate, `${runB()} among the candidates`);
      assert.equal(
        await page
          .locator(selectors.quickInputRows, { has: page.locator('.label-name', { hasText: new RegExp(`^${runA}$`) }) })
          .count(),
        0,
        'the baseline is offered as its own candidate',
      );
      await candidate.first().click();
      const panel = resultsFrame(page, 'Onload Bench Results');
      await expectVisible(
        panel.locator('h1#panel-title', { hasText: `${runB()} against ${runA}` }),
        'the compare view of B against A',
        30_000,
      );
      await shot(page, context.artifactsDir, '41-runs-view-compare');
    },
  );

  it(
    'a run with cells missing is stopped and resumable; Resume on it finishes that folder',
    { timeout: 300_000 },
    async () => {
      const { page } = session;
      const results = join(resultsFolder, runA, 'results.jsonl');
      const lines = readFileSync(results, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
      const kept = lines.slice(0, 2);
      writeFileSync(results, kept.join('\n') + '\n');
      const cells = context.lab!.info.cells;
      await expectVisible(
        row(page, runA).locator('.label-description', { hasText: `stopped, resumable · 2/${cells} cells` }),
        `${runA} listed as stopped`,
        30_000,
      );
      await shot(page, context.artifactsDir, '42-runs-view-stopped');
      await contextMenu(page, row(page, runA), 'Resume interrupted run');
      await expectVisible(
        row(page, runA).locator('.label-description', { hasText: `complete · ${cells}/${cells} cells` }),
        `${runA} complete again after the resume`,
        240_000,
      );
      const ids = new Set(
        readFileSync(results, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => (JSON.parse(line) as { id: string }).id),
      );
      assert.equal(ids.size, cells, 'the resume ran the missing cells in the same folder');
      assert.deepEqual(runFolders(resultsFolder), [runA, runB()].sort(), 'the resume made no new run folder');
    },
  );

  it('Delete asks first, then removes only that run folder', { timeout: 60_000 }, async () => {
    const { page } = session;
    await contextMenu(page, row(page, runB()), 'Delete run');
    const dialog = page.locator('.monaco-dialog-box', { hasText: `Delete the run ${runB()}?` });
    await expectVisible(dialog, 'the confirmation naming the run');
    await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    assert.ok(existsSync(join(resultsFolder, runB())), 'Cancel deleted the folder');
    await contextMenu(page, row(page, runB()), 'Delete run');
    await expectVisible(dialog, 'the confirmation naming the run, again');
    await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();
    await row(page, runB()).first().waitFor({ state: 'detached', timeout: 30_000 });
    assert.deepEqual(runFolders(resultsFolder), [runA]);
  });

  it(
    'a failed pre-flight goes into the Failed pre-flights group, not into one more tab',
    { timeout: 150_000 },
    async () => {
      const { page } = session;
      await pickFromCommand(
        page,
        'Run Couchbase benchmark',
        unreachablePlanName,
        `the plan ${unreachablePlanName} in the plan picker`,
      );
      const group = row(page, 'Failed pre-flights (1)');
      await expectVisible(group, 'the Failed pre-flights group', 120_000);
      await group.first().click();
      await expectVisible(
        row(page, `${unreachablePlanName}.benchplan.json`).locator('.label-description', {
          hasText: /^failed pre-flight · /,
        }),
        'the failed attempt in the group',
      );
      await shot(page, context.artifactsDir, '43-runs-view-failed-preflight');
    },
  );
});
