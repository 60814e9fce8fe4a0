// The server side against the lab's real hosts (REAL-LAB C1-C3, C7, O1-O5, H1-H4): how each
// arm is started and as whom, the proof of a stop and a fresh start, acceleration by stackdump,
// the EF_* environment, the interface axis, and the hosts' sudo/setsid/reach quirks. Each test
// reads what a user sees: a cell's marks and evidence, an error's words, a pre-flight check.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadPlan } from '../../../engine/src/index';
import type { RunOutcome, SweepEvent, PreflightCheck } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import type { RemoteSession } from '../../../engine/src/remote/ssh';
import { proveFresh } from '../../../engine/src/server/serverRestartProof';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { startLab, waitForPort, writeLabPlan, type Lab, type LabPlanOptions, labUnavailable } from '../../lab/index';

interface SweepRecord {
  outcome: RunOutcome;
  events: SweepEvent[];
  results: CellResult[];
}

function server(result: CellResult | undefined): Record<string, any> {
  return ((result?.evidence?.server ?? {}) as Record<string, Record<string, any>>)['cb-server'] ?? {};
}

function marks(result: CellResult | undefined): string[] {
  return (result?.marks ?? []).map((mark) => mark.code);
}

describe("server side on the lab's real hosts", { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  let counter = 0;
  before(async () => {
    lab = await startLab();
    work = mkdtempSync(join(tmpdir(), 'engine-server-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    lab.faults.clear();
    // every test leaves the service as it found it
    if (!lab.couchbaseState().service) {
      await lab.ssh(
        lab.serverHost,
        `sudo -n -u couchbase ${lab.couchbaseServerPath} -k; sudo -n systemctl stop couchbase-server; sudo -n systemctl start couchbase-server`,
      );
      await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
    }
  });

  async function sweep(planPath: string): Promise<SweepRecord> {
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
    const path = outcome.runDir ? join(outcome.runDir, 'results.jsonl') : '';
    const results =
      path && existsSync(path)
        ? readFileSync(path, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as CellResult)
        : [];
    return { outcome, events, results };
  }

  function plan(options: Partial<LabPlanOptions> & { server?: Record<string, unknown> } = {}): string {
    const path = writeLabPlan(lab, {
      dir: join(work, `plan-${++counter}`),
      stacks: ['kernel', 'latency'],
      threads: [1],
      interfaces: [lab.interfaces[0]],
      ...options,
    });
    if (options.server) {
      const raw = JSON.parse(readFileSync(path, 'utf8'));
      Object.assign(raw.servers[0], options.server);
      writeFileSync(path, JSON.stringify(raw, null, 2));
    }
    return path;
  }

  // Foreground commands that switch to couchbase read {profile} from the work folder: one that
  // user may enter (the SSH user's home is 0700), as the README tells a lab without systemd.
  const readableWorkDir = (): string => {
    const dir = '/var/tmp/onload-bench';
    const local = lab.hostPath(lab.serverHost, dir);
    mkdirSync(local, { recursive: true });
    chmodSync(local, 0o755);
    chownSync(local, 1000, 1000); // bench
    return dir;
  };
  const dropInDir = (): string => lab.hostPath(lab.serverHost, '/etc/systemd/system/couchbase-server.service.d');

  const logs = (record: SweepRecord): string =>
    record.events
      .filter((event) => event.type === 'log')
      .map((event) => (event as { message: string }).message)
      .join('\n');

  it(
    'both arms run through the same service: the Onload arm by a drop-in removed afterwards, same user and limits (C1, H3)',
    { timeout: 120_000 },
    async () => {
      const record = await sweep(plan());
      assert.equal(record.outcome.error, undefined, JSON.stringify(record.outcome.error));
      const [kernel, onload] = record.results;
      assert.deepEqual([kernel?.status, onload?.status], ['ok', 'ok'], JSON.stringify(onload?.error));
      assert.equal(server(kernel).start.mode, 'service');
      assert.equal(server(kernel).start.dropIn, false);
      assert.equal(server(onload).start.mode, 'service');
      assert.equal(server(onload).start.dropIn, true);
      assert.match(
        server(onload).start.command,
        /drop-in ExecStart=\/usr\/bin\/onload --profile=\S*latency\.opf \/opt\/couchbase\/bin\/couchbase-server -- -noinput/,
      );
      // the profile the service's user read: installed beside the drop-in, not in the SSH user's 0700 home
      assert.ok(
        server(onload).start.command.includes(
          '--profile=/etc/systemd/system/couchbase-server.service.d/onload-bench-profiles/latency.opf',
        ),
        server(onload).start.command,
      );
      assert.equal(
        existsSync(join(dropInDir(), 'onload-bench-profiles')),
        false,
        'the installed profiles are removed with the drop-in',
      );
      assert.deepEqual(server(onload).process.limits, server(kernel).process.limits);
      assert.equal(
        server(onload).process.limits.nofile.soft,
        server(onload).process.limits.nofile.hard,
        "the unit's limits, not an SSH session's (soft 1024)",
      );
      assert.notEqual(server(onload).process.limits.nofile.soft, '1024');
      assert.ok(!marks(onload).includes('arms-differ'));
      assert.equal(onload?.accelerated, true);
      // the lab's latency profile spins (EF_POLL_USEC 100000), read from memcached's own environment (issue 21 item 5)
      assert.match(
        onload?.marks?.find((mark) => mark.code === 'busy-polling')?.message ?? '',
        /memcached busy-polls \(spinning up to 100000 µs per wait; EF_POLL_USEC=100000, .*; from memcached's \/proc\/\d+\/environ\)/,
        JSON.stringify(onload?.marks),
      );
      assert.ok(!marks(kernel).includes('busy-polling'));
      assert.equal(existsSync(join(dropInDir(), 'onload-bench.conf')), false, 'drop-in removed after the arm');
      assert.deepEqual(lab.couchbaseState(), {
        ...lab.couchbaseState(),
        running: true,
        service: true,
        accelerated: false,
      });
    },
  );

  it('a drop-in left by a crashed run is removed before the first cell (C1)', { timeout: 120_000 }, async () => {
    const dir = dropInDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'onload-bench.conf'),
      `[Service]\nExecStart=\nExecStart=/usr/bin/onload --profile=latency ${lab.couchbaseServerPath} -- -noinput\n`,
    );
    await lab.ssh(lab.serverHost, 'sudo -n systemctl daemon-reload');
    const record = await sweep(plan({ stacks: ['kernel'] }));
    assert.match(logs(record), /removed .*onload-bench\.conf left behind by an earlier run/);
    assert.equal(existsSync(join(dir, 'onload-bench.conf')), false);
    assert.ok(!marks(record.results[0]).includes('accelerated-kernel'), 'the kernel cell ran on the kernel stack');
  });

  it(
    'foreground arms with different limits are marked arms-differ; a kernel arm under onload is marked (H3, O2)',
    { timeout: 120_000 },
    async () => {
      await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server'); // a host without the service
      const record = await sweep(
        plan({
          server: {
            serverStart: 'foreground',
            workDir: readableWorkDir(),
            kernelRunCommand: `sudo -n -u couchbase sh -c 'ulimit -S -l 128; exec onload --profile=latency "$0" -- -noinput' {couchbaseServerPath}`,
            onloadRunCommand: 'sudo -n -u couchbase onload --profile={profile} {couchbaseServerPath} -- -noinput',
          },
        }),
      );
      const [kernel, onload] = record.results;
      assert.equal(server(kernel).start.mode, 'foreground');
      assert.ok(marks(kernel).includes('accelerated-kernel'), JSON.stringify(kernel?.marks));
      assert.ok(marks(onload).includes('arms-differ'), JSON.stringify(onload?.marks ?? onload?.error));
      assert.match(
        onload?.marks?.find((mark) => mark.code === 'arms-differ')?.message ?? '',
        /memlock \d+\/\d+ \(kernel arm: 131072\/\d+\)/,
      );
    },
  );

  it(
    'a stop that leaves the old server running is an error naming what is left, or a kill when the plan allows it (C2, C3)',
    { timeout: 120_000 },
    async () => {
      const timeouts = { timeouts: { serverStartSec: 6, bucketReadySec: 20, cellSec: 60 } };
      const kept = await sweep(plan({ stacks: ['kernel'], extra: timeouts, server: { kernelStopCommand: 'true' } }));
      const failed = kept.results[0];
      assert.equal(failed?.status, 'failed');
      assert.equal(failed?.error?.code, 'server-stop');
      assert.match(
        failed?.error?.message ?? '',
        /still listening: (\S+, )*\S+:11210\b.*still running: \d+ (memcached|beam\.smp)/,
      );
      assert.match(failed?.error?.action ?? '', /killLeftovers/);

      const killed = await sweep(
        plan({ stacks: ['kernel'], extra: timeouts, server: { kernelStopCommand: 'true', killLeftovers: true } }),
      );
      assert.equal(killed.results[0]?.status, 'ok', JSON.stringify(killed.results[0]?.error));
      assert.match(server(killed.results[0]).start.killedLeftovers.join(' '), /memcached/);
    },
  );

  it('an old instance answering after a start is refused by its uptime (C3)', { timeout: 30_000 }, async () => {
    const resolved = withDefaults(JSON.parse(readFileSync(plan({ stacks: ['kernel'] }), 'utf8')));
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the service has been up a while
    const session = { host: 'cb-server' } as RemoteSession;
    await assert.rejects(
      proveFresh(session, resolved.servers[0], lab.couchbase.password, performance.now()),
      /has been up \d+ s, but it was started 0 s ago: an old instance answers/,
    );
    const fresh = await proveFresh(session, resolved.servers[0], lab.couchbase.password, performance.now() - 3_600_000);
    assert.ok((fresh.uptimeSec ?? -1) >= 2);
  });

  it(
    'libonload mapped without an Onload stack is not acceleration; the evidence says why (O1, O2)',
    { timeout: 120_000 },
    async () => {
      lab.faults.set({ onloadNoStack: true });
      const record = await sweep(plan({ stacks: ['latency'] }));
      const cell = record.results[0];
      assert.equal(cell?.accelerated, false);
      assert.equal(server(cell).process.libonloadMapped, true);
      assert.match(
        server(cell).acceleration.evidence,
        /memcached \d+ is in no Onload stack although it maps libonload/,
      );
    },
  );

  it(
    "memcached's real EF_* environment is recorded and differences from the profile are marked (O4)",
    { timeout: 120_000 },
    async () => {
      await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server'); // a host without the service
      const record = await sweep(
        plan({
          stacks: ['latency'],
          server: {
            serverStart: 'foreground',
            workDir: readableWorkDir(),
            kernelRunCommand: 'sudo -n -u couchbase {couchbaseServerPath} -- -noinput',
            onloadRunCommand:
              'sudo -n -u couchbase env EF_POLL_USEC=0 onload --profile={profile} {couchbaseServerPath} -- -noinput',
          },
        }),
      );
      const cell = record.results[0];
      assert.equal(server(cell).process.efEnvironment.EF_POLL_USEC, '0');
      assert.equal(server(cell).process.efEnvironment.EF_TCP_FASTSTART_INIT, '0');
      assert.deepEqual(server(cell).environmentDifferences, [{ name: 'EF_POLL_USEC', profile: '100000', actual: '0' }]);
      assert.ok(marks(cell).includes('environment-differs'));
      assert.match(logs(record), /EF_POLL_USEC: profile 100000, memcached 0/);
      assert.ok(
        !marks(cell).includes('busy-polling'),
        'memcached runs with EF_POLL_USEC=0: what it runs with wins over the profile',
      );
    },
  );

  it(
    "an Onload arm whose service cannot start (no Onload drivers) fails at once with the service's last words (O3)",
    { timeout: 120_000 },
    async () => {
      lab.faults.set({ onloadDriversMissing: true });
      const started = Date.now();
      const record = await sweep(plan({ stacks: ['latency'] }));
      const cell = record.results[0];
      assert.equal(cell?.status, 'failed');
      assert.equal(cell?.error?.code, 'server-start');
      assert.match(
        cell?.error?.message ?? '',
        /couchbase-server\.service stopped before its REST port \d+ answered \((inactive|failed)\)\. Last lines: .*The onload drivers are not loaded\./,
      );
      assert.ok(Date.now() - started < 60_000, 'well before the start timeout of both attempts');
    },
  );

  it(
    'onload_stackdump refused by sudo: the cell is marked acceleration-unverified with sudo\'s words, never "accelerated" (O5)',
    { timeout: 120_000 },
    async () => {
      lab.faults.set({ sudoDenied: ['onload_stackdump'] });
      const record = await sweep(plan({ stacks: ['latency'] }));
      const cell = record.results[0];
      assert.equal(cell?.status, 'ok', JSON.stringify(cell?.error));
      assert.equal(cell?.accelerated, null);
      assert.ok(marks(cell).includes('acceleration-unverified'), JSON.stringify(cell?.marks));
      assert.match(
        server(cell).acceleration.evidence,
        /without root rights \(sudo -n refused: sudo: a password is required\)/,
      );
    },
  );

  it('sudo refused for want of a tty is explained with the sudoers fix (H2)', { timeout: 120_000 }, async () => {
    lab.faults.set({ sudoRequiresTty: true });
    const record = await sweep(plan({ stacks: ['kernel'] }));
    const error = record.results[0]?.error ?? record.outcome.error;
    assert.match(error?.message ?? '', /requires a terminal for sudo \(Defaults requiretty/);
    assert.match(error?.action ?? '', /Defaults:.* !requiretty/);
  });

  it(
    'pre-flight proves this workstation reaches REST and KV, with a clear error when it does not (H2)',
    { timeout: 60_000 },
    async () => {
      const record = await sweep(plan({ stacks: ['kernel'], server: { address: '127.0.0.99' } }));
      const checks =
        (record.events.find((event) => event.type === 'preflight') as { checks: PreflightCheck[] } | undefined)
          ?.checks ?? [];
      const reach = checks.find((check) => check.id === 'management-reach');
      assert.equal(reach?.ok, false);
      assert.equal(reach?.blocking, true);
      assert.match(
        reach?.detail ?? '',
        /127\.0\.0\.99:\d+ refused the connection.* from this workstation, although cb-server listens on .*\b\d+\.\d+\.\d+\.\d+:8091\b/,
      );
      assert.equal(record.outcome.error?.code, 'preflight');
    },
  );
});

describe('interface axis on a node named by address (C7)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab({ nodeName: { interface: 0 } });
    work = mkdtempSync(join(tmpdir(), 'engine-nic-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'the pre-flight warns and a cell whose traffic used another address is marked wrong-interface',
    { timeout: 120_000 },
    async () => {
      const planPath = writeLabPlan(lab, {
        dir: work,
        stacks: ['kernel'],
        threads: [2],
        properties: { operationcount: 3000 },
      });
      const { plan } = await loadPlan(planPath);
      const events: SweepEvent[] = [];
      lab.faults.set({ kvDelayMs: 2 });
      const outcome = await runSweep({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
        ssh: { configFile: lab.sshConfigPath },
      });
      const checks = (events.find((event) => event.type === 'preflight') as { checks: PreflightCheck[] }).checks;
      const axis = checks.find((check) => check.id === 'interface-axis');
      assert.equal(axis?.ok, false);
      const [a, b] = lab.interfaces.map((item) => item.address.replace(/\./g, '\\.'));
      assert.match(axis?.detail ?? '', new RegExp(`the node is named ${a}:\\d+`));
      const results = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CellResult);
      const onA = results.find((result) => result.key.interface === 'nic-a');
      const onB = results.find((result) => result.key.interface === 'nic-b');
      assert.ok(!marks(onA).includes('wrong-interface'), JSON.stringify(onA?.marks));
      assert.ok(marks(onB).includes('wrong-interface'), JSON.stringify(server(onB).traffic));
      assert.match(
        onB?.marks?.find((mark) => mark.code === 'wrong-interface')?.message ?? '',
        new RegExp(`used ${a} (instead of|besides) ${b}; the node is named ${a}:\\d+`),
      );
      assert.ok(Object.keys(server(onA).traffic.localAddresses).includes(lab.interfaces[0].address));
    },
  );
});
