// The real YCSB 0.17.0 on the lab's client hosts, against the test node: each test is a row of
// REAL-LAB.md (Y1-Y11) as the real program shows it, so the engine's lab tests meet what a real
// lab would show them, and the lab's faults act on the real process. Bounded: a few JVM runs per
// test, tens of records, every run under a time limit.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { labJavaOptions } from '../lab/realYcsb';
import { labUnavailable, type Lab } from '../lab/index';
import { labPerSuite } from '../support/labSuite';

function reportValue(stdout: string, section: string, measurement: string): string | undefined {
  return stdout
    .split('\n')
    .map((line) => line.split(', '))
    .find(([s, m]) => s === `[${section}]` && m === measurement)?.[2];
}

describe('the real YCSB 0.17.0 in the lab (REAL-LAB Y1-Y11)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let auth: string;
  let rest: string;
  labPerSuite({ clients: 2 }, 'real-ycsb-', (started) => {
    lab = started.lab;
  });
  const workload = (name: string): string => join(lab.ycsbHome, 'workloads', name);
  /** bin/ycsb.sh with the node's ports, from the host's home folder. */
  const sh = (args: string, extraJava = ''): string =>
    `JAVA_OPTS='${labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort)}${extraJava}' timeout 60 ${lab.ycsbHome}/bin/ycsb.sh ${args}`;

  async function bucketWithUser(name: string): Promise<void> {
    auth = `${lab.couchbase.username}:${lab.couchbase.password}`;
    rest = `http://${lab.interfaces[0].address}:${lab.couchbase.restPort}`;
    const setup = await lab.ssh(
      lab.clientHost,
      [
        `curl -s -f -u '${auth}' -d name=${name} -d ramQuotaMB=100 -d replicaNumber=0 ${rest}/pools/default/buckets`,
        `sleep 0.5; curl -s -f -u '${auth}' -X PUT -d password=${name}-user-pass -d 'roles=bucket_full_access[${name}]' ${rest}/settings/rbac/users/local/${name}`,
      ].join(' && '),
    );
    assert.equal(setup.code, 0, setup.stderr);
    for (const host of lab.clientHosts) {
      lab.writeFile(
        host,
        `${lab.hosts[host].home}/${name}.properties`,
        `couchbase.host=${lab.interfaces[0].address}\ncouchbase.bucket=${name}\ncouchbase.password=${name}-user-pass\n`,
      );
    }
  }

  it(
    'Y3, Y4, Y9: no couchbase3 in 0.17.0; bin/ycsb needs Python 2; ycsb.sh takes JAVA_OPTS and passes -jvm-args to Client (Y8: exit 0); the shell ends 1 at end of input',
    { timeout: 60_000 },
    async () => {
      const direct = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && bin/ycsb shell basic < /dev/null`);
      assert.equal(direct.code, 127);
      assert.match(direct.stderr, /python/);
      const python3 = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && python3 bin/ycsb shell basic < /dev/null`);
      assert.equal(python3.code, 1);
      assert.match(python3.stderr, /SyntaxError/);
      const shell = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && bin/ycsb.sh shell basic < /dev/null`);
      assert.equal(shell.code, 1, 'Y9: end of input is a NullPointerException, not a clean exit');
      assert.match(shell.stdout, /YCSB Command Line client/);
      assert.match(shell.stderr, /NullPointerException/);
      // Y3 is the couchbaselabs fork's couchbase3: the 0.17.0 release has no such binding
      const couchbase3 = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && bin/ycsb.sh load couchbase3`);
      assert.equal(couchbase3.code, 1);
      assert.match(couchbase3.stdout, /\[ERROR\] The specified binding 'couchbase3' was not found\./);
      const quit = await lab.ssh(lab.clientHost, `cd ${lab.ycsbHome} && echo quit | bin/ycsb.sh shell basic`);
      assert.equal(quit.code, 0, 'quit is the shell clean exit');
      const jvmArgs = await lab.ssh(
        lab.clientHost,
        sh(`load couchbase2 -jvm-args=-Xmx64m -P ${workload('workloadc')} -p recordcount=1`, ' -Xmx96m'),
      );
      assert.equal(jvmArgs.code, 0);
      assert.match(
        jvmArgs.stdout.split('\n')[0],
        /^\/usr\/bin\/java -Dcom\.couchbase\.\S+ -Dcom\.couchbase\.\S+ -Xbootclasspath\/a:\S+ -Xmx96m -classpath /,
        'JAVA_OPTS reach the JVM',
      );
      assert.match(jvmArgs.stdout, /Unknown option -jvm-args=-Xmx64m/);
      assert.equal(reportValue(jvmArgs.stdout, 'OVERALL', 'RunTime(ms)'), undefined);
    },
  );

  it(
    'Y1, Y2, Y8: couchbase2 logs in as the bucket-named user; admin credentials fail with exit 0 and no inserts',
    { timeout: 60_000 },
    async () => {
      await bucketWithUser('login');
      lab.writeFile(
        lab.clientHost,
        `${lab.hosts[lab.clientHost].home}/admin.properties`,
        `couchbase.host=${lab.interfaces[0].address}\ncouchbase.bucket=login\ncouchbase.username=${lab.couchbase.username}\ncouchbase.password=${lab.couchbase.password}\ncouchbase.adminport=${lab.couchbase.restPort}\n`,
      );
      const [admin, user] = await Promise.all([
        lab.ssh(
          lab.clientHost,
          sh(`load couchbase2 -P ${workload('workloadc')} -P admin.properties -p recordcount=10`),
        ),
        lab.ssh(
          lab.clientHosts[1],
          sh(`load couchbase2 -P ${workload('workloadc')} -P login.properties -p recordcount=10`),
        ),
      ]);
      assert.equal(admin.code, 0, 'Client exits 0 after a DB init failure');
      assert.match(admin.stderr, /Could not connect to Couchbase Bucket/);
      assert.match(
        admin.stderr,
        /InvalidPasswordException|AuthenticationException|Passwords for bucket "login" do not match/,
      );
      assert.equal(reportValue(admin.stdout, 'INSERT', 'Return=OK'), undefined);
      assert.ok(
        !admin.stdout.includes(lab.couchbase.password) && !admin.stderr.includes(lab.couchbase.password),
        'the password is never printed',
      );
      assert.equal(user.code, 0, user.stderr);
      assert.equal(reportValue(user.stdout, 'INSERT', 'Return=OK'), '10', user.stdout);
    },
  );

  it(
    'Y5, Y11: the load honours maxexecutiontime and -target; insert bounds are checked in the run too (exit 255)',
    { timeout: 60_000 },
    async () => {
      await bucketWithUser('limits');
      const started = Date.now();
      const load = await lab.ssh(
        lab.clientHost,
        sh(
          `load couchbase2 -P ${workload('workloadc')} -P limits.properties -p recordcount=400 -p maxexecutiontime=4 -target 20`,
        ),
      );
      assert.equal(load.code, 0, load.stderr);
      assert.match(load.stderr, /Maximum execution time specified as: 4 secs/);
      const inserted = Number(reportValue(load.stdout, 'INSERT', 'Return=OK'));
      assert.ok(inserted > 0 && inserted < 200, `the load was cut short (${inserted} of 400)`);
      assert.ok(Date.now() - started < 30_000);
      const run = await lab.ssh(
        lab.clientHost,
        sh(
          `run couchbase2 -P ${workload('workloadc')} -P limits.properties -p recordcount=50 -p insertcount=60 -p operationcount=10`,
        ),
      );
      assert.equal(run.code, 255);
      assert.match(run.stderr, /Invalid combination of insertstart, insertcount and recordcount/);
    },
  );

  it(
    'Y6: two clients inserting in a run take the same keys (upsert=false: INSERT-FAILED); a table each keeps them apart',
    { timeout: 90_000 },
    async () => {
      await bucketWithUser('collide');
      const command = (extra: string): string =>
        sh(
          `run couchbase2 -P ${workload('workloadc')} -P collide.properties -p recordcount=20 -p operationcount=30 -p readproportion=0 -p insertproportion=1 ${extra}`,
        );
      const [first, second] = await Promise.all(lab.clientHosts.map((host) => lab.ssh(host, command(''))));
      const failed =
        Number(reportValue(first.stdout, 'INSERT-FAILED', 'Operations') ?? 0) +
        Number(reportValue(second.stdout, 'INSERT-FAILED', 'Operations') ?? 0);
      assert.ok(failed >= 20, `colliding inserts fail (${failed})\n${first.stdout}\n${second.stdout}`);
      const apart = await Promise.all(
        lab.clientHosts.map((host, index) => lab.ssh(host, command(`-p table=client${index + 1}`))),
      );
      for (const result of apart) assert.equal(reportValue(result.stdout, 'INSERT', 'Return=OK'), '30', result.stdout);
    },
  );

  it(
    'Y7: scans (N1QL through Java SDK 2.3.1, prepared) fail without a primary index and work once it is online',
    { timeout: 90_000 },
    async () => {
      await bucketWithUser('scans');
      const load = await lab.ssh(
        lab.clientHost,
        sh(`load couchbase2 -P ${workload('workloade')} -P scans.properties -p recordcount=30`),
      );
      assert.equal(reportValue(load.stdout, 'INSERT', 'Return=OK'), '30', load.stdout);
      const scan = sh(
        `run couchbase2 -P ${workload('workloade')} -P scans.properties -p recordcount=30 -p operationcount=20 -p insertproportion=0 -p scanproportion=1 -p maxscanlength=5`,
      );
      const without = await lab.ssh(lab.clientHost, scan);
      assert.equal(without.code, 0);
      assert.equal(reportValue(without.stdout, 'SCAN', 'Return=OK'), undefined);
      assert.equal(reportValue(without.stdout, 'SCAN-FAILED', 'Operations'), '20');
      const services = await lab.ssh(lab.clientHost, `curl -s -u '${auth}' ${rest}/pools/default/nodeServices`);
      const port = (JSON.parse(services.stdout) as { nodesExt: { services: { n1ql: number } }[] }).nodesExt[0].services
        .n1ql;
      const create = await lab.ssh(
        lab.clientHost,
        `curl -s -u '${auth}' --data-urlencode 'statement=CREATE PRIMARY INDEX ON \`scans\`' http://${lab.interfaces[0].address}:${port}/query/service; sleep 0.5`,
      );
      assert.match(create.stdout, /"status": "success"/);
      const withIndex = await lab.ssh(lab.clientHost, scan);
      assert.equal(reportValue(withIndex.stdout, 'SCAN', 'Return=OK'), '20', withIndex.stdout);
    },
  );

  it(
    'Y10: with operationcount 0 the run starts no thread; with latest, a client whose recordcount lies above the loaded records reads keys never written',
    { timeout: 90_000 },
    async () => {
      await bucketWithUser('latest');
      const load = await lab.ssh(
        lab.clientHost,
        sh(`load couchbase2 -P ${workload('workloadd')} -P latest.properties -p recordcount=40`),
      );
      assert.equal(reportValue(load.stdout, 'INSERT', 'Return=OK'), '40', load.stdout);
      const [unbounded, above] = await Promise.all([
        lab.ssh(
          lab.clientHost,
          sh(
            `run couchbase2 -P ${workload('workloadd')} -P latest.properties -p recordcount=40 -p operationcount=0 -p maxexecutiontime=2 -threads 2`,
          ),
        ),
        lab.ssh(
          lab.clientHosts[1],
          sh(
            `run couchbase2 -P ${workload('workloadd')} -P latest.properties -p recordcount=1040 -p insertstart=0 -p insertcount=40 -p operationcount=40 -p insertproportion=0 -p readproportion=1`,
          ),
        ),
      ]);
      assert.match(
        unbounded.stdout,
        /Warning: the threadcount is bigger than recordcount, the threadcount will be recordcount!/,
      );
      // no thread ran: the run's time is only the bookkeeping around none (0 ms, a few on a busy machine)
      assert.ok(Number(reportValue(unbounded.stdout, 'OVERALL', 'RunTime(ms)')) < 500, unbounded.stdout);
      assert.equal(reportValue(unbounded.stdout, 'READ', 'Operations'), undefined, 'no operation at all');
      assert.ok(Number(reportValue(above.stdout, 'READ', 'Return=NOT_FOUND') ?? 0) > 30, above.stdout);
    },
  );

  it(
    'faults act on the real process: failed operations from the node, a SIGKILLed and a SIGSTOPped JVM',
    { timeout: 90_000 },
    async () => {
      await bucketWithUser('faults');
      const load = await lab.ssh(
        lab.clientHost,
        sh(`load couchbase2 -P ${workload('workloadc')} -P faults.properties -p recordcount=40`),
      );
      assert.equal(reportValue(load.stdout, 'INSERT', 'Return=OK'), '40', load.stdout);
      const run = (extra = ''): string =>
        sh(
          `run couchbase2 -s -P ${workload('workloadc')} -P faults.properties -p recordcount=40 -p operationcount=100 ${extra}`,
        );
      lab.faults.set({ temporaryFailureEvery: 10 });
      const errors = await lab.ssh(lab.clientHost, run());
      lab.faults.clear();
      assert.equal(reportValue(errors.stdout, 'READ', 'Return=OK'), '90', errors.stdout);
      assert.equal(reportValue(errors.stdout, 'READ', 'Return=ERROR'), '10');
      assert.equal(reportValue(errors.stdout, 'READ-FAILED', 'Operations'), '10');

      lab.faults.set({ ycsbCrashAfterOps: 20 });
      const crashed = await lab.ssh(lab.clientHost, run());
      lab.faults.clear();
      assert.equal(crashed.code, 137, 'bin/ycsb.sh ends with its SIGKILLed JVM');
      assert.equal(reportValue(crashed.stdout, 'OVERALL', 'RunTime(ms)'), undefined, 'no report');

      lab.faults.set({ ycsbHangAfterOps: 20 });
      const hung = await lab.ssh(lab.clientHost, run(), { timeoutMs: 5000 });
      lab.faults.clear();
      assert.notEqual(hung.code, 0, 'still running when the ssh timeout hit');
      assert.equal(lab.faults.killYcsb() >= 1, true, 'the stopped JVM was there to kill');
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
  );
});
