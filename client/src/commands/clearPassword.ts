// "Clear Couchbase password": removes one or all stored Couchbase passwords.
import * as vscode from 'vscode';
import { describeSecretKey } from '../secretKeys';
import type { ExtensionServices } from '../extensionServices';

export async function clearPasswordCommand(services: ExtensionServices): Promise<number> {
  const keys = services.passwords.knownKeys();
  if (keys.length === 0) {
    void vscode.window.showInformationMessage('Onload Bench: no Couchbase password is stored.');
    return 0;
  }
  type Item = vscode.QuickPickItem & { keys: string[] };
  const items: Item[] = keys.map((key) => ({ label: describeSecretKey(key), keys: [key] }));
  if (keys.length > 1) items.push({ label: 'All stored passwords', keys });
  const picked =
    keys.length === 1
      ? items[0]
      : await vscode.window.showQuickPick(items, { title: 'Clear Couchbase password', placeHolder: 'Which password?' });
  if (!picked) return 0;
  for (const key of picked.keys) await services.passwords.clear(key);
  void vscode.window.showInformationMessage(
    `Onload Bench: cleared the password${picked.keys.length === 1 ? '' : 's'} of ${picked.label}.`,
  );
  return picked.keys.length;
}
