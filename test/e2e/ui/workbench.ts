// A person's moves in the VS Code workbench, with the selectors that work on VS Code 1.139 and
// bounded waits that fail with a message saying what did not appear.
import { after, afterEach } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { keepLogs, workbenchUrl } from '../support/codeServer';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { repoRoot } from '../support/workspace';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { publisher: string; name: string };
const extensionId = `${manifest.publisher}.${manifest.name}`;

export const selectors = {
  workbench: '.monaco-workbench',
  editorLines: '.editor-instance .monaco-editor .view-lines',
  squiggle: '.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning',
  problemRows: '.markers-panel .monaco-list-row',
  suggestLabels: '.editor-widget.suggest-widget.visible .monaco-list-row .label-name',
  quickInput: '.quick-input-widget .quick-input-box input',
  quickInputRows: '.quick-input-widget .monaco-list-row',
  actionWidgetRows: '.action-widget .monaco-list-row.action',
};

export async function expectVisible(locator: Locator, what: string, timeout = 20_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`${what} did not appear within ${timeout / 1000} s`);
  }
}

/** The editor's visible text; Monaco renders spaces as no-break spaces. */
export async function editorText(page: Page): Promise<string> {
  return (await page.locator(selectors.editorLines).first().innerText()).replace(/\u00a0/g, ' ');
}

export async function shot(page: Page, artifactsDir: string, name: string): Promise<void> {
  await page.screenshot({ path: join(artifactsDir, `${name}.png`) });
}

export async function openWorkbench(page: Page, origin: string, folder: string, files: readonly string[] = []): Promise<void> {
  await page.goto(workbenchUrl(origin, folder, files));
  await expectVisible(page.locator(selectors.workbench), 'the VS Code workbench', 60_000);
  // The explorer lists files once the remote file system answers.
  await expectVisible(page.locator('.explorer-folders-view .monaco-list-row'), 'the explorer', 30_000);
}

/** Quick Open (Ctrl+P) a workspace file and wait until its text shows in the editor. */
export async function openFile(page: Page, relativePath: string, expectedText: string): Promise<void> {
  await page.keyboard.press('Control+P');
  await expectVisible(page.locator(selectors.quickInput), 'the Quick Open box');
  await page.locator(selectors.quickInput).fill(relativePath);
  const name = relativePath.split('/').pop()!;
  const row = page.locator(selectors.quickInputRows, { hasText: name });
  await expectVisible(row, `a Quick Open entry for ${relativePath}`);
  await row.first().click();
  await expectVisible(page.locator(selectors.editorLines, { hasText: expectedText }), `the text "${expectedText}" of ${relativePath} in the editor`);
}

/**
 * Runs a command from the palette (F1). The palette lists a contributed command only once the
 * extension host has registered it, so the palette is reopened until the row is there (a wait on
 * that state, bounded); each reopening is logged, never silent.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await expectVisible(page.locator(selectors.quickInput), 'the command palette');
    await page.locator(selectors.quickInput).fill(`>${title}`);
    const row = page.locator(selectors.quickInputRows, { hasText: title });
    try {
      await row.first().waitFor({ state: 'visible', timeout: 3_000 });
      await page.keyboard.press('Enter');
      if (attempt > 1) console.log(`  runCommand: "${title}" was listed at palette opening ${attempt}`);
      return;
    } catch {
      await page.keyboard.press('Escape');
      await page.locator(selectors.quickInput).waitFor({ state: 'hidden', timeout: 5_000 });
      if (Date.now() > deadline) throw new Error(`the command "${title}" is not in the palette after ${timeoutMs / 1000} s (${attempt} openings)`);
    }
  }
}

/**
 * Runs `command` from the palette and clicks the row of its quick pick that shows `rowText`. On a
 * loaded machine the picker can close between its showing and the click (CI runs saw the row found,
 * then "not stable" and "not visible" for 30 s: something else took the focus, and a quick pick
 * closes when it loses it): the command is opened again, at most three times, each time said.
 * Escape only while the picker is still open: pressed on the Welcome page instead, it sends the page
 * back to its start and gives it the focus (VS Code's gettingStarted `escape()`).
 */
export async function pickFromCommand(page: Page, command: string, rowText: string, what: string, onShown?: () => Promise<void>): Promise<void> {
  const row = page.locator(selectors.quickInputRows, { hasText: rowText });
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, command, 60_000);
    await expectVisible(row, what);
    if (attempt === 1) await onShown?.();
    const picked = await row.first().click({ timeout: 10_000 }).then(() => true, (error: Error) => {
      if (attempt >= 3) throw error;
      console.log(`  the picker of "${command}" closed before the click (attempt ${attempt}): ${error.message.split('\n')[0]}`);
      return false;
    });
    if (picked) return;
    if (await page.locator(selectors.quickInput).isVisible()) await page.keyboard.press('Escape');
  }
}

/** The results webview's document: two nested iframes, the inner one titled like the panel. */
export function resultsFrame(page: Page, titlePrefix: string): FrameLocator {
  // Only this extension's webviews: the walkthrough renders its steps' Markdown in a webview too,
  // whose outer frame names no extension (VS Code puts `extensionId=` in every outer frame's src).
  return page.frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).frameLocator(`iframe#active-frame[title^="${titlePrefix}"]`);
}

export function repoFileMentions(file: string, text: string): boolean {
  const path = join(repoRoot, file);
  return existsSync(path) && readFileSync(path, 'utf8').includes(text);
}

/**
 * The hooks every UI suite shares: a screenshot of each test's end state (the moment of failure
 * when one fails), and closing the browser and code-server after the suite.
 */
export function endStateHooks(artifactsDir: string, opened: () => { session?: { page: Page; close(): Promise<void> }; server?: { stop(): Promise<void>; stateDir?: string } }): void {
  afterEach(async (t) => {
    const slug = t.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 60);
    await opened().session?.page.screenshot({ path: `${artifactsDir}/after-${slug}.png` }).catch(() => undefined);
  });
  after(async () => {
    const { session, server } = opened();
    await session?.close();
    await server?.stop();
    // code-server's and the extension host's logs outlive the run folder (deleted at the end)
    if (server?.stateDir) keepLogs(server.stateDir, artifactsDir, `ui-${basename(server.stateDir)}`);
  });
}
