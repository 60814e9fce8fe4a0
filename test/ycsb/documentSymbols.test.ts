// Document symbols over JSON-RPC: keys grouped under the part of YCSB that reads them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { languageId, memoryUri, startClient, textAt } from './support';

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

test('outline groups keys by component, with values as details and key selection ranges', async () => {
  const text = [
    '# Couchbase run',
    'workload=site.ycsb.workloads.CoreWorkload',
    'readproportion=0.5',
    'couchbase.host=10.0.0.1',
    'couchbase.epoll=true',
    'measurementtype=hdrhistogram',
    'mystery=1',
    'updateproportion=0.5',
  ].join('\n');
  const uri = memoryUri();
  await client.open(uri, languageId, text);
  const symbols = (await client.documentSymbols(uri)) as DocumentSymbol[];
  await client.close(uri);
  const outline = symbols.map((group) => [
    group.name,
    (group.children ?? []).map((child) => `${child.name}=${child.detail}`),
  ]);
  assert.deepEqual(outline, [
    ['CoreWorkload', ['readproportion=0.5', 'updateproportion=0.5']],
    ['Client', ['workload=site.ycsb.workloads.CoreWorkload']],
    ['couchbase2 binding', ['couchbase.host=10.0.0.1', 'couchbase.epoll=true']],
    ['Measurements', ['measurementtype=hdrhistogram']],
    ['Not read by YCSB', ['mystery=1']],
  ]);
  const host = symbols[2]!.children![0]!;
  assert.equal(textAt(text, host.selectionRange), 'couchbase.host');
  assert.equal(textAt(text, host.range), 'couchbase.host=10.0.0.1');
});
