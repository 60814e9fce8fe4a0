// What a client sends that the protocol does not expect, byte by byte over stdio: an `initialize`
// without capabilities, stdin closed without `exit` by a client that gave its process id,
// notifications whose params have the wrong types, positions on names that are not valid UTF-16.
// The server answers or ignores each and keeps serving; it ends only when its input does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startRaw, type RawServer } from '../support/rawServer';

const reply = (id: number) => (message: Record<string, unknown>) => message.id === id;

async function initialized(
  server: RawServer,
  params: Record<string, unknown> = { processId: null, rootUri: null, capabilities: {} },
): Promise<Record<string, unknown>> {
  server.send({ id: 1, method: 'initialize', params });
  const answer = await server.next(reply(1));
  server.send({ method: 'initialized', params: {} });
  return answer;
}

/** Whether the process is still running after `ms` (false: it exited). */
const stillRunning = (server: RawServer, ms: number) =>
  Promise.race([
    server.exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms)),
  ]);

test('initialize without a capabilities object is a client with none: answered, and requests after it too', async () => {
  const server = startRaw();
  try {
    const answer = await initialized(server, { processId: null, rootUri: null });
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    const capabilities = (answer.result as { capabilities: Record<string, unknown> }).capabilities;
    assert.equal(capabilities.hoverProvider, true);
    // No code-action literals declared: fixes come as commands the server runs.
    assert.deepEqual(capabilities.executeCommandProvider, { commands: ['onloadBench.applyFix'] });
    server.send({
      id: 2,
      method: 'textDocument/documentSymbol',
      params: { textDocument: { uri: 'file:///nothing.opf' } },
    });
    assert.deepEqual((await server.next(reply(2))).result, []);
  } finally {
    server.stop();
  }
});

test('end of input ends the server, even when the client gave a live process id and sent no exit', async () => {
  const server = startRaw();
  try {
    await initialized(server, { processId: process.pid, rootUri: null, capabilities: {} });
    server.end();
    // Without shutdown first, the exit code says so (as after `exit` alone).
    assert.equal(
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]),
      1,
    );
  } finally {
    server.stop();
  }
  const polite = startRaw();
  try {
    await initialized(polite, { processId: process.pid, rootUri: null, capabilities: {} });
    polite.send({ id: 2, method: 'shutdown' });
    await polite.next(reply(2));
    polite.end();
    assert.equal(
      await Promise.race([polite.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]),
      0,
    );
  } finally {
    polite.stop();
  }
});

test('didOpen with text null or a number, and other malformed notifications, are ignored: the server keeps answering', async () => {
  const server = startRaw();
  try {
    await initialized(server);
    server.send({
      method: 'textDocument/didOpen',
      params: { textDocument: { uri: 'file:///w/a.opf', languageId: 'onload-profile', version: 1, text: null } },
    });
    server.send({
      method: 'textDocument/didOpen',
      params: { textDocument: { uri: 'file:///w/b.opf', languageId: 'onload-profile', version: 1, text: 42 } },
    });
    server.send({ method: 'textDocument/didOpen', params: { textDocument: null } });
    server.send({ method: 'textDocument/didOpen', params: null });
    server.send({
      method: 'textDocument/didChange',
      params: { textDocument: { uri: 'file:///w/a.opf', version: 2 }, contentChanges: [{ text: 7 }] },
    });
    server.send({
      method: 'textDocument/didChange',
      params: { textDocument: { uri: 'file:///w/c.opf', version: 2 }, contentChanges: null },
    });
    server.send({ method: 'textDocument/didClose', params: { textDocument: 5 } });
    server.send({ method: 'workspace/didChangeConfiguration', params: null });
    server.send({
      method: 'textDocument/didOpen',
      params: {
        textDocument: {
          uri: 'file:///w/good.opf',
          languageId: 'onload-profile',
          version: 1,
          text: 'onload_set EF_SPIN_USC 1\n',
        },
      },
    });
    const published = await server.next(
      (message) =>
        message.method === 'textDocument/publishDiagnostics' &&
        (message.params as { uri: string }).uri === 'file:///w/good.opf',
    );
    assert.deepEqual(
      (published.params as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code),
      ['unknown-option'],
    );
    server.send({
      id: 2,
      method: 'textDocument/hover',
      params: { textDocument: { uri: 'file:///w/good.opf' }, position: { line: 0, character: 13 } },
    });
    assert.match(JSON.stringify((await server.next(reply(2))).result), /not an Onload option/);
    // The malformed documents were never opened: nothing is known about them.
    server.send({ id: 3, method: 'textDocument/documentSymbol', params: { textDocument: { uri: 'file:///w/a.opf' } } });
    assert.deepEqual((await server.next(reply(3))).result, []);
    assert.equal(await stillRunning(server, 200), true);
  } finally {
    server.stop();
  }
});

test('go to definition on an import name with a lone surrogate: no result, not an internal error', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'surrogate-'));
  const uri = pathToFileURL(join(folder, 'p.opf')).toString();
  const text = 'onload_import ab\uD800cd\nonload_import x/\uDC00/y\n';
  writeFileSync(join(folder, 'p.opf'), 'placeholder\n');
  const server = startRaw();
  try {
    await initialized(server, { processId: null, rootUri: pathToFileURL(folder).toString(), capabilities: {} });
    server.send({
      method: 'textDocument/didOpen',
      params: { textDocument: { uri, languageId: 'onload-profile', version: 1, text } },
    });
    const published = await server.next((message) => message.method === 'textDocument/publishDiagnostics');
    // What the user sees on those lines: each name is an import that resolves to nothing.
    assert.deepEqual(
      (
        published.params as { diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }
      ).diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      [
        ['unresolved-import', 0, 14],
        ['unresolved-import', 1, 14],
      ],
    );
    for (const [id, line] of [
      [2, 0],
      [3, 1],
    ] as const) {
      server.send({
        id,
        method: 'textDocument/definition',
        params: { textDocument: { uri }, position: { line, character: 16 } },
      });
      const answer = await server.next(reply(id));
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      assert.deepEqual(answer.result, []);
    }
    server.send({
      id: 4,
      method: 'textDocument/hover',
      params: { textDocument: { uri }, position: { line: 0, character: 16 } },
    });
    const hover = await server.next(reply(4));
    assert.equal(hover.error, undefined, JSON.stringify(hover.error));
    assert.match(JSON.stringify(hover.result), /resolves to nothing/);
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
