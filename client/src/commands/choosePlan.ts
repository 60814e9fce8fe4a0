// Picks the plan a command works on: the one it was invoked on (editor title, explorer), else a
// quick pick of the workspace's plans with the active editor's plan first, and an entry to
// create one from a template.
import * as vscode from 'vscode';
import { isPlanFile, planChoices, planFileGlob, planSearchExclude } from '../planFiles';
import { commands } from '../commandIds';

/** A plan path or Uri passed by a menu, a keybinding or a test, or a Runs view item's plan (a failed pre-flight's). */
export function planArgument(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'object' && arg !== null && 'kind' in arg) {
    const planPath = (arg as { planPath?: unknown }).planPath;
    return typeof planPath === 'string' && planPath.trim() !== '' ? vscode.Uri.file(planPath) : undefined;
  }
  if (typeof arg === 'string' && arg.trim() !== '') return vscode.Uri.file(arg);
  return undefined;
}

export async function choosePlan(arg: unknown, purpose: string, offerTemplate = true): Promise<vscode.Uri | undefined> {
  const given = planArgument(arg);
  if (given) return given;

  const found = await vscode.workspace.findFiles(planFileGlob, planSearchExclude, 500);
  const active = vscode.window.activeTextEditor?.document.uri;
  const activePath = active?.scheme === 'file' && isPlanFile(active.fsPath) ? active.fsPath : undefined;
  const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const choices = planChoices(
    [...found.map((uri) => uri.fsPath), ...(activePath ? [activePath] : [])],
    roots,
    activePath,
  );

  if (choices.length === 0) {
    if (!offerTemplate) {
      void vscode.window.showInformationMessage('Onload Bench: no *.benchplan.json file in the workspace.');
      return undefined;
    }
    const create = 'Create a plan from a template';
    const answer = await vscode.window.showInformationMessage(
      'Onload Bench: the workspace has no benchmark plan (*.benchplan.json) yet.',
      create,
    );
    if (answer === create) await vscode.commands.executeCommand(commands.newPlan.id);
    return undefined;
  }

  type Item = vscode.QuickPickItem & { planPath?: string };
  const items: Item[] = choices.map((choice) => ({
    label: choice.label,
    description: choice.description,
    planPath: choice.planPath,
  }));
  if (offerTemplate) {
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    items.push({ label: '$(new-file) New plan from a template…' });
  }
  // The first step of plan → password → run: it stays open when something else takes the focus.
  // The Welcome walkthrough does: with one of its steps focused, the Enter that runs a command
  // from the palette also "clicks" that step once the palette has closed, and the step takes the
  // focus back after its animation, which would close a picker opened meanwhile.
  const picked = await vscode.window.showQuickPick(items, {
    title: purpose,
    placeHolder: 'Choose a benchmark plan',
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (!picked.planPath) {
    await vscode.commands.executeCommand(commands.newPlan.id);
    return undefined;
  }
  return vscode.Uri.file(picked.planPath);
}
