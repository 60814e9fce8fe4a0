// The engine against a lab that behaves like the real YCSB and Couchbase (REAL-LAB Y1-Y8, C4, C5,
// C6, C8): each test names its row and fails on the engine before issue 9 (see test/lab/README.md).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan, runPreflight, runSweep } from '../../../engine/src/index';
import type { PreflightCheck, RunOutcome, SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { startLab, writeLabPlan, type Lab, type LabPlanOptions } from '../../lab/index';
import { labPerSuite } from '../../support/labSuite';

const labAvailable = existsSync('/usr/sbin/sshd');

interface Record_ { outcome: RunOutcome; events: SweepEvent[]; results: CellResult[]; logs: string[] }

async function sweep(lab: Lab, planPath: string, resultsRoot: string): Promise<Record_> {
  const { plan, errors } = await loadPlan(planPath);
  assert.deepEqual(errors, []);
  const events: SweepEvent[] = [];
  const outcome = await runSweep({ planPath, plan, resultsRoot, password: lab.couchbase.password, signal: new AbortController().signal, onEvent: (event) => events.push(event), ssh: { configFile: lab.sshConfigPath } });
  const file = outcome.runDir ? join(outcome.runDir, 'results.jsonl') : '';
  const results = file && existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CellResult) : [];
  const logs = events.filter((event) => event.type === 'log').map((event) => (event as { message: string }).message);
  return { outcome, events, results, logs };
}

async function preflightChecks(lab: Lab, planPath: string, resultsRoot: string): Promise<PreflightCheck[]> {
  const { plan } = await loadPlan(planPath);
  return runPreflight({ planPath, plan, resultsRoot, password: lab.couchbase.password, signal: new AbortController().signal, onEvent: () => undefined, ssh: { configFile: lab.sshConfigPath } });
}

function explain(record: Record_): string {
  return JSON.stringify({ error: record.outcome.error, cells: record.results.map((result) => result.error), logs: record.logs.slice(-5) }, null, 1);
}

describe('engine on a lab that behaves like real YCSB and Couchbase', { skip: labAvailable ? false : 'sshd not installed' }, () => {
  let lab: Lab;
  let work: string;
  let counter = 0;
  labPerSuite({ clients: 2 }, 'engine-real-', (started) => ({ lab, work } = started));
  const plan = (options: Partial<LabPlanOptions>): string => writeLabPlan(lab, { dir: join(work, `plan-${++counter}`), stacks: ['kernel'], threads: [1], interfaces: [lab.interfaces[0]], clients: [lab.clientHost], ...options });

  it('Y1-Y4, C4, C6, C8: YCSB logs in as the bucket user with a generated password, through ycsb.sh; the bucket waits are recorded', { timeout: 120_000 }, async () => {
    const path = plan({ threads: [1, 2], extra: { clients: [{ host: lab.clientHost, ycsbHome: lab.ycsbHome, javaOptions: '-Xmx64m' }] } });
    const record = await sweep(lab, path, join(work, 'results'));
    assert.equal(record.outcome.error, undefined, explain(record));
    assert.deepEqual(record.results.map((result) => result.status), ['ok', 'ok'], explain(record));
    const [first, second] = record.results;
    const ycsb = first.evidence?.ycsb as { launcher: Record<string, string>; binding: string; keys: Record<string, { properties: Record<string, unknown>; credentialsFile: string[] }> };
    assert.deepEqual(ycsb.launcher, { [lab.clientHost]: 'bin/ycsb.sh' });
    assert.equal(ycsb.binding, 'couchbase2');
    const runKeys = ycsb.keys[`${lab.clientHost} run`];
    assert.deepEqual(runKeys.credentialsFile, ['couchbase.password']);
    for (const key of ['couchbase.username', 'couchbase.adminport', 'couchbase.carrierport', 'couchbase.kvPort']) assert.equal(key in runKeys.properties, false, key);
    // JAVA_OPTS reached the JVM (the stand-in prints the java command line like the real launcher)
    const runLog = readFileSync(join(record.outcome.runDir, first.logs.find((log) => log.endsWith('-run.log')) as string), 'utf8');
    assert.match(runLog, /\/usr\/bin\/java -Xmx64m -cp /);
    assert.match(runLog, /^# cd .* && JAVA_OPTS='?-Xmx64m'? exec bin\/ycsb\.sh run couchbase2 /m);
    // the second cell dropped the first one's bucket: the deletion finished later (REAL-LAB C4)
    const bucket = second.evidence?.bucket as { dropped: boolean; dropAnswer?: string; waitGone?: { polls: number }; warmup?: { polls: number }; itemCount?: { first: number; final: number; expected: number; polls: number }; writeQueue?: { drained: boolean }; ycsbUser?: { name: string } };
    assert.equal(bucket.dropped, true);
    assert.match(bucket.dropAnswer ?? '', /deletion not yet complete/);
    assert.ok((bucket.waitGone?.polls ?? 0) >= 2, 'waited for the 404');
    assert.ok((bucket.warmup?.polls ?? 0) >= 1);
    assert.equal(bucket.itemCount?.final, 200);
    assert.equal(bucket.itemCount?.expected, 200);
    assert.equal(bucket.writeQueue?.drained, true);
    assert.equal(bucket.ycsbUser?.name, 'bench');
    assert.equal(JSON.stringify(record.results).includes(lab.couchbase.password), false);
  });

  it('Y5: run limits (maxexecutiontime, target, operationcount) do not cut the load short', { timeout: 120_000 }, async () => {
    const record = await sweep(lab, plan({ properties: { recordcount: 300, operationcount: 100, maxexecutiontime: 1, target: 100 } }), join(work, 'results'));
    assert.equal(record.outcome.error, undefined, explain(record));
    const [cell] = record.results;
    assert.equal(cell.status, 'ok', explain(record));
    assert.equal(cell.load?.itemCount, 300);
    assert.equal(cell.load?.report.operations.INSERT?.returnCodes.OK, 300);
    const keys = (cell.evidence?.ycsb as { keys: Record<string, { properties: Record<string, unknown> }> }).keys;
    assert.deepEqual([keys[`${lab.clientHost} load`].properties.maxexecutiontime, keys[`${lab.clientHost} load`].properties.target, 'operationcount' in keys[`${lab.clientHost} load`].properties], [0, 0, false]);
    assert.deepEqual([keys[`${lab.clientHost} run`].properties.maxexecutiontime, keys[`${lab.clientHost} run`].properties.target], [1, 100]);
  });

  it('Y6: two clients insert disjoint keys during the run, and split the load', { timeout: 120_000 }, async () => {
    const path = plan({ clients: lab.clientHosts, properties: { recordcount: 200, operationcount: 100, readproportion: 0.5, updateproportion: 0, insertproportion: 0.5, 'couchbase.upsert': false }, extra: { workload: { path: 'workloada', splitLoad: true, properties: { recordcount: 200, operationcount: 100, readproportion: 0.5, updateproportion: 0, insertproportion: 0.5, 'couchbase.upsert': false, 'status.interval': 1 } } } });
    const record = await sweep(lab, path, join(work, 'results'));
    assert.equal(record.outcome.error, undefined, explain(record));
    const [cell] = record.results;
    assert.equal(cell.status, 'ok', explain(record));
    assert.equal(cell.run?.operations['INSERT-FAILED'], undefined);
    assert.deepEqual(cell.clients?.map((client) => client.host), lab.clientHosts);
    // each client loaded its half; the count was checked once against the total
    assert.equal(cell.load?.report.operations.INSERT?.returnCodes.OK, 200);
    assert.equal(cell.load?.itemCount, 200);
    const keys = (cell.evidence?.ycsb as { keys: Record<string, { properties: Record<string, unknown> }> }).keys;
    assert.deepEqual(lab.clientHosts.map((host) => [keys[`${host} load`].properties.insertstart, keys[`${host} load`].properties.insertcount]), [[0, 100], [100, 100]]);
    assert.deepEqual(lab.clientHosts.map((host) => keys[`${host} run`].properties.recordcount), [200, 300]);
  });

  it('Y7: a scanning workload gets a primary index; without the query service pre-flight says so', { timeout: 120_000 }, async () => {
    const record = await sweep(lab, plan({ workload: 'e', properties: { recordcount: 100, operationcount: 60 } }), join(work, 'results'));
    assert.equal(record.outcome.error, undefined, explain(record));
    const [cell] = record.results;
    assert.equal(cell.status, 'ok', explain(record));
    assert.ok((cell.run?.operations.SCAN?.returnCodes.OK ?? 0) > 0);
    assert.equal(cell.run?.operations['SCAN-FAILED'], undefined);
    assert.equal((cell.evidence?.bucket as { primaryIndex?: { created: boolean } }).primaryIndex?.created, true);

    lab.faults.set({ nodeServices: ['kv'] });
    const checks = await preflightChecks(lab, plan({ workload: 'e' }), join(work, 'results'));
    const services = checks.find((check) => check.id === 'query-services');
    assert.deepEqual([services?.ok, services?.blocking], [false, true]);
    assert.match(services?.detail ?? '', /no node runs n1ql and index/);
  });

  it('C5: a bucket under 100 MiB is refused by pre-flight with the reason', async () => {
    const path = plan({});
    const text = JSON.parse(readFileSync(path, 'utf8'));
    text.bucket.ramQuotaMB = 64;
    writeFileSync(path, JSON.stringify(text));
    const checks = await preflightChecks(lab, path, join(work, 'results'));
    const quota = checks.filter((check) => check.id === 'bucket-quota' && !check.ok);
    assert.equal(quota.length, 1);
    assert.match(quota[0].detail, /64 MiB; Couchbase needs at least 100 MiB/);
  });

  it('Y4: a plan launcher that does not work blocks pre-flight with what was tried', async () => {
    const path = plan({ extra: { clients: [{ host: lab.clientHost, ycsbHome: lab.ycsbHome, ycsbCommand: 'bin/ycsb' }] } });
    const checks = await preflightChecks(lab, path, join(work, 'results'));
    const launcher = checks.find((check) => check.id === 'ycsb-launcher');
    assert.deepEqual([launcher?.ok, launcher?.blocking], [false, true]);
    assert.match(launcher?.detail ?? '', /bin\/ycsb: exit 127/);
    assert.match(launcher?.action ?? '', /Python 2/);
  });
});

describe('engine with a client that has Python 2 (REAL-LAB Y4)', { skip: labAvailable ? false : 'sshd not installed' }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab({ python2: true });
    work = mkdtempSync(join(tmpdir(), 'engine-python2-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('pre-flight picks python2 bin/ycsb and the sweep passes javaOptions as -jvm-args', { timeout: 90_000 }, async () => {
    const path = writeLabPlan(lab, { dir: join(work, 'plan'), stacks: ['kernel'], threads: [1], interfaces: [lab.interfaces[0]], extra: { clients: [{ host: lab.clientHost, ycsbHome: lab.ycsbHome, javaOptions: '-Xmx64m' }] } });
    const checks = await preflightChecks(lab, path, join(work, 'results'));
    assert.match(checks.find((check) => check.id === 'ycsb-launcher')?.detail ?? '', /^python2 bin\/ycsb starts YCSB/);
    const record = await sweep(lab, path, join(work, 'results'));
    assert.equal(record.outcome.error, undefined, explain(record));
    const [cell] = record.results;
    assert.equal(cell.status, 'ok', explain(record));
    const runLog = readFileSync(join(record.outcome.runDir, cell.logs.find((log) => log.endsWith('-run.log')) as string), 'utf8');
    assert.match(runLog, /^# cd .* && exec python2 bin\/ycsb run couchbase2 '?-jvm-args=-Xmx64m'? /m);
    assert.match(runLog, /\/usr\/bin\/java -Xmx64m -cp /);
  });
});
