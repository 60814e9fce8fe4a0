import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientFactsScript, couchbaseHome, parseHostFacts } from '../../engine/src/environment';
import { credentialsProperties, escapePropertiesValue } from '../../engine/src/secrets';
import { failedOperations, ycsbCommand } from '../../engine/src/ycsbRun';
import { withDefaults } from '../../engine/src/planSchema';
import type { YcsbReport } from '../../engine/src/model';

describe('host facts', () => {
  it('reads versions, binaries and NIC driver/firmware per address', () => {
    const facts = parseHostFacts(
      ['@kernel 6.1.0-18-amd64', '@couchbase 7.6.2-3721-enterprise', '@couchbase-binary yes', '@onload onload 9.0.1.86', '@onload-binary yes', '@iface 10.20.128.35 device=enp1s0f0', '@iface-driver 10.20.128.35 sfc', '@iface-firmware 10.20.128.35 8.2.4.1003 rx1 tx1', '@iface 10.20.130.35 device='].join('\n'),
      'server',
    );
    assert.deepEqual(facts.environment, {
      role: 'server',
      kernel: '6.1.0-18-amd64',
      couchbase: '7.6.2-3721-enterprise',
      onload: 'onload 9.0.1.86',
      interfaces: { '10.20.128.35': { device: 'enp1s0f0', driver: 'sfc', firmware: '8.2.4.1003 rx1 tx1' }, '10.20.130.35': {} },
    });
    assert.deepEqual(facts.binaries, { couchbase: true, onload: true });
    assert.equal(couchbaseHome('/opt/couchbase/bin/couchbase-server'), '/opt/couchbase');
  });

  it('the client script finds YCSB and its version from a release folder with a real sh', () => {
    const root = mkdtempSync(join(tmpdir(), 'facts-'));
    try {
      const home = join(root, "it's here", 'ycsb-0.17.0');
      mkdirSync(join(home, 'bin'), { recursive: true });
      writeFileSync(join(home, 'bin', 'ycsb'), '#!/bin/sh\n', { mode: 0o755 });
      const plan = withDefaults({ servers: [{ host: 's' }], interfaces: { a: '1.1.1.1' }, clients: [{ host: 'c', ycsbHome: home }], bucket: { name: 'b' }, workload: { path: 'w' }, stacks: ['kernel'] });
      const output = execFileSync('sh', ['-c', clientFactsScript(plan.clients[0])], { encoding: 'utf8' });
      const facts = parseHostFacts(output, 'client');
      assert.equal(facts.environment.ycsb, '0.17.0');
      assert.equal(facts.binaries.ycsb, true);
      assert.match(facts.environment.kernel ?? '', /\d/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('escapes passwords for java.util.Properties', () => {
    assert.equal(escapePropertiesValue(' p=a:s#s\\w!é\n'), '\\ p\\=a\\:s\\#s\\\\w\\!\\u00e9\\n');
    assert.equal(credentialsProperties('Administrator', 's3cret'), '# written by onload-bench for one YCSB phase; deleted afterwards\ncouchbase.username=Administrator\ncouchbase.password=s3cret\n');
  });

  it('builds a YCSB command with quoted values and no password', () => {
    const plan = withDefaults({ servers: [{ host: 's', restPort: 18091, kvPort: 11299 }], interfaces: { '25G': '10.0.0.1' }, clients: [{ host: 'c', ycsbHome: '/opt/my ycsb' }], bucket: { name: 'bench' }, workload: { path: 'w', properties: { recordcount: 1000, 'table name': "it's" } }, stacks: ['kernel'] });
    const command = ycsbCommand({
      client: plan.clients[0], server: plan.servers[0], phase: 'run', bucketName: 'bench', workloadRemotePath: '.onload-bench/workload.properties', credentialsRemotePath: '.onload-bench/secret-1.properties', properties: plan.workload.properties,
      key: { interface: '25G', address: '10.0.0.1', stack: 'kernel', threads: 20, axes: { fieldlength: 1024 }, repetition: 1 },
    });
    assert.match(command, /^cd '\/opt\/my ycsb' && /);
    assert.match(command, / run couchbase2 -P \.onload-bench\/workload\.properties -P \.onload-bench\/secret-1\.properties /);
    assert.match(command, / -p recordcount=1000 -p 'table name=it'\\''s' -p fieldlength=1024 -p couchbase\.host=10\.0\.0\.1 -p couchbase\.bucket=bench -p couchbase\.adminport=18091 -p couchbase\.carrierport=11299 -threads 20 -s$/);
    assert.doesNotMatch(command, /password/);
  });

  it('finds failed operations and non-OK return codes', () => {
    const report: YcsbReport = { runtimeMs: 1, throughputOpsPerSec: 1, other: {}, warnings: [], operations: {
      READ: { operation: 'READ', operations: 10, percentilesUs: {}, returnCodes: { OK: 9, NOT_FOUND: 1 } },
      'UPDATE-FAILED': { operation: 'UPDATE-FAILED', operations: 2, percentilesUs: {}, returnCodes: {} },
      INSERT: { operation: 'INSERT', operations: 5, percentilesUs: {}, returnCodes: { OK: 5 } },
    } };
    assert.deepEqual(failedOperations(report), ['READ Return=NOT_FOUND: 1', 'UPDATE-FAILED: 2']);
  });
});
