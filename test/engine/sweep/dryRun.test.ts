// "Show before doing" and the remote PATH (REAL-LAB H2): the dry run lists, with
// no connection, every remote command with its host and every REST/SDK step of the first cell of
// each stack, in order, with the password as ********; every real ssh command gets /usr/sbin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { dryRun, loadPlan } from '../../../engine/src/index';
import { SessionPool } from '../../../engine/src/remote/ssh';

describe('dry run and remote PATH', () => {
  it("lists the cookbook plan's commands per host in run order, the Onload arm through the drop-in, the password as ********", async () => {
    const planPath = resolve('examples/plans/cookbook.benchplan.json');
    const { plan, errors } = await loadPlan(planPath);
    assert.deepEqual(errors, []);
    const started = Date.now();
    const text = await dryRun(plan, planPath);
    assert.ok(
      Date.now() - started < 20_000,
      'no connection attempt (an unreachable 10.20.x host would take ConnectTimeout)',
    );
    const lines = text.split('\n');
    const at = (pattern: RegExp, from = 0): number => {
      const index = lines.findIndex((line, i) => i >= from && pattern.test(line));
      assert.ok(index >= 0, `missing ${pattern} after line ${from}:\n${text.slice(0, 4000)}`);
      return index;
    };
    const kernel = at(/^# first cell of stack kernel: 10G~kernel~t5~r1$/);
    const stop = at(/^\[cb-server\] stop-server: sudo -n systemctl stop couchbase-server$/, kernel);
    const proof = at(/^\[cb-server\] stop-server: awk -v ports=':1F9B :2BCA'/, stop);
    const start = at(/^\[cb-server\] start-server: sudo -n systemctl start couchbase-server$/, proof);
    const rest = at(
      /^\[cb-server\] REST: GET http:\/\/10\.20\.128\.35:8091\/pools until it answers .* \(password \*\*\*\*\*\*\*\*\): the node's uptime/,
      start,
    );
    const drop = at(
      /^\[cb-server\] SDK as Administrator \(password \*\*\*\*\*\*\*\*\): connect to couchbase:\/\/10\.20\.128\.35:11210; drop bucket bench/,
      rest,
    );
    const gone = at(
      /^\[cb-server\] REST .*GET http:\/\/10\.20\.128\.35:8091\/pools\/default\/buckets\/bench until it answers 404/,
      drop,
    );
    const bucket = at(
      /^\[cb-server\] REST .*PUT http:\/\/10\.20\.128\.35:8091\/settings\/rbac\/users\/local\/bench roles=bucket_full_access\[bench\] password=<generated/,
      gone,
    );
    const load = at(
      /^\[ycsb-client\] ycsb-load: \(umask 077 && cat > .*secret-[0-9a-f]+\.properties'\) \|\| exit 1; setsid sh -c .* load couchbase2 /,
      bucket,
    );
    at(/^\s+couchbase\.password=\*\*\*\*\*\*\*\*$/, load);
    const settled = at(/^\[cb-server\] REST .*basicStats\.itemCount\) until it is 1000000$/, load);
    at(
      /^\[cb-server\] REST: GET .*\/stats until a sample newer than the load shows ep_queue_size, ep_flusher_todo, ep_diskqueue_items, vb_active_queue_size, vb_replica_queue_size, vb_pending_queue_size at 0/,
      settled,
    );
    const run = at(/^\[ycsb-client\] ycsb-run: .* run couchbase2 /, settled);
    const onload = at(/^# first cell of stack redis-balanced: 10G~redis-balanced~t5~r1$/, run);
    // the profile the unit's user (couchbase) reads: installed beside the drop-in, not in the SSH user's home
    const dropIn = at(
      /^\s+ExecStart=\/usr\/bin\/onload --profile=\/etc\/systemd\/system\/couchbase-server\.service\.d\/onload-bench-profiles\/redis-balanced\.opf \/opt\/couchbase\/bin\/couchbase-server -- -kernel global_enable_tracing false -noinput$/,
      onload,
    );
    const install = at(
      /^\[cb-server\] start-server: sudo -n mkdir -p \/etc\/systemd\/system\/couchbase-server\.service\.d && \(cd '\/home\/<user>\/\.onload-bench\/profiles\/service' && sudo -n rm -rf -- \/etc\/systemd\/system\/couchbase-server\.service\.d\/onload-bench-profiles && find \. -type f .*sudo -n install -D -m 644 .*\) && sudo -n install -m 644 .* && sudo -n systemctl daemon-reload$/,
      dropIn,
    );
    at(/^\[cb-server\] start-server: sudo -n systemctl start couchbase-server$/, install);
    const cleanup = at(/^## after the last cell/, onload);
    at(
      /^\[cb-server\] start-server: if \[ -e \/etc\/systemd\/system\/couchbase-server\.service\.d\/onload-bench-profiles \]; then sudo -n rm -rf -- .*; fi && if \[ -e \/etc\/systemd\/system\/couchbase-server\.service\.d\/onload-bench\.conf \]; then sudo -n rm -f/,
      cleanup,
    );
    assert.equal(lines.filter((line) => /^# first cell of stack/.test(line)).length, 2, 'one cell per stack');
  });

  it('onload-bench run PLAN --dry-run prints the listing and asks for no password', () => {
    const env = { ...process.env };
    delete env.CB_PASSWORD;
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve('cli/src/main.ts'),
        'run',
        resolve('examples/plans/workload-a.benchplan.json'),
        '--dry-run',
      ],
      { encoding: 'utf8', env, timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      /^# Dry run of .*workload-a\.benchplan\.json: nothing was connected or changed\. Password shown as \*{8}\./,
    );
    assert.match(result.stdout, /sudo -n systemctl start couchbase-server/);
  });

  it('puts /usr/sbin and /sbin on the PATH of every remote command (a non-login shell may lack them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ob-fake-ssh-'));
    try {
      // a "ssh" that runs its last argument in a bare non-login environment
      const fake = join(dir, 'ssh');
      writeFileSync(fake, '#!/bin/sh\nfor last; do :; done\nexec env -i PATH=/usr/bin:/bin sh -c "$last"\n');
      chmodSync(fake, 0o755);
      const pool = new SessionPool({ binary: fake, controlDir: dir });
      const result = await pool.get('host').run('echo "$PATH"', { step: 'test' });
      assert.equal(result.stdout.trim(), '/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin');
      await pool.closeAll();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--dry-run applies the run's path confinement and never prints a file it would refuse", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ob-dry-confined-'));
    try {
      // a key=value credentials file outside the plan's folder passes the workload's shape check
      const secrets = join(dir, 'aws-credentials');
      writeFileSync(
        secrets,
        '[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = wJalrXUtnFEMIexample\n',
      );
      const planDir = join(dir, 'plans');
      mkdirSync(planDir);
      symlinkSync(secrets, join(planDir, 'linked-workload'));
      const plan = (workloadPath: string) =>
        JSON.stringify({
          servers: [{ host: 'srv', address: '10.0.0.1' }],
          interfaces: { '25G': '10.0.0.1' },
          clients: [{ host: 'cli', ycsbHome: '/opt/ycsb' }],
          bucket: { name: 'bench' },
          workload: { path: workloadPath },
          stacks: ['kernel'],
          threads: [1],
        });
      const env = { ...process.env };
      delete env.CB_PASSWORD;
      for (const [name, workloadPath] of [
        ['absolute', secrets],
        ['linked', 'linked-workload'],
      ]) {
        const planPath = join(planDir, `${name}.benchplan.json`);
        writeFileSync(planPath, plan(workloadPath));
        const result = spawnSync(
          process.execPath,
          ['--import', 'tsx', resolve('cli/src/main.ts'), 'run', planPath, '--dry-run'],
          { encoding: 'utf8', env, timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        assert.equal(result.status, 2, `${name}: ${result.stderr}`);
        assert.match(result.stderr, /\[path-outside\].*workload\.path names .*, outside the plan's folder/);
        assert.doesNotMatch(result.stdout + result.stderr, /wJalrXUtnFEMIexample|aws_secret_access_key/);
      }
      // with the opt-in the path is allowed, and the file is still only shown when it looks like a workload
      const optIn = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          resolve('cli/src/main.ts'),
          'run',
          join(planDir, 'absolute.benchplan.json'),
          '--dry-run',
          '--allow-outside-paths',
        ],
        { encoding: 'utf8', env, timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      assert.equal(optIn.status, 0, optIn.stderr);
      assert.match(optIn.stdout, /upload-workload: write .*workload.* \(mode 600\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
