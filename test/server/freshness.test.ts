// Cross-file results stay fresh in every client: with no file watchers (Neovim 0.7, many small
// clients), a save or an open is the moment the server looks at the disk again; in every client an
// edit of an open imported document re-checks the open documents that import it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registration, RegistrationParams } from 'vscode-languageserver-protocol';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

let folder: string;
let noWatcher: TestClient;
let watcher: TestClient;
/** What each client was asked to register (client/registerCapability). */
const registered = { noWatcher: [] as Registration[], watcher: [] as Registration[] };
const codes = (diagnostics: { code?: string | number }[]) => diagnostics.map((d) => String(d.code)).sort();
const recordInto = (list: Registration[]) => ({
  'client/registerCapability': (params: unknown) => {
    list.push(...(params as RegistrationParams).registrations);
    return null;
  },
});

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fresh-'));
  noWatcher = await startTestClient([folder], {
    capabilities: { textDocument: { publishDiagnostics: {}, synchronization: { didSave: true } } },
    onRequest: recordInto(registered.noWatcher),
  });
  watcher = await startTestClient([folder], {
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    onRequest: recordInto(registered.watcher),
  });
});
after(async () => {
  await noWatcher.stop();
  await watcher.stop();
  rmSync(folder, { recursive: true, force: true });
});
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

test('without watchers: a profile created outside the editor resolves when the importer itself is saved, and a later change on disk counts at the next save', async () => {
  const main = uri('main-e.opf');
  await noWatcher.open(main, 'onload-profile', 'onload_import from-terminal\nonload_set EF_POLL_USEC 5\n');
  assert.deepEqual(codes(await noWatcher.diagnostics(main)), ['unresolved-import']);
  writeFileSync(join(folder, 'from-terminal.opf'), 'onload_set EF_POLL_USEC 1\n');
  let next = noWatcher.nextDiagnostics(main);
  await noWatcher.save(main);
  assert.deepEqual(
    codes(await next),
    ['ineffective-assignment'],
    ':w of the importer shows the file created in a terminal',
  );
  writeFileSync(join(folder, 'from-terminal.opf'), 'onload_set EF_SPIN_USEC 1\n');
  next = noWatcher.nextDiagnostics(main);
  await noWatcher.save(main);
  assert.deepEqual(codes(await next), [], 'the new content on disk (a git checkout) counts');
});

test('without watchers: an edit re-reads the disk, and import-name completion lists a profile created meanwhile', async () => {
  writeFileSync(join(folder, 'base-f.opf'), 'onload_set EF_SPIN_USEC 1\n');
  const main = uri('main-f.opf');
  await noWatcher.open(main, 'onload-profile', 'onload_import base-f\nonload_set EF_POLL_USEC 5\nonload_import \n');
  assert.deepEqual(codes(await noWatcher.diagnostics(main)), ['unresolved-import'], 'the import being typed');
  const names = async () => (await noWatcher.completion(main, { line: 2, character: 14 })).map((item) => item.label);
  assert.ok((await names()).includes('base-f'));
  assert.ok(!(await names()).includes('made-in-shell'));
  writeFileSync(join(folder, 'made-in-shell.opf-fragment'), 'onload_set EF_POLL_USEC 1\n');
  writeFileSync(join(folder, 'base-f.opf'), 'onload_set EF_POLL_USEC 1\n');
  await noWatcher.change(main, 'onload_import base-f\nonload_set EF_POLL_USEC 5\nonload_import  \n');
  assert.deepEqual(
    codes(await noWatcher.diagnostics(main)),
    ['ineffective-assignment', 'unresolved-import'],
    'base-f as it is on disk now',
  );
  assert.ok((await names()).includes('made-in-shell'), 'the listing was read again after the edit');
});

test('a client that declares watchers but refuses to register them: the server lives on and looks at the disk again on save', async () => {
  const refusing = await startTestClient([folder], {
    capabilities: {
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: { synchronization: { didSave: true } },
    },
    onRequest: {
      'client/registerCapability': () => {
        throw new Error('no file watching here');
      },
    },
  });
  try {
    const main = uri('main-h.opf');
    await refusing.open(main, 'onload-profile', 'onload_import refused-watch\n');
    assert.deepEqual(codes(await refusing.diagnostics(main)), ['unresolved-import']);
    writeFileSync(join(folder, 'refused-watch.opf'), 'onload_set EF_POLL_USEC 1\n');
    const next = refusing.nextDiagnostics(main);
    await refusing.save(main);
    assert.deepEqual(codes(await next), []);
  } finally {
    await refusing.stop();
  }
});

test('in every client: a burst of edits to an open imported profile re-checks each open importer once, with the last text', async () => {
  writeFileSync(join(folder, 'base-g.opf'), 'onload_set EF_SPIN_USEC 1\n');
  const main = uri('main-g.opf');
  const base = uri('base-g.opf');
  await watcher.open(main, 'onload-profile', 'onload_import base-g\nonload_set EF_POLL_USEC 9\n');
  assert.deepEqual(codes(await watcher.diagnostics(main)), []);
  const reopened = watcher.nextDiagnostics(main);
  await watcher.open(base, 'onload-profile', 'onload_set EF_SPIN_USEC 1\n');
  await reopened; // opening the imported profile re-checks its importer once
  const count = watcher.publishedFor(main).length;
  const next = watcher.nextDiagnostics(main);
  for (const value of [1, 2, 3, 4, 5]) await watcher.change(base, `onload_set EF_POLL_USEC ${value}\n`);
  const [ineffective, ...others] = await next;
  assert.deepEqual(others, []);
  assert.equal(ineffective?.code, 'ineffective-assignment');
  assert.match(String(ineffective?.message), /'5'/, 'the last text of the burst');
  await settle(800);
  assert.equal(watcher.publishedFor(main).length, count + 1, 'one re-check for five edits');
});

test('URIs spelled as Neovim spells them (`@`, `+` unescaped): the unsaved text of an open import counts and its edits re-check the importer', async () => {
  const sub = join(folder, 'team@site+c');
  mkdirSync(sub);
  writeFileSync(join(sub, 'base-i.opf'), 'onload_set EF_SPIN_USEC 1\n');
  // pathToFileURL leaves '@' and '+' as they are, as Neovim's vim.uri_from_fname does; vscode-uri would write %40 and
  // %2B.
  const main = fileUri(join(sub, 'main-i.opf'));
  const base = fileUri(join(sub, 'base-i.opf'));
  assert.match(base, /team@site\+c/);
  await watcher.open(base, 'onload-profile', 'onload_set EF_POLL_USEC 1\n');
  await watcher.diagnostics(base);
  await watcher.open(main, 'onload-profile', 'onload_import base-i\nonload_set EF_POLL_USEC 5\n');
  assert.deepEqual(
    codes(await watcher.diagnostics(main)),
    ['ineffective-assignment'],
    'the open buffer, not the file on disk',
  );
  const next = watcher.nextDiagnostics(main);
  await watcher.change(base, 'onload_set EF_SPIN_USEC 1\n');
  assert.deepEqual(codes(await next), []);
});

test('watchers on/off: a file watcher is registered only with a client that can watch', async () => {
  await settle(100);
  assert.deepEqual(
    registered.watcher.map((registration) => [registration.method, registration.registerOptions]),
    [['workspace/didChangeWatchedFiles', { watchers: [{ globPattern: '**/*' }] }]],
  );
  assert.deepEqual(registered.noWatcher, []);
});

test('with watchers: a watched-file event re-checks the open documents', async () => {
  const main = uri('main-d.opf');
  await watcher.open(main, 'onload-profile', 'onload_import made-by-git\n');
  assert.deepEqual(codes(await watcher.diagnostics(main)), ['unresolved-import']);
  writeFileSync(join(folder, 'made-by-git.opf'), 'onload_set EF_POLL_USEC 1\n');
  const next = watcher.nextDiagnostics(main);
  await watcher.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uri('made-by-git.opf'), type: 1 }],
  });
  assert.deepEqual(codes(await next), []);
});

test('with watchers: the file listing follows the events, not the edits', async () => {
  const main = uri('main-j.opf');
  await watcher.open(main, 'onload-profile', 'onload_import \n');
  await watcher.diagnostics(main);
  const names = async () => (await watcher.completion(main, { line: 0, character: 14 })).map((item) => item.label);
  assert.ok(!(await names()).includes('checked-out'));
  writeFileSync(join(folder, 'checked-out.opf'), 'onload_set EF_POLL_USEC 1\n');
  await watcher.change(main, 'onload_import  \n');
  assert.ok(!(await names()).includes('checked-out'), 'no event yet: the listing is the one the watcher keeps current');
  await watcher.connection.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uri('checked-out.opf'), type: 1 }],
  });
  assert.ok((await names()).includes('checked-out'));
});

test('with watchers: a profile opened in the editor before it is saved resolves the import that names it, among many that resolve nowhere', async () => {
  const main = uri('main-k.opf');
  const missing = Array.from({ length: 50 }, (_, index) => `onload_import nowhere-k${index}`).join('\n');
  await watcher.open(main, 'onload-profile', `onload_import unsaved-k\n${missing}\nonload_set EF_POLL_USEC 5\n`);
  assert.deepEqual(codes(await watcher.diagnostics(main)).filter((code) => code === 'unresolved-import').length, 51);
  const next = watcher.nextDiagnostics(main);
  // Not on disk, and no watcher event: only the open document says it exists.
  await watcher.open(uri('unsaved-k.opf'), 'onload-profile', 'onload_set EF_POLL_USEC 1\n');
  const diagnostics = await next;
  assert.equal(diagnostics.filter((d) => d.code === 'unresolved-import').length, 50);
  assert.ok(diagnostics.every((d) => d.code !== 'unresolved-import' || d.range.start.line > 0));
  assert.ok(diagnostics.some((d) => d.code === 'ineffective-assignment' && d.range.start.line === 51));
});
