// Debian's Chromium driven by playwright-core, with the flags that work as root on these machines
// and a fresh profile per launch (Playwright makes a temporary one). Service workers stay allowed: webviews are blank
// without them.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { toolPaths } from './tools';

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: toolPaths().chromium,
    headless: true,
    timeout: 60_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  return {
    browser,
    context,
    page,
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}
