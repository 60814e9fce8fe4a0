// The Onload arm's drop-in judged by the real systemd of a lab host (REAL-LAB H4, C12; issue 19
// defects 1-3): two Onload arms in a row, a site drop-in that overrides ExecStart after ours, and a
// unit installed under another name. Each test reads what a user sees: a cell's recorded start
// command and memcached's environment, or the error that names the file in the way.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadPlan } from '../../../engine/src/index';
import type { RunOutcome } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { sudoersLines, sudoersPath } from '../../lab/hostFiles';
import { labUnavailable, startLab, waitForPort, writeLabPlan, type Lab, type LabPlanOptions } from '../../lab/index';

function server(result: CellResult | undefined): Record<string, any> {
  return ((result?.evidence?.server ?? {}) as Record<string, Record<string, any>>)['cb-server'] ?? {};
}

const dropInDir = '/etc/systemd/system/couchbase-server.service.d';

describe('the Onload drop-in under the real systemd (H4)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  let counter = 0;
  before(async () => {
    lab = await startLab();
    work = mkdtempSync(join(tmpdir(), 'engine-unit-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    assert.deepEqual(await lab.processesLeft(), [], 'no remote process left');
  });

  async function sweep(
    options: Partial<LabPlanOptions> & { server?: Record<string, unknown> },
  ): Promise<{ outcome: RunOutcome; results: CellResult[] }> {
    const planPath = writeLabPlan(lab, {
      dir: join(work, `plan-${++counter}`),
      threads: [1],
      interfaces: [lab.interfaces[0]],
      ...options,
    });
    if (options.server) {
      const raw = JSON.parse(readFileSync(planPath, 'utf8'));
      Object.assign(raw.servers[0], options.server);
      writeFileSync(planPath, JSON.stringify(raw, null, 2));
    }
    const { plan, errors } = await loadPlan(planPath);
    assert.deepEqual(errors, []);
    const outcome = await runSweep({
      planPath,
      plan,
      resultsRoot: join(work, 'results'),
      password: lab.couchbase.password,
      signal: new AbortController().signal,
      onEvent: () => undefined,
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
    return { outcome, results };
  }

  it(
    "two Onload arms in a row: the second runs its own profile behind the unit's own command, not behind the first arm's wrapper (defect 1)",
    { timeout: 120_000 },
    async () => {
      const { outcome, results } = await sweep({ stacks: ['latency', 'throughput'] });
      assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
      const [latency, throughput] = results;
      assert.deepEqual([latency?.status, throughput?.status], ['ok', 'ok'], JSON.stringify(throughput?.error));
      const command = server(throughput).start.command as string;
      assert.equal(command.match(/\bonload --profile=/g)?.length, 1, command);
      assert.match(
        command,
        /ExecStart=\/usr\/bin\/onload --profile=\S+\/throughput\.opf \/opt\/couchbase\/bin\/couchbase-server -- -noinput\)$/,
      );
      // memcached runs with the throughput profile only: nothing of the latency arm leaks into it
      assert.deepEqual(server(throughput).process.efEnvironment, { EF_HIGH_THROUGHPUT_MODE: '1' });
      assert.equal(
        existsSync(lab.hostPath(lab.serverHost, `${dropInDir}/onload-bench.conf`)),
        false,
        'the drop-in is removed after the arm',
      );
    },
  );

  it(
    'a site drop-in that sets ExecStart after ours: the Onload arm is refused, naming that file (defect 2)',
    { timeout: 120_000 },
    async () => {
      await lab.root(
        lab.serverHost,
        `mkdir -p ${dropInDir} && printf '[Service]\\nExecStart=\\nExecStart=/opt/couchbase/bin/couchbase-server -- -noinput\\n' > ${dropInDir}/override.conf && systemctl daemon-reload`,
      );
      try {
        const { results } = await sweep({ stacks: ['latency'] });
        const [cell] = results;
        assert.equal(
          cell?.status,
          'failed',
          `the arm must not run on the kernel stack as if it were Onload: ${JSON.stringify(server(cell).start)}`,
        );
        assert.equal(cell?.error?.code, 'server-start');
        assert.match(
          cell?.error?.message ?? '',
          /\/etc\/systemd\/system\/couchbase-server\.service\.d\/override\.conf/,
        );
        assert.match(cell?.error?.message ?? '', /ExecStart/);
        assert.match(cell?.error?.action ?? '', /override\.conf/);
        assert.equal(
          existsSync(lab.hostPath(lab.serverHost, `${dropInDir}/onload-bench.conf`)),
          false,
          'our drop-in is not left behind',
        );
      } finally {
        await lab.root(
          lab.serverHost,
          `rm -f ${dropInDir}/override.conf && systemctl daemon-reload && systemctl restart couchbase-server`,
        );
        await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
      }
    },
  );

  it(
    'a unit installed under another name (serviceName) is started, stopped and overridden under that name (defect 3)',
    { timeout: 120_000 },
    async () => {
      const name = 'couchbase-bench';
      // the site installed the packaged unit under its own name; sudoers names it, as the README says
      const sudoers = `${sudoersLines(lab.sshUser, [], name).join('\n')}\n`;
      await lab.root(
        lab.serverHost,
        `systemctl stop couchbase-server && mv /usr/lib/systemd/system/couchbase-server.service /usr/lib/systemd/system/${name}.service && systemctl daemon-reload && cat > ${sudoersPath}`,
        { input: sudoers },
      );
      try {
        const { outcome, results } = await sweep({ stacks: ['kernel', 'latency'], server: { serviceName: name } });
        assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
        const [kernel, onload] = results;
        assert.deepEqual(
          [kernel?.status, onload?.status],
          ['ok', 'ok'],
          JSON.stringify([kernel?.error, onload?.error]),
        );
        assert.equal(server(kernel).start.command, `sudo -n systemctl start ${name}`);
        assert.match(
          server(onload).start.command,
          new RegExp(`^sudo -n systemctl start ${name} \\(drop-in ExecStart=/usr/bin/onload `),
        );
        assert.equal(onload?.accelerated, true);
        assert.match((await lab.ssh(lab.serverHost, `systemctl is-active ${name}`)).stdout, /^active$/m);
      } finally {
        await lab.root(
          lab.serverHost,
          `systemctl stop ${name}; rm -rf /etc/systemd/system/${name}.service.d; mv /usr/lib/systemd/system/${name}.service /usr/lib/systemd/system/couchbase-server.service && systemctl daemon-reload && systemctl start couchbase-server && cat > ${sudoersPath}`,
          { input: `${sudoersLines(lab.sshUser).join('\n')}\n` },
        );
        await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
      }
    },
  );
});
