// The diagnostics' offset -> position conversion must answer exactly as TextDocument.positionAt,
// whatever the line endings and in whatever order offsets are asked for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseProfile } from '../../server/src/onload/parser';
import { positionMapper } from '../../server/src/onload/positions';

const texts = [
  '',
  'onload_set EF_POLL_USEC 1',
  'onload_set EF_POLL_USEC 1\n',
  '\n\nonload_set EF_A 1\n\n# c\nonload_set EF_B 2\n',
  'onload_set EF_A 1\r\nonload_set EF_B 2\r\n',
  'onload_set EF_A 1\ronload_set EF_B 2\r',
  'a\r\n\r\nb\n\rc',
];

test('positions and line numbers agree with TextDocument.positionAt for every offset, in and out of order', () => {
  for (const text of texts) {
    const document = TextDocument.create('file:///p.opf', 'onload-profile', 1, text);
    const mapper = positionMapper(document, parseProfile(text));
    const offsets = Array.from({ length: text.length + 3 }, (_, index) => index - 1);
    const shuffled = offsets.map((_offset, index) => offsets[(index * 7) % offsets.length]!);
    for (const offset of [...offsets, ...shuffled, ...offsets.reverse()]) {
      const expected = document.positionAt(offset);
      assert.deepEqual(mapper.positionAt(offset), expected, `${JSON.stringify(text)} at ${offset}`);
      assert.equal(mapper.lineAt(offset), expected.line, `${JSON.stringify(text)} line at ${offset}`);
    }
    for (let start = 0; start <= text.length; start++) {
      const span = { start, end: Math.min(text.length, start + 5) };
      assert.equal(
        mapper.textOf(span),
        document.getText({ start: document.positionAt(span.start), end: document.positionAt(span.end) }),
      );
    }
  }
});
