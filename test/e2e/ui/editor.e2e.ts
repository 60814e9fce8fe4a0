// UI tests as a person would do them, in Chromium against code-server with the packaged .vsix
// installed: squiggle and Problems entry for a wrong option, the quick fix (Ctrl+.), completion
// of an EF_ name (Ctrl+Space). Screenshots of each step go to test-artifacts/e2e/.
import * as assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openBrowser, type BrowserSession } from '../support/browser';
import { installVsix, startCodeServer, type CodeServer } from '../support/codeServer';
import { uiContext } from './context';
import {
  editorText,
  expectVisible,
  openFile,
  openWorkbench,
  repoFileMentions,
  selectors,
  shot,
  endStateHooks,
} from './workbench';

const context = uiContext();
const profileServiceMissing = repoFileMentions('server/src/languages.ts', 'onload')
  ? undefined
  : 'server/src/languages.ts registers no Onload profile service yet';

describe('editing an Onload profile in the browser', { concurrency: false }, () => {
  let server: CodeServer;
  let session: BrowserSession;

  before(async () => {
    await installVsix(context.stateDir, context.vsix);
    server = await startCodeServer(context.workspace, { stateDir: context.stateDir });
    session = await openBrowser();
    await openWorkbench(session.page, server.origin, context.workspace);
  });

  endStateHooks(context.artifactsDir, () => ({ session, server }));

  it('opens the profile with its text', async () => {
    const { page } = session;
    await openFile(page, 'e2e/wrong-option.opf', 'EF_POLL_USECS');
    await shot(page, context.artifactsDir, '01-profile-open');
    const text = await editorText(page);
    assert.match(text, /onload_set EF_POLL_USECS 100000/);
  });

  it('shows a squiggle and a Problems entry for the wrong option', async (t) => {
    if (profileServiceMissing) return t.skip(profileServiceMissing);
    const { page } = session;
    await expectVisible(page.locator(selectors.squiggle), 'a squiggle under EF_POLL_USECS', 30_000);
    await shot(page, context.artifactsDir, '02-squiggle');
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator(selectors.problemRows, { hasText: 'EF_POLL_USECS' });
    await expectVisible(row, 'a Problems entry naming EF_POLL_USECS');
    await shot(page, context.artifactsDir, '03-problems');
    assert.match(await row.first().innerText(), /EF_POLL_USECS/);
    // Back to the editor for the next steps.
    await page.keyboard.press('Control+Shift+M');
  });

  it('fixes the option with the quick fix (Ctrl+.)', async (t) => {
    if (profileServiceMissing) return t.skip(profileServiceMissing);
    const { page } = session;
    await page
      .locator(selectors.editorLines)
      .locator('span', { hasText: /^EF_POLL_USECS$/ })
      .first()
      .click();
    // Ctrl+. pressed before the editor has asked the server for this line's fixes shows "no code
    // actions" once and never looks again: open the menu until it lists the fix (bounded, logged).
    const fix = page.locator(selectors.actionWidgetRows, { hasText: 'EF_POLL_USEC' });
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('Control+.');
      try {
        await fix.first().waitFor({ state: 'visible', timeout: 10_000 });
        if (attempt > 1) console.log(`  quick fix: the menu listed the fix at Ctrl+. number ${attempt}`);
        break;
      } catch {
        if (attempt === 3) await expectVisible(fix, 'a quick fix naming EF_POLL_USEC', 1_000);
        await page.keyboard.press('Escape');
      }
    }
    await shot(page, context.artifactsDir, '04-quick-fix-menu');
    await fix.first().click();
    await expectVisible(page.locator(selectors.editorLines, { hasText: 'EF_POLL_USEC 100000' }), 'the fixed line');
    const text = await editorText(page);
    assert.doesNotMatch(text, /EF_POLL_USECS/);
    await page
      .locator(selectors.squiggle)
      .first()
      .waitFor({ state: 'detached', timeout: 20_000 })
      .catch(() => assert.fail('the squiggle is still there after the quick fix'));
    await shot(page, context.artifactsDir, '05-quick-fix-applied');
  });

  it('completes an EF_ option name with Ctrl+Space', async (t) => {
    if (profileServiceMissing) return t.skip(profileServiceMissing);
    const { page } = session;
    await openFile(page, 'e2e/complete-me.opf', 'EF_TCP_FASTSTART_IDLE');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('onload_set EF_TCP_FAST');
    await page.keyboard.press('Control+Space');
    const item = page.locator(selectors.suggestLabels, { hasText: 'EF_TCP_FASTSTART_INIT' });
    await expectVisible(item, 'the completion item EF_TCP_FASTSTART_INIT');
    await shot(page, context.artifactsDir, '06-completion');
    await item.first().click();
    await expectVisible(
      page.locator(selectors.editorLines, { hasText: 'onload_set EF_TCP_FASTSTART_INIT' }),
      'the completed name in the editor',
    );
    await shot(page, context.artifactsDir, '07-completion-accepted');
  });
});
