// The engine against the lab's real hosts (systemd, sshd, sudo; test/lab): the real OpenSSH client,
// the real Couchbase SDK against the test node, and the stand-in couchbase-server / onload / ycsb.
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan, runPreflight, runSweep } from '../../../engine/src/index';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import { startLab, writeLabPlan, type Lab, labUnavailable } from '../../lab/index';

function readRun(runDir: string): { manifest: RunManifest; results: CellResult[]; text: string } {
  const text = readFileSync(join(runDir, 'results.jsonl'), 'utf8');
  return {
    manifest: JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')),
    results: text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
    text,
  };
}

/** Command lines of every process on this machine that mention `secret` (they never should). */
function commandLinesWith(secret: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (command.includes(secret)) found.push(`${pid} ${command}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('engine on the lab', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab();
    work = mkdtempSync(join(tmpdir(), 'engine-lab-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('pre-flight reports hosts, versions, interface addresses and lint, and blocks on a wrong address', async () => {
    const planPath = writeLabPlan(lab, {
      dir: join(work, 'preflight'),
      stacks: ['kernel', 'latency'],
      threads: [1],
      interfaces: [lab.interfaces[0], { label: 'bogus', address: '198.18.255.99' }],
    });
    const { plan } = await loadPlan(planPath);
    const events: SweepEvent[] = [];
    const checks = await runPreflight({
      planPath,
      plan,
      resultsRoot: join(work, 'preflight-results'),
      password: lab.couchbase.password,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
      ssh: { configFile: lab.sshConfigPath },
    });
    const find = (id: string, host?: string) =>
      checks.find((check) => check.id === id && (host === undefined || check.host === host));
    assert.equal(find('reachable', 'cb-server')?.ok, true);
    assert.equal(find('reachable', 'ycsb-client')?.ok, true);
    assert.match(find('couchbase-version')?.detail ?? '', /7\.6\.2/);
    assert.equal(find('onload-version', 'cb-server')?.detail, `Onload ${lab.versions.onload}`);
    assert.equal(find('ycsb-version')?.ok, true);
    assert.equal(find('ycsb-version')?.detail, `YCSB ${lab.versions.ycsb} in ${lab.ycsbHome}`);
    assert.equal(find('bucket-quota')?.ok, true);
    assert.equal(find('profile-lint')?.ok, true);
    assert.equal(find('workload-lint')?.ok, true);
    const addresses = checks.filter((check) => check.id === 'interface-address');
    assert.deepEqual(
      addresses.map((check) => [check.ok, check.blocking]),
      [
        [true, true],
        [false, true],
      ],
    );
    assert.match(addresses[1].detail, /bogus: 198\.18\.255\.99 is not configured/);
    assert.equal(events.length, 1);
  });

  it(
    'runs a complete small sweep through real SSH and the real SDK, and resumes after a torn write',
    { timeout: 120_000 },
    async () => {
      const planPath = writeLabPlan(lab, {
        dir: join(work, 'full'),
        stacks: ['kernel', 'latency'],
        threads: [1, 2],
        interfaces: [lab.interfaces[0]],
      });
      const { plan, errors } = await loadPlan(planPath);
      assert.deepEqual(errors, []);
      const events: SweepEvent[] = [];
      const leaks: string[] = [];
      const onEvent = (event: SweepEvent): void => {
        events.push(event);
        // while YCSB runs with its credentials file, no command line anywhere carries the password
        if (event.type === 'status' && leaks.length === 0) leaks.push(...commandLinesWith(lab.couchbase.password));
      };
      const outcome = await runSweep({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent,
        ssh: { configFile: lab.sshConfigPath },
      });
      assert.deepEqual(leaks, []);
      const logs = events
        .filter((event) => event.type === 'log')
        .map((event) => (event as { message: string }).message);
      assert.equal(outcome.error, undefined, JSON.stringify({ error: outcome.error, logs }, null, 1));
      const { manifest, results } = readRun(outcome.runDir);
      assert.deepEqual(
        { completed: outcome.completed, failed: outcome.failed, total: outcome.total, cancelled: outcome.cancelled },
        { completed: 4, failed: 0, total: 4, cancelled: false },
        JSON.stringify({ errors: results.map((result) => result.error), logs }, null, 1),
      );
      assert.deepEqual(
        results.map((result) => [result.id, result.status, result.accelerated]),
        [
          ['nic-a~kernel~t1~r1', 'ok', null],
          ['nic-a~kernel~t2~r1', 'ok', null],
          ['nic-a~latency~t1~r1', 'ok', true],
          ['nic-a~latency~t2~r1', 'ok', true],
        ],
      );
      for (const result of results) {
        assert.ok(result.run && result.run.throughputOpsPerSec > 0);
        // workload a: reads and updates add up to operationcount
        assert.equal(
          (result.run.operations.READ?.operations ?? 0) + (result.run.operations.UPDATE?.operations ?? 0),
          400,
        );
        assert.ok((result.run.operations.READ?.percentilesUs['99'] ?? 0) > 0);
        assert.equal(result.load?.itemCount, 200);
        assert.equal(result.load?.expectedItems, 200);
        assert.deepEqual(
          result.clients?.map((client) => client.host),
          ['ycsb-client'],
        );
        // the load's and the run's YCSB logs, then the run's HDR logs, all in the cell's one log folder
        assert.deepEqual(
          result.logs.filter((log) => log.endsWith('.log')).map((log) => log.split('/').pop()),
          ['attempt1-ycsb-client-load.log', 'attempt1-ycsb-client-run.log'],
        );
        assert.ok(
          result.logs.some((log) => log.endsWith('-hdr/READ.hdr')),
          result.logs.join(', '),
        );
        assert.equal(new Set(result.logs.map((log) => log.split('/')[1])).size, 1, result.logs.join(', '));
      }
      assert.equal(
        manifest.environment?.hosts['cb-server'].couchbase?.includes('7.6.2'),
        true,
        JSON.stringify(manifest.environment),
      );
      assert.equal(manifest.environment?.hosts['ycsb-client'].ycsb, '0.17.0');
      assert.equal(manifest.environment?.profiles.latency.EF_POLL_USEC, '100000');
      assert.ok(
        events.some((event) => event.type === 'status' && event.status.operations > 0),
        'live status lines',
      );
      // the password is nowhere: results, manifest, logs, events
      for (const file of allFiles(outcome.runDir))
        assert.ok(!readFileSync(file, 'utf8').includes(lab.couchbase.password), file);
      assert.ok(!JSON.stringify(events).includes(lab.couchbase.password));
      // back on the kernel stack, nothing left running, no credentials file left
      assert.equal(lab.couchbaseState().accelerated, false);
      assert.equal(lab.couchbaseState().running, true);
      assert.deepEqual(await lab.processesLeft(), []);
      const secrets = await lab.ssh(lab.clientHost, 'ls .onload-bench');
      assert.doesNotMatch(secrets.stdout, /secret/);

      // a crash while the last line was being written: resume trims it and runs that cell again
      const resultsPath = join(outcome.runDir, 'results.jsonl');
      truncateSync(resultsPath, statSync(resultsPath).size - 40);
      const resumedEvents: SweepEvent[] = [];
      const resumed = await runSweep({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        resumeRunDir: outcome.runDir,
        signal: new AbortController().signal,
        onEvent: (event) => resumedEvents.push(event),
        ssh: { configFile: lab.sshConfigPath },
      });
      assert.equal(resumed.error, undefined);
      assert.deepEqual(
        resumedEvents.filter((event) => event.type === 'cell-started').map((event) => (event as { id: string }).id),
        ['nic-a~latency~t2~r1'],
      );
      assert.ok(resumedEvents.some((event) => event.type === 'log' && /incomplete/.test(event.message)));
      const again = readRun(outcome.runDir);
      assert.deepEqual(
        again.results.map((result) => result.id),
        results.map((result) => result.id),
      );
      assert.ok(again.text.endsWith('\n'));
      assert.deepEqual(await lab.processesLeft(), []);
    },
  );
  it(
    'a stack profile that imports workspace profiles runs Couchbase with exactly the settings the editor resolved',
    { timeout: 90_000 },
    async () => {
      const dir = join(work, 'imports');
      const planPath = writeLabPlan(lab, { dir, stacks: ['kernel'], threads: [1], interfaces: [lab.interfaces[0]] });
      mkdirSync(join(dir, 'profiles'), { recursive: true });
      mkdirSync(join(dir, 'shared'), { recursive: true });
      // `latency` is also the name of a profile the (lab's) Onload ships: the local file must win;
      // `throughput` exists only on the server and stays Onload's own
      writeFileSync(
        join(dir, 'profiles', 'tuned.opf'),
        'onload_import common\nonload_import latency\nonload_import throughput\n',
      );
      writeFileSync(join(dir, 'profiles', 'common.opf'), 'onload_import deep\nonload_set EF_SPIN_USEC 7\n');
      writeFileSync(join(dir, 'profiles', 'latency.opf'), 'onload_set EF_POLL_USEC 5\n');
      writeFileSync(join(dir, 'shared', 'deep.opf-fragment'), 'onload_set EF_TCP_FASTSTART_INIT 9\n');
      const text = JSON.parse(readFileSync(planPath, 'utf8'));
      text.stacks = [{ name: 'tuned', profile: 'profiles/tuned.opf' }];
      writeFileSync(planPath, JSON.stringify(text));
      const { plan, errors } = await loadPlan(planPath);
      assert.deepEqual(errors, []);
      let serverEnv: Map<string, string> | undefined;
      const outcome = await runSweep({
        planPath,
        plan,
        resultsRoot: join(work, 'imports-results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent: (event) => {
          // the node runs under onload while YCSB runs: read its environment then
          if (event.type !== 'phase' || event.phase !== 'ycsb-run') return;
          const state = lab.couchbaseState();
          if (state.pid !== undefined) serverEnv = lab.processEnvironment(lab.serverHost, state.pid);
        },
        ssh: { configFile: lab.sshConfigPath },
        // `deep` is not beside common.opf: found through the profile path (setting onloadBench.profilePath), as in the
        // editor
        profilePath: [join(dir, 'shared')],
      });
      assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
      const { results } = readRun(outcome.runDir);
      assert.deepEqual(
        results.map((result) => [result.key.stack, result.status, result.accelerated]),
        [['tuned', 'ok', true]],
      );
      const settings = ['EF_SPIN_USEC', 'EF_POLL_USEC', 'EF_TCP_FASTSTART_INIT', 'EF_HIGH_THROUGHPUT_MODE'].map(
        (name) => serverEnv?.get(name),
      );
      assert.deepEqual(
        settings,
        ['7', '5', '9', '1'],
        "imports resolved to the uploaded workspace files, throughput to the server's Onload",
      );
      const home = lab.hostPath(lab.serverHost, lab.hosts[lab.serverHost].home);
      // staged in the work folder; the service read them from beside the drop-in, removed with it
      assert.deepEqual(readdirSync(join(home, '.onload-bench', 'profiles', 'service', 'tuned.imports')).sort(), [
        'common.opf',
        'deep.opf-fragment',
        'latency.opf',
      ]);
    },
  );
});
