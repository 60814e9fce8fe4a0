// "Resume interrupted run": continues a run folder that has cells without results, skipping the
// cells already done. Also offered once at start-up when unfinished runs are found.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import type { RunOutcome } from '../../../engine/src/index';
import type { RunSummary } from '../../../engine/src/report/index';
import { currentSettings } from '../config';
import { loadEngine } from '../engine';
import type { ExtensionServices } from '../extensionServices';
import { unfinishedRuns } from '../tasks/resumeChoice';
import { showPlanProblems } from './runBenchmark';
import { pickRun, runDirArgument, workspaceRuns } from './pickRun';
import { commands } from '../commandIds';
import { refusedInRestrictedMode } from '../workspaceTrust';

/** Run folders the user said not to offer again (per workspace). */
const dismissedState = 'onloadBench.resumeDismissed';

export async function resumeRunCommand(services: ExtensionServices, arg?: unknown): Promise<RunOutcome | undefined> {
  if (refusedInRestrictedMode('resuming a run')) return undefined;
  const engine = await loadEngine();
  const runs = await workspaceRuns(services);
  const runDir = runDirArgument(arg) ?? (await pickRun(unfinishedRuns(runs), 'Resume interrupted run'));
  if (!runDir) return undefined;

  const summary = runs.find((run) => path.resolve(run.runDir) === path.resolve(runDir));
  if (summary?.finished) {
    void vscode.window.showInformationMessage(
      `Onload Bench: ${path.basename(runDir)} is complete; there is nothing to resume.`,
    );
    return undefined;
  }
  const planUri = await planOfRun(summary, runDir);
  if (!planUri) return undefined;
  const { plan, errors } = await engine.loadPlan(planUri.fsPath);
  if (errors.length > 0) {
    await showPlanProblems(planUri, errors);
    return undefined;
  }
  const password = await services.passwords.passwordFor(plan, currentSettings(services.log, planUri));
  if (password === undefined) return undefined;
  return services.tasks.runPlan(planUri.fsPath, { password, resumeRunDir: runDir });
}

/**
 * The plan file a run was started from, or one the user points to when it has moved. The path
 * comes from the run folder, which is not trusted: it is used only when it names a plan in a
 * workspace folder outside the run folder (a crafted manifest could name a plan it brought along).
 */
async function planOfRun(summary: RunSummary | undefined, runDir: string): Promise<vscode.Uri | undefined> {
  const recorded = summary?.manifest.planPath;
  const inside = (file: string, folder: string) => {
    const relative = path.relative(folder, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  };
  const trusted = (file: string) =>
    (vscode.workspace.workspaceFolders ?? []).some(
      (folder) => folder.uri.scheme === 'file' && inside(file, folder.uri.fsPath),
    ) && !inside(file, runDir);
  if (recorded && existsSync(recorded) && trusted(path.resolve(recorded))) return vscode.Uri.file(recorded);
  const browse = 'Choose the plan file';
  const answer = await vscode.window.showWarningMessage(
    recorded && existsSync(recorded)
      ? `Onload Bench: the plan of ${path.basename(runDir)} (${recorded}) is not in a workspace folder; choose the plan file to resume with.`
      : `Onload Bench: the plan of ${path.basename(runDir)}${recorded ? ` (${recorded})` : ''} is not found.`,
    browse,
  );
  if (answer !== browse) return undefined;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { 'Benchmark plan': ['json'] },
    openLabel: 'Resume with this plan',
  });
  return picked?.[0];
}

/** At start-up: if runs were left unfinished, offer to resume them (once per run unless asked again). */
export async function offerResumeOnStartup(services: ExtensionServices): Promise<void> {
  if (!currentSettings(services.log).offerResumeOnStartup || !vscode.workspace.workspaceFolders?.length) return;
  const dismissed = new Set(services.context.workspaceState.get<string[]>(dismissedState) ?? []);
  const running = new Set(services.runs.activeRunDirs().map((dir) => path.resolve(dir)));
  // A run that stopped before its first cell (e.g. a failed pre-flight) has nothing to resume.
  const candidates = unfinishedRuns(await workspaceRuns(services)).filter(
    (run) => run.done > 0 && !dismissed.has(path.resolve(run.runDir)) && !running.has(path.resolve(run.runDir)),
  );
  if (candidates.length === 0) return;
  const newest = candidates[0]!;
  const text =
    candidates.length === 1
      ? `Onload Bench: run ${path.basename(newest.runDir)} stopped after ${newest.done} of ${newest.total} cells.`
      : `Onload Bench: ${candidates.length} runs were interrupted (newest: ${path.basename(newest.runDir)}, ${newest.done} of ${newest.total} cells).`;
  const resume = 'Resume';
  const never = "Don't ask again";
  const answer = await vscode.window.showInformationMessage(text, resume, never);
  if (answer === resume) {
    await vscode.commands.executeCommand(commands.resumeRun.id, candidates.length === 1 ? newest.runDir : undefined);
  } else if (answer === never) {
    for (const run of candidates) dismissed.add(path.resolve(run.runDir));
    await services.context.workspaceState.update(dismissedState, [...dismissed]);
  }
}
