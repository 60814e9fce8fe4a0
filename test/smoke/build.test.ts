import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('the manifest names the extension and its two languages', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.equal(manifest.name, 'onload-bench');
  assert.equal(manifest.displayName, 'Onload Bench for Couchbase');
  const ids = manifest.contributes.languages.map((language: { id: string }) => language.id);
  assert.deepEqual(ids, ['onload-profile', 'ycsb-workload']);
});
