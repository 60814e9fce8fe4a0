// Rules a user meets while typing, over JSON-RPC: no completion in comments and strings, quick
// fixes by the LSP range rule (and from diagnostics sent back without data), names built from
// expansions treated as run-time values, and the bounds on huge documents.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { isFileWideAction, startTestClient, type TestClient } from '../support/lspClient';

let client: TestClient;
before(async () => {
  client = await startTestClient();
});
after(() => client.stop());

let counter = 0;
async function open(text: string, suffix = '.opf', languageId = 'onload-profile') {
  const uri = `file:///rules/doc${counter++}${suffix}`;
  await client.open(uri, languageId, text);
  return { uri, diagnostics: await client.diagnostics(uri) };
}
const end = (text: string) => ({ line: text.split('\n').length - 1, character: text.split('\n').at(-1)!.length });

test('no completion inside comments or quoted strings, in profiles and workloads', async () => {
  for (const text of [
    '# note; ',
    'onload_set EF_POLL_USEC 1 # then ',
    'log "hello; ',
    "err 'it is; ",
    'log "first line\nsecond; ',
  ]) {
    const { uri } = await open(text);
    assert.deepEqual(await client.completion(uri, end(text)), [], JSON.stringify(text));
  }
  // The quote a value opens is the value's own: its names are still offered.
  const quotedValue = 'onload_set EF_CTPIO_MODE "s';
  const { uri } = await open(quotedValue);
  assert.deepEqual(
    (await client.completion(uri, end(quotedValue))).map((item) => item.label),
    ['sf', 'sf-np', 'ct'],
  );
  // After a comment line, code again.
  const after = '# a comment\nonl';
  const second = await open(after);
  assert.ok((await client.completion(second.uri, end(after))).some((item) => item.label === 'onload_set'));
  for (const text of ['# note ', '! note ', 'workload=site.ycsb.workloads.CoreWorkload\n#  record']) {
    const workload = await open(text, '.ycsb', 'ycsb-workload');
    assert.deepEqual(await client.completion(workload.uri, end(text)), [], JSON.stringify(text));
  }
});

test('quick fixes by range: the context diagnostics, filtered only by a non-empty range (Onload)', async () => {
  const text = 'onload_set EF_POLL_USC 5; onload_set EF_SPIN_USC 1\n';
  const { uri, diagnostics } = await open(text);
  assert.equal(diagnostics.length, 2);
  const cursor = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const titles = async (range: typeof cursor, sent: Diagnostic[]) =>
    (await client.codeActions(uri, range, sent))
      .filter((action) => !isFileWideAction(action))
      .map((action) => action.title);
  assert.deepEqual(await titles(cursor, diagnostics), [
    'Change to EF_POLL_USEC',
    'Change to EF_POLL_FAST',
    'Change to EF_SPIN_USEC',
  ]);
  const selection = { start: { line: 0, character: 38 }, end: { line: 0, character: 49 } };
  assert.deepEqual(await titles(selection, diagnostics), ['Change to EF_SPIN_USEC']);
  assert.deepEqual(await titles(cursor, []), [], 'only what the client sent');
});

test("quick fixes by range in workloads: a cursor anywhere on the line gets the fix of the line's diagnostic", async () => {
  const text = 'workload=site.ycsb.workloads.CoreWorkload\ninsertorder=Hashed\n';
  const { uri, diagnostics } = await open(text, '.ycsb', 'ycsb-workload');
  const order = diagnostics.filter((d) => d.code === 'insertorder-means-ordered');
  const atLineStart = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } };
  const actions = (await client.codeActions(uri, atLineStart, order)).filter((action) => !isFileWideAction(action));
  assert.deepEqual(
    actions.map((action) => action.title),
    ["Change to 'hashed'", "Change to 'ordered'"],
  );
});

test("quick fixes by range in workloads: a selection keeps the diagnostics it overlaps; only those the client sent count, or when it sent none, the server's own under the range", async () => {
  const text = 'workload=site.ycsb.workloads.CoreWorkload\ninsertorder=Hashed\nrequestdistribution=Zipfian\n';
  const { uri, diagnostics } = await open(text, '.ycsb', 'ycsb-workload');
  const fixable = diagnostics.filter((d) => d.code === 'insertorder-means-ordered' || d.code === 'unknown-value');
  assert.equal(fixable.length, 2);
  const titles = async (
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    sent: Diagnostic[],
  ) =>
    (await client.codeActions(uri, range, sent))
      .filter((action) => !isFileWideAction(action))
      .map((action) => action.title);
  const onBoth = await titles({ start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, fixable);
  assert.ok(onBoth.includes("Change to 'hashed'") && onBoth.includes("Change to 'zipfian'"), onBoth.join(', '));
  const selection = { start: { line: 2, character: 20 }, end: { line: 2, character: 27 } };
  assert.deepEqual(await titles(selection, fixable), ["Change to 'zipfian'"]);
  assert.deepEqual(
    await titles({ start: { line: 0, character: 0 }, end: { line: 0, character: 8 } }, fixable),
    [],
    'a selection over neither',
  );
  const bothLines = { start: { line: 1, character: 0 }, end: { line: 2, character: 27 } };
  assert.deepEqual(
    await titles(
      bothLines,
      fixable.filter((d) => d.code === 'unknown-value'),
    ),
    ["Change to 'zipfian'"],
    'only what the client sent',
  );
  // A client that sends none (ALE, unless the cursor is on a word's first character): what the server published there.
  assert.deepEqual(await titles({ start: { line: 1, character: 14 }, end: { line: 1, character: 14 } }, []), [
    "Change to 'hashed'",
    "Change to 'ordered'",
  ]);
  assert.deepEqual(
    await titles({ start: { line: 0, character: 0 }, end: { line: 0, character: 8 } }, []),
    [],
    'nothing published there',
  );
});

test('a diagnostic sent back without data, or with data mangled, still gets its fixes', async () => {
  const text = 'onload_set EF_POLL_USC 5\n';
  const { uri, diagnostics } = await open(text);
  const { data: _data, ...bare } = diagnostics[0]!;
  const withoutData = await client.codeActions(uri, bare.range, [bare]);
  assert.deepEqual(
    withoutData.map((action) => action.title),
    ['Change to EF_POLL_USEC', 'Change to EF_POLL_FAST', "Disable 'unknown-option' for this line"],
  );
  assert.deepEqual(withoutData[0]!.edit, { changes: { [uri]: [{ range: bare.range, newText: 'EF_POLL_USEC' }] } });
  const mangled = await client.codeActions(uri, bare.range, [{ ...bare, data: { fixes: {} } }]);
  assert.deepEqual(
    mangled.map((action) => action.title),
    ['Change to EF_POLL_USEC', 'Change to EF_POLL_FAST', "Disable 'unknown-option' for this line"],
  );
  const workload = await open(
    'workload=site.ycsb.workloads.CoreWorkload\ninsertorder=Hashed\n',
    '.ycsb',
    'ycsb-workload',
  );
  const order = workload.diagnostics.find((d) => d.code === 'insertorder-means-ordered')!;
  const { data: _d, source: _s, ...plain } = order;
  const fixes = await client.codeActions(
    workload.uri,
    { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
    [plain],
  );
  assert.deepEqual(
    fixes.map((action) => action.title),
    ["Change to 'hashed'", "Change to 'ordered'", "Disable 'insertorder-means-ordered' for this line"],
  );
  assert.deepEqual(fixes[0]!.edit, { changes: { [workload.uri]: [{ range: order.range, newText: 'hashed' }] } });
});

test('a name built from an expansion is a run-time value: information at most, never an error or a warning', async () => {
  const loop = 'for knob in EF_TCP_RECV_SPIN EF_TCP_SEND_SPIN; do onload_set "$knob" 0; done\n';
  const { diagnostics } = await open(loop);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity]),
    [['name-computed-at-run-time', 3]],
  );
  const others = [
    'onload_set EF_${KIND}_SPIN 1\n',
    'onload_set "${prefix}_POLL_USEC=5"\n',
    'onload_set "$pair"\n',
    'onload_set `echo EF_POLL_USEC` 5\n',
  ];
  for (const text of others) {
    const result = await open(text);
    assert.deepEqual(
      result.diagnostics.filter((d) => d.severity !== 3),
      [],
      text,
    );
  }
  // A literal name with a computed value is still checked by name, and never claims the value.
  const value = await open('onload_set EF_POLL_USC "$x"\nonload_set EF_POLL_USEC=$y\n');
  assert.deepEqual(
    value.diagnostics.map((d) => d.code),
    ['unknown-option'],
  );
  // A computed name never makes a later literal line "ineffective".
  const order = await open('onload_set "$knob" 1\nonload_set EF_POLL_USEC 5\nonload_set "$knob" 2\n');
  assert.deepEqual(
    order.diagnostics.map((d) => d.code),
    ['name-computed-at-run-time', 'name-computed-at-run-time'],
  );
  const hover = await client.hover(order.uri, { line: 1, character: 14 });
  const text = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  assert.match(text, /name built at run time \(`\$knob`, line 1\) may set it first/);
});

test('huge documents: at most 1,000 diagnostics and one summary; analysis stops at 4 MiB with a notice', async () => {
  // 3,000 ineffective repeats (cheap to find; 3,000 distinct unknown names cost seconds of
  // did-you-mean CPU, which timed this test out on a loaded machine) and one error at the end.
  const many =
    Array.from({ length: 3001 }, (_, index) => `onload_set EF_SPIN_USEC ${index}`).join('\n') +
    '\nonload_set EF_TX_PUSH 2\n';
  const { diagnostics } = await open(many);
  assert.equal(diagnostics.length, 1001);
  assert.equal(diagnostics[0]!.code, 'too-many-problems');
  assert.match(
    String(diagnostics[0]!.message),
    /^3,001 problems \(1 error, 3,000 warnings\): the first 1,000 are listed, errors first; 2,001 more are not\.$/,
  );
  assert.ok(
    diagnostics.some((d) => d.code === 'value-truncated'),
    'the error is among those kept',
  );

  const line = 'onload_set EF_POLL_USEC 5 # ' + 'x'.repeat(70) + '\n';
  const huge = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
  const big = await open(huge);
  const notice = big.diagnostics.find((d) => d.code === 'document-too-large')!;
  assert.ok(notice, JSON.stringify(big.diagnostics.slice(0, 3)));
  const analysedLines = Math.floor((4 * 1024 * 1024) / line.length);
  assert.deepEqual(notice.range.start, { line: analysedLines, character: 0 });
  assert.match(String(notice.message), /^This document is 5\.0 MB: only its first [\d,]+ lines \(4 MiB\) are checked/);
  assert.equal(await client.hover(big.uri, { line: analysedLines + 10, character: 14 }), null);
  assert.notEqual(await client.hover(big.uri, { line: 3, character: 14 }), null);
});
