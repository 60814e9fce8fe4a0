// Garbage in, no crash out: random bytes, binary files and huge lines go through every feature,
// directly and over JSON-RPC, and the server keeps answering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { WorkspaceFiles } from '../../server/src/common/languageFeatures';
import { neverCancelled } from '../../server/src/common/languageFeatures';
import { createYcsbLanguageService } from '../../server/src/ycsb/service';
import type { TestClient } from '../support/lspClient';
import { languageId, memoryUri, startClient } from './support';

const service = createYcsbLanguageService();
const noFiles: WorkspaceFiles = { read: async () => undefined, find: async () => [] };

/** Runs every feature at a few positions; returns the diagnostics. */
async function exercise(text: string) {
  const document = TextDocument.create('file:///tmp/workloads/workloadx', languageId, 1, text);
  const diagnostics = await service.diagnostics(document, noFiles, neverCancelled);
  const end = document.positionAt(text.length);
  for (const position of [{ line: 0, character: 0 }, document.positionAt(Math.floor(text.length / 2)), end]) {
    await service.completion(document, position, noFiles, neverCancelled);
    await service.hover(document, position, noFiles, neverCancelled);
    await service.definition(document, position, noFiles, neverCancelled);
  }
  await service.documentSymbols(document, neverCancelled);
  await service.codeActions(document, { start: { line: 0, character: 0 }, end }, diagnostics, neverCancelled);
  for (const diagnostic of diagnostics) {
    assert.ok(diagnostic.range.end.line <= end.line, 'range beyond the end of the document');
    assert.equal(typeof diagnostic.code, 'string');
  }
  return diagnostics;
}

test('property: any text, including control characters and lone surrogates, goes through every feature', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
      await exercise(text);
    }),
    { numRuns: 300, seed: 99 },
  );
});

test('binary content (a gzip header and NULs) is just text with diagnostics', async () => {
  const binary = Buffer.from([
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x0a, 0x3d, 0x5c, 0x75, 0xff, 0xfe, 0x00, 0x0d,
  ]).toString('latin1');
  const diagnostics = await exercise(binary.repeat(50));
  assert.ok(diagnostics.some((d) => d.code === 'missing-workload'));
});

test('a 2 MB line and 20 000 short lines are handled', async () => {
  const huge = `workload=site.ycsb.workloads.CoreWorkload\nlabel=${'x'.repeat(2_000_000)}\n${'k'.repeat(1_000_000)}=1\n`;
  const diagnostics = await exercise(huge);
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['unknown-key'],
  );
  const many = Array.from({ length: 20_000 }, (_, i) => `key${i}=${i}`).join('\n');
  const manyDiagnostics = await service.diagnostics(
    TextDocument.create('file:///m', languageId, 1, many),
    noFiles,
    neverCancelled,
  );
  assert.equal(manyDiagnostics.filter((d) => d.code === 'unknown-key').length, 20_000);
});

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

test('over JSON-RPC the server survives garbage and still validates the next document', async () => {
  const garbage = memoryUri();
  await client.open(garbage, languageId, '\u0000\uffff\\u12\\\n=:=\r\r\n\\'.repeat(1000));
  await client.diagnostics(garbage, 1);
  await client.completion(garbage, { line: 5, character: 3 });
  await client.hover(garbage, { line: 0, character: 2 });
  const good = memoryUri();
  await client.open(good, languageId, 'recordcount=1\n');
  const diagnostics = await client.diagnostics(good, 1);
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['missing-workload'],
  );
});
