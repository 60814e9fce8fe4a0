// The generated catalog: complete, described, and in step with its generator and the facts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { onloadCatalog } from '../../server/src/onload/catalog';
import { parseProfile } from '../../server/src/onload/parser';

const catalog = onloadCatalog();

test('all 240 options plus the extra accepted names, with the facts the services use', () => {
  assert.equal(catalog.options.filter((option) => !option.extra).length, 240);
  assert.ok(catalog.option('EF_CLUSTER_NAME')?.extra);
  const poll = catalog.option('EF_POLL_USEC')!;
  assert.deepEqual(
    [poll.scope, poll.type, poll.unit, poll.default, poll.syntax],
    ['process', 'integer', 'usec', 0, 'decimal-strict'],
  );
  assert.deepEqual(catalog.option('EF_CTPIO_MODE')!.acceptedNames, ['sf', 'sf-np', 'ct']);
  assert.deepEqual(catalog.option('EF_CLUSTER_IGNORE')!.replacedBy, ['EF_CLUSTER_SIZE']);
  assert.equal(catalog.removedReplacement('EF_POLL_FAST_LOOPS'), 'EF_POLL_FAST_USEC');
  assert.equal(catalog.standardProfiles.length, 24);
});

test('every option the shipped profiles set, and the key latency options, has a hand-written description', () => {
  const used = new Set<string>();
  for (const name of readdirSync('test/fixtures/onload/profiles')) {
    for (const directive of parseProfile(readFileSync(join('test/fixtures/onload/profiles', name), 'utf8'))
      .directives) {
      if (directive.kind === 'set' && directive.name.startsWith('EF_')) used.add(directive.name);
    }
  }
  const key = [
    'EF_POLL_USEC',
    'EF_SPIN_USEC',
    'EF_INT_DRIVEN',
    'EF_CLUSTER_SIZE',
    'EF_EPOLL_SPIN',
    'EF_MAX_ENDPOINTS',
    'EF_PACKET_BUFFER_MODE',
    'EF_PREFAULT_PACKETS',
    'EF_CTPIO',
    'EF_CTPIO_MODE',
    'EF_SLEEP_SPIN_USEC',
    'EF_TCP_RECV_SPIN',
  ];
  const missing = [...used, ...key].filter((name) => !catalog.option(name)?.described);
  assert.deepEqual(missing, []);
  for (const option of catalog.options) assert.ok(option.description.length > 20, option.name);
});

test(
  'the checked-in catalog is what the generator writes from the facts',
  { skip: !existsSync('../shared/onload/options.json') && !process.env.ONLOAD_FACTS_DIR },
  () => {
    const folder = mkdtempSync(join(tmpdir(), 'onload-catalog-'));
    try {
      const out = join(folder, 'catalog.json');
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate-onload-catalog.ts'], {
        encoding: 'utf8',
        env: { ...process.env, ONLOAD_CATALOG_OUT: out },
        timeout: 60_000,
      });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(readFileSync(out, 'utf8'), readFileSync('server/src/onload/data/catalog.json', 'utf8'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);
