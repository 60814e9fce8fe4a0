// Property and stress tests on the pure services (no server): garbage, binary bytes, shell-like
// token soup, a 1 MB line, CRLF and a 100,000-line profile never crash or hang, and every
// diagnostic stays inside the document. Time is bounded by each test's timeout, not asserted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { WorkspaceFiles } from '../../server/src/common/languageFeatures';
import { parseProfile } from '../../server/src/onload/parser';
import { OnloadLanguageService } from '../../server/src/onload/service';

const service = new OnloadLanguageService();
/** An in-memory workspace with a profile that imports itself through another, to keep cycles in play. */
const workspace: Record<string, string> = {
  'file:///ws/a.opf': 'onload_import b\nonload_set EF_POLL_USEC 10\n',
  'file:///ws/b.opf-fragment': 'onload_import a\nonload_set EF_SPIN_USEC 5\n',
};
const files: WorkspaceFiles = {
  read: async (uri) => workspace[uri],
  find: async (match) => Object.keys(workspace).filter(match),
};
let version = 0;

async function exercise(text: string): Promise<Diagnostic[]> {
  const document = TextDocument.create('file:///ws/fuzz.opf', 'onload-profile', ++version, text);
  const diagnostics = await service.diagnostics(document, files);
  const lineCount = document.lineCount;
  for (const diagnostic of diagnostics) {
    assert.equal(diagnostic.source, 'onload-bench');
    assert.equal(typeof diagnostic.code, 'string');
    for (const end of [diagnostic.range.start, diagnostic.range.end]) {
      assert.ok(end.line >= 0 && end.line < lineCount, `line ${end.line} outside 0..${lineCount - 1}`);
    }
    assert.ok(document.offsetAt(diagnostic.range.start) <= document.offsetAt(diagnostic.range.end));
  }
  // Probe the other features at a few positions, including the very end.
  const probes = [{ line: 0, character: 0 }, document.positionAt(text.length >> 1), document.positionAt(text.length)];
  for (const position of probes) {
    await service.completion(document, position, files);
    await service.hover(document, position, files);
    await service.definition(document, position, files);
  }
  await service.documentSymbols(document);
  await service.codeActions(document, { start: probes[0]!, end: probes[2]! }, diagnostics);
  return diagnostics;
}

const shellTokens = [
  'onload_set',
  'onload_import',
  'EF_POLL_USEC',
  'EF_CTPIO_MODE',
  'EF_CLUSTER_IGNORE',
  'EF_TX_PUSH',
  'EF_NOPE',
  'latency',
  'a',
  'b',
  'nosuch',
  ' ',
  ' ',
  ' ',
  '\n',
  '\r\n',
  '\t',
  '=',
  '"',
  "'",
  '`',
  '$(',
  '$((',
  ')',
  '))',
  '${',
  '}',
  '{',
  '(',
  '#',
  '\\',
  '\\\n',
  ';',
  ';;',
  '&&',
  '||',
  '|',
  'if',
  'then',
  'else',
  'fi',
  'case',
  'in',
  'esac',
  'for',
  'do',
  'done',
  'f()',
  '<<EOF',
  'EOF',
  '1',
  '-1',
  '2',
  '0x10',
  'ct',
  'any=rss:active',
  '$1',
  '"$@"',
];

test('arbitrary unicode text never crashes a feature', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 400 }), async (text) => {
      await exercise(text);
    }),
    { numRuns: 150 },
  );
});

test('binary bytes (decoded as UTF-8 and as Latin-1) never crash a feature', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (bytes) => {
      await exercise(Buffer.from(bytes).toString('utf8'));
      await exercise(Buffer.from(bytes).toString('latin1'));
    }),
    { numRuns: 100 },
  );
});

test('shell-like token soup: directives keep their spans inside the text', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom(...shellTokens), { maxLength: 120 }), async (tokens) => {
      const text = tokens.join(tokens.length % 2 === 0 ? '' : ' ');
      const parsed = parseProfile(text);
      for (const directive of parsed.directives) {
        for (const span of [
          directive.command,
          directive.keyword,
          directive.kind === 'set' ? directive.valueSpan : directive.nameSpan,
        ]) {
          assert.ok(span.start >= 0 && span.start <= span.end && span.end <= text.length, JSON.stringify(span));
        }
      }
      await exercise(text);
    }),
    { numRuns: 300 },
  );
});

test('a 1 MB line, unbalanced quotes and deep expansions finish', { timeout: 60_000 }, async () => {
  const megabyte = 1024 * 1024;
  const long = await exercise(`onload_set EF_POLL_USEC ${'9'.repeat(megabyte)}\n`);
  assert.ok(long.some((diagnostic) => diagnostic.code === 'value-out-of-range'));
  const words = await exercise(`onload_set EF_INTERFACE_WHITELIST ${'eth0 '.repeat(megabyte / 5)}\n`);
  assert.ok(words.some((diagnostic) => diagnostic.code === 'unquoted-multiword'));
  await exercise(`onload_set EF_X "${'a'.repeat(megabyte)}`);
  await exercise(`onload_set EF_X $(${'('.repeat(megabyte / 2)}`);
  await exercise(`${'$((1+'.repeat(megabyte / 5)}\n`);
  await exercise('#'.repeat(megabyte));
});

test('CRLF line endings give the same findings as LF', { timeout: 30_000 }, async () => {
  const lf =
    readFileSync('test/fixtures/onload/profiles/node-js.opf', 'utf8') +
    'onload_set EF_TX_PUSH 2\nonload_set EF_POLL_US 1\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const summarise = (diagnostics: Diagnostic[]) =>
    diagnostics
      .map(
        (diagnostic) =>
          `${diagnostic.code}@${diagnostic.range.start.line}:${diagnostic.range.start.character}-${diagnostic.range.end.character}`,
      )
      .sort();
  const fromLf = summarise(await exercise(lf));
  assert.ok(fromLf.some((entry) => entry.startsWith('value-truncated')));
  assert.deepEqual(summarise(await exercise(crlf)), fromLf);
});

test('a 100,000-line profile is checked completely', { timeout: 120_000 }, async () => {
  const lines: string[] = ['onload_import latency'];
  for (let index = 0; lines.length < 100_000; index++) {
    lines.push(
      index % 5 === 0
        ? `# block ${index}`
        : index % 5 === 1
          ? `if [ -n "$X${index}" ]; then onload_set EF_SPIN_USEC ${index}; fi`
          : `onload_set EF_TCP_SYNRECV_MAX ${index}`,
    );
  }
  const diagnostics = await exercise(lines.join('\n'));
  // Every EF_TCP_SYNRECV_MAX line after the first one is ineffective.
  const ineffective = diagnostics.filter((diagnostic) => diagnostic.code === 'ineffective-assignment');
  assert.equal(ineffective.length, lines.filter((line) => line.startsWith('onload_set EF_TCP_SYNRECV_MAX')).length - 1);
});
