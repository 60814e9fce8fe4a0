// The server as eglot 1.9, lsp-mode 8 and ALE 3.3 meet it, over JSON-RPC with the `initialize`
// params each of them really sent (captured from Debian's packages: test/fixtures/clients, kept
// current by test/emacs and test/vim). Each test is one thing that client's user saw go wrong:
// eglot's *Warnings* about a registration it never declared, lsp-mode's TAB after a completion,
// ALE's empty quick-fix list, a hover footer naming a command only VS Code has, and label details
// sent to clients that did not ask for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompletionItem, CompletionList } from 'vscode-languageserver-types';
import { fileUri, startTestClient } from '../support/lspClient';

const clientParams = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(`test/fixtures/clients/${name}.initialize.json`, 'utf8'));
const eglot = clientParams('eglot-1.9');
const lspMode = clientParams('lsp-mode-8.0.0');
const ale = clientParams('ale-3.3.0');

function workspace(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'real-client-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

/** Settles once the server has had time to send what it sends after `initialized`. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

test('eglot: no dynamic registration it did not declare (no *Warnings* about workspace/didChangeConfiguration)', async () => {
  const folder = workspace({ 'a.opf': 'onload_set EF_POLL_USEC 5\n' });
  const registered: string[] = [];
  const client = await startTestClient([folder], {
    clientParams: eglot,
    onRequest: {
      'client/registerCapability': (params) => {
        registered.push(...(params as { registrations: { method: string }[] }).registrations.map((r) => r.method));
        return null;
      },
    },
  });
  try {
    await client.open(fileUri(join(folder, 'a.opf')), 'onload-profile', 'onload_set EF_POLL_USEC 5\n');
    await client.diagnostics(fileUri(join(folder, 'a.opf')));
    await settle();
    // eglot declares dynamicRegistration for file watchers only.
    assert.deepEqual(registered, ['workspace/didChangeWatchedFiles']);
  } finally {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('lsp-mode: completions are inserted as they are (insertTextMode 1), so no TAB is added after a value', async () => {
  const folder = workspace({ workloadx: 'workload=site.ycsb.workloads.CoreWorkload\nrequestdistribution=\nrecordc\n' });
  const client = await startTestClient([folder], { clientParams: lspMode });
  const uri = fileUri(join(folder, 'workloadx'));
  try {
    await client.open(
      uri,
      'ycsb-workload',
      'workload=site.ycsb.workloads.CoreWorkload\nrequestdistribution=\nrecordc\n',
    );
    for (const position of [
      { line: 1, character: 20 },
      { line: 2, character: 7 },
    ]) {
      const answer = await client.completionAnswer(uri, position);
      const items: CompletionItem[] = Array.isArray(answer) ? answer : (answer as CompletionList).items;
      assert.ok(items.length > 0);
      // lsp-mode 8 does not read itemDefaults (and does not declare them): every item says it.
      for (const item of items) assert.equal(item.insertTextMode, 1, item.label);
    }
  } finally {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('lsp-mode: no labelDetails (not declared); VS Code-like clients that declare them still get them', async () => {
  const folder = workspace({});
  const text = 'workload=site.ycsb.workloads.CoreWorkload\nrequestdistribution=\n';
  const uri = fileUri(join(folder, 'w.ycsb'));
  const itemsOf = async (options: Parameters<typeof startTestClient>[1]) => {
    const client = await startTestClient([folder], options);
    try {
      await client.open(uri, 'ycsb-workload', text);
      return await client.completion(uri, { line: 1, character: 20 });
    } finally {
      await client.stop();
    }
  };
  try {
    const plain = await itemsOf({ clientParams: lspMode });
    assert.ok(plain.some((item) => item.label === 'zipfian'));
    assert.ok(
      plain.every((item) => item.labelDetails === undefined),
      JSON.stringify(plain.find((item) => item.labelDetails)),
    );
    const rich = await itemsOf({
      capabilities: { textDocument: { completion: { completionItem: { labelDetailsSupport: true } } } },
    });
    assert.ok(rich.some((item) => item.labelDetails?.description === 'default'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('ALE: a quick fix with the cursor inside the word (ALE sends the word range and no diagnostics)', async () => {
  const text = 'onload_set EF_SPIN_USC 10\n';
  const folder = workspace({ 'p.opf': text });
  const client = await startTestClient([folder], { clientParams: ale });
  const uri = fileUri(join(folder, 'p.opf'));
  try {
    await client.open(uri, 'onload-profile', text);
    const diagnostics = await client.diagnostics(uri);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['unknown-option'],
    );
    // What ALE 3.3 sends for :ALECodeAction with the cursor on the 'S' of SPIN: the word's range
    // (columns 11..22, its end inclusive) and an empty context.
    const actions = await client.codeActions(
      uri,
      { start: { line: 0, character: 11 }, end: { line: 0, character: 22 } },
      [],
    );
    const fix = actions.find((action) => action.title === 'Change to EF_SPIN_USEC');
    assert.ok(fix, actions.map((action) => action.title).join(', '));
    assert.deepEqual(fix.edit?.changes?.[uri], [
      { range: { start: { line: 0, character: 11 }, end: { line: 0, character: 22 } }, newText: 'EF_SPIN_USEC' },
    ]);
    // Nothing is offered for a word without diagnostics.
    assert.deepEqual(
      await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } }, []),
      [],
    );
  } finally {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('hover footer: the VS Code command is named only to the VS Code client, which says it has it', async () => {
  const text = 'onload_set EF_POLL_USEC 5\n';
  const folder = workspace({ 'p.opf': text });
  const uri = fileUri(join(folder, 'p.opf'));
  const hoverOf = async (options: Parameters<typeof startTestClient>[1]) => {
    const client = await startTestClient([folder], options);
    try {
      await client.open(uri, 'onload-profile', text);
      const hover = await client.hover(uri, { line: 0, character: 14 });
      return (hover?.contents as { value: string }).value;
    } finally {
      await client.stop();
    }
  };
  try {
    for (const params of [eglot, lspMode, ale])
      assert.doesNotMatch(await hoverOf({ clientParams: params }), /Show effective Onload configuration/);
    assert.match(
      await hoverOf({ initializationOptions: { clientCommands: ['onloadBench.showEffectiveConfiguration'] } }),
      /Show effective Onload configuration/,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
