// A person's moves in the VS Code workbench, with the selectors that work on VS Code 1.139 and
// bounded waits that fail with a message saying what did not appear.
import { after, afterEach } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { keepLogs, workbenchUrl } from '../support/codeServer';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { repoRoot } from '../support/workspace';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
};
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

export async function openWorkbench(
  page: Page,
  origin: string,
  folder: string,
  files: readonly string[] = [],
): Promise<void> {
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
  await expectVisible(
    page.locator(selectors.editorLines, { hasText: expectedText }),
    `the text "${expectedText}" of ${relativePath} in the editor`,
  );
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
      if (Date.now() > deadline)
        throw new Error(
          `the command "${title}" is not in the palette after ${timeoutMs / 1000} s (${attempt} openings)`,
        );
    }
  }
}

/**
 * Runs `command` from the palette and clicks the row of its quick pick that shows `rowText`. Seen
 * in CI and reproduced here (4 runs in 6): with a walkthrough step focused (npm start leaves it so),
 * the Enter that runs the palette's command also "clicks" that step once the palette has closed;
 * the step re-selects itself and takes the focus back after its animation, which closed the
 * command's picker. The extension's pickers now stay open when the focus moves (choosePlan.ts);
 * where the focus went is recorded (focus() calls and their callers) and printed whenever it is
 * taken from a picker, and a closed picker is opened again, at most three times, each time said.
 * Escape only while the picker is still open: pressed on the Welcome page instead, it sends the page
 * back to its start and gives it the focus (VS Code's gettingStarted `escape()`).
 */
export async function pickFromCommand(
  page: Page,
  command: string,
  rowText: string,
  what: string,
  onShown?: () => Promise<void>,
): Promise<void> {
  const row = page.locator(selectors.quickInputRows, { hasText: rowText });
  await watchFocus(page);
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, command, 60_000);
    await expectVisible(row, what);
    if (attempt === 1) await onShown?.();
    const picked = await row
      .first()
      .click({ timeout: 10_000 })
      .then(
        () => true,
        async (error: Error) => {
          console.log(
            `  the picker of "${command}" closed before the click (attempt ${attempt}): ${error.message.split('\n')[0]}\n  focus moves meanwhile:\n${await focusMoves(page)}`,
          );
          if (attempt >= 3) throw error;
          return false;
        },
      );
    if (picked) {
      const moves = await focusMoves(page);
      if (moves.includes('scheduled'))
        console.log(`  the picker of "${command}" saw the focus taken, yet was clicked:\n${moves}`);
      return;
    }
    if (await page.locator(selectors.quickInput).isVisible()) await page.keyboard.press('Escape');
  }
}

/** The results webview's document: two nested iframes, the inner one titled like the panel. */
export function resultsFrame(page: Page, titlePrefix: string): FrameLocator {
  // Only this extension's webviews: the walkthrough renders its steps' Markdown in a webview too,
  // whose outer frame names no extension (VS Code puts `extensionId=` in every outer frame's src).
  return page
    .frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`)
    .frameLocator(`iframe#active-frame[title^="${titlePrefix}"]`);
}

export function repoFileMentions(file: string, text: string): boolean {
  const path = join(repoRoot, file);
  return existsSync(path) && readFileSync(path, 'utf8').includes(text);
}

/**
 * The hooks every UI suite shares: a screenshot of each test's end state (the moment of failure
 * when one fails), and closing the browser and code-server after the suite.
 */
export function endStateHooks(
  artifactsDir: string,
  opened: () => {
    session?: { page: Page; close(): Promise<void> };
    server?: { stop(): Promise<void>; stateDir?: string };
  },
): void {
  afterEach(async (t) => {
    const slug = t.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60);
    await opened()
      .session?.page.screenshot({ path: `${artifactsDir}/after-${slug}.png` })
      .catch(() => undefined);
  });
  after(async () => {
    const { session, server } = opened();
    await session?.close();
    await server?.stop();
    // code-server's and the extension host's logs outlive the run folder (deleted at the end)
    if (server?.stateDir) keepLogs(server.stateDir, artifactsDir, `ui-${basename(server.stateDir)}`);
  });
}

/**
 * Records where the focus goes (and who called focus()) in the page, to say what closed a picker.
 * A string, not a function: the test's TypeScript loader would wrap named functions in a helper
 * the page does not have.
 */
const focusWatcher = String.raw`(() => {
  if (window.__focusMoves) return;
  const moves = [];
  window.__focusMoves = moves;
  const describe = (node) => node instanceof Element
    ? node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + '.' + Array.from(node.classList).slice(0, 4).join('.') + (node.getAttribute('data-step-id') ? '[step ' + node.getAttribute('data-step-id') + ']' : '')
    : String(node);
  const stamp = () => (performance.now() / 1000).toFixed(2) + ' s';
  const callers = () => (new Error().stack || '').split('\n').slice(3, 9).map((line) => line.trim().replace(/https?:\/\/[^ )]*\//, '')).join(' < ');
  document.addEventListener('focusin', (event) => moves.push(stamp() + ' focusin ' + describe(event.target)), true);
  window.addEventListener('blur', () => moves.push(stamp() + ' window blur (active: ' + describe(document.activeElement) + ')'));
  const schedule = window.setTimeout;
  window.setTimeout = function (callback, ...rest) {
    if (typeof callback === 'function' && /\.focus\(\)/.test(String(callback)) && String(callback).length < 40) {
      moves.push(stamp() + ' focus scheduled by ' + callers());
    }
    return schedule.call(window, callback, ...rest);
  };
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (...args) {
    moves.push(stamp() + ' focus() on ' + describe(this) + ' from ' + callers());
    return focus.apply(this, args);
  };
})()`;

async function watchFocus(page: Page): Promise<void> {
  await page.evaluate(focusWatcher);
}

async function focusMoves(page: Page): Promise<string> {
  const moves = (await page.evaluate('(window.__focusMoves || []).slice(-25)').catch(() => [])) as string[];
  return moves.map((line) => `    ${line}`).join('\n');
}
