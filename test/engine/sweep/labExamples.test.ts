// The example plans (examples/plans: cookbook, workload A, workload D and E with two clients) run cleanly
// against the lab's real hosts: the same hosts' roles, workloads, stacks and binding, with the
// lab's addresses and lab-sized counts (one thread count, the first value of each axis, one
// repetition). Bounded: 2 cells per plan, a few hundred records.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan, runSweep } from '../../../engine/src/index';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { expandValues } from '../../../engine/src/plan/cells';
import type { Plan } from '../../../engine/src/plan/planSchema';
import { startLab, type Lab, labUnavailable } from '../../lab/index';
import { labJavaOptions } from '../../lab/realYcsb';

const examples = join(__dirname, '..', '..', '..', 'examples', 'plans');

function forLab(lab: Lab, plan: Plan): Plan {
  const firstLabel = Object.keys(plan.interfaces)[0];
  return {
    ...plan,
    servers: [
      {
        host: lab.serverHost,
        couchbaseServerPath: lab.couchbaseServerPath,
        restPort: lab.couchbase.restPort,
        kvPort: lab.couchbase.kvPort,
        adminUser: lab.couchbase.username,
      },
    ],
    interfaces: { [firstLabel]: lab.interfaces[0].address },
    clients: plan.clients.map((client, index) => ({
      ...client,
      host: lab.clientHosts[index],
      ycsbHome: lab.ycsbHome,
      javaOptions: labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort),
    })),
    bucket: { ...plan.bucket, ramQuotaMB: 128 },
    // a plan bounded by time alone stays so (workload-d: no operationcount)
    workload: {
      ...plan.workload,
      properties: {
        ...(plan.workload.properties ?? {}),
        recordcount: 200,
        ...(plan.workload.properties?.operationcount !== undefined ? { operationcount: 300 } : {}),
        'status.interval': 1,
        ...(plan.workload.properties?.maxexecutiontime !== undefined ? { maxexecutiontime: 5 } : {}),
      },
    },
    threads: [
      (expandValues(plan.threads ?? [1])[0] as number) > 4 ? 2 : (expandValues(plan.threads ?? [1])[0] as number),
    ],
    axes: Object.fromEntries(
      Object.entries(plan.axes ?? {}).map(([name, values]) => [name, [expandValues(values)[0]]]),
    ),
    repetitions: 1,
    timeouts: { serverStartSec: 20, bucketReadySec: 20, cellSec: 60 },
  };
}

describe('example plans on the lab', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab({ clients: 2 });
    work = mkdtempSync(join(tmpdir(), 'engine-examples-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const name of ['cookbook', 'workload-a', 'workload-d', 'workload-e']) {
    it(`${name}.benchplan.json runs every cell ok`, { timeout: 150_000 }, async () => {
      const dir = join(work, name);
      cpSync(examples, dir, { recursive: true });
      const planPath = join(dir, `${name}.benchplan.json`);
      writeFileSync(planPath, JSON.stringify(forLab(lab, JSON.parse(readFileSync(planPath, 'utf8')) as Plan), null, 1));
      const { plan, errors } = await loadPlan(planPath);
      assert.deepEqual(errors, []);
      const events: SweepEvent[] = [];
      // the commands in flight at once (samplers, watches, YCSB, waits) each listen to the run's
      // signal: that is no leak, and must not print Node's leak warning into the user's terminal
      const warnings: string[] = [];
      const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
      process.on('warning', onWarning);
      const controller = new AbortController();
      const outcome = await runSweep({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: controller.signal,
        onEvent: (event) => events.push(event),
        ssh: { configFile: lab.sshConfigPath },
      }).finally(() => process.off('warning', onWarning));
      assert.deepEqual(
        warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning')),
        [],
      );
      assert.equal(
        getEventListeners(controller.signal, 'abort').length,
        0,
        "a listener on the run's signal outlived the sweep",
      );
      const results = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CellResult);
      const explain = JSON.stringify(
        {
          error: outcome.error,
          cells: results.map((result) => result.error),
          checks: events.filter((event) => event.type === 'preflight'),
        },
        null,
        1,
      );
      assert.equal(outcome.error, undefined, explain);
      assert.deepEqual(
        results.map((result) => result.status),
        results.map(() => 'ok'),
        explain,
      );
      assert.equal(results.length, 2);
      for (const result of results) {
        assert.equal(result.load?.itemCount, 200);
        assert.equal(result.clients?.length, plan.clients.length);
        for (const [operation, stats] of Object.entries(result.run?.operations ?? {}))
          assert.ok(!operation.endsWith('-FAILED'), `${operation}: ${stats.operations}`);
      }
      if (name === 'workload-e') assert.ok((results[0].run?.operations.SCAN?.returnCodes.OK ?? 0) > 0, 'scans worked');
      // every figure the parsers read, from the real YCSB: the report, the status lines, the HDR logs
      for (const result of results) {
        const run = result.run!;
        assert.ok(run.runtimeMs > 0 && run.throughputOpsPerSec > 0, 'overall runtime and throughput');
        assert.ok((run.other.TOTAL_GCs?.Count ?? -1) >= 0, "the JVM's GC lines");
        const measured = Object.values(run.operations).filter((stats) => stats.operation !== 'CLEANUP');
        assert.ok(measured.length > 0);
        for (const stats of measured) {
          assert.ok(
            stats.operations > 0 &&
              (stats.averageUs ?? 0) > 0 &&
              (stats.minUs ?? 0) > 0 &&
              (stats.maxUs ?? 0) >= (stats.minUs ?? 0),
            `${stats.operation}: ${JSON.stringify(stats)}`,
          );
          assert.deepEqual(Object.keys(stats.percentilesUs).sort(), ['95', '99'], stats.operation);
          assert.equal(stats.returnCodes.OK, stats.operations, stats.operation);
        }
        const series = result.evidence?.timeseries;
        for (const client of result.clients ?? [])
          assert.ok((series?.status[client.host]?.length ?? 0) >= 2, `status lines of ${client.host}`);
        const hdr = series?.hdr;
        assert.ok(
          hdr && hdr.files.length >= plan.clients.length,
          `HDR interval logs of every client: ${JSON.stringify(result.evidence?.ycsb)}`,
        );
        // per client and operation, the logs hold what YCSB reported, or the difference is recorded and
        // marked: YCSB 0.17.0 itself can lose a logged interval (lab README Y12); never hidden
        const counts = hdr.counts ?? [];
        for (const client of result.clients ?? []) {
          for (const [operation, stats] of Object.entries(client.report.operations)) {
            const check = counts.find((entry) => entry.host === client.host && entry.operation === operation);
            assert.ok(check, `HDR count check of ${operation} on ${client.host}: ${JSON.stringify(counts)}`);
            assert.equal(check.ycsbOperations, stats.operations, `${client.host} ${operation}`);
            if (check.hdrCount === check.ycsbOperations) continue;
            const named = `${operation}: ${check.hdrCount} in the HDR logs, ${check.ycsbOperations} reported by YCSB`;
            assert.ok(
              result.marks?.some(
                (mark) =>
                  mark.code === 'hdr-count-differs' && mark.host === client.host && mark.message.includes(named),
              ),
              `${named} on ${client.host}, unmarked: ${JSON.stringify(result.marks)}`,
            );
          }
        }
        for (const stats of measured) {
          const checks = counts.filter((entry) => entry.operation === stats.operation);
          assert.equal(
            checks.reduce((sum, entry) => sum + entry.ycsbOperations, 0),
            stats.operations,
            `YCSB's count of ${stats.operation}`,
          );
          const logged = checks.reduce((sum, entry) => sum + entry.hdrCount, 0);
          if (!hdr.afterWarmup)
            assert.equal(
              hdr.operations[stats.operation]?.count ?? 0,
              logged,
              `HDR count of ${stats.operation}: the merged logs`,
            );
          if (logged > 0)
            assert.equal(stats.percentilesSource, 'hdr-merged', `${stats.operation}: percentiles from the logs`);
        }
      }
    });
  }
});
