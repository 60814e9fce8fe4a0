// Shows a failed run's notice (failureNotice.ts) and carries out the button the user picks.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { RunOutcome } from '../../../engine/src/index';
import { commands } from '../commandIds';
import { failureActionTitles, hostOffsetInPlan, type FailureActionId, type FailureNotice } from './failureNotice';

export async function showRunFailure(
  notice: FailureNotice,
  planPath: string,
  outcome: RunOutcome,
  log: vscode.LogOutputChannel,
): Promise<void> {
  const titles = notice.actions.map((id) => failureActionTitles[id]);
  const picked = await vscode.window.showErrorMessage(notice.message, ...titles);
  const id = notice.actions[titles.indexOf(picked ?? '')];
  if (id) await runFailureAction(id, planPath, outcome, log);
}

export async function runFailureAction(
  id: FailureActionId,
  planPath: string,
  outcome: RunOutcome,
  log: vscode.LogOutputChannel,
): Promise<void> {
  const planUri = vscode.Uri.file(planPath);
  switch (id) {
    case 'retry':
      await vscode.commands.executeCommand(commands.runBenchmark.id, planUri);
      return;
    case 'resume':
      await vscode.commands.executeCommand(commands.resumeRun.id, outcome.runDir);
      return;
    case 'open-results':
      await vscode.commands.executeCommand(commands.openResults.id, outcome.runDir);
      return;
    case 'show-log':
      log.show(true);
      return;
    case 'enter-password':
      // Saves in SecretStorage and offers to run the plan again with it.
      await vscode.commands.executeCommand(commands.setPassword.id, planUri, { offerRun: true });
      return;
    case 'open-plan-host': {
      const host = outcome.error?.host ?? '';
      const editor = await vscode.window.showTextDocument(planUri);
      const offset = hostOffsetInPlan(editor.document.getText(), host);
      if (offset < 0) {
        void vscode.window.showInformationMessage(
          `Onload Bench: ${path.basename(planPath)} does not name ${host}; it may come from an ssh_config Host entry.`,
        );
        return;
      }
      const range = new vscode.Range(
        editor.document.positionAt(offset),
        editor.document.positionAt(offset + JSON.stringify(host).length),
      );
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return;
    }
  }
}
