// Pictures of the product on the simulated-lab demo (what `npm start` offers: two interfaces, 1 and
// 4 threads, three repetitions, so every point has an interval), for the README and for before/after
// comparisons of one build against another on the same run. Not part of `npm test`.
//
//   node --import tsx test/e2e/screenshots.ts run OUT_DIR
//       starts the lab, runs the demo plan with this checkout's CLI (dist/cli.js, `npm run build`
//       first) and leaves the run folder in OUT_DIR/bench-results; powers the lab off.
//   node --import tsx test/e2e/screenshots.ts shots VSIX CLI RUN_DIR OUT_DIR
//       installs VSIX into a fresh code-server, opens RUN_DIR (and a copy of it with 10 % more
//       throughput, as run B) and takes: OUT_DIR/panel.png (the results panel from its top),
//       OUT_DIR/compare.png (B against A), OUT_DIR/html-report.png (CLI's `report --html`, its top).
//       The lab is not needed: the run is on disk. CLI may be another build's dist/cli.js.
// Every process it starts is stopped on the way out.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, type BrowserSession } from './support/browser';
import { installVsix, startCodeServer, type CodeServer } from './support/codeServer';
import { demoLabOptions, startSimulatedLab } from './support/simulatedLab';
import { changedRunCopy } from './support/runCopies';
import { prepareWorkspace, repoRoot } from './support/workspace';
import { expectVisible, openWorkbench, resultsFrame, runCommand, selectors } from './ui/workbench';

async function runDemo(outDir: string): Promise<void> {
  const cli = join(repoRoot, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: npm run build first`);
  const attempt = await startSimulatedLab(demoLabOptions);
  if (!('lab' in attempt)) throw new Error(`the lab cannot start: ${attempt.reason}`);
  const lab = attempt.lab;
  try {
    const workspace = prepareWorkspace(outDir);
    const info = lab.writePlan(workspace);
    const results = join(outDir, 'bench-results');
    const ssh = String(lab.settings['onloadBench.ssh.configFile']);
    const run = spawnSync(process.execPath, [cli, 'run', info.plan, '--results', results, '--ssh-config', ssh], {
      cwd: workspace,
      stdio: 'inherit',
      env: { ...process.env, CB_PASSWORD: lab.password },
      timeout: 15 * 60_000,
    });
    if (run.status !== 0) throw new Error(`the demo run ended with exit ${run.status} (${run.signal ?? 'no signal'})`);
    console.log(`screenshots: the demo run is in ${results}: ${readdirSync(results).join(', ')}`);
  } finally {
    await lab.stop();
  }
}

/** Moves the quick pick's highlight to the row labelled exactly `label` (arrow keys), then Enter. */
async function choose(page: Page, label: string): Promise<void> {
  await expectVisible(page.locator(selectors.quickInputRows, { hasText: label }), `${label} in the picker`);
  const focused = () =>
    page.evaluate(() =>
      (document.querySelector('.quick-input-widget .monaco-list-row.focused .label-name')?.textContent ?? '').trim(),
    );
  for (let step = 0; step < 12; step++) {
    const current = await focused();
    if (current === label) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
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
  throw new Error(`could not highlight ${label} in the picker`);
}

/** The editor area alone, at the README's size, once the panel's charts are drawn. */
async function tidy(page: Page): Promise<void> {
  await runCommand(page, 'View: Hide Panel', 30_000).catch(() => undefined);
  await runCommand(page, 'Notifications: Clear All Notifications', 30_000).catch(() => undefined);
  await runCommand(page, 'View: Close Primary Side Bar', 30_000);
  await page.locator('.part.sidebar').first().waitFor({ state: 'hidden', timeout: 10_000 });
  await page.setViewportSize({ width: 1400, height: 1150 });
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
}

async function takeShots(vsix: string, cli: string, runDir: string, outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'onload-bench-shots-'));
  let server: CodeServer | undefined;
  let session: BrowserSession | undefined;
  try {
    const workspace = join(work, 'workspace');
    const resultsFolder = join(workspace, 'bench-results');
    mkdirSync(resultsFolder, { recursive: true });
    const runA = basename(runDir);
    cpSync(runDir, join(resultsFolder, runA), { recursive: true });
    const runB = changedRunCopy(join(resultsFolder, runA), resultsFolder);
    const stateDir = join(work, 'code-server');
    await installVsix(stateDir, vsix);
    server = await startCodeServer(workspace, { stateDir, settings: { 'onloadBench.offerResumeOnStartup': false } });
    session = await openBrowser();
    const { page } = session;
    await openWorkbench(page, server.origin, workspace);

    await runCommand(page, 'Onload Bench: Open results', 60_000);
    await choose(page, runA);
    const panel = resultsFrame(page, 'Onload Bench Results');
    await expectVisible(
      panel.locator('figure.chart[data-metric="throughput"] canvas').first(),
      'the results panel with its throughput chart',
      60_000,
    );
    await tidy(page);
    await panel.locator('body').evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(1_500); // the charts' last layout after the resize: a picture, not a check
    await page.screenshot({ path: join(outDir, 'panel.png') });

    await runCommand(page, 'View: Close All Editors', 5_000).catch(() => undefined);
    await runCommand(page, 'Onload Bench: Compare two runs', 30_000);
    // This build's picker: baseline, then candidate in a second pick; the earlier one: Enter on A, then on B in one
    // list.
    await choose(page, runA);
    await choose(page, runB);
    await expectVisible(
      panel.locator('h1#panel-title', { hasText: `${runB} against ${runA}` }),
      'the compare view of B against A',
      60_000,
    );
    await expectVisible(panel.locator('figure.compare-chart canvas').first(), 'a compare chart', 30_000);
    await panel.locator('body').evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(1_500);
    await page.screenshot({ path: join(outDir, 'compare.png') });

    const report = join(outDir, 'report.html');
    const made = spawnSync(process.execPath, [cli, 'report', join(resultsFolder, runA), '--html', '--output', report], {
      stdio: 'inherit',
    });
    if (made.status !== 0) throw new Error(`${cli} report --html ended with exit ${made.status}`);
    const reportPage = await session.context.newPage();
    await reportPage.setViewportSize({ width: 1400, height: 1150 });
    await reportPage.goto(`file://${report}`);
    await reportPage.waitForLoadState('load');
    await reportPage.screenshot({ path: join(outDir, 'html-report.png') });
    rmSync(report);
    console.log(
      `screenshots: ${['panel.png', 'compare.png', 'html-report.png'].map((name) => join(outDir, name)).join(', ')}`,
    );
  } finally {
    await session?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === 'run' && args.length === 1) return runDemo(resolve(args[0]!));
  if (mode === 'shots' && args.length === 4)
    return takeShots(resolve(args[0]!), resolve(args[1]!), resolve(args[2]!), resolve(args[3]!));
  throw new Error('usage: screenshots.ts run OUT_DIR | screenshots.ts shots VSIX CLI RUN_DIR OUT_DIR');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`screenshots: ${error instanceof Error ? error.stack : error}`);
    process.exit(1);
  },
);
