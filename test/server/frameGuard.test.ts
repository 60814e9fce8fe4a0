// The frame guard alone: good frames pass byte for byte, each bad one is reported once, and the
// stream resynchronises at the next header however the bytes are split.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameGuard } from '../../server/src/adapter/frameGuard';

function feed(chunks: string[]): { out: string; bad: string[] } {
  const bad: string[] = [];
  const guard = new FrameGuard(({ reason }) => bad.push(reason));
  let out = '';
  guard.on('data', (data: Buffer) => {
    out += data.toString('utf8');
  });
  for (const chunk of chunks) guard.write(Buffer.from(chunk, 'utf8'));
  return { out, bad };
}

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

test('good frames pass unchanged, whatever the chunking', () => {
  const stream = frame('{"a":1}') + frame('{"é":2}') + frame('');
  for (const size of [1, 3, 7, stream.length]) {
    const chunks: string[] = [];
    for (let at = 0; at < stream.length; at += size) chunks.push(stream.slice(at, at + size));
    assert.deepEqual(feed(chunks), { out: stream, bad: [] }, `chunks of ${size}`);
  }
});

test('each bad frame is reported once and the next good one comes through', () => {
  const { out, bad } = feed([
    'Content-Length: ten\r\n\r\n{}',
    'junk\r\n\r\n',
    'Content-Le',
    'ngth: 2\r\n\r\n{}',
    'X-Other: 1\r\n\r\n',
    frame('{"b":3}'),
  ]);
  assert.deepEqual(bad, [
    'Content-Length is not a number: "ten"',
    'a header line without a name: "junk"',
    'a frame without a Content-Length header',
  ]);
  assert.equal(out, `${frame('{}')}${frame('{"b":3}')}`);
});

test('an absurd length or an endless header is refused instead of waited for', () => {
  assert.match(feed([`Content-Length: ${2 ** 40}\r\n\r\n`]).bad[0]!, /larger than/);
  const endless = feed(['x'.repeat(9000)]);
  assert.deepEqual(endless.bad, ['a header without an end (no blank line after it)']);
  assert.equal(feed(['x'.repeat(9000), frame('{}')]).out, frame('{}'));
});
