// The .properties parser: exact java.util.Properties.load semantics with source offsets.
// Checked by examples, by fast-check against an independent reference reading, and (when `java`
// is installed) against Java itself on the same generated inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { entryAt, parseProperties } from '../../server/src/ycsb/propertiesParser';
import { referenceLoad } from './propertiesReference';

const asMap = (text: string) => new Map([...parseProperties(text).effective].map(([key, entry]) => [key, entry.value]));
const slice = (text: string, start: number, end: number) => text.slice(start, end);

test('separators: =, : and white space, with white space around them dropped', () => {
  assert.deepEqual(
    asMap('a=1\nb:2\nc 3\nd = 4\ne\t:\t5\nf  =  = 6\ng'),
    new Map([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
      ['d', '4'],
      ['e', '5'],
      ['f', '= 6'],
      ['g', ''],
    ]),
  );
});

test('comments with # and ! only at the start of a line; trailing white space is kept in values', () => {
  const map = asMap('# comment\n  ! also a comment\nkey = value # not a comment  \n');
  assert.deepEqual(map, new Map([['key', 'value # not a comment  ']]));
});

test("backslash continuations strip the next line's leading white space; escapes are decoded", () => {
  const text = 'list = one, \\\n       two, \\\r\n\tthree\nesc=\\t\\n\\u0041\\=\\:\\\\\\q\nkey\\ with\\ spaces=x\n';
  assert.deepEqual(
    asMap(text),
    new Map([
      ['list', 'one, two, three'],
      ['esc', '\t\nA=:\\q'],
      ['key with spaces', 'x'],
    ]),
  );
});

test('a key set twice: the last wins, both entries are kept in order', () => {
  const document = parseProperties('a=1\nb=2\na=3\n');
  assert.equal(document.effective.get('a')?.value, '3');
  assert.deepEqual(
    document.entries.map((entry) => entry.key),
    ['a', 'b', 'a'],
  );
});

test('offsets of keys and values, including a value continued over lines', () => {
  const text = '  recordcount = 1000  \nfieldlength: 10\\\n   0\n';
  const [first, second] = parseProperties(text).entries;
  assert.equal(slice(text, first!.keyStart, first!.keyEnd), 'recordcount');
  assert.equal(slice(text, first!.valueStart, first!.valueEnd), '1000  ');
  assert.equal(first!.value, '1000  ');
  assert.equal(slice(text, second!.keyStart, second!.keyEnd), 'fieldlength');
  assert.equal(slice(text, second!.valueStart, second!.valueEnd), '10\\\n   0');
  assert.equal(second!.value, '100');
  assert.deepEqual(entryAt(parseProperties(text), text.indexOf('0\n')), second);
});

test('a malformed \\u escape is an issue with its range, not an exception', () => {
  const text = 'name=caf\\u00zz\n';
  const document = parseProperties(text);
  assert.equal(document.issues.length, 1);
  assert.equal(document.issues[0]!.code, 'malformed-unicode-escape');
  assert.equal(slice(text, document.issues[0]!.start, document.issues[0]!.end), '\\u00zz');
  assert.equal(document.entries.length, 1);
});

test('Java quirks: a lone backslash at the end is an empty key; comment after an emptied continuation', () => {
  assert.deepEqual(asMap('\\'), new Map([['', '']]));
  assert.deepEqual(asMap('\\\n#x=1\ny=2'), new Map([['y', '2']]));
});

// Inputs built from the pieces that matter to .properties syntax.
const pieces = [
  'a',
  'k',
  'v1',
  'é',
  ' ',
  '\t',
  '\f',
  '=',
  ':',
  '#',
  '!',
  '\\',
  '\\\\',
  '\\u0041',
  '\\t',
  '\\=',
  '\n',
  '\r',
  '\r\n',
  '\\\n',
  'x',
];
const propertiesText = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));

test('property: the parser reads what the independent reference reads', () => {
  fc.assert(
    fc.property(propertiesText, (text) => {
      assert.deepEqual(asMap(text), referenceLoad(text));
    }),
    { numRuns: 3000, seed: 20261202 },
  );
});

test('property: every key and value range lies inside the text and in order', () => {
  fc.assert(
    fc.property(propertiesText, (text) => {
      for (const entry of parseProperties(text).entries) {
        assert.ok(
          entry.lineStart <= entry.keyStart && entry.keyStart <= entry.keyEnd && entry.keyEnd <= entry.valueStart,
        );
        assert.ok(entry.valueStart <= entry.valueEnd && entry.valueEnd <= text.length);
      }
    }),
    { numRuns: 1000, seed: 7 },
  );
});

const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
test(
  'property: the parser reads what java.util.Properties reads',
  { skip: java.status !== 0 ? 'java is not installed' : false },
  () => {
    const cases = fc.sample(propertiesText, { numRuns: 1500, seed: 42 });
    cases.push('\\', '\\\n', '\\\n\n', 'a\\', '\\\n#x', ' \\\n  \\\n k = v \\\n', 'a=b\\\r\n\r\n  c');
    // Malformed escapes: Java's load throws, the parser reports an issue.
    cases.push('a=\\u12', 'a=\\u00zz\n', '\\uXYZW=1', 'a=\\u004', 'a=\\\\u12');
    const folder = mkdtempSync(join(tmpdir(), 'ycsb-oracle-'));
    try {
      const input = join(folder, 'cases.txt');
      writeFileSync(input, cases.map((text) => Buffer.from(text, 'utf8').toString('base64')).join('\n') + '\n');
      const run = spawnSync('java', ['test/ycsb/PropertiesOracle.java', input], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.equal(lines.length, cases.length);
      cases.forEach((text, index) => {
        const issues = parseProperties(text).issues;
        if (lines[index] === 'ERROR') {
          assert.ok(issues.length > 0, `Java rejects ${JSON.stringify(text)} but the parser reports no issue`);
          return;
        }
        assert.deepEqual(issues, [], `case ${JSON.stringify(text)}`);
        const parts = Buffer.from(lines[index]!, 'base64').toString('utf8').split('\0');
        const expected = new Map<string, string>();
        for (let i = 0; i + 1 < parts.length; i += 2) expected.set(parts[i]!, parts[i + 1]!);
        const actual = new Map([...asMap(text)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
        assert.deepEqual(actual, expected, `case ${JSON.stringify(text)}`);
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);
