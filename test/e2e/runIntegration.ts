// Runs the mocha suites of test/e2e/integration inside code-server's extension host. code-server
// has no --extensionDevelopmentPath flag: with the smoke-test driver enabled, the page URL's
// `payload` loads the repository as a development extension and dist/test/index.js as the test
// module; the workbench reports the outcome through window.codeAutomationExit/Log, which
// Playwright exposes before the page loads.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { openBrowser } from './support/browser';
import { keepLogs, startCodeServer } from './support/codeServer';
import { repoRoot } from './support/workspace';

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  skips?: { test: string; reason: string }[];
}

export interface IntegrationOptions {
  workspace: string;
  stateDir: string;
  artifactsDir: string;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  timeoutMs?: number;
  /** Restricted Mode (Workspace Trust on, folder untrusted): only the restricted-mode suite runs. */
  restrictedMode?: boolean;
}

export async function runIntegrationTests(options: IntegrationOptions): Promise<Summary> {
  const label = options.restrictedMode ? 'integration-restricted' : 'integration';
  const summaryFile = join(options.artifactsDir, `${label}.json`);
  rmSync(summaryFile, { force: true });
  if (!existsSync(join(repoRoot, 'dist', 'test', 'index.js'))) {
    throw new Error('dist/test/index.js is missing: build first (node scripts/build.mjs)');
  }
  const server = await startCodeServer(options.workspace, {
    stateDir: options.stateDir,
    smokeTestDriver: true,
    settings: options.settings,
    restrictedMode: options.restrictedMode ?? false,
    env: {
      ...options.env,
      ONLOAD_BENCH_E2E_SUMMARY: summaryFile,
      ...(options.restrictedMode ? { ONLOAD_BENCH_E2E_SUITES: 'restricted' } : {}),
    },
  });
  const browser = await openBrowser();
  const log: string[] = [];
  try {
    const authority = `127.0.0.1:${server.port}`;
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${authority}${repoRoot}`],
      ['extensionTestsPath', `vscode-remote://${authority}${repoRoot}/dist/test/index.js`],
      ['skipWelcome', 'true'],
    ];
    let exit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await browser.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    await browser.page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      const line = format(...(args as [unknown, ...unknown[]]));
      log.push(line);
      // Known noise of an offline code-server stays in the log file only.
      if (
        !/ENOTFOUND open-vsx\.org|authentication provider|vscode-remote-resource|Unable to load and parse grammar/.test(
          line,
        )
      ) {
        process.stdout.write(`  [host ${type}] ${line}\n`);
      }
    });
    const url = `${server.origin}/?folder=${encodeURIComponent(options.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await browser.page.goto(url);
    const timeoutMs = options.timeoutMs ?? 600_000;
    const code = await Promise.race([
      exited,
      new Promise<number>((_, reject) =>
        setTimeout(
          () => reject(new Error(`the integration tests did not finish within ${timeoutMs / 1000} s`)),
          timeoutMs,
        ).unref(),
      ),
    ]);
    if (existsSync(summaryFile)) return JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
    // The test module never got to write its summary (it did not load, or crashed).
    throw new Error(`the extension host exited with code ${code} without a test summary; see ${server.logFile}`);
  } finally {
    writeFileSync(join(options.artifactsDir, `${label}.log`), log.join('\n') + '\n');
    await browser.page.screenshot({ path: join(options.artifactsDir, `${label}-end.png`) }).catch(() => undefined);
    await browser.close();
    await server.stop();
    keepLogs(options.stateDir, options.artifactsDir, label);
  }
}
