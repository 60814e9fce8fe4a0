// Import resolution asks the disk about folders, not about each name (issue 26 B13): a 2.7 MB
// profile of 100,000 imports of names that exist nowhere took 17.8 s to a first hover, four
// look-ups per name on every check. Counted here, not timed (the time is in `npm run bench`):
// the look-ups of one check stay the same whether the profile imports 300 names or 3,000, and
// what resolves still resolves, on disk or open in the editor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { NodeWorkspaceFiles } from '../../server/src/common/nodeWorkspaceFiles';
import { createOnloadLanguage } from '../../server/src/onload/service';

const fsPromises = require('node:fs/promises') as Record<string, (...args: unknown[]) => unknown>;

/** Calls that ask the disk about a path (stat, open, read, list) while `work` runs. */
async function diskLookUps<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const names = ['stat', 'lstat', 'open', 'readFile', 'readdir', 'access'];
  const originals = new Map(names.map((name) => [name, fsPromises[name]!]));
  let calls = 0;
  for (const [name, original] of originals)
    fsPromises[name] = (...args: unknown[]) => {
      calls++;
      return original(...args);
    };
  try {
    return { result: await work(), calls };
  } finally {
    for (const [name, original] of originals) fsPromises[name] = original;
  }
}

test('one check of a profile of many unresolved imports asks the disk as often for 300 names as for 3,000', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'import-look-ups-'));
  mkdirSync(join(folder, 'shared'));
  writeFileSync(join(folder, 'present.opf'), 'onload_set EF_SPIN_USEC 1\n');
  writeFileSync(join(folder, 'shared', 'common.opf-fragment'), 'onload_set EF_INT_DRIVEN 0\n');
  const openUri = pathToFileURL(join(folder, 'unsaved.opf')).toString();
  try {
    const check = async (count: number) => {
      const lines = Array.from({ length: count }, (_, index) => `onload_import absent-${index}`);
      const text = [
        'onload_import present',
        'onload_import common',
        'onload_import unsaved',
        ...lines,
        'onload_set EF_POLL_USEC 5',
        '',
      ].join('\n');
      const language = createOnloadLanguage({ profilePath: [join(folder, 'shared')] });
      const files = new NodeWorkspaceFiles(
        () => [pathToFileURL(folder).toString()],
        (uri) => (uri === openUri ? 'onload_set EF_BUZZ_USEC 2\n' : undefined),
        () => [openUri],
      );
      const document = TextDocument.create(
        pathToFileURL(join(folder, `many-${count}.opf`)).toString(),
        'onload-profile',
        1,
        text,
      );
      return diskLookUps(() => language.diagnostics(document, files, { isCancellationRequested: false }));
    };
    await check(10); // first use: the catalog and modules load
    const small = await check(300);
    const large = await check(3000);
    // What the user sees: each absent name an error on its line; the three that exist resolve
    // (beside the profile, through profilePath, and an unsaved open document).
    for (const [checked, count] of [
      [small, 300],
      [large, 3000],
    ] as const) {
      const unresolved = checked.result.filter((diagnostic) => diagnostic.code === 'unresolved-import');
      assert.equal(unresolved.length, count);
      assert.deepEqual(
        unresolved.map((diagnostic) => diagnostic.range.start.line),
        Array.from({ length: count }, (_, index) => index + 3),
      );
      assert.deepEqual(
        unresolved.map((diagnostic) => diagnostic.severity),
        Array.from({ length: count }, () => 1),
      );
    }
    assert.equal(large.calls, small.calls, `${small.calls} look-ups for 300 names, ${large.calls} for 3,000`);
    assert.ok(large.calls < 20, `${large.calls} look-ups`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
