// The real-editor test run (scripts/e2e.sh calls it after installing the tools and packaging):
//  1. starts the lab (test/lab) and writes its plan into throw-away workspaces,
//  2. runs the integration suites inside code-server's extension host (development path),
//  3. runs the UI tests in Chromium against code-server with the packaged .vsix installed,
//  4. writes test-artifacts/results/e2e.json = {passed, failed, skipped} for scripts/test-all.sh.
// Everything it starts is stopped on the way out, also on Ctrl+C.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIntegrationTests, type Summary } from './runIntegration';
import { startSimulatedLab, type RunningLab } from './support/simulatedLab';
import { prepareWorkspace, repoRoot } from './support/workspace';
import type { UiContext } from './ui/context';

const artifactsDir = join(repoRoot, 'test-artifacts', 'e2e');
const resultsFile = join(repoRoot, 'test-artifacts', 'results', 'e2e.json');

function tapCounts(tap: string): Summary {
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  return {
    passed: count('pass'),
    failed: count('fail') + count('cancelled'),
    skipped: count('skipped') + count('todo'),
  };
}

function runUiTests(context: UiContext): Summary {
  const contextFile = join(context.runDir, 'ui-context.json');
  writeFileSync(contextFile, JSON.stringify(context, null, 2));
  // ONLOAD_BENCH_E2E_UI=editor (a developer's rerun of one file; CI runs them all)
  const only = process.env.ONLOAD_BENCH_E2E_UI;
  const files = readdirSync(join(repoRoot, 'test', 'e2e', 'ui'))
    .filter((name) => name.endsWith('.e2e.ts') && (!only || name.startsWith(only)))
    .sort()
    .map((name) => join('test', 'e2e', 'ui', name));
  const tapFile = join(artifactsDir, 'ui.tap');
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-timeout=600000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...files,
    ],
    { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ONLOAD_BENCH_UI_CONTEXT: contextFile } },
  );
  if (!existsSync(tapFile)) return { passed: 0, failed: 1, skipped: 0 };
  const counts = tapCounts(readFileSync(tapFile, 'utf8'));
  if (result.status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

/** Workspace settings an attacker would ship: an ssh that leaves a mark when it runs, and profile folders outside. */
function plantUntrustedSettings(workspace: string): void {
  const ssh = join(workspace, 'e2e', 'planted-ssh.sh');
  writeFileSync(ssh, `#!/bin/sh\ntouch ${JSON.stringify(join(workspace, 'e2e', 'planted-ssh-ran'))}\nexec ssh "$@"\n`, {
    mode: 0o755,
  });
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    JSON.stringify({ 'onloadBench.ssh.binary': ssh, 'onloadBench.profilePath': ['/etc'] }, null, 2) + '\n',
  );
}

async function main(): Promise<number> {
  const vsix = process.argv[2];
  if (!vsix || !existsSync(vsix))
    throw new Error(`usage: run.ts PATH.vsix (got ${vsix ?? 'nothing'}); run scripts/package.sh first`);
  mkdirSync(artifactsDir, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), 'onload-bench-e2e-'));
  const totals: Summary = { passed: 0, failed: 0, skipped: 0 };
  const add = (label: string, summary: Summary) => {
    totals.passed += summary.passed;
    totals.failed += summary.failed;
    totals.skipped += summary.skipped;
    console.log(`e2e ${label}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
    for (const skip of summary.skips ?? []) console.log(`  skipped: ${skip.test}: ${skip.reason}`);
  };

  let lab: RunningLab | undefined;
  const cleanUp = async () => {
    await lab?.stop().catch((error) => console.error(`e2e: stopping the lab failed: ${error}`));
    lab = undefined;
    if (!process.env.ONLOAD_BENCH_E2E_KEEP) rmSync(runDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  }

  try {
    const attempt = await startSimulatedLab({ interfaces: 'one' });
    let labReason: string | undefined;
    if ('lab' in attempt) lab = attempt.lab;
    else labReason = attempt.reason;
    if (labReason) console.log(`e2e: no lab: ${labReason}; the benchmark-run tests will be skipped`);

    const integrationWorkspace = prepareWorkspace(join(runDir, 'integration'));
    lab?.writePlan(integrationWorkspace);
    if (!process.env.ONLOAD_BENCH_E2E_UI)
      try {
        add(
          'integration (extension host)',
          await runIntegrationTests({
            workspace: integrationWorkspace,
            stateDir: join(runDir, 'integration', 'code-server'),
            artifactsDir,
            env: lab?.env,
            settings: {
              ...lab?.settings,
              'onloadBench.couchbase.passwordEnvVar': lab ? Object.keys(lab.env)[0] : undefined,
            },
          }),
        );
      } catch (error) {
        console.error(`e2e integration: ${(error as Error).message}`);
        add('integration (extension host)', { passed: 0, failed: 1, skipped: 0 });
      }

    // Restricted Mode: the same lab plan in a folder that is not trusted, whose own settings plant an ssh.
    const restrictedWorkspace = prepareWorkspace(join(runDir, 'restricted'));
    lab?.writePlan(restrictedWorkspace);
    plantUntrustedSettings(restrictedWorkspace);
    if (!process.env.ONLOAD_BENCH_E2E_UI)
      try {
        add(
          'integration, Restricted Mode (extension host)',
          await runIntegrationTests({
            workspace: restrictedWorkspace,
            stateDir: join(runDir, 'restricted', 'code-server'),
            artifactsDir,
            env: lab?.env,
            settings: {
              ...lab?.settings,
              'onloadBench.couchbase.passwordEnvVar': lab ? Object.keys(lab.env)[0] : undefined,
            },
            restrictedMode: true,
          }),
        );
      } catch (error) {
        console.error(`e2e integration (Restricted Mode): ${(error as Error).message}`);
        add('integration, Restricted Mode (extension host)', { passed: 0, failed: 1, skipped: 0 });
      }

    const uiWorkspace = prepareWorkspace(join(runDir, 'ui'));
    const labInfo = lab?.writePlan(uiWorkspace);
    add(
      'ui (Chromium)',
      runUiTests({
        runDir,
        vsix,
        workspace: uiWorkspace,
        stateDir: join(runDir, 'ui', 'code-server'),
        artifactsDir,
        lab: lab && labInfo ? { info: labInfo, password: lab.password, settings: lab.settings } : undefined,
        labMissingReason: labReason,
      }),
    );
  } finally {
    await cleanUp();
  }
  mkdirSync(join(repoRoot, 'test-artifacts', 'results'), { recursive: true });
  writeFileSync(
    resultsFile,
    JSON.stringify({ passed: totals.passed, failed: totals.failed, skipped: totals.skipped }) + '\n',
  );
  console.log(
    `e2e: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (artefacts in test-artifacts/e2e/)`,
  );
  return totals.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`e2e: ${error instanceof Error ? error.stack : error}`);
    mkdirSync(join(repoRoot, 'test-artifacts', 'results'), { recursive: true });
    writeFileSync(resultsFile, JSON.stringify({ passed: 0, failed: 1, skipped: 0 }) + '\n');
    process.exit(1);
  },
);
