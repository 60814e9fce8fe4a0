// Cross-file results stay fresh in every client: with no file watchers (Neovim 0.7, many small
// clients), a save or an open is the moment the server looks at the disk again; in every client an
// edit of an open imported document re-checks the open documents that import it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

let folder: string;
let noWatcher: TestClient;
let watcher: TestClient;
const codes = (diagnostics: { code?: string | number }[]) => diagnostics.map((d) => String(d.code)).sort();

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fresh-'));
  noWatcher = await startTestClient([folder], { capabilities: { textDocument: { publishDiagnostics: {}, synchronization: { didSave: true } } } });
  watcher = await startTestClient([folder], { capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } } });
});
after(async () => {
  await noWatcher.stop();
  await watcher.stop();
  rmSync(folder, { recursive: true, force: true });
});

const uri = (name: string) => fileUri(join(folder, name));

test('without watchers: an import resolves once the imported profile is created and opened', async () => {
  const main = uri('main-a.opf');
  await noWatcher.open(main, 'onload-profile', 'onload_import created-later\nonload_set EF_POLL_USEC 5\n');
  assert.deepEqual(codes(await noWatcher.diagnostics(main)), ['unresolved-import']);
  writeFileSync(join(folder, 'created-later.opf'), 'onload_set EF_POLL_USEC 1\n');
  const next = noWatcher.nextDiagnostics(main);
  await noWatcher.open(uri('created-later.opf'), 'onload-profile', 'onload_set EF_POLL_USEC 1\n');
  assert.deepEqual(codes(await next), ['ineffective-assignment'], 'resolved, and what it sets counts');
});

test('without watchers: an imported file changed on disk is read again when any document is saved', async () => {
  writeFileSync(join(folder, 'base-b.opf'), 'onload_set EF_POLL_USEC 1\n');
  const main = uri('main-b.opf');
  await noWatcher.open(main, 'onload-profile', 'onload_import base-b\nonload_set EF_POLL_USEC 5\n');
  assert.deepEqual(codes(await noWatcher.diagnostics(main)), ['ineffective-assignment']);
  writeFileSync(join(folder, 'base-b.opf'), 'onload_set EF_SPIN_USEC 1\n');
  const other = uri('other-b.opf');
  await noWatcher.open(other, 'onload-profile', 'onload_set EF_SPIN_USEC 2\n');
  await noWatcher.diagnostics(other);
  const next = noWatcher.nextDiagnostics(main);
  await noWatcher.save(other);
  assert.deepEqual(codes(await next), []);
});

test('in every client: editing an open imported profile re-checks the open profiles that import it, and closing it too', async () => {
  writeFileSync(join(folder, 'base-c.opf'), 'onload_set EF_SPIN_USEC 1\n');
  const main = uri('main-c.opf');
  const base = uri('base-c.opf');
  await watcher.open(main, 'onload-profile', 'onload_import base-c\nonload_set EF_POLL_USEC 5\n');
  await watcher.open(base, 'onload-profile', 'onload_set EF_SPIN_USEC 1\n');
  assert.deepEqual(codes(await watcher.diagnostics(main)), []);
  let next = watcher.nextDiagnostics(main);
  await watcher.change(base, 'onload_set EF_POLL_USEC 1\n');
  assert.deepEqual(codes(await next), ['ineffective-assignment'], 'the unsaved edit counts');
  next = watcher.nextDiagnostics(main);
  await watcher.close(base);
  assert.deepEqual(codes(await next), [], 'closed without saving: the file on disk counts again');
});

test('with watchers: a watched-file event re-checks the open documents', async () => {
  const main = uri('main-d.opf');
  await watcher.open(main, 'onload-profile', 'onload_import made-by-git\n');
  assert.deepEqual(codes(await watcher.diagnostics(main)), ['unresolved-import']);
  writeFileSync(join(folder, 'made-by-git.opf'), 'onload_set EF_POLL_USEC 1\n');
  const next = watcher.nextDiagnostics(main);
  await watcher.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('made-by-git.opf'), type: 1 }] });
  assert.deepEqual(codes(await next), []);
});
