// "Set Couchbase password": asks for the password of a plan's cluster and keeps it in
// SecretStorage (replacing any stored one), and says which source runs use: an environment variable
// named in the settings wins over SecretStorage while it is set.
import * as vscode from 'vscode';
import { loadEngine } from '../engine';
import { describeSecretKey, passwordSecretKey } from '../secretKeys';
import type { ExtensionServices } from '../extensionServices';
import { choosePlan } from './choosePlan';
import { currentSettings } from '../config';
import { passwordNotUsedWarning, passwordSavedMessage } from '../passwordSource';
import { commands } from '../commandIds';

export async function setPasswordCommand(
  services: ExtensionServices,
  arg?: unknown,
  options?: unknown,
): Promise<boolean> {
  // After a refused password the failure notice asks for this command with { offerRun: true }.
  const offerRun =
    typeof options === 'object' && options !== null && (options as { offerRun?: unknown }).offerRun === true;
  const planUri = await choosePlan(arg, 'Set Couchbase password', false);
  if (!planUri) return false;
  const { plan } = await (await loadEngine()).loadPlan(planUri.fsPath);
  // The servers are all that is needed, so a plan with unrelated problems still works here.
  const servers = Array.isArray(plan.servers) ? plan.servers.filter((server) => typeof server?.host === 'string') : [];
  if (servers.length === 0) {
    void vscode.window.showErrorMessage(
      `Onload Bench: ${vscode.workspace.asRelativePath(planUri)} names no servers, so there is no cluster to keep a password for.`,
    );
    return false;
  }
  // Said before asking: a password saved here is not used while the environment variable wins.
  const notUsed = passwordNotUsedWarning(
    await services.passwords.sourceFor({ servers }, currentSettings(services.log, planUri)),
  );
  if (notUsed) {
    const anyway = 'Save one anyway';
    if ((await vscode.window.showWarningMessage(notUsed, anyway)) !== anyway) return false;
  }
  const password = await services.passwords.ask({ servers });
  if (password === undefined) return false;
  const source = await services.passwords.sourceFor({ servers }, currentSettings(services.log, planUri));
  const message = passwordSavedMessage(source, describeSecretKey(passwordSecretKey({ servers })));
  if (source.kind === 'env') {
    void vscode.window.showWarningMessage(message);
  } else if (offerRun) {
    const again = 'Run again';
    void vscode.window.showInformationMessage(message, again).then((choice) => {
      if (choice === again) void vscode.commands.executeCommand(commands.runBenchmark.id, planUri);
    });
  } else {
    void vscode.window.showInformationMessage(message);
  }
  return true;
}
