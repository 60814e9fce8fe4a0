// Go to definition over JSON-RPC: a value naming another workload file (or a file a key points
// at) jumps to it when it exists, and goes nowhere when it does not.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileUri, type TestClient } from '../support/lspClient';
import { languageId, positionOf, startClient } from './support';

let client: TestClient;
let root: string;
before(async () => {
  root = mkdtempSync(join(tmpdir(), 'ycsb-definition-'));
  mkdirSync(join(root, 'workloads'));
  mkdirSync(join(root, 'other'));
  writeFileSync(join(root, 'workloads', 'workloada'), 'workload=site.ycsb.workloads.CoreWorkload\n');
  writeFileSync(join(root, 'workloads', 'sizes.hist'), 'BlockSize\t1\n');
  client = await startClient([root]);
});
after(async () => {
  await client.stop();
  rmSync(root, { recursive: true, force: true });
});

async function definitionAt(path: string, text: string, at: string) {
  const uri = fileUri(path);
  await client.open(uri, languageId, text);
  const locations = await client.definition(uri, positionOf(text, at, 1));
  await client.close(uri);
  return locations;
}

test('a file a key names, relative to the workload file', async () => {
  const text = 'fieldlengthdistribution=histogram\nfieldlengthhistogram=sizes.hist\n';
  const locations = await definitionAt(join(root, 'workloads', 'mine.ycsb'), text, 'sizes');
  assert.deepEqual(
    locations.map((l) => l.uri),
    [fileUri(join(root, 'workloads', 'sizes.hist'))],
  );
});

test('a workload named from elsewhere in the workspace is found under workloads/', async () => {
  const text = 'label=workloada\n';
  const locations = await definitionAt(join(root, 'other', 'run.ycsb'), text, 'workloada');
  assert.deepEqual(
    locations.map((l) => l.uri),
    [fileUri(join(root, 'workloads', 'workloada'))],
  );
  assert.deepEqual(locations[0]!.range.start, { line: 0, character: 0 });
});

test('no location for a missing file or a plain value', async () => {
  assert.deepEqual(
    await definitionAt(join(root, 'workloads', 'x.ycsb'), 'fieldlengthhistogram=nothere.hist\n', 'nothere'),
    [],
  );
  assert.deepEqual(await definitionAt(join(root, 'workloads', 'y.ycsb'), 'recordcount=1000\n', '1000'), []);
});
