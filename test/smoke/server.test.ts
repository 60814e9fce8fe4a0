import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestClient } from '../support/lspClient';

test('the bundled server answers initialize and shuts down over stdio', async () => {
  const client = await startTestClient();
  const symbols = await client.documentSymbols('file:///nowhere/unknown.txt');
  assert.deepEqual(symbols, []);
  await client.stop();
});
