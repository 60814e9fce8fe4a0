// The stand-in YCSB behaves like the real launchers and bindings (REAL-LAB Y1-Y8), so the engine's
// tests fail where a real lab would: each test here is one row of REAL-LAB.md.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLab, type Lab, labUnavailable } from '../lab/index';

function reportValue(stdout: string, section: string, measurement: string): string | undefined {
  return stdout.split('\n').map((line) => line.split(', ')).find(([s, m]) => s === `[${section}]` && m === measurement)?.[2];
}

describe('stand-in YCSB (REAL-LAB Y1-Y8)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let auth: string;
  let rest: string;
  const sh = (): string => join(lab.ycsbHome, 'bin', 'ycsb.sh');
  const workload = (name: string): string => join(lab.ycsbHome, 'workloads', name);

  before(async () => {
    lab = await startLab({ clients: 2 });
    auth = `${lab.couchbase.username}:${lab.couchbase.password}`;
    rest = `http://${lab.interfaces[0].address}:${lab.couchbase.restPort}`;
    const setup = await lab.ssh(lab.clientHost, [
      `curl -s -f -u '${auth}' -d name=ycsb -d ramQuotaMB=128 -d replicaNumber=0 ${rest}/pools/default/buckets`,
      `sleep 0.5; curl -s -f -u '${auth}' -X PUT -d password=ycsb-user-pass -d 'roles=bucket_full_access[ycsb]' ${rest}/settings/rbac/users/local/ycsb`,
    ].join(' && '));
    assert.equal(setup.code, 0, setup.stderr);
    for (const host of lab.clientHosts) {
      lab.writeFile(host, '/home/bench/user.properties', `couchbase.host=${lab.interfaces[0].address}\ncouchbase.bucket=ycsb\ncouchbase.password=ycsb-user-pass\n`);
      // what the old engine sent: the admin's name and password, and ports couchbase2 never reads
      lab.writeFile(host, '/home/bench/admin.properties', `couchbase.host=${lab.interfaces[0].address}\ncouchbase.bucket=ycsb\ncouchbase.username=${lab.couchbase.username}\ncouchbase.password=${lab.couchbase.password}\ncouchbase.adminport=${lab.couchbase.restPort}\ncouchbase.carrierport=${lab.couchbase.kvPort}\n`);
    }
  });
  after(async () => {
    await lab?.stop();
  });

  it('Y4: bin/ycsb needs a Python 2 the lab does not have; ycsb.sh runs and takes JAVA_OPTS, not -jvm-args', async () => {
    const direct = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && bin/ycsb shell basic < /dev/null`);
    assert.equal(direct.code, 127);
    assert.match(direct.stderr, /python/);
    const python3 = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && python3 bin/ycsb shell basic < /dev/null`);
    assert.match(python3.stderr, /SyntaxError/);
    const shell = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && bin/ycsb.sh shell basic < /dev/null`);
    assert.equal(shell.code, 0);
    assert.match(shell.stdout, /^YCSB Command Line client/);
    const opts = await lab.ssh(lab.clientHost, `JAVA_OPTS='-Xmx64m' ${sh()} load couchbase2 -P ${workload('workloadc')} -P user.properties -p recordcount=10`);
    assert.match(opts.stderr.split('\n')[0], /^\/usr\/bin\/java -Xmx64m -cp /);
    // Y8 too: an unknown option ends with exit 0 and no report
    const jvmArgs = await lab.ssh(lab.clientHost, `${sh()} load couchbase2 -jvm-args=-Xmx64m -P ${workload('workloadc')} -P user.properties`);
    assert.equal(jvmArgs.code, 0);
    assert.match(jvmArgs.stdout, /^Unknown option -jvm-args=-Xmx64m/);
    assert.equal(reportValue(jvmArgs.stdout, 'OVERALL', 'RunTime(ms)'), undefined);
  });

  it('Y1, Y2, Y8: couchbase2 logs in as the bucket-named user whatever username it is given; the admin password fails with exit 0', async () => {
    const admin = await lab.ssh(lab.clientHost, `${sh()} load couchbase2 -P ${workload('workloadc')} -P admin.properties -p recordcount=2000 -p insertstart=1000 -p insertcount=20`);
    assert.equal(admin.code, 0, 'Client exits 0 after a DB init failure');
    assert.match(admin.stderr, /Could not connect to Couchbase Bucket/);
    assert.equal(reportValue(admin.stdout, 'INSERT', 'Return=OK'), undefined);
    const user = await lab.ssh(lab.clientHost, `${sh()} load couchbase2 -P ${workload('workloadc')} -P user.properties -p recordcount=2000 -p insertstart=100 -p insertcount=20`);
    assert.equal(user.code, 0, user.stderr);
    assert.equal(reportValue(user.stdout, 'INSERT', 'Return=OK'), '20');
  });

  it('Y5: the load honours maxexecutiontime and -target', async () => {
    const started = Date.now();
    const load = await lab.ssh(lab.clientHost, `${sh()} load couchbase2 -P ${workload('workloadc')} -P user.properties -p recordcount=400 -p insertstart=0 -p maxexecutiontime=1 -target 50`);
    assert.equal(load.code, 0);
    assert.match(load.stderr, /Maximum execution time specified as: 1 secs/);
    const inserted = Number(reportValue(load.stdout, 'INSERT', 'Return=OK'));
    assert.ok(inserted > 0 && inserted < 200, `the load was cut short (${inserted} of 400)`);
    assert.ok(Date.now() - started < 20_000);
  });

  it('Y6: two clients inserting during a run take the same keys; with upsert=false the second fails', async () => {
    const command = `${sh()} run couchbase2 -P ${workload('workloadc')} -P user.properties -p recordcount=20 -p operationcount=30 -p readproportion=0 -p insertproportion=1 -p couchbase.upsert=false`;
    const [first, second] = await Promise.all(lab.clientHosts.map((host) => lab.ssh(host, command)));
    const failed = Number(reportValue(first.stdout, 'INSERT-FAILED', 'Operations') ?? 0) + Number(reportValue(second.stdout, 'INSERT-FAILED', 'Operations') ?? 0);
    assert.ok(failed >= 20, `colliding inserts fail (${failed})`);
    // disjoint ranges (recordcount shifted per client, reads kept on the loaded records) do not collide
    const disjoint = await Promise.all(lab.clientHosts.map((host, index) => lab.ssh(host, `${sh()} run couchbase2 -P ${workload('workloadc')} -P user.properties -p recordcount=${5000 + index * 100} -p insertstart=0 -p insertcount=20 -p operationcount=30 -p readproportion=0 -p insertproportion=1 -p couchbase.upsert=false`)));
    for (const result of disjoint) assert.equal(reportValue(result.stdout, 'INSERT', 'Return=OK'), '30', result.stdout);
  });

  it('Y7: scans fail without a primary index and work once it is online', async () => {
    const scan = `${sh()} run couchbase2 -P ${workload('workloade')} -P user.properties -p recordcount=20 -p operationcount=20 -p insertproportion=0 -p scanproportion=1 -p maxscanlength=5`;
    const without = await lab.ssh(lab.clientHost, scan);
    assert.equal(without.code, 0);
    assert.equal(reportValue(without.stdout, 'SCAN', 'Return=OK'), undefined);
    assert.equal(reportValue(without.stdout, 'SCAN-FAILED', 'Operations'), '20');
    const services = await lab.ssh(lab.clientHost, `curl -s -u '${auth}' ${rest}/pools/default/nodeServices`);
    const port = (JSON.parse(services.stdout) as { nodesExt: { services: { n1ql: number } }[] }).nodesExt[0].services.n1ql;
    const create = await lab.ssh(lab.clientHost, `curl -s -u '${auth}' --data-urlencode 'statement=CREATE PRIMARY INDEX ON \`ycsb\`' http://${lab.interfaces[0].address}:${port}/query/service; sleep 0.5`);
    assert.match(create.stdout, /"status":"success"/);
    const withIndex = await lab.ssh(lab.clientHost, scan);
    assert.equal(reportValue(withIndex.stdout, 'SCAN', 'Return=OK'), '20', withIndex.stdout);
  });
});
