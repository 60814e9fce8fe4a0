// Entry of the integration tests that run INSIDE code-server's extension host (full `vscode`
// API). Bundled by scripts/build.mjs to dist/test/index.js and loaded through the smoke-test
// driver payload (`extensionTestsPath`); VS Code calls run() and reports its outcome as the exit
// code. The summary (counts and skip reasons) is written for scripts/e2e.sh.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Mocha from 'mocha';
import { skipReasons } from './skips';
import { extensionSuite } from './extension.suite';
import { languageServerSuite } from './languageServer.suite';
import { tasksSuite } from './tasks.suite';
import { benchmarkRunSuite } from './benchmarkRun.suite';
import { restrictedModeSuite } from './restrictedMode.suite';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  // The suites are bundled into this file, so define mocha's globals and then let them register.
  mocha.suite.emit('pre-require', globalThis, 'integration', mocha);
  if (process.env.ONLOAD_BENCH_E2E_SUITES === 'restricted') {
    // its own code-server with the folder untrusted (runIntegration.ts restrictedMode)
    restrictedModeSuite();
  } else {
    extensionSuite();
    languageServerSuite();
    tasksSuite();
    benchmarkRunSuite();
  }

  const stats = await new Promise<Mocha.Stats>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats ?? ({} as Mocha.Stats)));
  });
  const summary = {
    passed: stats.passes ?? 0,
    failed: stats.failures ?? 0,
    skipped: stats.pending ?? 0,
    skips: skipReasons,
  };
  const out =
    process.env.ONLOAD_BENCH_E2E_SUMMARY ?? join(__dirname, '..', '..', 'test-artifacts', 'e2e', 'integration.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(summary, null, 2) + '\n');
  if (summary.failed > 0) throw new Error(`${summary.failed} integration test(s) failed`);
}
