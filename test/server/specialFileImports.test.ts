// `onload_import` of a special file (issue 26, B10): a FIFO beside the profile and `/dev/zero` by
// path. Neither may be read: each is an import that resolves to nothing, as the launcher's own
// test for a regular file finds; hover keeps answering; the server ends on `exit` and on the end
// of its input; `lint` finishes, and refuses a special file named on its command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startRaw, type RawServer } from '../support/rawServer';

const text = 'onload_import /dev/zero\nonload_import pipe\nonload_set EF_POLL_USEC 5\n';

function profileFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'special-imports-'));
  writeFileSync(join(folder, 'p.opf'), text);
  const made = spawnSync('mkfifo', [join(folder, 'pipe.opf')]);
  assert.equal(made.status, 0, String(made.stderr));
  return folder;
}

const reply = (id: number) => (message: Record<string, unknown>) => message.id === id;
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`${what}: nothing within ${ms / 1000} s`)), ms),
    ),
  ]);

async function openProfile(
  server: RawServer,
  folder: string,
): Promise<{ code: string; severity: number; range: unknown }[]> {
  server.send({
    id: 1,
    method: 'initialize',
    params: { processId: null, rootUri: pathToFileURL(folder).toString(), capabilities: {} },
  });
  await server.next(reply(1));
  server.send({ method: 'initialized', params: {} });
  const uri = pathToFileURL(join(folder, 'p.opf')).toString();
  server.send({
    method: 'textDocument/didOpen',
    params: { textDocument: { uri, languageId: 'onload-profile', version: 1, text } },
  });
  const published = await server.next((message) => message.method === 'textDocument/publishDiagnostics');
  server.send({
    id: 2,
    method: 'textDocument/hover',
    params: { textDocument: { uri }, position: { line: 2, character: 14 } },
  });
  assert.match(JSON.stringify((await server.next(reply(2))).result), /Effective value here/);
  return (published.params as { diagnostics: { code: string; severity: number; range: unknown }[] }).diagnostics.map(
    ({ code, severity, range }) => ({ code, severity, range }),
  );
}

const unresolvedBoth = [
  {
    code: 'unresolved-import',
    severity: 1,
    range: { start: { line: 0, character: 14 }, end: { line: 0, character: 23 } },
  },
  {
    code: 'unresolved-import',
    severity: 1,
    range: { start: { line: 1, character: 14 }, end: { line: 1, character: 18 } },
  },
];

test(
  'the language server: a FIFO and /dev/zero imported resolve to nothing, unread; shutdown and exit end it',
  { timeout: 40_000 },
  async () => {
    const folder = profileFolder();
    const server = startRaw();
    try {
      assert.deepEqual(await within(openProfile(server, folder), 10_000, 'diagnostics and hover'), unresolvedBoth);
      server.send({ id: 3, method: 'shutdown' });
      await server.next(reply(3));
      server.send({ method: 'exit' });
      assert.equal(await within(server.exited, 10_000, 'exit'), 0);
    } finally {
      server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  },
);

test('the language server ends at the end of its input with such imports open', { timeout: 40_000 }, async () => {
  const folder = profileFolder();
  const server = startRaw();
  try {
    await within(openProfile(server, folder), 10_000, 'diagnostics and hover');
    server.end();
    assert.equal(await within(server.exited, 10_000, 'exit at the end of input'), 1);
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test(
  'lint: the profile is checked without reading them; a FIFO named on the command line is refused',
  { timeout: 40_000 },
  () => {
    const folder = profileFolder();
    try {
      const lint = (file: string) =>
        spawnSync(process.execPath, ['dist/cli.js', 'lint', '--format', 'json', file], {
          encoding: 'utf8',
          timeout: 20_000,
        });
      const profile = lint(join(folder, 'p.opf'));
      assert.equal(profile.error, undefined, 'lint finished');
      assert.equal(profile.status, 1);
      assert.deepEqual(
        (JSON.parse(profile.stdout) as { line: number; column: number; code: string; severity: string }[]).map(
          ({ line, column, code, severity }) => [line, column, code, severity],
        ),
        [
          [1, 15, 'unresolved-import', 'error'],
          [2, 15, 'unresolved-import', 'error'],
        ],
      );
      const fifo = lint(join(folder, 'pipe.opf'));
      assert.equal(fifo.error, undefined, 'lint finished');
      assert.equal(fifo.status, 2);
      assert.match(fifo.stderr, /pipe\.opf: cannot read: a FIFO \(named pipe\), not a regular file/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);
