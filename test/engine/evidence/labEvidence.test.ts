// Issue 10 on the lab (test/lab): the hosts are containers sharing this machine's kernel, so the
// CPU sampler reads real /proc figures over real SSH, and the stand-in ycsb writes HDR interval logs as YCSB 0.17 does.
// A two-client cell with a warm-up shows them all in the record.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeIntervals } from '../../../engine/src/evidence/hdrMerge';
import { loadPlan, runSweep } from '../../../engine/src/index';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import { startLab, writeLabPlan, type Lab, labUnavailable } from '../../lab/index';

describe('run-phase evidence on the lab', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab({ clients: 2 });
    work = mkdtempSync(join(tmpdir(), 'engine-evidence-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'records real CPU samples of every host, status time series and merged HDR percentiles after the warm-up',
    { timeout: 120_000 },
    async () => {
      const planPath = writeLabPlan(lab, {
        dir: join(work, 'plan'),
        stacks: ['kernel'],
        threads: [2],
        interfaces: [lab.interfaces[0]],
        // a time-bound run phase (operationcount 0 = until maxexecutiontime) long enough for samples
        // (the real YCSB spends a second or two of it on its start: 8 s leaves several intervals after the warm-up)
        properties: { operationcount: 0, maxexecutiontime: 8 },
        extra: { warmupSec: 1, order: 'randomized', seed: 7 },
      });
      const { plan, errors } = await loadPlan(planPath);
      assert.deepEqual(errors, []);
      const events: SweepEvent[] = [];
      const outcome = await runSweep({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
        ssh: { configFile: lab.sshConfigPath },
      });
      assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
      const manifest = JSON.parse(readFileSync(join(outcome.runDir, 'manifest.json'), 'utf8')) as RunManifest;
      assert.deepEqual(manifest.order, { mode: 'randomized', seed: 7 });
      const preflight = events.find((event) => event.type === 'preflight');
      assert.match(JSON.stringify(preflight), /"plan-size".*1 cells, 1 server restarts/);
      const [result] = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CellResult);
      assert.equal(result.status, 'ok', JSON.stringify(result.error));
      const clients = lab.clientHosts;
      assert.equal(clients.length, 2);

      // CPU: every host sampled about once a second, this machine's core count, memcached found
      const cpu = result.evidence?.cpu;
      assert.ok(cpu, 'evidence.cpu');
      assert.deepEqual(Object.keys(cpu.hosts).sort(), [lab.serverHost, ...clients].sort());
      for (const [host, figures] of Object.entries(cpu.hosts)) {
        assert.equal(figures.cores, cpus().length, host);
        assert.ok(figures.series.length >= 3, `${host}: ${figures.series.length} samples`);
        assert.ok(figures.busyPct > 0 && figures.busyPct <= 100, `${host} busy ${figures.busyPct}`);
        assert.ok(
          Math.abs(figures.busyPct + figures.idlePct - 100) < 15,
          `${host}: busy + idle ≈ 100 (steal and iowait aside)`,
        );
        assert.ok(figures.contextSwitchesPerSec > 0 && figures.interruptsPerSec > 0, host);
        assert.ok(typeof cpu.sampler.selfCostPctOfCore[host] === 'number', `${host}: sampler cost measured`);
      }
      assert.equal(cpu.hosts[lab.serverHost].role, 'server');
      assert.equal(cpu.hosts[lab.serverHost].process?.name, 'memcached');
      // the lab's own node (found by what it is), never another memcached on this machine
      assert.equal(cpu.hosts[lab.serverHost].process?.pid, lab.couchbaseState().pid);
      for (const host of clients)
        assert.ok(
          (cpu.hosts[host].process?.pctOfCore ?? 0) > 0,
          `${host}: the YCSB process is watched: ${JSON.stringify(cpu.hosts[host].process)} ${JSON.stringify(cpu.hosts[host].series)}`,
        );
      assert.ok(
        (cpu.serverCpuUsPerOp ?? 0) > 0 && (cpu.memcachedCpuUsPerOp ?? 0) > 0 && (cpu.opsPerBusyServerCore ?? 0) > 0,
      );
      // the real YCSB's couchbase2 binding spins its cb-io loops (couchbase.boost=3 by default, lab
      // README Y13): recorded, named in a note when one is busy, and taken off the host's busy share
      assert.equal(cpu.clientIoSpin?.boost, 3, JSON.stringify(cpu.clientIoSpin));
      const client = cpu.hosts[clients[0]];
      const spinning = (client.threads ?? []).filter((thread) => thread.name.startsWith('cb-io-'));
      const spinningShare = spinning.reduce((sum, thread) => sum + thread.pctOfCore, 0) / client.cores;
      assert.equal(
        result.marks?.some((mark) => mark.code === 'client-io-spinning' && mark.host === clients[0]),
        spinning.some((thread) => thread.pctOfCore >= 45),
        JSON.stringify({ spinning, marks: result.marks }),
      );
      if (client.busyPct - spinningShare > 90) assert.ok(result.marks?.some((mark) => mark.code === 'client-bound'));
      // the means cover YCSB's own run from its status lines, the warm-up counted from its start, not
      // the samplers' seconds before the JVM started (issue 21 item 5)
      assert.equal(cpu.window?.source, 'ycsb-status-lines', JSON.stringify(cpu.window));
      // the lab's hosts share this machine's clock: measured, each within the time a line takes to arrive
      const offsets = Object.values(cpu.window?.clockOffsetsMs ?? {});
      assert.ok(
        offsets.length >= 2 && offsets.every((offset) => offset <= 5 && offset > -1000),
        JSON.stringify(cpu.window),
      );
      assert.ok(!result.marks?.some((mark) => mark.code === 'cpu-window-unverified'), JSON.stringify(result.marks));
      for (const [host, figures] of Object.entries(cpu.hosts))
        assert.ok(
          (figures.windowSec?.from ?? 0) >= 1,
          `${host}: the window starts after the JVM's start and the 1 s warm-up: ${JSON.stringify(figures.windowSec)}`,
        );
      for (const host of clients) {
        const runtimeSec = (result.clients?.find((client) => client.host === host)?.report.runtimeMs ?? 0) / 1000;
        const window = cpu.hosts[host].windowSec!;
        assert.ok(
          window.to - window.from <= runtimeSec - 1 + 1.5,
          `${host}: ${window.to - window.from} s of readings within YCSB's ${runtimeSec} s run less its warm-up`,
        );
        // the real JVM's threads from /proc/PID/task/TID/stat, by their names
        assert.ok((cpu.hosts[host].threadsSeen ?? 0) >= 10, `${host}: ${cpu.hosts[host].threadsSeen} JVM threads`);
        assert.ok(
          cpu.hosts[host].threads!.every(
            (thread) => thread.name.length > 0 && thread.name.length <= 15 && thread.tid > 0,
          ),
          JSON.stringify(cpu.hosts[host].threads),
        );
        assert.ok(cpu.hosts[host].threads![0].pctOfCore > 0, JSON.stringify(cpu.hosts[host].threads));
      }
      assert.ok(
        (cpu.hosts[lab.serverHost].threads ?? []).length > 0,
        `memcached's threads: ${JSON.stringify(cpu.hosts[lab.serverHost].threads)}`,
      );

      // status lines per client, with per-operation latencies; throughput after the warm-up
      const series = result.evidence?.timeseries;
      assert.ok(series);
      for (const host of clients) {
        assert.ok(series.status[host].length >= 4, `${host}: ${series.status[host].length} status lines`);
        assert.ok(series.status[host].some((point) => (point.latencyUs.READ ?? 0) > 0 && point.opsPerSec > 0));
      }
      assert.equal(series.warmupSec, 1);
      assert.ok((series.throughputAfterWarmupOpsPerSec ?? 0) > 0);

      // HDR logs: fetched into the run folder, one per measurement and client, every operation in them
      const hdr = series.hdr;
      assert.ok(hdr);
      assert.equal(hdr.afterWarmup, true);
      for (const host of clients) {
        const read: string | undefined = hdr.files.find(
          (file) => file.includes(`-${host}-hdr/`) && file.endsWith('/READ.hdr'),
        );
        assert.ok(read, `${host}: READ.hdr in ${hdr.files.join(', ')}`);
        const text: string = readFileSync(join(outcome.runDir, read), 'utf8');
        assert.match(text, /^#\[Logging for: READ\]/);
        const logged: number = decodeIntervals(text).reduce((sum, interval) => sum + interval.histogram.totalCount, 0);
        const own = result.clients?.find((client) => client.host === host)?.report.operations.READ?.operations;
        assert.equal(logged, own, `${host}: the log holds every READ the client reported`);
      }
      const readOps = result.run?.operations.READ;
      assert.equal(readOps?.percentilesSource, 'hdr-merged');
      const merged = hdr.operations.READ;
      assert.ok(merged.count > 0 && merged.count < (readOps?.operations ?? 0), 'the warm-up intervals are left out');
      assert.ok(merged.percentilesUs['50'] <= merged.percentilesUs['99'] && merged.percentilesUs['99'] <= merged.maxUs);
      assert.ok(merged.spectrum.length > 10);
      assert.deepEqual(await lab.processesLeft(), []);
    },
  );
});
