// Helpers for the YCSB tests: a freshly bundled server (only the server entry, so a half-written
// file elsewhere in the tree cannot block these tests), fixture paths and position helpers.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

export const languageId = 'ycsb-workload';
export const fixtures = 'test/fixtures/ycsb';

let bundled: Promise<void> | undefined;

/** Bundles server/src/main.ts to dist/server.js; written through a rename so test files running in
 * parallel never start a half-written bundle. */
async function bundleServer(): Promise<void> {
  try {
    const result = await build({
      write: false,
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
    mkdirSync('dist', { recursive: true });
    for (const file of result.outputFiles) {
      const temporary = `${file.path}.${process.pid}.tmp`;
      writeFileSync(temporary, file.contents);
      renameSync(temporary, file.path);
    }
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
