// Document symbols over JSON-RPC: the outline of a profile.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SymbolKind } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { range, startOnloadClient, workspaceUri } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

test('sets, imports and functions, with their directives nested', async () => {
  const text = [
    'onload_import latency',
    'onload_set EF_POLL_USEC 20',
    'tune() {',
    '  onload_set EF_SPIN_USEC 5',
    '}',
    'if true; then onload_set EF_INT_DRIVEN 0; fi',
  ].join('\n');
  const uri = workspaceUri('outline.opf');
  await client.open(uri, 'onload-profile', text);
  const symbols = await client.documentSymbols(uri);
  assert.deepEqual(
    symbols.map((symbol) => [symbol.name, symbol.kind, symbol.detail ?? null]),
    [
      ['onload_import latency', SymbolKind.Module, null],
      ['EF_POLL_USEC', SymbolKind.Variable, '20'],
      ['tune', SymbolKind.Function, null],
      ['EF_INT_DRIVEN', SymbolKind.Variable, '0 (conditional)'],
    ],
  );
  assert.deepEqual(symbols[1]!.range, range(1, 0, 26));
  assert.deepEqual(symbols[1]!.selectionRange, range(1, 11, 23));
  assert.deepEqual(symbols[2]!.range, range(2, 0, 1, 4));
  assert.deepEqual(
    symbols[2]!.children!.map((child) => [child.name, child.detail]),
    [['EF_SPIN_USEC', '5 (conditional)']],
  );
});
