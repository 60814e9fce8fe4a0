// The life cycle and framing over real stdio, byte by byte as a client (or a broken one) sends
// them: requests before initialize, a second initialize, requests after shutdown, and frames with
// a missing or garbage Content-Length, after which the server must still answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRaw } from '../support/rawServer';

const reply = (id: number) => (message: Record<string, unknown>) => message.id === id;
const initialize = (id: number) => ({
  id,
  method: 'initialize',
  params: { processId: null, rootUri: null, capabilities: {} },
});

test('before initialize -32002, initialize once, -32600 for a second one and after shutdown, exit ends the process', async () => {
  const server = startRaw();
  try {
    server.send({
      id: 1,
      method: 'textDocument/hover',
      params: { textDocument: { uri: 'file:///a.opf' }, position: { line: 0, character: 0 } },
    });
    assert.equal(((await server.next(reply(1))).error as { code: number }).code, -32002);
    server.send(initialize(2));
    assert.ok(((await server.next(reply(2))).result as { capabilities: object }).capabilities);
    server.send(initialize(3));
    assert.equal(((await server.next(reply(3))).error as { code: number }).code, -32600);
    server.send({ method: 'initialized', params: {} });
    server.send({
      id: 4,
      method: 'textDocument/documentSymbol',
      params: { textDocument: { uri: 'file:///nothing.opf' } },
    });
    assert.deepEqual((await server.next(reply(4))).result, []);
    server.send({ id: 5, method: 'shutdown' });
    assert.equal((await server.next(reply(5))).result, null);
    server.send({
      id: 6,
      method: 'textDocument/documentSymbol',
      params: { textDocument: { uri: 'file:///nothing.opf' } },
    });
    const refused = (await server.next(reply(6))).error as { code: number; message: string };
    assert.equal(refused.code, -32600);
    server.send({ method: 'exit' });
    assert.equal(await server.exited, 0);
  } finally {
    server.stop();
  }
});

test('a frame with a missing or garbage Content-Length gets a parse error, and the server answers the next request', async () => {
  const server = startRaw();
  try {
    server.send(initialize(1));
    await server.next(reply(1));
    server.send({ method: 'initialized', params: {} });
    server.raw('Content-Lenght: 10\r\n\r\n{"jsonrpc":"2.0","id":90,"method":"shutdown"}');
    const missing = await server.next((message) => message.id === null);
    assert.equal((missing.error as { code: number }).code, -32700);
    assert.match((missing.error as { message: string }).message, /without a Content-Length/);
    server.raw('Content-Length: ten\r\n\r\n{}');
    const garbage = await server.next((message) => message.id === null);
    assert.match((garbage.error as { message: string }).message, /Content-Length is not a number/);
    server.raw('Content-Length: 9\r\n\r\n{"jsonrp}');
    const notJson = await server.next((message) => message.id === null);
    assert.equal((notJson.error as { code: number }).code, -32700);
    // Deaf servers fail here: the request after the garbage is answered.
    server.send({
      id: 2,
      method: 'textDocument/documentSymbol',
      params: { textDocument: { uri: 'file:///nothing.opf' } },
    });
    assert.deepEqual((await server.next(reply(2))).result, []);
    // A good frame split across writes, right after a bad one, still arrives whole.
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'textDocument/documentSymbol',
      params: { textDocument: { uri: 'file:///é.opf' } },
    });
    const frame = `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    server.raw(`garbage without a header\r\n\r\n${frame.slice(0, 7)}`);
    server.raw(frame.slice(7));
    assert.deepEqual((await server.next(reply(3))).result, []);
  } finally {
    server.stop();
  }
});
