// Pure rules of issue 9's YCSB side: which keys each binding gets (REAL-LAB Y1, Y3), what the load
// may not get (Y5), a table per inserting client and a bound for time-bounded runs (Y6, Y10, Y11), when scans need an
// index (Y7), how a phase is
// judged by its report rather than its exit code (Y8), and the quota minimum (C5).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeSdkError } from '../../../engine/src/couchbase/bucket';
import { quotaProblem } from '../../../engine/src/couchbase/bucketLifecycle';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import type { YcsbReport } from '../../../engine/src/model';
import { bindingCredentials, bindingProperties } from '../../../engine/src/ycsb/ycsbBinding';
import { launchCommand } from '../../../engine/src/ycsb/ycsbLauncher';
import {
  effectiveWorkload,
  loadingClients,
  phaseOverrides,
  unboundedOperationCount,
  withoutRunLimits,
  workloadScans,
} from '../../../engine/src/ycsb/ycsbPhaseProperties';
import { judgeReport } from '../../../engine/src/ycsb/ycsbVerdict';

const target = { host: '10.0.0.1', bucket: 'bench', restPort: 18091, kvPort: 11299 };

function report(operations: Record<string, Record<string, number>>): YcsbReport {
  return {
    runtimeMs: 1000,
    throughputOpsPerSec: 100,
    other: {},
    warnings: [],
    operations: Object.fromEntries(
      Object.entries(operations).map(([name, codes]) => [
        name,
        {
          operation: name,
          operations: Object.values(codes).reduce((a, b) => a + b, 0),
          percentilesUs: {},
          returnCodes: name.endsWith('-FAILED') ? {} : codes,
        },
      ]),
    ),
  };
}

describe('YCSB phase rules', () => {
  it('Y1/Y3: couchbase2 gets host and bucket only and a password-only file; couchbase3 gets its ports and the user', () => {
    assert.deepEqual(bindingProperties({ binding: 'couchbase2', ...target }), {
      'couchbase.host': '10.0.0.1',
      'couchbase.bucket': 'bench',
    });
    assert.deepEqual(bindingProperties({ binding: 'couchbase3', ...target }), {
      'couchbase.host': '10.0.0.1',
      'couchbase.bucket': 'bench',
      'couchbase.managerPort': 18091,
      'couchbase.kvPort': 11299,
    });
    assert.equal(
      bindingCredentials('couchbase2', { username: 'bench', password: 'gen=1' }),
      '# written by onload-bench for one YCSB phase; deleted afterwards\ncouchbase.password=gen\\=1\n',
    );
    assert.match(
      bindingCredentials('couchbase3', { username: 'bench', password: 'x' }),
      /^couchbase\.username=bench\ncouchbase\.password=x$/m,
    );
  });

  it('Y4: JVM options as -jvm-args for bin/ycsb, JAVA_OPTS for ycsb.sh and a plan command', () => {
    assert.deepEqual(
      launchCommand({ kind: 'python2', command: 'python2 bin/ycsb' }, '-Xmx4g -XX:+UseG1GC', 'run couchbase2 -P w'),
      { env: '', command: "python2 bin/ycsb run couchbase2 '-jvm-args=-Xmx4g -XX:+UseG1GC' -P w" },
    );
    assert.deepEqual(launchCommand({ kind: 'ycsb.sh', command: 'bin/ycsb.sh' }, '-Xmx4g', 'run couchbase2'), {
      env: 'JAVA_OPTS=-Xmx4g ',
      command: 'bin/ycsb.sh run couchbase2',
    });
    assert.deepEqual(
      launchCommand({ kind: 'plan', command: '/opt/py27/bin/python bin/ycsb' }, undefined, 'load basic'),
      { env: '', command: '/opt/py27/bin/python bin/ycsb load basic' },
    );
  });

  it('Y5: the load gets no run limits, whether from the plan or overriding the workload file', () => {
    assert.deepEqual(withoutRunLimits({ maxexecutiontime: 60, operationcount: 1e8, target: 1000, fieldlength: 1024 }), {
      fieldlength: 1024,
    });
    const workload = effectiveWorkload('recordcount=1000\nmaxexecutiontime: 30\n', {}, {});
    assert.deepEqual(phaseOverrides(workload, { phase: 'load', index: 0, count: 1 }), {
      maxexecutiontime: 0,
      target: 0,
    });
  });

  it('Y6, Y10, Y11: clients that insert get a table each with their share of the records, in both phases; others share one', () => {
    const workload = effectiveWorkload(
      'recordcount=1000\noperationcount=500\ninsertproportion=0.05\nrequestdistribution=latest\n',
      {},
      { fieldlength: 10 },
    );
    assert.equal(loadingClients(workload, 3, false), 3, 'every client loads its own table');
    for (const phase of ['load', 'run'] as const) {
      const overrides = [0, 1, 2].map((index) => phaseOverrides(workload, { phase, index, count: 3 }));
      assert.deepEqual(
        overrides.map((entry) => [entry.table, entry.recordcount, entry.insertstart, entry.insertcount]),
        [
          ['usertable-c1', 334, 0, 334],
          ['usertable-c2', 333, 0, 333],
          ['usertable-c3', 333, 0, 333],
        ],
      );
    }
    assert.equal(
      phaseOverrides(effectiveWorkload('table=t\nrecordcount=10\ninsertproportion=1\n', {}, {}), {
        phase: 'run',
        index: 1,
        count: 2,
      }).table,
      't-c2',
    );
    // one client, or no inserts: the workload's own table and numbers
    assert.deepEqual(phaseOverrides(workload, { phase: 'run', index: 0, count: 1 }), {});
    const readOnly = effectiveWorkload('recordcount=1000\ninsertproportion=0\n', {}, {});
    assert.equal(loadingClients(readOnly, 2, false), 1);
    assert.deepEqual(phaseOverrides(readOnly, { phase: 'run', index: 1, count: 2 }), {});
    assert.equal(loadingClients(readOnly, 2, true), 2);
    assert.deepEqual(
      [0, 1, 2].map((index) => phaseOverrides(readOnly, { phase: 'load', index, count: 3 })),
      [
        { maxexecutiontime: 0, target: 0, insertstart: 0, insertcount: 334 },
        { maxexecutiontime: 0, target: 0, insertstart: 334, insertcount: 333 },
        { maxexecutiontime: 0, target: 0, insertstart: 667, insertcount: 333 },
      ],
    );
  });

  it('Y10: a run bounded by maxexecutiontime alone gets the largest operationcount (0 starts no thread in 0.17.0); the load never does', () => {
    for (const count of ['operationcount=0\n', '']) {
      const workload = effectiveWorkload(`recordcount=100\n${count}maxexecutiontime=30\n`, {}, {});
      assert.equal(
        phaseOverrides(workload, { phase: 'run', index: 0, count: 1 }).operationcount,
        unboundedOperationCount,
      );
      assert.equal(phaseOverrides(workload, { phase: 'load', index: 0, count: 1 }).operationcount, undefined);
    }
    assert.equal(
      phaseOverrides(effectiveWorkload('operationcount=500\nmaxexecutiontime=30\n', {}, {}), {
        phase: 'run',
        index: 0,
        count: 1,
      }).operationcount,
      undefined,
    );
    assert.equal(unboundedOperationCount, 2 ** 31 - 1);
  });

  it('Y7: scans from the file, the plan or an axis need the index', () => {
    assert.equal(workloadScans(effectiveWorkload('scanproportion=0.95\n', {}, {})), true);
    assert.equal(workloadScans(effectiveWorkload('scanproportion=0.95\n', { scanproportion: 0 }, {})), false);
    assert.equal(workloadScans(effectiveWorkload('scanproportion=0\n', {}, { scanproportion: 0.1 })), true);
  });

  it('Y8: a phase is judged by its report: none, no OK operation, failures, or a short load all fail', () => {
    assert.match(
      judgeReport('load', undefined, 'Unknown option -jvm-args=-Xmx4g\nUsage: ...').problem ?? '',
      /printed no report: Unknown option -jvm-args=-Xmx4g/,
    );
    assert.equal(
      judgeReport('run', report({ READ: { OK: 0 } }), 'site.ycsb.DBException: Could not connect to Couchbase Bucket.')
        .kind,
      'no-operations',
    );
    assert.equal(
      judgeReport('run', report({ READ: { OK: 90, ERROR: 10 }, 'READ-FAILED': { x: 10 } }), '').kind,
      'failed-operations',
    );
    assert.match(
      judgeReport('load', report({ INSERT: { OK: 150 } }), '', 200).problem ?? '',
      /inserted 150 of its 200 records/,
    );
    assert.deepEqual(judgeReport('load', report({ INSERT: { OK: 200 } }), '', 200), { ok: true });
  });

  it('C5: a bucket under 100 MiB or beyond the free quota is refused with numbers', () => {
    assert.match(quotaProblem('bench', 64) ?? '', /64 MiB; Couchbase needs at least 100 MiB/);
    assert.match(
      quotaProblem('bench', 4096, { quotaMB: 4096, usedByOthersMB: 1024 }) ?? '',
      /needs 4096 MiB but only 3072 MiB of the node's 4096 MiB/,
    );
    assert.equal(quotaProblem('bench', 1024, { quotaMB: 4096, usedByOthersMB: 1024 }), undefined);
  });

  it('C4: a management error quotes what the server answered and guesses nothing about the password', () => {
    class InternalServerFailureError extends Error {
      constructor(readonly context: Record<string, unknown>) {
        super('internal server failure');
      }
    }
    const server = withDefaults({
      servers: [{ host: 'cb' }],
      interfaces: { a: '10.0.0.1' },
      clients: [{ host: 'c', ycsbHome: '/y' }],
      bucket: { name: 'bench' },
      workload: { path: 'w' },
      stacks: ['kernel'],
    }).servers[0];
    const stillThere = describeSdkError(
      new InternalServerFailureError({
        response_code: 500,
        response_body: '{"_":"Bucket with given name still exists"}',
      }),
      server,
      'create-bucket',
      'bench',
    ).error;
    assert.equal(stillThere.code, 'bucket-create');
    assert.match(
      stillThere.message,
      /HTTP 500\): internal server failure \(server: Bucket with given name still exists\)/,
    );
    assert.doesNotMatch(`${stillThere.message} ${stillThere.action}`, /password/);
    const refused = describeSdkError(
      new InternalServerFailureError({ response_code: 401, response_body: '' }),
      server,
      'drop-bucket',
      'bench',
    ).error;
    assert.equal(refused.code, 'bucket-auth');
  });
});
