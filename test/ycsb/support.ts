// Helpers for the YCSB tests: a freshly bundled server (only the server entry, so a half-written
// file elsewhere in the tree cannot block these tests), fixture paths and position helpers.
import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

export const languageId = 'ycsb-workload';
export const fixtures = 'test/fixtures/ycsb';

let bundled: Promise<void> | undefined;

async function bundleServer(): Promise<void> {
  try {
    await build({
      entryPoints: { server: 'server/src/main.ts' },
      outdir: 'dist',
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: true,
      logLevel: 'silent',
      external: ['vscode', 'couchbase'],
    });
  } catch (error) {
    if (!existsSync('dist/server.js')) throw error;
  }
}

/** Starts the real server over stdio, after bundling it once per test process. */
export async function startClient(workspaceFolders: string[] = []): Promise<TestClient> {
  bundled ??= bundleServer();
  await bundled;
  return startTestClient(workspaceFolders);
}

let counter = 0;
/** A URI for an in-memory workload document (never written to disk). */
export function memoryUri(name = 'workload'): string {
  counter += 1;
  return fileUri(`/tmp/ycsb-test-${process.pid}/workloads/${name}${counter}`);
}

/** The text a range covers. */
export function textAt(text: string, range: Range): string {
  const document = TextDocument.create('file:///x', languageId, 1, text);
  return document.getText(range);
}

/** The position of the first occurrence of `needle` (plus `delta` characters). */
export function positionOf(text: string, needle: string, delta = 0) {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`'${needle}' not in text`);
  return TextDocument.create('file:///x', languageId, 1, text).positionAt(index + delta);
}
