// Issue 11 item 13: a manifest with `environment.hosts: null` once left the panel on "Loading
// results…" with an uncaught exception. The run folder loads, says what was wrong, and the view
// model (what the webview draws) is built with the results and no hosts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRunFolder } from '../../client/src/panel/runFolder';
import { buildViewModel } from '../../client/src/panel/viewModel';
import { fixtureFiles } from './fixtureRun';

test('environment.hosts: null and no createdAt: results shown, hosts empty, a warning instead of a hang', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-damaged-'));
  try {
    const manifest = JSON.parse(fixtureFiles().manifest);
    manifest.environment = { hosts: null, profiles: null };
    delete manifest.createdAt;
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(dir, 'results.jsonl'), fixtureFiles().results);
    const data = await loadRunFolder(dir);
    assert.equal(data.results.size, 12);
    assert.deepEqual(data.warnings, [
      'manifest.json: The manifest has no start time (createdAt).',
      'manifest.json: The environment record of the manifest is damaged; what could not be read is not shown.',
    ]);
    const run = buildViewModel([data]).runs[0]!;
    assert.equal(run.groups[0]!.tables[0]!.rows[0]!.kernel.value, 10500);
    assert.ok(run.warnings.length >= 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
