// Restricted Mode: a run executes the plan's commands on the hosts and uploads workspace files
// (profiles, workloads), so nothing from an untrusted workspace runs or is uploaded. Editing help
// keeps working; the restricted settings (package.json capabilities.untrustedWorkspaces) are read
// from the user's settings only, by VS Code itself.
import * as vscode from 'vscode';
import type { EngineError, RunOutcome } from '../../engine/src/index';

export const untrustedMessage = (what: string): string =>
  `Onload Bench: this workspace is in Restricted Mode, so ${what} is not started: a run executes the plan's commands on its hosts and uploads files from the workspace. Trust the workspace to run benchmarks.`;

/** True (and says why, offering the trust editor) when the workspace is not trusted. */
export function refusedInRestrictedMode(what: string): boolean {
  if (vscode.workspace.isTrusted) return false;
  const manage = 'Manage Workspace Trust';
  void vscode.window.showWarningMessage(untrustedMessage(what), manage).then((choice) => {
    if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return true;
}

export const restrictedModeError: EngineError = {
  code: 'preflight',
  step: 'start',
  message: 'The workspace is in Restricted Mode: nothing from it runs or is uploaded.',
  action: 'Trust the workspace (Manage Workspace Trust), then run again.',
};

/** The outcome of a run refused in Restricted Mode: nothing started, no run folder. */
export function restrictedOutcome(): RunOutcome {
  return { runDir: '', completed: 0, failed: 0, total: 0, cancelled: false, error: restrictedModeError };
}
