// The extension's entry point. Activation stays fast: it starts the language client, registers
// commands and the task provider, and nothing else. The engine (and with it the Couchbase SDK)
// is imported only when a command or task needs it (see engine.ts).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { commands, logChannelName } from './commandIds';
import { startLanguageClient } from './languageClient';
import { PasswordStore } from './passwords';
import { registerPlanLinks } from './planLinks';
import { ResultsPanelManager, resultsViewType } from './panel/resultsPanel';
import type { ExtensionServices } from './extensionServices';
import type { CoreServices } from './services';
import { RunTracker } from './tasks/runTracker';
import { registerWalkthroughProgress } from './walkthroughProgress';
import { registerOpenAtStart } from './openAtStart';
import { gettingStartedWalkthrough } from './commandIds';
import { BenchmarkTaskProvider } from './tasks/benchmarkTaskProvider';
import { benchmarkTaskType } from './tasks/taskDefinition';
import type { RunOutcome } from '../../engine/src/index';
import { RunsView, runsViewId } from './runs/runsView';

/** What `activate` returns: hooks for the real-editor tests and other extensions. */
export interface OnloadBenchApi {
  /** Runs a plan as a `couchbase-benchmark` task; the password is used for this run only. */
  runPlan(planPath: string, options?: { password?: string; resumeRunDir?: string }): Promise<RunOutcome>;
  /** The language client once started (undefined if the server failed to start). */
  languageClient(): Promise<LanguageClient | undefined>;
  /** Run folders whose sweep is running now. */
  activeRuns(): string[];
}

export function activate(context: vscode.ExtensionContext): OnloadBenchApi {
  const log = vscode.window.createOutputChannel(logChannelName, { log: true });
  context.subscriptions.push(log);

  const languageClient = startLanguageClient(context).then(
    (client): LanguageClient | undefined => client,
    (error: unknown) => {
      log.error(`The language server did not start: ${error instanceof Error ? error.message : String(error)}`);
      void vscode.window.showErrorMessage(
        'Onload Bench: the language server did not start; see the "Onload Bench" output for details.',
      );
      return undefined;
    },
  );

  stopLanguageClient = async () => {
    const client = await languageClient;
    if (client?.isRunning()) await client.stop(2000);
  };

  const results = new ResultsPanelManager(context);
  context.subscriptions.push(results.register());
  const runs = new RunTracker(log, results, context.workspaceState);
  context.subscriptions.push(registerWalkthroughProgress(resultsViewType));
  context.subscriptions.push(registerOpenAtStart(log, `${context.extension.id}#${gettingStartedWalkthrough}`));
  context.subscriptions.push(runs);
  const core: CoreServices = { context, log, passwords: new PasswordStore(context), languageClient, runs, results };
  const tasks = new BenchmarkTaskProvider(core);
  const services: ExtensionServices = { ...core, tasks };
  context.subscriptions.push(vscode.tasks.registerTaskProvider(benchmarkTaskType, tasks));
  // Plans are JSON (VS Code's language): their workload and profile paths get links here.
  context.subscriptions.push(registerPlanLinks());

  // One file per command, loaded on first use.
  const register = (id: string, load: () => Promise<(services: ExtensionServices, ...args: unknown[]) => unknown>) => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          const run = await load();
          return await run(services, ...args);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.error(`${id} failed: ${message}`);
          void vscode.window.showErrorMessage(`Onload Bench: ${message}`);
          return undefined;
        }
      }),
    );
  };
  register(commands.runBenchmark.id, async () => (await import('./commands/runBenchmark.js')).runBenchmarkCommand);
  register(commands.resumeRun.id, async () => (await import('./commands/resumeRun.js')).resumeRunCommand);
  register(commands.openResults.id, async () => (await import('./commands/openResults.js')).openResultsCommand);
  register(commands.compareRuns.id, async () => (await import('./commands/compareRuns.js')).compareRunsCommand);
  register(
    commands.showEffectiveConfiguration.id,
    async () => (await import('./commands/showEffectiveConfiguration.js')).showEffectiveConfigurationCommand,
  );
  register(commands.setPassword.id, async () => (await import('./commands/setPassword.js')).setPasswordCommand);
  register(commands.clearPassword.id, async () => (await import('./commands/clearPassword.js')).clearPasswordCommand);
  register(commands.newPlan.id, async () => (await import('./commands/newPlan.js')).newPlanCommand);
  register(commands.showCommands.id, async () => (await import('./commands/showCommands.js')).showCommandsCommand);
  register(
    commands.revealRunFolder.id,
    async () => (await import('./commands/revealRunFolder.js')).revealRunFolderCommand,
  );
  register(commands.deleteRun.id, async () => (await import('./commands/deleteRun.js')).deleteRunCommand);

  // The Runs view in the side bar: the workspace's runs, their state and verdict (runs/runsView.ts).
  const runsView = new RunsView(core);
  const runsTreeView = vscode.window.createTreeView(runsViewId, { treeDataProvider: runsView, showCollapseAll: true });
  runsView.follow(runsTreeView);
  context.subscriptions.push(runsView, runsTreeView);
  context.subscriptions.push(vscode.commands.registerCommand(commands.refreshRuns.id, () => runsView.refresh()));

  // Offer to resume interrupted runs, after start-up so activation is not held up.
  const offer = setTimeout(() => {
    void import('./commands/resumeRun.js')
      .then((module) => module.offerResumeOnStartup(services))
      .catch((error: unknown) => {
        log.warn(`Could not look for interrupted runs: ${error instanceof Error ? error.message : String(error)}`);
      });
  }, 3000);
  context.subscriptions.push({ dispose: () => clearTimeout(offer) });

  return {
    runPlan: (planPath, options = {}) => tasks.runPlan(planPath, options),
    languageClient: () => languageClient,
    activeRuns: () => runs.activeRunDirs(),
  };
}

/** Set while active, so deactivate can wait for the server to shut down cleanly. */
let stopLanguageClient: (() => Promise<void>) | undefined;

export async function deactivate(): Promise<void> {
  // Running sweeps are aborted by the RunTracker's disposal (context.subscriptions).
  await stopLanguageClient?.();
  stopLanguageClient = undefined;
}
