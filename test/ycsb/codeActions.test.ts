// Quick fixes over JSON-RPC: the server offers them for its diagnostics, and applying the edit
// makes the diagnostic go away on the next validation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { languageId, memoryUri, startClient } from './support';

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

/** Opens the text, applies the first fix for `code`, and returns the new text and its diagnostics. */
async function fix(
  text: string,
  code: string,
  title?: RegExp,
): Promise<{ action: CodeAction; text: string; after: Diagnostic[] }> {
  const uri = memoryUri();
  await client.open(uri, languageId, text);
  const diagnostics = await client.diagnostics(uri, 1);
  const diagnostic = diagnostics.find((d) => d.code === code);
  assert.ok(diagnostic, `no ${code} in ${JSON.stringify(diagnostics)}`);
  const actions = await client.codeActions(uri, diagnostic.range, [diagnostic]);
  const action = title ? actions.find((a) => title.test(a.title)) : actions[0];
  assert.ok(action, `no fix among ${JSON.stringify(actions.map((a) => a.title))}`);
  assert.equal(action.kind, 'quickfix');
  const edits = action.edit!.changes![uri]!;
  const fixed = TextDocument.applyEdits(TextDocument.create(uri, languageId, 1, text), edits);
  await client.change(uri, fixed);
  const after = await client.diagnostics(uri, 2);
  await client.close(uri);
  return { action, text: fixed, after };
}

const base = 'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1000\noperationcount=1000\n';

test('did-you-mean on an unknown distribution', async () => {
  const result = await fix(`${base}requestdistribution=zipfain\n`, 'unknown-value');
  assert.equal(result.action.title, "Change to 'zipfian'");
  assert.equal(result.action.isPreferred, true);
  assert.match(result.text, /requestdistribution=zipfian\n/);
  assert.deepEqual(result.after, []);
});

test('did-you-mean on a misspelt key', async () => {
  const result = await fix(`${base}feildcount=5\n`, 'unknown-key');
  assert.match(result.text, /\nfieldcount=5\n/);
  assert.deepEqual(result.after, []);
});

test('missing workload is added at the top, in the package the file already uses', async () => {
  const result = await fix(
    'db=com.yahoo.ycsb.db.couchbase2.Couchbase2Client\nrecordcount=10\noperationcount=10\n',
    'missing-workload',
  );
  assert.ok(result.text.startsWith('workload=com.yahoo.ycsb.workloads.CoreWorkload\n'));
  assert.deepEqual(result.after, []);
});

test('zipfian without operationcount gets operationcount = recordcount', async () => {
  const result = await fix(
    'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=5000\nrequestdistribution=zipfian',
    'zipfian-needs-operationcount',
  );
  assert.equal(
    result.text,
    'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=5000\nrequestdistribution=zipfian\noperationcount=5000',
  );
  assert.deepEqual(result.after, []);
});

test('overridden duplicate line is removed', async () => {
  const result = await fix(`${base}fieldcount=5\nfieldcount=6\n`, 'duplicate-key');
  assert.equal(result.text, `${base}fieldcount=6\n`);
  assert.deepEqual(result.after, []);
});

test('capitalised boolean becomes lower-case true; trailing white space trimmed from a number', async () => {
  const bool = await fix(`${base}couchbase.upsert=TRUE\n`, 'boolean-case-false');
  assert.match(bool.text, /couchbase\.upsert=true\n/);
  assert.deepEqual(bool.after, []);
  const number = await fix(`${base}threadcount=16  \n`, 'invalid-integer');
  assert.match(number.text, /threadcount=16\n/);
  assert.deepEqual(number.after, []);
});

test('out-of-range persistTo is clamped; dataintegrity gets a constant field length', async () => {
  const persist = await fix(`${base}couchbase.persistTo=7\n`, 'value-out-of-range');
  assert.match(persist.text, /persistTo=4\n/);
  const integrity = await fix(
    `${base}dataintegrity=true\nfieldlengthdistribution=zipfian\n`,
    'dataintegrity-needs-constant-fieldlength',
  );
  assert.match(integrity.text, /fieldlengthdistribution=constant\n/);
  assert.deepEqual(integrity.after, []);
});
