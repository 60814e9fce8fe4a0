// Shared set-up for the Onload LSP tests: a server over stdio with the fixture workspace, and
// helpers to open a profile and wait for its diagnostics.
import { resolve } from 'node:path';
import type { Diagnostic, Position, Range } from 'vscode-languageserver-types';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

export const workspaceFolder = resolve('test/fixtures/onload/workspace');
export const shippedProfilesFolder = resolve('test/fixtures/onload/profiles');

export function workspaceUri(name: string): string {
  return fileUri(resolve(workspaceFolder, name));
}

export async function startOnloadClient(folders: string[] = [workspaceFolder]): Promise<TestClient> {
  return startTestClient(folders);
}

/** Opens `text` as an Onload profile in the fixture workspace and returns its diagnostics. */
export async function openProfile(
  client: TestClient,
  name: string,
  text: string,
): Promise<{ uri: string; diagnostics: Diagnostic[] }> {
  const uri = workspaceUri(name);
  await client.open(uri, 'onload-profile', text);
  return { uri, diagnostics: await client.diagnostics(uri) };
}

export function range(line: number, start: number, end: number, endLine = line): Range {
  return { start: { line, character: start }, end: { line: endLine, character: end } };
}

/** The 0-based position of the first occurrence of `needle` (optionally after `after`) in `text`. */
export function positionOf(text: string, needle: string, offsetInNeedle = 0): Position {
  const index = text.indexOf(needle);
  if (index === -1) throw new Error(`'${needle}' not in text`);
  const before = text.slice(0, index + offsetInNeedle);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

/** Diagnostics reduced to what a user sees, sorted by position. */
export function summary(diagnostics: Diagnostic[]): { code: string; severity: number; range: Range }[] {
  return diagnostics
    .map((diagnostic) => ({
      code: String(diagnostic.code),
      severity: diagnostic.severity ?? 0,
      range: diagnostic.range,
    }))
    .sort(
      (a, b) =>
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character ||
        a.code.localeCompare(b.code),
    );
}

export function messageOf(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}
