// Go to definition over JSON-RPC: onload_import opens the imported profile.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestClient } from '../support/lspClient';
import { startTestClient } from '../support/lspClient';
import { startOnloadClient, workspaceFolder, workspaceUri } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

test('an import resolves beside the importing file, never anywhere in the workspace', async () => {
  const uri = workspaceUri('definition.opf');
  await client.open(
    uri,
    'onload-profile',
    'onload_import base\nonload_import deep-tuning\nonload_import latency\nonload_set EF_POLL_USEC 1\n',
  );
  assert.deepEqual(await client.definition(uri, { line: 0, character: 16 }), [
    {
      uri: workspaceUri('base.opf-fragment'),
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    },
  ]);
  // nested/deep-tuning.opf-fragment is in the workspace but not beside the profile: the launcher would not find it.
  assert.deepEqual(await client.definition(uri, { line: 1, character: 16 }), []);
  // A standard profile that is not in the workspace has no file to open; a set is no import.
  assert.deepEqual(await client.definition(uri, { line: 2, character: 16 }), []);
  assert.deepEqual(await client.definition(uri, { line: 3, character: 14 }), []);
});

test('the folders of onloadBench.profilePath come after the importing folder, in order', async () => {
  const withPath = await startTestClient([workspaceFolder], {
    initializationOptions: { onloadBench: { profilePath: ['nested'] } },
  });
  try {
    const uri = workspaceUri('definition-path.opf');
    await withPath.open(uri, 'onload-profile', 'onload_import deep-tuning\nonload_import base\n');
    assert.equal(
      (await withPath.definition(uri, { line: 0, character: 16 }))[0]?.uri,
      workspaceUri('nested/deep-tuning.opf-fragment'),
    );
    assert.equal(
      (await withPath.definition(uri, { line: 1, character: 16 }))[0]?.uri,
      workspaceUri('base.opf-fragment'),
    );
    const hover = await withPath.hover(uri, { line: 0, character: 16 });
    const text = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    assert.match(
      text,
      /nested\/deep-tuning\.opf-fragment`, found in `[^`]*nested` \(setting `onloadBench\.profilePath`/,
    );
    const beside = await withPath.hover(uri, { line: 1, character: 16 });
    assert.match(
      beside && typeof beside.contents === 'object' && 'value' in beside.contents ? beside.contents.value : '',
      /base\.opf-fragment`, found beside this profile/,
    );
    assert.deepEqual(
      (await withPath.diagnostics(uri)).filter((d) => d.code === 'unresolved-import'),
      [],
    );
  } finally {
    await withPath.stop();
  }
});
