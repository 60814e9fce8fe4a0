// "Open results": shows a run's results panel, for a run folder, a results file or a picked run.
import type { ExtensionServices } from '../extensionServices';
import { pickRun, runDirArgument, workspaceRuns } from './pickRun';

export async function openResultsCommand(services: ExtensionServices, arg?: unknown): Promise<string | undefined> {
  const runDir = runDirArgument(arg) ?? (await pickRun(await workspaceRuns(services), 'Open results'));
  if (!runDir) return undefined;
  services.results.showRun(runDir);
  return runDir;
}
