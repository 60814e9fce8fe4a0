// Completion over JSON-RPC: keys grouped by component with defaults, only the binding in use,
// values for distributions, insertorder, measurement types, booleans and workload classes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { languageId, memoryUri, positionOf, startClient } from './support';

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

async function complete(text: string, at: string, delta = at.length): Promise<CompletionItem[]> {
  const uri = memoryUri();
  await client.open(uri, languageId, text);
  const items = await client.completion(uri, positionOf(text, at, delta));
  await client.close(uri);
  return items;
}

const labels = (items: CompletionItem[]) => items.map((item) => item.label);

test('keys: defaults shown, Core workload keys first, present keys left out', async () => {
  const items = await complete('workload=site.ycsb.workloads.CoreWorkload\nrecordcount=10\nrec', '10\nrec');
  const operationcount = items.find((item) => item.label === 'operationcount')!;
  assert.match(operationcount.detail!, /Client · default 0/);
  assert.equal((operationcount.textEdit as TextEdit).newText, 'operationcount=0');
  assert.ok(!labels(items).includes('recordcount'));
  const sorted = [...items].sort((a, b) => a.sortText!.localeCompare(b.sortText!));
  assert.equal(sorted[0]!.labelDetails?.description, 'CoreWorkload');
  const requestdistribution = items.find((item) => item.label === 'requestdistribution')!;
  assert.match(JSON.stringify(requestdistribution.documentation), /zipfian/);
});

test('keys: only the binding in use (couchbase2 keys, not the couchbase 1.x ones)', async () => {
  const items = await complete('db=site.ycsb.db.couchbase2.Couchbase2Client\ncouchbase.', 'couchbase.');
  const names = labels(items);
  assert.ok(names.includes('couchbase.kvEndpoints'));
  assert.ok(names.includes('couchbase.epoll'));
  assert.ok(!names.includes('couchbase.url'), 'couchbase 1.x key offered');
  assert.ok(!names.includes('couchbase.kvTimeoutMillis'), 'couchbase3 key offered');
});

test('keys: the couchbase 1.x binding gets its own keys', async () => {
  const names = labels(
    await complete('couchbase.url=http://h:8091/pools\ncouchbase.ddoc=d\n\n', 'ddoc=d\n', 'ddoc=d\n'.length),
  );
  assert.ok(names.includes('couchbase.view'));
  assert.ok(!names.includes('couchbase.epoll'));
});

test('values: request distributions, insertorder, measurement types, booleans', async () => {
  assert.deepEqual(labels(await complete('requestdistribution=', '=', 1)), [
    'uniform',
    'zipfian',
    'latest',
    'hotspot',
    'sequential',
    'exponential',
  ]);
  const rest = labels(
    await complete('workload=site.ycsb.workloads.RestWorkload\nrequestdistribution=', 'requestdistribution='),
  );
  assert.deepEqual(rest, ['uniform', 'zipfian', 'hotspot', 'exponential']);
  const order = await complete('insertorder=', '=', 1);
  assert.deepEqual(labels(order), ['hashed', 'ordered']);
  assert.equal(order.find((item) => item.label === 'hashed')!.labelDetails?.description, 'default');
  assert.ok(labels(await complete('measurementtype=', '=', 1)).includes('hdrhistogram+histogram'));
  assert.deepEqual(labels(await complete('couchbase.epoll = ', '= ', 2)), ['true', 'false']);
});

test('values: workload classes in both packages, the package in use first', async () => {
  const fresh = labels(await complete('workload=', '=', 1));
  assert.equal(fresh[0], 'site.ycsb.workloads.CoreWorkload');
  assert.ok(fresh.includes('com.yahoo.ycsb.workloads.CoreWorkload'));
  const fork = await complete(
    'db=com.yahoo.ycsb.db.couchbase2.Couchbase2Client\nworkload=Core',
    'workload=',
    'workload='.length,
  );
  const first = [...fork].sort((a, b) => a.sortText!.localeCompare(b.sortText!))[0]!;
  assert.equal(first.label, 'com.yahoo.ycsb.workloads.CoreWorkload');
  assert.equal((first.textEdit as TextEdit).range.end.character, 'workload=Core'.length);
});

test('no completion inside a comment', async () => {
  assert.deepEqual(await complete('# record', '# rec'), []);
});
