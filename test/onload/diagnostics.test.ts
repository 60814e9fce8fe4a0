// Diagnostics over real JSON-RPC: code, severity and exact range of every kind of problem.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { messageOf, openProfile, range, startOnloadClient, summary } from './support';

const { Error, Warning, Information } = DiagnosticSeverity;
let client: TestClient;
before(async () => {
  client = await startOnloadClient();
});
after(async () => {
  await client.stop();
});

test('every diagnostic carries a stable code, the onload-bench source and a precise range', async () => {
  const text = [
    'onload_set EF_POLL_USC 50', // 0 unknown option
    'onload_set EF_CLUSTER_IGNORE 1', // 1 deprecated
    'onload_set EF_TX_PUSH 2', // 2 truncated to 1 bit
    'onload_set EF_CTPIO_MODE 2', // 3 name-only enum given a number
    'onload_set EF_SCALABLE_FILTERS=any=rss:active', // 4 cut at the second '='
    'onload_set EF_INTERFACE_WHITELIST eth0 eth1', // 5 unquoted multi-word
    'onload_set EF_CLUSTER_SIZE ""', // 6 empty value
    'onload_import no-such-profile', // 7 unresolved import
    'onload_set EF_ICMP_PKTS 5000', // 8 out of range (per stack: clamped)
    'onload_set EF_FDS_MT_SAFE yes', // 9 not a number (per process: rejected)
    'onload_set EF_POLL_FAST_LOOPS 100', // 10 removed option
    'onload_set EF_TCP_SOCKBUF_MAX_FRACTION 5', // 11 never read
  ].join('\n');
  const { diagnostics } = await openProfile(client, 'mistakes.opf', text);
  assert.ok(diagnostics.every((diagnostic) => diagnostic.source === 'onload-bench'));
  assert.deepEqual(summary(diagnostics), [
    { code: 'unknown-option', severity: Warning, range: range(0, 11, 22) },
    { code: 'deprecated-option', severity: Warning, range: range(1, 11, 28) },
    { code: 'value-truncated', severity: Error, range: range(2, 22, 23) },
    { code: 'value-not-accepted', severity: Error, range: range(3, 25, 26) },
    { code: 'value-cut-at-equals', severity: Warning, range: range(4, 31, 45) },
    { code: 'unquoted-multiword', severity: Warning, range: range(5, 34, 43) },
    { code: 'empty-value', severity: Error, range: range(6, 27, 29) },
    { code: 'unresolved-import', severity: Error, range: range(7, 14, 29) },
    { code: 'value-out-of-range', severity: Warning, range: range(8, 24, 28) },
    { code: 'value-not-number', severity: Error, range: range(9, 26, 29) },
    { code: 'removed-option', severity: Error, range: range(10, 11, 29) },
    { code: 'not-read-from-env', severity: Warning, range: range(11, 11, 38) },
  ]);
  const unknown = diagnostics.find((diagnostic) => diagnostic.code === 'unknown-option')!;
  assert.match(messageOf(unknown), /Did you mean EF_POLL_USEC/);
  assert.equal((unknown.data as { suggestions: string[] }).suggestions[0], 'EF_POLL_USEC');
  const clamped = diagnostics.find((diagnostic) => diagnostic.code === 'value-out-of-range')!;
  assert.match(messageOf(clamped), /clamps 5000 to 1024/);
  const truncated = diagnostics.find((diagnostic) => diagnostic.code === 'value-truncated')!;
  assert.match(messageOf(truncated), /1-bit field: 2 silently becomes 0/);
});

test('per-process values outside the range are reported as unchecked, not clamped', async () => {
  const { diagnostics } = await openProfile(
    client,
    'process-range.opf',
    'onload_set EF_TCP_FORCE_REUSEPORT 11210,99999\nonload_set EF_FDTABLE_SIZE 2\n',
  );
  const messages = diagnostics.map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`);
  assert.ok(
    messages.some((message) => message.startsWith('value-out-of-range') && message.includes('65535')),
    messages.join('\n'),
  );
});

test('a later onload_set of the same name has no effect; an earlier import counts', async () => {
  const text = [
    'onload_import base', // base sets EF_POLL_USEC 50
    'onload_set EF_POLL_USEC 10', // 1: ineffective (import set it first)
    'onload_set EF_RXQ_SIZE 1024',
    'onload_set EF_RXQ_SIZE 2048', // 3: ineffective (line 3 set it first)
  ].join('\n');
  const { diagnostics } = await openProfile(client, 'ineffective.opf', text);
  assert.deepEqual(summary(diagnostics), [
    { code: 'ineffective-assignment', severity: Warning, range: range(1, 11, 23) },
    { code: 'ineffective-assignment', severity: Warning, range: range(3, 11, 22) },
  ]);
  assert.match(messageOf(diagnostics[0]!), /base line 2 via onload_import base/);
  assert.match(messageOf(diagnostics.find((diagnostic) => diagnostic.range.start.line === 3)!), /line 3/);
});

test('conditional assignments never claim certainty', async () => {
  const text = [
    'if [ "$MODE" = fast ]; then',
    '  onload_set EF_POLL_USEC 100',
    'else',
    '  onload_set EF_POLL_USEC 0', // other branch: must not be reported
    'fi',
    'onload_set EF_POLL_USEC 5', // may or may not run after a branch: not reported
    'onload_set EF_SPIN_USEC 1',
    '[ -n "$X" ] && onload_set EF_SPIN_USEC 2', // certainly after an unconditional one: information only
  ].join('\n');
  const { diagnostics } = await openProfile(client, 'conditional.opf', text);
  assert.deepEqual(summary(diagnostics), [
    { code: 'ineffective-assignment', severity: Information, range: range(7, 26, 38) },
  ]);
});

test('import cycles are reported on the import that starts them', async () => {
  const { diagnostics } = await openProfile(client, 'cycle-start.opf', 'onload_import cycle-a\n');
  assert.deepEqual(summary(diagnostics), [{ code: 'import-cycle', severity: Error, range: range(0, 14, 21) }]);
  assert.match(messageOf(diagnostics[0]!), /cycle-a → cycle-b → cycle-a/);
});

test('relations that a static check can decide are reported with their relations.json id', async () => {
  const text = [
    'onload_set EF_UL_EPOLL 0',
    'onload_set EF_POLL_USEC 20', // implies EF_INT_DRIVEN=0: incompatible with EF_UL_EPOLL=0
    'onload_set EF_TX_PUSH 0',
    'onload_set EF_TX_PUSH_THRESHOLD 100', // ignored while EF_TX_PUSH=0
    'onload_set EF_RXQ_SIZE 1000', // not a power of two
    'onload_set EF_UDP_PORT_HANDOVER_MIN 5000',
  ].join('\n');
  const { diagnostics } = await openProfile(client, 'relations.opf', text);
  assert.deepEqual(summary(diagnostics), [
    { code: 'ul-epoll0-int-driven0', severity: Error, range: range(0, 11, 22) },
    { code: 'tx-push-threshold', severity: Warning, range: range(3, 11, 31) },
    { code: 'rxq-size-pow2', severity: Warning, range: range(4, 11, 22) },
    { code: 'udp-handover-pairs', severity: Warning, range: range(5, 11, 35) },
  ]);
});

test('standard profile names resolve without files; shell around directives is accepted silently', async () => {
  const text = [
    'onload_import latency',
    'onload_import throughput_base',
    'NODE_COUNT=4',
    'for nic in /sys/class/net/*; do echo "$nic"; done',
    'cat <<EOF',
    'onload_set EF_NOT_REAL 1',
    'EOF',
    'onload_set EF_CLUSTER_NAME "cb$NODE_COUNT"',
    'onload_set EF_NAME couchbase',
  ].join('\n');
  const { diagnostics } = await openProfile(client, 'quiet.opf', text);
  assert.deepEqual(summary(diagnostics), []);
});

test('a document of distinct unknown names suggests for the first 200 only, and every name is still reported', async () => {
  // EF_POLL_USEC1, EF_POLL_USEC2...: each one close to EF_POLL_USEC, each a new name to compare
  const lines = Array.from({ length: 260 }, (_, index) => `onload_set EF_POLL_USEC${index} 1`);
  const { diagnostics } = await openProfile(client, 'generated.opf', lines.join('\n'));
  const unknown = diagnostics.filter((diagnostic) => diagnostic.code === 'unknown-option');
  assert.equal(unknown.length, 260);
  assert.match(messageOf(unknown[0]), /Did you mean EF_POLL_USEC\b/);
  assert.match(messageOf(unknown[199]), /Did you mean EF_POLL_USEC\b/);
  assert.doesNotMatch(messageOf(unknown[200]), /Did you mean/);
  assert.deepEqual(unknown[259].range, range(259, 11, 26));
});
