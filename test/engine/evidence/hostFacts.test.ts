import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientFactsScript, parseHostFacts, serverFactsScript } from '../../../engine/src/evidence/environment';
import { couchbaseHome } from '../../../engine/src/plan/planSchema';
import { hardwareFactsText } from '../../../engine/src/evidence/hostHardware';
import { ycsbLabel } from '../../../engine/src/sweep/preflight/clientChecks';
import { onloadLabel } from '../../../engine/src/sweep/preflight/serverChecks';
import { cpus } from 'node:os';
import { credentialsProperties, escapePropertiesValue } from '../../../engine/src/remote/secrets';
import { failedOperations, ycsbCommand } from '../../../engine/src/ycsb/ycsbRun';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import type { YcsbReport } from '../../../engine/src/model';

describe('host facts', () => {
  it('reads versions, binaries and NIC driver/firmware per address', () => {
    const facts = parseHostFacts(
      [
        '@kernel 6.1.0-18-amd64',
        '@couchbase 7.6.2-3721-enterprise',
        '@couchbase-binary yes',
        '@onload onload 9.0.1.86',
        '@onload-binary yes',
        '@iface 10.20.128.35 device=enp1s0f0',
        '@iface-driver 10.20.128.35 sfc',
        '@iface-firmware 10.20.128.35 8.2.4.1003 rx1 tx1',
        '@iface 10.20.130.35 device=',
      ].join('\n'),
      'server',
    );
    assert.deepEqual(facts.environment, {
      role: 'server',
      kernel: '6.1.0-18-amd64',
      couchbase: '7.6.2-3721-enterprise',
      onload: 'onload 9.0.1.86',
      interfaces: {
        '10.20.128.35': { device: 'enp1s0f0', driver: 'sfc', firmware: '8.2.4.1003 rx1 tx1' },
        '10.20.130.35': {},
      },
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
      const plan = withDefaults({
        servers: [{ host: 's' }],
        interfaces: { a: '1.1.1.1' },
        clients: [{ host: 'c', ycsbHome: home }],
        bucket: { name: 'b' },
        workload: { path: 'w' },
        stacks: ['kernel'],
      });
      const output = execFileSync('sh', ['-c', clientFactsScript(plan.clients[0])], { encoding: 'utf8' });
      const facts = parseHostFacts(output, 'client');
      assert.equal(facts.environment.ycsb, '0.17.0');
      assert.equal(facts.binaries.ycsb, true);
      assert.match(facts.environment.kernel ?? '', /\d/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("reads CPU, NUMA, governor and the NIC's NUMA node and IRQ affinity, and says them in words", () => {
    const facts = parseHostFacts(
      [
        '@cpu-model Intel(R) Xeon(R)   Gold 6338 CPU @ 2.00GHz',
        '@cpu-threads 128',
        '@cpu-cores 64',
        '@cpu-sockets 2',
        '@numa-nodes 2',
        '@cpu-governor performance 120',
        '@cpu-governor powersave 8',
        '@iface 10.20.128.35 device=enp1s0f0',
        '@iface-numa 10.20.128.35 1',
        '@iface-irq 10.20.128.35 140 32 enp1s0f0-0',
        '@iface-irq 10.20.128.35 141 33 enp1s0f0-1',
        '@iface-irq 10.20.128.35 142 0-63',
        '@iface 10.20.130.35 device=eth9',
        '@iface-numa 10.20.130.35 -1',
        '@iface-irq 10.20.130.35 90 0-127',
        '@iface-irq 10.20.130.35 91 0-127',
      ].join('\n'),
      'server',
    );
    assert.deepEqual(facts.environment.cpu, {
      model: 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz',
      threads: 128,
      cores: 64,
      sockets: 2,
      numaNodes: 2,
      governors: { performance: 120, powersave: 8 },
    });
    assert.equal(facts.environment.interfaces?.['10.20.128.35'].numaNode, 1);
    assert.deepEqual(facts.environment.interfaces?.['10.20.128.35'].irqs, [
      { irq: 140, cpus: '32', name: 'enp1s0f0-0' },
      { irq: 141, cpus: '33', name: 'enp1s0f0-1' },
      { irq: 142, cpus: '0-63' },
    ]);
    assert.deepEqual(hardwareFactsText(facts.environment), [
      { label: 'CPU', value: 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz: 2 sockets, 64 cores, 128 threads' },
      { label: 'NUMA nodes', value: '2' },
      { label: 'Frequency governor', value: 'performance on 120 CPUs, powersave on 8 CPUs' },
      { label: 'NUMA node of 10.20.128.35', value: '1' },
      { label: 'IRQ affinity of 10.20.128.35', value: '3 IRQs (IRQ→CPUs): 140→32, 141→33, 142→0-63' },
      { label: 'NUMA node of 10.20.130.35', value: 'none (the platform reports -1)' },
      { label: 'IRQ affinity of 10.20.130.35', value: '2 IRQs, all on CPUs 0-127' },
    ]);
  });

  it("the server script reads this machine's CPU threads with a real sh", () => {
    const plan = withDefaults({
      servers: [{ host: 's' }],
      interfaces: { a: '127.0.0.1' },
      clients: [{ host: 'c', ycsbHome: '/nonexistent' }],
      bucket: { name: 'b' },
      workload: { path: 'w' },
      stacks: ['kernel'],
    });
    const output = execFileSync('sh', ['-c', serverFactsScript(plan.servers[0], ['127.0.0.1'])], { encoding: 'utf8' });
    const facts = parseHostFacts(output, 'server');
    assert.equal(facts.environment.cpu?.threads, cpus().length);
    assert.ok((facts.environment.cpu?.cores ?? 0) >= 1 && (facts.environment.cpu?.cores ?? 0) <= cpus().length);
  });

  it('pre-flight names Onload once and says where the YCSB version will come from', () => {
    assert.equal(onloadLabel('Onload 9.0.1.86'), 'Onload 9.0.1.86');
    assert.equal(onloadLabel('OpenOnload 8.1.2.26'), 'OpenOnload 8.1.2.26');
    assert.equal(onloadLabel('9.0.1.86'), 'Onload 9.0.1.86');
    assert.equal(onloadLabel(undefined), 'Onload (version unknown)');
    assert.equal(ycsbLabel('0.17.0', '/opt/ycsb'), 'YCSB 0.17.0 in /opt/ycsb');
    assert.equal(
      ycsbLabel(undefined, '/opt/ycsb'),
      'YCSB in /opt/ycsb (version read from its output at the first run)',
    );
  });

  it('escapes passwords for java.util.Properties', () => {
    assert.equal(escapePropertiesValue(' p=a:s#s\\w!é\n'), '\\ p\\=a\\:s\\#s\\\\w\\!\\u00e9\\n');
    assert.equal(
      credentialsProperties('Administrator', 's3cret'),
      '# written by onload-bench for one YCSB phase; deleted afterwards\ncouchbase.username=Administrator\ncouchbase.password=s3cret\n',
    );
  });

  it('builds a YCSB command with quoted values and no password', () => {
    const plan = withDefaults({
      servers: [{ host: 's', restPort: 18091, kvPort: 11299 }],
      interfaces: { '25G': '10.0.0.1' },
      clients: [{ host: 'c', ycsbHome: '/opt/my ycsb' }],
      bucket: { name: 'bench' },
      workload: { path: 'w', properties: { recordcount: 1000, 'table name': "it's" } },
      stacks: ['kernel'],
    });
    const command = ycsbCommand({
      client: plan.clients[0],
      server: plan.servers[0],
      phase: 'run',
      bucketName: 'bench',
      workloadRemotePath: '.onload-bench/workload.properties',
      credentialsRemotePath: '.onload-bench/secret-1.properties',
      properties: plan.workload.properties,
      key: {
        interface: '25G',
        address: '10.0.0.1',
        stack: 'kernel',
        threads: 20,
        axes: { fieldlength: 1024 },
        repetition: 1,
      },
    });
    assert.match(command, /^cd '\/opt\/my ycsb' && /);
    assert.match(
      command,
      / run couchbase2 -P \.onload-bench\/workload\.properties -P \.onload-bench\/secret-1\.properties /,
    );
    // REAL-LAB Y1: couchbase2 reads no port and no username
    assert.match(
      command,
      / -p recordcount=1000 -p 'table name=it'\\''s' -p fieldlength=1024 -p couchbase\.host=10\.0\.0\.1 -p couchbase\.bucket=bench -threads 20 -s$/,
    );
    assert.doesNotMatch(command, /password/);
  });

  it('finds failed operations and non-OK return codes', () => {
    const report: YcsbReport = {
      runtimeMs: 1,
      throughputOpsPerSec: 1,
      other: {},
      warnings: [],
      operations: {
        READ: { operation: 'READ', operations: 10, percentilesUs: {}, returnCodes: { OK: 9, NOT_FOUND: 1 } },
        'UPDATE-FAILED': { operation: 'UPDATE-FAILED', operations: 2, percentilesUs: {}, returnCodes: {} },
        INSERT: { operation: 'INSERT', operations: 5, percentilesUs: {}, returnCodes: { OK: 5 } },
      },
    };
    assert.deepEqual(failedOperations(report), ['READ Return=NOT_FOUND: 1', 'UPDATE-FAILED: 2']);
  });
});
