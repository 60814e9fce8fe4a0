// "Set Couchbase password": asks for the password of a plan's cluster and keeps it in
// SecretStorage (replacing any stored one).
import * as vscode from 'vscode';
import { loadEngine } from '../engine';
import { describeSecretKey, passwordSecretKey } from '../secretKeys';
import type { ExtensionServices } from '../services';
import { choosePlan } from './choosePlan';

export async function setPasswordCommand(services: ExtensionServices, arg?: unknown): Promise<boolean> {
  const planUri = await choosePlan(arg, 'Set Couchbase password', false);
  if (!planUri) return false;
  const { plan } = await (await loadEngine()).loadPlan(planUri.fsPath);
  // The servers are all that is needed, so a plan with unrelated problems still works here.
  const servers = Array.isArray(plan.servers) ? plan.servers.filter((server) => typeof server?.host === 'string') : [];
  if (servers.length === 0) {
    void vscode.window.showErrorMessage(`Onload Bench: ${vscode.workspace.asRelativePath(planUri)} names no servers, so there is no cluster to keep a password for.`);
    return false;
  }
  const password = await services.passwords.ask({ servers });
  if (password === undefined) return false;
  void vscode.window.showInformationMessage(`Onload Bench: password saved for ${describeSecretKey(passwordSecretKey({ servers }))}.`);
  return true;
}
