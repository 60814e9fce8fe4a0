// Pre-flight's YCSB probe against the real YCSB 0.17.0 (REAL-LAB Y9): the release passes it, and an
// installation that could not run a phase fails it, each with the reason on its pre-flight line.
// Before issue 20 the probe wanted exit 0 from `shell basic </dev/null`, which the real YCSB never
// gives (exit 1 at end of input): every real lab failed pre-flight here.
import assert from 'node:assert/strict';
import { chownSync, cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadPlan, runPreflight } from '../../../engine/src/index';
import type { PreflightCheck } from '../../../engine/src/events';
import { labUnavailable, writeLabPlan, type Lab } from '../../lab/index';
import { labJavaOptions, ycsbReleaseHome } from '../../lab/realYcsb';
import { labPerSuite } from '../../support/labSuite';

describe('the YCSB launcher probe on the real YCSB (REAL-LAB Y4, Y9)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  labPerSuite({ clients: 4, withoutJava: ['ycsb-client-3'] }, 'engine-probe-', (started) => ({ lab, work } = started));

  it(
    'passes the release through bin/ycsb.sh; fails without the binding jars, without Java, and with Python 3; says when HDR logs cannot be written',
    { timeout: 90_000 },
    async () => {
      const [release, withoutBinding, withoutJava, python3] = lab.clientHosts;
      // a release whose couchbase2-binding/lib was not installed: everything else copied, on that host
      const noBinding = `${lab.hosts[withoutBinding].home}/ycsb-no-binding`;
      const copy = lab.hostPath(withoutBinding, noBinding);
      cpSync(ycsbReleaseHome(), copy, {
        recursive: true,
        dereference: true,
        filter: (source) => !source.includes('couchbase2-binding'),
      });
      mkdirSync(join(copy, 'couchbase2-binding', 'lib'), { recursive: true });
      chownSync(copy, 1000, 1000); // bench's, as a user would have unpacked it
      // without the JAXB API a user on Java 11+ adds for HDR logs: pre-flight must say it is missing
      const javaOptions = labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort, { hdrLogs: false });
      const planPath = writeLabPlan(lab, {
        dir: join(work, 'plan'),
        stacks: ['kernel'],
        threads: [1],
        extra: {
          clients: [
            { host: release, ycsbHome: lab.ycsbHome, javaOptions },
            { host: withoutBinding, ycsbHome: noBinding, javaOptions },
            { host: withoutJava, ycsbHome: lab.ycsbHome, javaOptions },
            { host: python3, ycsbHome: lab.ycsbHome, javaOptions, ycsbCommand: 'python3 bin/ycsb' },
          ],
        },
      });
      const { plan } = await loadPlan(planPath);
      const checks: PreflightCheck[] = await runPreflight({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent: () => undefined,
        ssh: { configFile: lab.sshConfigPath },
      });
      const line = (host: string): PreflightCheck => {
        const check = checks.find((candidate) => candidate.id === 'ycsb-launcher' && candidate.host === host);
        assert.ok(check, `a launcher line for ${host}: ${JSON.stringify(checks)}`);
        return check;
      };
      assert.equal(line(release).ok, true, line(release).detail);
      assert.match(line(release).detail, /^bin\/ycsb\.sh starts YCSB/);
      assert.match(
        line(release).detail,
        /python2 bin\/ycsb: exit 127: python2 is not on the PATH/,
        'what was tried first is said',
      );

      assert.equal(line(withoutBinding).ok, false);
      assert.match(line(withoutBinding).detail, /ClassNotFoundException: site\.ycsb\.db\.couchbase2\.Couchbase2Client/);
      assert.match(line(withoutBinding).action ?? '', /couchbase2-binding\/lib/);
      assert.equal(line(withoutBinding).blocking, true);

      assert.equal(line(withoutJava).ok, false);
      assert.match(line(withoutJava).detail, /Java executable not found/);

      assert.equal(line(python3).ok, false);
      assert.match(line(python3).detail, /python3 bin\/ycsb: exit 1: .*SyntaxError/);

      // Java 17 has no javax.xml.bind for HdrHistogram 2.1.4: the run will go without HDR logs, said, not blocking
      const hdr = checks.find((check) => check.id === 'ycsb-hdr-log' && check.host === release);
      assert.deepEqual([hdr?.ok, hdr?.blocking], [false, false]);
      assert.match(hdr?.detail ?? '', /HdrHistogram 2\.1\.4 needs javax\.xml\.bind\.DatatypeConverter/);
      assert.match(hdr?.action ?? '', /-Xbootclasspath\/a:/);
    },
  );
});
