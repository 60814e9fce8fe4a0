// "Show effective Onload configuration": asks the language server for a profile's options after
// its imports are resolved and shows the Markdown it returns as a preview (a read-only virtual
// document, so nothing is written to disk).
import * as vscode from 'vscode';
import * as path from 'node:path';
import { requestEffectiveConfiguration } from '../languageClient';
import type { ExtensionServices } from '../extensionServices';

export const effectiveConfigurationScheme = 'onload-bench-effective';

class EffectiveConfigurationDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, markdown: string): void {
    this.contents.set(uri.toString(), markdown);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ?? '*Run "Show effective Onload configuration" again to refresh this view.*'
    );
  }
}

let documents: EffectiveConfigurationDocuments | undefined;

function documentsFor(services: ExtensionServices): EffectiveConfigurationDocuments {
  if (!documents) {
    const provider = new EffectiveConfigurationDocuments();
    services.context.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(effectiveConfigurationScheme, provider),
      {
        dispose: () => {
          documents = undefined;
        },
      },
    );
    documents = provider;
  }
  return documents;
}

async function chooseProfile(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg.trim() !== '') return vscode.Uri.file(arg);
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === 'onload-profile') return active.uri;
  const profiles = await vscode.workspace.findFiles('**/*.opf', '**/node_modules/**', 500);
  if (profiles.length === 0) {
    void vscode.window.showInformationMessage('Onload Bench: open an Onload profile (*.opf) first.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    profiles
      .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
      .map((uri) => ({
        label: path.basename(uri.fsPath),
        description: vscode.workspace.asRelativePath(path.dirname(uri.fsPath)),
        uri,
      })),
    { title: 'Show effective Onload configuration', placeHolder: 'Choose an Onload profile', matchOnDescription: true },
  );
  return picked?.uri;
}

/** Returns the virtual document's Uri so callers (and tests) can read the Markdown. */
export async function showEffectiveConfigurationCommand(
  services: ExtensionServices,
  arg?: unknown,
): Promise<vscode.Uri | undefined> {
  const profile = await chooseProfile(arg);
  if (!profile) return undefined;
  const client = await services.languageClient;
  if (!client)
    throw new Error('the language server is not running, so the effective configuration cannot be computed.');
  // The server resolves imports from open documents first, so unsaved edits are included.
  await vscode.workspace.openTextDocument(profile);
  const result = await requestEffectiveConfiguration(client, profile);

  const name = path.basename(profile.fsPath);
  const view = vscode.Uri.from({
    scheme: effectiveConfigurationScheme,
    path: `/${name} (effective).md`,
    query: profile.toString(),
  });
  documentsFor(services).set(view, result.markdown);
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', view);
  } catch {
    // No Markdown preview (the built-in extension is disabled): show the source instead.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(view), {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
    });
  }
  return view;
}
