// Issue 11 item 7 for the second language: a huge YCSB workload is bounded like a huge profile
// (editingRules.test.ts): analysis stops at 4 MiB with a notice, at most 1,000 diagnostics and
// one summary are published, and the server keeps answering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestClient, type TestClient } from '../support/lspClient';

let client: TestClient;
before(async () => {
  client = await startTestClient();
});
after(() => client.stop());

test('a 5 MB workload with a problem on every line: 1,000 diagnostics, one summary, one notice at 4 MiB', async () => {
  const line = `fieldlength=100 # ${'x'.repeat(70)}\n`; // '#' is not a comment mid-line: a bad number on every line
  const text = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
  const uri = 'file:///huge/workload.properties';
  await client.open(uri, 'ycsb-workload', text);
  const diagnostics = await client.diagnostics(uri);
  assert.equal(diagnostics.length, 1002);
  assert.equal(diagnostics[0]!.code, 'too-many-problems');
  assert.match(
    String(diagnostics[0]!.message),
    /^[\d,]+ problems \(.*\): the first 1,000 are listed, errors first; [\d,]+ more are not\.$/,
  );
  const notice = diagnostics.find((diagnostic) => diagnostic.code === 'document-too-large')!;
  assert.deepEqual(notice.range.start, { line: Math.floor((4 * 1024 * 1024) / line.length), character: 0 });
  assert.match(String(notice.message), /^This document is 5\.0 MB: only its first [\d,]+ lines \(4 MiB\) are checked/);
  // still answering
  const small = 'file:///huge/small.properties';
  await client.open(small, 'ycsb-workload', 'recordcount=abc\n');
  assert.ok(
    (await client.diagnostics(small)).some(
      (diagnostic) => diagnostic.range.start.line === 0 && diagnostic.severity === 1,
    ),
    'recordcount=abc is an error',
  );
});
