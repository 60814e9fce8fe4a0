// Helpers for tests inside the extension host: where things are, and bounded waits that say
// what they were waiting for when they give up.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'onload-bench.onload-bench';

export function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  if (!found) throw new Error(`extension ${EXTENSION_ID} is not loaded in the extension host`);
  return found;
}

/** The repository the extension was loaded from (the development path). */
export function repoPath(...parts: string[]): string {
  return join(extension().extensionPath, ...parts);
}

export function repoFileMentions(file: string, text: string): boolean {
  const path = repoPath(file);
  return existsSync(path) && readFileSync(path, 'utf8').includes(text);
}

export function workspacePath(...parts: string[]): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return join(folder.uri.fsPath, ...parts);
}

export function workspaceUri(...parts: string[]): vscode.Uri {
  return vscode.Uri.file(workspacePath(...parts));
}

export async function openDocument(...parts: string[]): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(...parts));
  await vscode.window.showTextDocument(document);
  return document;
}

/** Polls `probe` until it returns a value that is not undefined, or fails naming `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Position just after the first occurrence of `text` in the document. */
export function positionAfter(document: vscode.TextDocument, text: string): vscode.Position {
  const offset = document.getText().indexOf(text);
  if (offset < 0) throw new Error(`"${text}" not found in ${document.uri.fsPath}`);
  return document.positionAt(offset + text.length);
}

export function rangeOf(document: vscode.TextDocument, text: string): vscode.Range {
  const offset = document.getText().indexOf(text);
  if (offset < 0) throw new Error(`"${text}" not found in ${document.uri.fsPath}`);
  return new vscode.Range(document.positionAt(offset), document.positionAt(offset + text.length));
}
