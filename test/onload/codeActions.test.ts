// Quick fixes over JSON-RPC: the edits each fix applies.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { openProfile, range, startOnloadClient } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

async function fixesFor(name: string, text: string, code: string): Promise<{ uri: string; actions: CodeAction[] }> {
  const { uri, diagnostics } = await openProfile(client, name, text);
  const diagnostic = diagnostics.find((candidate) => candidate.code === code) as Diagnostic;
  assert.ok(diagnostic, `no ${code} in ${JSON.stringify(diagnostics.map((d) => d.code))}`);
  return { uri, actions: await client.codeActions(uri, diagnostic.range, [diagnostic]) };
}

function editsOf(action: CodeAction, uri: string) {
  return action.edit?.changes?.[uri];
}

test('unknown option: change to the suggestion', async () => {
  const { uri, actions } = await fixesFor('fix1.opf', 'onload_set EF_POLL_USC 50\n', 'unknown-option');
  assert.equal(actions[0]!.title, 'Change to EF_POLL_USEC');
  assert.equal(actions[0]!.isPreferred, true);
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(0, 11, 22), newText: 'EF_POLL_USEC' }]);
});

test('deprecated EF_CLUSTER_IGNORE 1: replaced by EF_CLUSTER_SIZE 0', async () => {
  const { uri, actions } = await fixesFor('fix2.opf', 'onload_set EF_CLUSTER_IGNORE 1\n', 'deprecated-option');
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(0, 0, 30), newText: 'onload_set EF_CLUSTER_SIZE 0' }]);
});

test('deprecated EF_MULTICAST_LOOP_OFF: replaced by the inverted EF_MCAST_SEND', async () => {
  const { uri, actions } = await fixesFor('fix2b.opf', 'onload_set EF_MULTICAST_LOOP_OFF 1\n', 'deprecated-option');
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(0, 0, 34), newText: 'onload_set EF_MCAST_SEND 0' }]);
});

test('ineffective assignment: remove the whole line', async () => {
  const { uri, actions } = await fixesFor(
    'fix3.opf',
    'onload_set EF_RXQ_SIZE 512\nonload_set EF_RXQ_SIZE 1024  # too late\necho done\n',
    'ineffective-assignment',
  );
  assert.equal(actions[0]!.title, 'Remove the ineffective line');
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(1, 0, 0, 2), newText: '' }]);
});

test('inside an if block the ineffective line is reported but not removed (it may be the only command)', async () => {
  const { actions } = await fixesFor(
    'fix3b.opf',
    'onload_set EF_RXQ_SIZE 512\nif true; then\n  onload_set EF_RXQ_SIZE 1024\nfi\n',
    'ineffective-assignment',
  );
  // Only the comment that turns the check off for that line (a line of its own changes no block).
  assert.deepEqual(
    actions.map((action) => action.title),
    ["Disable 'ineffective-assignment' for this line"],
  );
});

test('unquoted multi-word value: quote it', async () => {
  const { uri, actions } = await fixesFor(
    'fix4.opf',
    'onload_set EF_INTERFACE_WHITELIST eth0  eth1\n',
    'unquoted-multiword',
  );
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(0, 34, 44), newText: '"eth0 eth1"' }]);
});

test('value cut at a second =: two-word form with a quoted value', async () => {
  const { uri, actions } = await fixesFor(
    'fix5.opf',
    'onload_set EF_SCALABLE_FILTERS=any=rss:active\n',
    'value-cut-at-equals',
  );
  assert.deepEqual(editsOf(actions[0]!, uri), [
    { range: range(0, 11, 45), newText: 'EF_SCALABLE_FILTERS any=rss:active' },
  ]);
});

test('a number given to a name-only enum: use the name', async () => {
  const { uri, actions } = await fixesFor('fix6.opf', 'onload_set EF_CTPIO_MODE 2\n', 'value-not-accepted');
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(0, 25, 26), newText: 'ct' }]);
});

test('unresolved import: the closest profile name', async () => {
  const { uri, actions } = await fixesFor('fix7.opf', 'onload_import latncy\n', 'unresolved-import');
  assert.equal(actions[0]!.title, 'Import latency');
  assert.deepEqual(editsOf(actions[0]!, uri), [{ range: range(0, 14, 20), newText: 'latency' }]);
});

test('diagnostics from other sources get no fixes', async () => {
  const { uri } = await openProfile(client, 'fix8.opf', 'echo hi\n');
  const foreign: Diagnostic = {
    range: range(0, 0, 4),
    message: 'x',
    source: 'shellcheck',
    data: { fixes: [{ title: 'x', edits: [] }] },
  };
  assert.deepEqual(await client.codeActions(uri, foreign.range, [foreign]), []);
});
