// What ESLint users expect beside each problem's own fix (issue 22 item 6), over JSON-RPC: *Fix
// all CODE problems in this file*, *Disable CODE for this line* (a comment that the server and
// `lint` then honour), and a link per code to the page that explains it (codeDescription.href,
// only for clients that declare it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

const apply = (text: string, action: CodeAction | undefined, uri: string) => {
  assert.ok(action, 'the action is offered');
  return TextDocument.applyEdits(TextDocument.create(uri, 'x', 1, text), action.edit!.changes![uri]!);
};
const codesByLine = (diagnostics: Diagnostic[]) =>
  diagnostics
    .map((d) => [d.range.start.line, String(d.code)])
    .sort((a, b) => Number(a[0]) - Number(b[0]) || String(a[1]).localeCompare(String(b[1])));

async function withClient(
  run: (client: TestClient, folder: string) => Promise<void>,
  options: Parameters<typeof startTestClient>[1] = {},
): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'eslint-like-'));
  const client = await startTestClient([folder], options);
  try {
    await run(client, folder);
  } finally {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

test('fix all of one code in a file: every such problem fixed by its preferred fix in one edit', async () => {
  await withClient(async (client, folder) => {
    const uri = fileUri(join(folder, 'p.opf'));
    const text =
      'onload_set EF_SPIN_USC 1\nonload_set EF_TX_PUSH 2\nonload_set EF_POLL_USC 5\nonload_set EF_INT_DRIVN 0\n';
    await client.open(uri, 'onload-profile', text);
    const diagnostics = await client.diagnostics(uri);
    const unknown = diagnostics.filter((d) => d.code === 'unknown-option');
    assert.equal(unknown.length, 3);
    const actions = await client.codeActions(uri, unknown[0]!.range, [unknown[0]!]);
    assert.deepEqual(
      actions.map((action) => action.title),
      [
        'Change to EF_SPIN_USEC',
        "Fix all 'unknown-option' problems in this file",
        "Disable 'unknown-option' for this line",
      ],
    );
    const fixed = apply(text, actions[1], uri);
    assert.equal(
      fixed,
      'onload_set EF_SPIN_USEC 1\nonload_set EF_TX_PUSH 2\nonload_set EF_POLL_USEC 5\nonload_set EF_INT_DRIVEN 0\n',
    );
    await client.change(uri, fixed);
    assert.deepEqual(codesByLine(await client.diagnostics(uri)), [[1, 'value-truncated']]);
    // One problem of a code: no fix-all, just its own fix and the disable.
    const truncated = (await client.diagnostics(uri))[0]!;
    assert.deepEqual(
      (await client.codeActions(uri, truncated.range, [truncated])).map((action) => action.title),
      ['Change the value to 1', "Disable 'value-truncated' for this line"],
    );
  });
});

test('fix all in a workload file too', async () => {
  await withClient(async (client, folder) => {
    const uri = fileUri(join(folder, 'w.ycsb'));
    const text = 'workload=site.ycsb.workloads.CoreWorkload\ncouchbase.upsert=True\ncouchbase.adhoc=TRUE\n';
    await client.open(uri, 'ycsb-workload', text);
    const cases = (await client.diagnostics(uri)).filter((d) => d.code === 'boolean-case-false');
    assert.equal(cases.length, 2);
    const all = (await client.codeActions(uri, cases[1]!.range, [cases[1]!])).find(
      (action) => action.title === "Fix all 'boolean-case-false' problems in this file",
    );
    assert.equal(
      apply(text, all, uri),
      'workload=site.ycsb.workloads.CoreWorkload\ncouchbase.upsert=true\ncouchbase.adhoc=true\n',
    );
  });
});

test('disable for this line: a comment the server and lint honour, codes added to it, continued lines covered', async () => {
  await withClient(async (client, folder) => {
    const path = join(folder, 'p.opf');
    const uri = fileUri(path);
    const text =
      'if true; then\n  onload_set EF_SPIN_USC 1\nfi\nonload_set EF_POLL_USC \\\n  5\nonload_set EF_BUZZ_USC 2\n';
    await client.open(uri, 'onload-profile', text);
    const diagnostics = await client.diagnostics(uri);
    assert.deepEqual(codesByLine(diagnostics), [
      [1, 'unknown-option'],
      [3, 'unknown-option'],
      [5, 'unknown-option'],
    ]);
    const disable = async (current: string, diagnostic: Diagnostic, code = String(diagnostic.code)) =>
      apply(
        current,
        (await client.codeActions(uri, diagnostic.range, [diagnostic])).find(
          (action) => action.title === `Disable '${code}' for this line`,
        ),
        uri,
      );
    let edited = await disable(text, diagnostics[0]!);
    assert.equal(
      edited,
      'if true; then\n  # onload-bench-disable-next-line unknown-option\n  onload_set EF_SPIN_USC 1\nfi\nonload_set EF_POLL_USC \\\n  5\nonload_set EF_BUZZ_USC 2\n',
    );
    await client.change(uri, edited);
    let now = await client.diagnostics(uri);
    assert.deepEqual(codesByLine(now), [
      [4, 'unknown-option'],
      [6, 'unknown-option'],
    ]);
    // A problem on a continued line: the comment goes above the line the command starts on.
    edited = `${edited.replace('onload_set EF_POLL_USC \\\n  5', 'onload_set EF_POLL_USEC \\\n  0x5')}`;
    await client.change(uri, edited);
    now = await client.diagnostics(uri);
    const onContinuation = now.find((d) => d.range.start.line === 5)!;
    assert.equal(onContinuation.code, 'value-not-number');
    edited = await disable(edited, onContinuation);
    assert.match(
      edited,
      /fi\n# onload-bench-disable-next-line value-not-number\nonload_set EF_POLL_USEC \\\n {2}0x5\n/,
    );
    await client.change(uri, edited);
    now = await client.diagnostics(uri);
    assert.deepEqual(codesByLine(now), [[7, 'unknown-option']]);
    // A second code on a line that already has a comment: added to it.
    edited = edited.replace(
      'onload_set EF_BUZZ_USC 2',
      '# onload-bench-disable-next-line removed-option -- kept for old builds\nonload_set EF_BUZZ_USC 2',
    );
    await client.change(uri, edited);
    now = await client.diagnostics(uri);
    edited = await disable(
      edited,
      now.find((d) => d.code === 'unknown-option')!,
    );
    assert.match(
      edited,
      /# onload-bench-disable-next-line removed-option, unknown-option -- kept for old builds\nonload_set EF_BUZZ_USC 2\n$/,
    );
    await client.change(uri, edited);
    assert.deepEqual(await client.diagnostics(uri), []);
    // lint reads the same comments.
    writeFileSync(path, edited);
    const lint = spawnSync(process.execPath, ['dist/cli.js', 'lint', '--format', 'json', path], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(lint.status, 0, lint.stderr);
    assert.deepEqual(JSON.parse(lint.stdout), []);
    writeFileSync(path, text);
    const before = spawnSync(process.execPath, ['dist/cli.js', 'lint', '--format', 'json', path], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal((JSON.parse(before.stdout) as unknown[]).length, 3);
  });
});

test('each code links to the section of docs/diagnostics.md that explains it, for clients that declare codeDescriptionSupport', async () => {
  const text = 'onload_set EF_SPIN_USC 1\nonload_set EF_TX_PUSH 2\n';
  await withClient(async (client, folder) => {
    const uri = fileUri(join(folder, 'p.opf'));
    await client.open(uri, 'onload-profile', text);
    const diagnostics = await client.diagnostics(uri);
    assert.equal(diagnostics.length, 2);
    const docs = readFileSync('docs/diagnostics.md', 'utf8');
    for (const diagnostic of diagnostics) {
      const href = diagnostic.codeDescription?.href ?? '';
      const [page, anchor] = href.split('#');
      assert.ok(existsSync(fileURLToPath(page!)), href);
      assert.equal(anchor, diagnostic.code);
      assert.match(docs, new RegExp(`^### ${anchor}$`, 'm'));
    }
  });
  // eglot declares codeDescriptionSupport: false.
  const eglot = JSON.parse(readFileSync('test/fixtures/clients/eglot-1.9.initialize.json', 'utf8')) as Record<
    string,
    unknown
  >;
  await withClient(
    async (client, folder) => {
      const uri = fileUri(join(folder, 'p.opf'));
      await client.open(uri, 'onload-profile', text);
      const diagnostics = await client.diagnostics(uri);
      assert.equal(diagnostics.length, 2);
      assert.ok(diagnostics.every((diagnostic) => diagnostic.codeDescription === undefined));
    },
    { clientParams: eglot },
  );
});

test('docs/diagnostics.md has a section for every code the services can report, and no other', () => {
  const read = (path: string) => readFileSync(path, 'utf8');
  const codes = new Set<string>();
  const scan: [string, RegExp][] = [
    [read('server/src/onload/diagnostics.ts'), /push\(\s*'([a-z0-9-]+)'/g],
    [read('server/src/onload/values.ts') + read('server/src/common/documentLimits.ts'), /code: '([a-z0-9-]+)'/g],
    [read('server/src/onload/relations.ts'), /\b(?:add|ignoredUnless)\(\s*'([a-z0-9-]+)'/g],
  ];
  for (const [text, pattern] of scan) for (const match of text.matchAll(pattern)) codes.add(match[1]!);
  const ycsb = /export type YcsbDiagnosticCode =([^;]*);/.exec(
    readFileSync('server/src/ycsb/diagnostics.ts', 'utf8'),
  )![1]!;
  for (const match of ycsb.matchAll(/'([a-z0-9-]+)'/g)) codes.add(match[1]!);
  const headings = new Set(
    [...readFileSync('docs/diagnostics.md', 'utf8').matchAll(/^### (.+)$/gm)].map((match) => match[1]!),
  );
  assert.ok(codes.size > 60, `${codes.size} codes found in the sources`);
  assert.deepEqual([...codes].filter((code) => !headings.has(code)).sort(), [], 'codes without a section');
  assert.deepEqual([...headings].filter((heading) => !codes.has(heading)).sort(), [], 'sections without a code');
});
