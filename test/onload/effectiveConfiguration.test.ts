// The onloadBench/effectiveConfiguration request over JSON-RPC.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EffectiveConfigurationRequest, type EffectiveConfigurationResult } from '../../server/src/protocol';
import type { TestClient } from '../support/lspClient';
import { startOnloadClient, workspaceUri } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

test('a profile on disk: first assignment wins across imports, with where each value comes from', async () => {
  const uri = workspaceUri('couchbase.opf');
  const result = await client.connection.sendRequest<EffectiveConfigurationResult>(
    EffectiveConfigurationRequest.method,
    { uri },
  );
  const byName = new Map(result.entries.map((entry) => [entry.name, entry]));
  // latency (imported first) sets EF_POLL_USEC 100000; base's 50 comes too late.
  assert.deepEqual(byName.get('EF_POLL_USEC'), {
    name: 'EF_POLL_USEC',
    value: '100000',
    uri: 'onload-profile:latency',
    line: 9,
    conditional: false,
  });
  assert.deepEqual(byName.get('EF_MAX_ENDPOINTS'), {
    name: 'EF_MAX_ENDPOINTS',
    value: '8192',
    uri: workspaceUri('base.opf-fragment'),
    line: 2,
    conditional: false,
  });
  assert.deepEqual(byName.get('EF_UL_EPOLL'), { name: 'EF_UL_EPOLL', value: '3', uri, line: 3, conditional: false });
  assert.equal(result.entries.length, 6);
  assert.match(
    result.markdown,
    /\| `EF_POLL_USEC` \| `100000` \| shipped profile latency line 10 via onload_import latency \| 1 later assignment ignored \|/,
  );
});

test('an unreadable profile is an error response, not a crash', async () => {
  await assert.rejects(
    client.connection.sendRequest(EffectiveConfigurationRequest.method, { uri: workspaceUri('missing.opf') }),
    /cannot read/,
  );
});
