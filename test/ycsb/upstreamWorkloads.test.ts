// Every workload file shipped by upstream YCSB and by Couchbase's fork (copied from
// ../shared/ycsb/workloads) validates without a single error; the only warnings are the keys YCSB
// really ignores, and the fork's own keys are shown as fork-only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { fileUri, type TestClient } from '../support/lspClient';
import { fixtures, languageId, startClient, textAt } from './support';

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

const folders = ['upstream', 'couchbaselabs-master', 'couchbaselabs-couchbase3-branch'];
const files = folders.flatMap((folder) =>
  readdirSync(join(fixtures, folder)).map((name) => join(fixtures, folder, name)),
);

/** Keys upstream's own templates set that YCSB does not read (delayedSeries is spelt delayedseries in the code). */
const knownIgnoredKeys = new Set([
  'delayedSeries',
  'delayedIntervals',
  'maxscanrate',
  'scanoptimelimit',
  'discardscannedrecord',
]);
const forkKeys = new Set([
  'collectionenabled',
  'collectionsparam',
  'scopesparam',
  'collectioncount',
  'transactionproportion',
  'transactionreadproportion',
  'transactionupdateproportion',
  'transactioninsertproportion',
  'documentsintransaction',
]);

test('the fixtures are the shared workload files', () => {
  assert.ok(files.length >= 34, `found ${files.length}`);
});

for (const file of files) {
  test(`${file}: no errors, only genuine warnings, fork keys marked`, async () => {
    const text = readFileSync(file, 'utf8');
    const uri = fileUri(resolve(file));
    await client.open(uri, languageId, text);
    const diagnostics = await client.diagnostics(uri, 1);
    await client.close(uri);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => d.message),
      [],
    );
    for (const warning of diagnostics.filter((d) => d.severity === DiagnosticSeverity.Warning)) {
      assert.equal(warning.code, 'unknown-key');
      assert.ok(knownIgnoredKeys.has(textAt(text, warning.range)), textAt(text, warning.range));
    }
    const forkMarked = diagnostics.filter((d) => d.code === 'fork-only-key').map((d) => textAt(text, d.range));
    const forkPresent = text
      .split('\n')
      .map((line) => line.split('=')[0]!.trim())
      .filter((key) => forkKeys.has(key));
    assert.deepEqual(forkMarked, forkPresent);
    if (file.includes('couchbase3-branch') && /collectionenabled|transactionproportion/.test(text))
      assert.ok(forkMarked.length > 0);
  });
}

test('the example workloads are clean: no diagnostics at all', async () => {
  for (const name of ['workloada', 'workloade']) {
    const path = resolve('examples/workloads', name);
    const text = readFileSync(path, 'utf8');
    const uri = fileUri(path);
    await client.open(uri, languageId, text);
    const diagnostics = await client.diagnostics(uri, 1);
    await client.close(uri);
    assert.deepEqual(
      diagnostics.map((d) => `${d.code}: ${d.message}`),
      [],
      name,
    );
  }
});
