// Addresses compare parsed, never as text (REAL-LAB H5): the spellings the engine meets for one
// address (the plan's, ip's, /proc/net/tcp6's 32 hex digits, Couchbase's bracketed host:port).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalAddress,
  decodeProcAddress,
  hostOfEndpoint,
  parseIp,
  sameAddress,
} from '../../../engine/src/remote/ipAddress';
import { localAddresses, nodeHost, wrongInterfaceReason } from '../../../engine/src/evidence/interfaceTraffic';

test('one IPv6 address in every spelling is the same address; canonical text is RFC 5952 as ip prints it', () => {
  const spellings = [
    '2001:2:0:c8::a',
    '2001:2:0:c8:0:0:0:a',
    '2001:0002:0000:00C8:0000:0000:0000:000A',
    '[2001:2:0:c8::a]',
    '2001:2:0:c8::a%eth2',
  ];
  for (const text of spellings) {
    assert.equal(sameAddress(text, '2001:2:0:c8::a'), true, text);
    assert.equal(canonicalAddress(text), '2001:2:0:c8::a', text);
  }
  assert.equal(canonicalAddress('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1', 'the first of two equal zero runs');
  assert.equal(canonicalAddress('2001:db8:0:1:1:1:1:1'), '2001:db8:0:1:1:1:1:1', 'a single zero group stays');
  assert.equal(canonicalAddress('::'), '::');
  assert.equal(canonicalAddress('::1'), '::1');
  assert.equal(sameAddress('::ffff:198.18.0.10', '198.18.0.10'), true, 'IPv4-mapped');
  assert.equal(sameAddress('198.18.0.10', '198.18.0.1'), false);
  assert.equal(sameAddress('cb-server', 'CB-SERVER'), true, 'host names by name');
  assert.equal(sameAddress('cb-server', '198.18.0.10'), false);
  for (const bad of ['1:2:3', '1::2::3', '12345::1', '256.1.1.1', 'g::1', '1:2:3:4:5:6:7:8:9'])
    assert.equal(parseIp(bad), undefined, bad);
});

test('/proc/net/tcp6 addresses decode to the canonical form, v4-mapped ones to IPv4', () => {
  // 2001:2:0:c8::a as the kernel prints it: four 32-bit words, each in host byte order
  assert.equal(decodeProcAddress('02000120C8000000000000000A000000:2BCA'), '[2001:2:0:c8::a]:11210');
  assert.equal(decodeProcAddress('0000000000000000FFFF00000A00A8C0:1F9B'), '192.168.0.10:8091');
  assert.equal(decodeProcAddress('0100007F:2BCA'), '127.0.0.1:11210');
  assert.equal(hostOfEndpoint('[2001:2:0:c8::a]:11210'), '2001:2:0:c8::a');
  assert.equal(hostOfEndpoint('198.18.0.10:11210'), '198.18.0.10');
  assert.equal(nodeHost('[2001:db8::1]:8091'), '2001:db8::1');
  assert.equal(nodeHost('2001:db8::1'), '2001:db8::1', 'an unbracketed IPv6 host keeps its last group');
});

test('an IPv6 cell whose connections used its own address is not wrong-interface, however the plan spells it', () => {
  const seen = localAddresses([
    [{ local: decodeProcAddress('02000120C8000000000000000A000000:2BCA'), remote: '[2001:2:0:c8::14]:40000' }],
  ]);
  assert.deepEqual([...seen.keys()], ['2001:2:0:c8::a']);
  assert.equal(wrongInterfaceReason('2001:2:0:c8::a', seen, undefined), undefined);
  assert.equal(wrongInterfaceReason('2001:2:0:C8:0:0:0:A', seen, undefined), undefined);
  assert.match(
    wrongInterfaceReason('2001:2:0:c8::b', seen, undefined) ?? '',
    /used 2001:2:0:c8::a instead of 2001:2:0:c8::b/,
  );
  assert.match(
    wrongInterfaceReason('2001:2:0:c8::b', seen, '[2001:2:0:c8::a]:8091') ?? '',
    /the node is named \[2001:2:0:c8::a\]:8091/,
  );
});
