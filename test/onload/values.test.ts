// Value checks on their own: how libonload's readers treat each kind of value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onloadCatalog } from '../../server/src/onload/catalog';
import { checkValue, numericValue, scalableFiltersProblem } from '../../server/src/onload/values';

const catalog = onloadCatalog();
const check = (name: string, value: string) =>
  checkValue(catalog.option(name)!, value).map(
    (issue) => `${issue.severity} ${issue.code}${issue.suggestions ? ` [${issue.suggestions.join(',')}]` : ''}`,
  );

test('numbers: atoi per stack (warning), strict per process (error), labels suggest their number', () => {
  assert.deepEqual(check('EF_TCP_SNDBUF_MODE', 'abc'), ['warning value-not-number [1]']);
  assert.deepEqual(check('EF_POLL_USEC', '10us'), ['error value-not-number [0]']);
  assert.deepEqual(check('EF_TPH_MODE', 'stmode'), ['error value-not-number [2]']);
  assert.deepEqual(check('EF_POLL_USEC', '-1'), [], '-1 means for ever');
  assert.deepEqual(check('EF_PIO', '9'), ['error value-truncated [2]']);
  assert.deepEqual(check('EF_RXQ_LIMIT', '8'), ['warning value-out-of-range [16]']);
});

test('hex options read "10" as 16, enum names are case-insensitive, EF_LOG keywords are prefixes', () => {
  assert.deepEqual(check('EF_TCP_SYN_OPTS', '10'), ['info hex-value [0x10]', 'error value-truncated [15]']);
  assert.equal(numericValue(catalog.option('EF_TCP_SYN_OPTS'), '10'), 16n);
  assert.deepEqual(check('EF_TCP_SYN_OPTS', '0x7'), []);
  assert.deepEqual(check('EF_CTPIO_MODE', 'CT'), []);
  assert.deepEqual(check('EF_CTPIO_MODE', 'cut'), ['error value-not-accepted [ct]']);
  assert.deepEqual(check('EF_LOG', 'banner,-conn,more'), []);
  assert.deepEqual(check('EF_LOG', 'banner,loud'), ['warning value-not-accepted']);
  assert.deepEqual(check('EF_TCP_FORCE_REUSEPORT', '11210,11207'), []);
  assert.deepEqual(check('EF_TCP_FORCE_REUSEPORT', '11210 11207'), ['warning value-not-number']);
  assert.deepEqual(check('EF_CLUSTER_NAME', 'couchbase-cluster-1'), ['warning cluster-name-length [couchbase-clu]']);
});

test('the EF_SCALABLE_FILTERS grammar', () => {
  assert.equal(scalableFiltersProblem('any=rss:active:passive'), undefined);
  assert.equal(scalableFiltersProblem('eth2=passive,eth3=active'), undefined);
  assert.equal(scalableFiltersProblem('eth2'), undefined);
  assert.match(scalableFiltersProblem('any=rss:fast') ?? '', /unknown mode 'fast'/);
  assert.match(scalableFiltersProblem('any=rss') ?? '', /combination 'rss' is not supported/);
  assert.match(scalableFiltersProblem('any=active,eth2=passive') ?? '', /'any' cannot be combined/);
  assert.match(scalableFiltersProblem('eth2=active,eth3=active') ?? '', /active-only/);
});
