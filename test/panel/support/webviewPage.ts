// The built results webview (dist/media/panel.js) in headless Chromium under the real CSP, with a
// stub acquireVsCodeApi that records what the page posts: the harness of the webview tests.
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

/** A dark theme as VS Code would set it; exports must still come out light. */
export const darkTheme: Record<string, string> = {
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
};

function ensureBuilt(): string {
  const script = join(root, 'dist', 'media', 'panel.js');
  const sources = readdirSync(join(root, 'media', 'src')).map((name) => statSync(join(root, 'media', 'src', name)).mtimeMs);
  if (!existsSync(script) || statSync(script).mtimeMs < Math.max(...sources)) {
    buildSync({ entryPoints: [join(root, 'media', 'src', 'panel.ts')], outfile: script, bundle: true, platform: 'browser', target: 'es2022', format: 'iife', sourcemap: true, logLevel: 'warning', legalComments: 'linked' });
  }
  return script;
}

export interface PanelPage {
  page: Page;
  pageErrors: string[];
  posted(): Promise<Record<string, unknown>[]>;
  violations(): Promise<string[]>;
  post(message: unknown): Promise<void>;
  close(): Promise<void>;
}

export async function openPanelPage(options: { timezoneId?: string; deviceScaleFactor?: number } = {}): Promise<PanelPage> {
  const script = ensureBuilt();
  let html = '';
  const files: Record<string, [string, string | Buffer]> = {
    '/dist/media/panel.js': ['text/javascript', readFileSync(script)],
    '/media/panel.css': ['text/css', readFileSync(join(root, 'media', 'panel.css'))],
  };
  const server: Server = await new Promise((done) => {
    const created = createServer((request, response) => {
      const file = request.url === '/index.html' ? (['text/html', html] as [string, string]) : files[request.url ?? ''];
      if (!file) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    created.listen(0, '127.0.0.1', () => done(created));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  html = buildPanelHtml({ cspSource: origin, scriptUri: `${origin}/dist/media/panel.js`, styleUri: `${origin}/media/panel.css`, nonce, title: 'Onload Bench Results' });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 }, deviceScaleFactor: options.deviceScaleFactor ?? 1, ...(options.timezoneId ? { timezoneId: options.timezoneId, locale: 'en-GB' } : {}) });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript({
      content: `
        window.__posted = [];
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (event) => window.__violations.push(event.violatedDirective + ' ' + event.blockedURI));
        window.acquireVsCodeApi = () => {
          for (const [name, value] of Object.entries(${JSON.stringify(darkTheme)})) document.documentElement.style.setProperty(name, value);
          return { postMessage: (message) => window.__posted.push(message), getState: () => undefined, setState: () => undefined };
        };`,
    });
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => ((window as unknown as { __posted: { type: string }[] }).__posted ?? []).some((m) => m.type === 'ready'), undefined, { timeout: 10_000 });
    const opened = browser;
    return {
      page,
      pageErrors,
      posted: () => page.evaluate(() => (window as unknown as { __posted: Record<string, unknown>[] }).__posted),
      violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      post: (message) => page.evaluate((data) => window.postMessage(data, '*'), message),
      close: async () => {
        await opened.close();
        await new Promise((done) => server.close(done));
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    throw error;
  }
}

/** Width and height of a PNG from its data URL (the IHDR chunk). */
export function pngSize(dataUrl: string): { width: number; height: number } {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
