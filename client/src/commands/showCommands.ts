// "Show commands (dry run)": what a run of the plan would do, without connecting: every remote
// command with its host and every REST/SDK step of the first cell of each stack, in order, the
// password shown as ********. Opened as an untitled document a lab owner can read (and keep)
// before letting the tool restart their servers. Built by the engine's dryRun (recording sessions
// through the sweep's own code), the same listing as `onload-bench run PLAN --dry-run`.
import * as vscode from 'vscode';
import { currentSettings, uploadPolicyFor } from '../config';
import { loadEngine } from '../engine';
import type { ExtensionServices } from '../extensionServices';
import { choosePlan } from './choosePlan';

export async function showCommandsCommand(
  _services: ExtensionServices,
  arg?: unknown,
): Promise<vscode.TextDocument | undefined> {
  const planUri = await choosePlan(arg, 'Show commands (dry run)');
  if (!planUri) return undefined;
  const engine = await loadEngine();
  const { plan, errors } = await engine.loadPlan(planUri.fsPath);
  if (errors.length > 0) {
    void vscode.window.showErrorMessage(
      `Onload Bench: ${vscode.workspace.asRelativePath(planUri)} has ${errors.length} problem(s); fix them first (they are underlined in the plan).`,
    );
    return undefined;
  }
  // the run's path policy and shape checks: a file a run would refuse is refused here, never shown
  const settings = currentSettings(undefined, planUri);
  let text: string;
  try {
    text = await engine.dryRun(plan, planUri.fsPath, uploadPolicyFor(settings, planUri));
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Onload Bench: no dry run of ${vscode.workspace.asRelativePath(planUri)}: ${engine.formatEngineError(engine.toEngineError(error, 'dry-run'))}`,
    );
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument({ content: text, language: 'shellscript' });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}
