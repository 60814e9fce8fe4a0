// Hover over JSON-RPC: the catalog's facts on keys and values, the normalised operation mix on
// proportion keys, fork-only marks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { languageId, memoryUri, positionOf, startClient, textAt } from './support';

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

async function hover(text: string, at: string, delta = 1): Promise<Hover | null> {
  const uri = memoryUri();
  await client.open(uri, languageId, text);
  const result = await client.hover(uri, positionOf(text, at, delta));
  await client.close(uri);
  return result;
}
const markdown = (result: Hover | null) => (result!.contents as MarkupContent).value;

const workloada =
  'workload=site.ycsb.workloads.CoreWorkload\nreadproportion=0.5\nupdateproportion=0.5\nscanproportion=0\n';

test('proportion keys show the whole normalised mix', async () => {
  const result = await hover(workloada, 'updateproportion');
  assert.match(markdown(result), /Operation mix: read 50% · update 50%/);
  assert.equal(textAt(workloada, result!.range!), 'updateproportion');
  const skewed =
    'workload=site.ycsb.workloads.CoreWorkload\nreadproportion=1\nupdateproportion=1\ninsertproportion=2\n';
  assert.match(markdown(await hover(skewed, 'readproportion')), /insert 50% · read 25% · update 25%/);
});

test('keys say in plain words what they take, the default, the range, where they belong and since when', async () => {
  const text = 'minscanlength=5\n';
  const value = markdown(await hover(text, 'minscanlength'));
  assert.match(value, /\*\*minscanlength\*\* · workload setting \(CoreWorkload\)/);
  assert.match(value, /Takes a whole number, 1 or more\. Default: `1`\. Since YCSB 0\.15\.0\./);
  // no catalog field names
  assert.doesNotMatch(value, /Type: `|Range: |Rule: |Availability: |exact-true|\(YCSB: /);
});

test('rules say what YCSB does with a wrong value, in words', async () => {
  const value = markdown(await hover('requestdistribution=zipfian\n', 'requestdistribution'));
  assert.match(value, /Takes one of the values below\./);
  assert.match(value, /: otherwise YCSB stops with an error \(WorkloadException 'Unknown request distribution'\)\./);
  assert.doesNotMatch(value, /\(YCSB: exception/);
});

test('values hover too, with the value range', async () => {
  const text = 'couchbase.persistTo=2\n';
  const result = await hover(text, '=2', 1);
  assert.equal(textAt(text, result!.range!), '2');
  assert.match(markdown(result), /Takes a whole number from 0 to 4\./);
});

test('fork-only and unknown keys say so', async () => {
  assert.match(markdown(await hover('couchbase.kvTimeoutMillis=100\n', 'kvTimeout')), /Couchbase fork only/);
  assert.match(markdown(await hover('collectionenabled=true\n', 'collection')), /fork only/);
  assert.match(markdown(await hover('nosuchkey=1\n', 'nosuch')), /not a YCSB property/);
});

test('no hover on comments', async () => {
  assert.equal(await hover('# readproportion=1\n', 'readproportion'), null);
});
