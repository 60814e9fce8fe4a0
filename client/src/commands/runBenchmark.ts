// "Run Couchbase benchmark": choose a plan, check it, get the password, then run it as a
// `couchbase-benchmark` task (pre-flight, then the sweep). Resolves with the run's outcome.
import * as vscode from 'vscode';
import type { PlanError, RunOutcome } from '../../../engine/src/index';
import { currentSettings } from '../config';
import { loadEngine } from '../engine';
import type { ExtensionServices } from '../extensionServices';
import { choosePlan } from './choosePlan';
import { refusedInRestrictedMode } from '../workspaceTrust';

export async function runBenchmarkCommand(services: ExtensionServices, arg?: unknown): Promise<RunOutcome | undefined> {
  const planUri = await choosePlan(arg, 'Run Couchbase benchmark');
  if (!planUri) return undefined;
  if (refusedInRestrictedMode(`the benchmark ${vscode.workspace.asRelativePath(planUri)}`)) return undefined;
  if (services.runs.isRunning(planUri.fsPath)) {
    void vscode.window.showWarningMessage(
      `Onload Bench: ${vscode.workspace.asRelativePath(planUri)} is already running.`,
    );
    return undefined;
  }
  await saveIfDirty(planUri);

  const engine = await loadEngine();
  const { plan, errors } = await engine.loadPlan(planUri.fsPath);
  if (errors.length > 0) {
    await showPlanProblems(planUri, errors);
    return undefined;
  }
  const settings = currentSettings(services.log, planUri);
  const password = await services.passwords.passwordFor(plan, settings);
  if (password === undefined) return undefined;
  // A refused password, an unreachable host or any other failure is announced by the run tracker
  // with its next steps as buttons (tasks/failureNotice.ts), however the run was started.
  const outcome = await services.tasks.runPlan(planUri.fsPath, { password });
  if (outcome.error?.code === 'preflight') {
    // the pre-flight stopped the run: offer the listing of what it would have done
    const show = 'Show commands';
    void vscode.window
      .showInformationMessage('Onload Bench: see every command the run would send, without connecting.', show)
      .then((choice) => {
        if (choice === show) void vscode.commands.executeCommand('onloadBench.showCommands', planUri);
      });
  }
  return outcome;
}

export async function saveIfDirty(uri: vscode.Uri): Promise<void> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open?.isDirty) await open.save();
}

/** Says what is wrong with a plan and offers to jump to the first problem. */
export async function showPlanProblems(planUri: vscode.Uri, errors: PlanError[]): Promise<void> {
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const answer = await vscode.window.showErrorMessage(
    `Onload Bench: ${vscode.workspace.asRelativePath(planUri)} cannot run: ${first.message}${more}`,
    'Show problem',
  );
  if (answer !== 'Show problem') return;
  const editor = await vscode.window.showTextDocument(planUri);
  const start = new vscode.Position(Math.max(0, first.line - 1), Math.max(0, first.column - 1));
  const end = editor.document.positionAt(editor.document.offsetAt(start) + Math.max(first.length, 0));
  editor.selection = new vscode.Selection(start, end);
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
