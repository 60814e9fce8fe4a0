// Go to definition over JSON-RPC: onload_import opens the imported profile.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestClient } from '../support/lspClient';
import { startOnloadClient, workspaceUri } from './support';

let client: TestClient;
before(async () => { client = await startOnloadClient(); });
after(async () => { await client.stop(); });

test('an import of a workspace profile: same folder first, then anywhere in the workspace', async () => {
  const uri = workspaceUri('definition.opf');
  await client.open(uri, 'onload-profile', 'onload_import base\nonload_import deep-tuning\nonload_import latency\nonload_set EF_POLL_USEC 1\n');
  assert.deepEqual(await client.definition(uri, { line: 0, character: 16 }), [
    { uri: workspaceUri('base.opf-fragment'), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
  ]);
  const deep = await client.definition(uri, { line: 1, character: 16 });
  assert.equal(deep[0]?.uri, workspaceUri('nested/deep-tuning.opf-fragment'));
  // A standard profile that is not in the workspace has no file to open; a set is no import.
  assert.deepEqual(await client.definition(uri, { line: 2, character: 16 }), []);
  assert.deepEqual(await client.definition(uri, { line: 3, character: 14 }), []);
});
