// Headless Chromium with the built webview script (dist/media/panel.js) under the panel's real
// CSP, a stub acquireVsCodeApi recording what the webview posts, and the VS Code theme variables
// (a dark theme): the harness the webview tests share (issues 10 and 13).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildPanelHtml } from '../../../client/src/panel/panelHtml';

export const root = resolve(__dirname, '..', '..', '..');
export const chromiumPath = '/usr/bin/chromium';
const nonce = 'dGVzdC1ub25jZS0xMjM0NQ==';

/** The theme colours VS Code would set (a dark theme); charts draw with exactly these, exports still come out light. */
export const theme: Record<string, string> = {
  '--vscode-charts-blue': '#1a85ff',
  '--vscode-charts-orange': '#ff8800',
  '--vscode-charts-green': '#22aa44',
  '--vscode-charts-purple': '#9955dd',
  '--vscode-charts-red': '#ee3344',
  '--vscode-charts-yellow': '#ddbb00',
  '--vscode-editor-foreground': '#d4d4d4',
  '--vscode-foreground': '#cccccc',
  '--vscode-editor-background': '#1e1e1e',
  '--vscode-font-family': 'sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-button-background': '#0e639c',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-secondaryBackground': '#3a3d41',
  '--vscode-button-secondaryForeground': '#ffffff',
  '--vscode-widget-border': '#454545',
  '--vscode-focusBorder': '#007fd4',
  '--vscode-errorForeground': '#f48771',
  '--vscode-editorWarning-foreground': '#cca700',
  '--vscode-editor-findMatchHighlightBackground': 'rgba(234, 92, 0, 0.33)',
};

/** The same dark theme, by the name the export tests use. */
export const darkTheme = theme;

/** dist/media/panel.js, rebuilt (this entry only, same options as scripts/build.mjs) when older than media/src. */
export function ensureBuilt(): string {
  const script = join(root, 'dist', 'media', 'panel.js');
  const sources = readdirSync(join(root, 'media', 'src')).map(
    (name) => statSync(join(root, 'media', 'src', name)).mtimeMs,
  );
  if (!existsSync(script) || statSync(script).mtimeMs < Math.max(...sources)) {
    buildSync({
      entryPoints: [join(root, 'media', 'src', 'panel.ts')],
      outfile: script,
      bundle: true,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      sourcemap: true,
      logLevel: 'warning',
      legalComments: 'linked',
    });
  }
  return script;
}

export interface WebviewPage {
  page: Page;
  origin: string;
  remoteRequests: string[];
  pageErrors: string[];
  post(message: unknown): Promise<void>;
  posted(): Promise<Record<string, unknown>[]>;
  violations(): Promise<string[]>;
  close(): Promise<void>;
}

/** The page the export and report tests use (issue 13): the same page. */
export type PanelPage = WebviewPage;

export async function openWebview(): Promise<WebviewPage> {
  return openPanelPage();
}

/**
 * The panel on `model`, then the time-series view `view` of its first group (as a click on a
 * point opens it); waits for `selector` in it, runs `check`, then requires no CSP violation and
 * no page error. The evidence views' tests share it.
 */
export async function inTimeSeriesView(
  model: unknown,
  view: unknown,
  selector: string,
  check: (page: Page) => Promise<void>,
): Promise<void> {
  const webview = await openWebview();
  const { page } = webview;
  try {
    await webview.post({ type: 'model', model });
    await page.waitForSelector('#chart-r0-g0-server-cpu-canvas');
    await webview.post({ type: 'timeseries', view });
    await page.waitForSelector(selector);
    await check(page);
    assert.deepEqual(await webview.violations(), []);
    assert.deepEqual(webview.pageErrors, []);
  } finally {
    await webview.close();
  }
}

/** A page with the webview; a time zone (with an en-GB locale), a pixel ratio or the panel's title on request. */
export async function openPanelPage(
  options: { timezoneId?: string; deviceScaleFactor?: number; title?: string } = {},
): Promise<WebviewPage> {
  const script = ensureBuilt();
  let html = '';
  const server: Server = await new Promise((done) => {
    const files = (): Record<string, [string, string | Buffer]> => ({
      '/index.html': ['text/html', html],
      '/dist/media/panel.js': ['text/javascript', readFileSync(script)],
      '/media/panel.css': ['text/css', readFileSync(join(root, 'media', 'panel.css'))],
    });
    const created = createServer((request, response) => {
      const file = files()[request.url ?? ''];
      if (!file) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    created.listen(0, '127.0.0.1', () => done(created));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  html = buildPanelHtml({
    cspSource: origin,
    scriptUri: `${origin}/dist/media/panel.js`,
    styleUri: `${origin}/media/panel.css`,
    nonce,
    title: options.title ?? 'Onload Bench Results',
  });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
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
    const page = await browser.newPage({
      viewport: { width: 1100, height: 1400 },
      deviceScaleFactor: options.deviceScaleFactor ?? 1,
      ...(options.timezoneId ? { timezoneId: options.timezoneId, locale: 'en-GB' } : {}),
    });
    const remoteRequests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) remoteRequests.push(request.url());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // A string, not a function: tsx's transform would add helpers the page does not have.
    // VS Code sets the theme variables on <html> before the webview's script runs; <html> does not
    // exist yet when init scripts run, so they go on when the script asks for the API. The state
    // is kept as VS Code keeps it (window.__state, for tests to read).
    await page.addInitScript({
      content: `
        window.__posted = [];
        window.__violations = [];
        window.__state = undefined;
        document.addEventListener('securitypolicyviolation', (event) => window.__violations.push(event.violatedDirective + ' ' + event.blockedURI));
        window.acquireVsCodeApi = () => {
          for (const [name, value] of Object.entries(${JSON.stringify(theme)})) document.documentElement.style.setProperty(name, value);
          return {
            postMessage: (message) => window.__posted.push(message),
            getState: () => window.__state,
            setState: (state) => { window.__state = state; },
          };
        };`,
    });
    await page.goto(`${origin}/index.html`);
    page.on('console', (message) => process.env.PANEL_DEBUG && console.log('[webview]', message.text()));
    await page
      .waitForFunction(
        () => ((window as unknown as { __posted: { type: string }[] }).__posted ?? []).some((m) => m.type === 'ready'),
        undefined,
        { timeout: 10_000 },
      )
      .catch((error: Error) => {
        throw new Error(`${error.message}; page errors: ${pageErrors.join(' | ')}`);
      });
    const opened = browser;
    return {
      page,
      origin,
      remoteRequests,
      pageErrors,
      post: (message) => page.evaluate((data) => window.postMessage(data, '*'), message),
      posted: () => page.evaluate(() => (window as unknown as { __posted: Record<string, unknown>[] }).__posted),
      violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      close: async () => {
        await opened.close();
        await new Promise((done) => server.close(done));
      },
    };
  } catch (error) {
    await browser?.close();
    await new Promise((done) => server.close(done));
    throw error;
  }
}

/**
 * Pixels of exactly one colour inside a canvas's plot area (`data-plot-area`), so legend swatches
 * do not count. Line and point interiors are drawn unblended.
 */
export async function countPixels(page: Page, canvasSelector: string, hex: string): Promise<number> {
  return page.$eval(
    canvasSelector,
    (canvas, colour) => {
      const c = canvas as HTMLCanvasElement;
      const scale = c.width / c.clientWidth;
      const [left, top, right, bottom] = (c.dataset.plotArea ?? '')
        .split(',')
        .map((value) => Math.round(Number(value) * scale));
      const pixels = c.getContext('2d')!.getImageData(left, top, right - left, bottom - top).data;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
      let count = 0;
      for (let i = 0; i < pixels.length; i += 4)
        if (pixels[i] === r && pixels[i + 1] === g && pixels[i + 2] === b && pixels[i + 3] === 255) count++;
      return count;
    },
    hex,
  );
}

/** Width and height of a PNG from its data URL (the IHDR chunk). */
export function pngSize(dataUrl: string): { width: number; height: number } {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
