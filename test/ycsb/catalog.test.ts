// The checked-in catalog is what the generator makes from ../shared/ycsb/properties.json, covers
// every fact, and marks fork-only keys and binding variants.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { ycsbCatalog } from '../../server/src/ycsb/catalog';

const factsPath = '../shared/ycsb/properties.json';
const hasFacts = existsSync(factsPath);

test(
  'the checked-in catalog is up to date with the generator',
  { skip: hasFacts ? false : 'no ../shared facts' },
  () => {
    const result = spawnSync(process.execPath, ['scripts/generate-ycsb-catalog.mjs', '--check'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  },
);

test(
  'every key of the facts is in the catalog with its binding, type and default',
  { skip: hasFacts ? false : 'no ../shared facts' },
  () => {
    const facts = JSON.parse(readFileSync(factsPath, 'utf8')) as {
      key: string;
      binding?: string;
      type: string;
      default: string | null;
      isRuleOnly?: boolean;
    }[];
    const catalog = ycsbCatalog();
    for (const fact of facts.filter((f) => !f.isRuleOnly)) {
      const entry = catalog.entries(fact.key).find((e) => e.binding === fact.binding);
      assert.ok(entry, `${fact.key} (${fact.binding ?? 'core'}) missing`);
      assert.equal(entry.type, fact.type);
      assert.equal(entry.default, fact.default);
      assert.ok(entry.description.length > 10, `${fact.key} has no description`);
    }
  },
);

test('binding variants and fork-only keys are told apart', () => {
  const catalog = ycsbCatalog();
  assert.deepEqual(
    catalog.entries('couchbase.persistTo').map((e) => [e.binding, e.forkOnly, e.max]),
    [
      ['couchbase', false, 4],
      ['couchbase2', false, 4],
      ['couchbase3', true, 4],
    ],
  );
  assert.equal(catalog.lookup('couchbase.persistTo', 'couchbase3')!.binding, 'couchbase3');
  assert.equal(catalog.lookup('couchbase.host')!.binding, 'couchbase2');
  assert.equal(catalog.lookup('collectionenabled')!.forkOnly, true);
  assert.equal(catalog.lookup('couchbase.upsert')!.boolean, 'exact-true');
  assert.equal(catalog.lookup('readallfields')!.boolean, 'any-case-true');
  assert.equal(catalog.lookup('htrace.sampler.classes')!.key, 'htrace.*');
  assert.equal(catalog.lookup('minfieldlength')!.since, '0.15.0');
  assert.equal(catalog.lookup('zipfianconstant'), undefined);
});
