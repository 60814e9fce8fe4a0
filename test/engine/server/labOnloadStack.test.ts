// The server side of an Onload cell on a lab whose Onload stand-in hides what Onload hides (lab
// option onloadNics, REAL-LAB O6, O7; test/lab/README.md "The Onload stack"): memcached's accelerated
// IPv4 listener is in no /proc/net/tcp and no socket of memcached. memcached must still be found,
// by what it is (issue 21), and its arms compared; and found when it starts after REST answers (C9).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadPlan } from '../../../engine/src/index';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { labUnavailable, startLab, waitForPort, writeLabPlan, type Lab, type LabPlanOptions } from '../../lab/index';

function server(result: CellResult | undefined): Record<string, any> {
  return ((result?.evidence?.server ?? {}) as Record<string, Record<string, any>>)['cb-server'] ?? {};
}

function marks(result: CellResult | undefined): string[] {
  return (result?.marks ?? []).map((mark) => mark.code);
}

describe("an IPv4-only server under the lab's Onload stack (O6, O7, C9)", { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  let counter = 0;
  before(async () => {
    lab = await startLab({ onloadNics: ['eth0', 'eth1'], nodeIpv6: false });
    work = mkdtempSync(join(tmpdir(), 'engine-onload-stack-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    lab.faults.clear();
    if (!lab.couchbaseState().service) {
      await lab.ssh(
        lab.serverHost,
        `sudo -n -u couchbase ${lab.couchbaseServerPath} -k; sudo -n systemctl stop couchbase-server; sudo -n systemctl start couchbase-server`,
      );
      await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
    }
  });

  async function sweep(
    options: Partial<LabPlanOptions> = {},
  ): Promise<{ results: CellResult[]; events: SweepEvent[]; error: unknown }> {
    const planPath = writeLabPlan(lab, {
      dir: join(work, `plan-${++counter}`),
      stacks: ['kernel', 'latency'],
      threads: [1],
      interfaces: [lab.interfaces[0]],
      ...options,
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
    const path = outcome.runDir ? join(outcome.runDir, 'results.jsonl') : '';
    const results =
      path && existsSync(path)
        ? readFileSync(path, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as CellResult)
        : [];
    return { results, events, error: outcome.error };
  }

  it(
    'memcached is found by what it is, not by a listener it does not hold, and both arms are compared',
    { timeout: 240_000 },
    async () => {
      const record = await sweep();
      assert.equal(record.error, undefined, JSON.stringify(record.error));
      const [kernel, onload] = record.results;
      assert.deepEqual([kernel?.status, onload?.status], ['ok', 'ok'], JSON.stringify(onload?.error));
      for (const cell of [onload, kernel]) {
        const process = server(cell).process;
        assert.equal(process.name, 'memcached', `${cell?.key.stack}: ${JSON.stringify(process)}`);
        assert.equal(process.user, 'couchbase', `${cell?.key.stack}: ${JSON.stringify(process)}`);
        assert.match(
          process.foundBy,
          /^memcached binary \/opt\/couchbase\/bin\/memcached, user couchbase, child of beam\.smp \d+ \(couchbase-server\.service's main process\)/,
          `${cell?.key.stack}: ${JSON.stringify(process)}`,
        );
        assert.ok(process.limits.nofile?.soft, "memcached's limits were read");
        assert.equal(typeof process.efEnvironment, 'object', "memcached's environment was read");
      }
      // the arms were compared on real values: same user, limits and cgroup, so no mark
      assert.deepEqual(server(onload).process.limits, server(kernel).process.limits);
      assert.ok(!marks(onload).includes('arms-differ'), JSON.stringify(onload?.marks));
      assert.equal(server(onload).process.efEnvironment.EF_POLL_USEC, '100000');
      assert.equal(onload?.accelerated, true, JSON.stringify(server(onload).acceleration));
      // the CPU evidence watches the same memcached, not whoever holds a kernel listener
      const cpu = (onload?.evidence as Record<string, any>).cpu;
      assert.equal(
        cpu.hosts[lab.serverHost].process?.pid,
        server(onload).process.pid,
        JSON.stringify(cpu.hosts[lab.serverHost].process),
      );
    },
  );

  it(
    'a memcached that starts after REST answers is waited for, then found and judged (C9)',
    { timeout: 240_000 },
    async () => {
      lab.faults.set({ memcachedStartDelayMs: 6000 });
      const record = await sweep({ stacks: ['latency'] });
      assert.equal(record.error, undefined, JSON.stringify(record.error));
      const [onload] = record.results;
      assert.equal(onload?.status, 'ok', JSON.stringify(onload?.error));
      assert.equal(server(onload).process.name, 'memcached', JSON.stringify(server(onload).process));
      assert.ok(
        server(onload).process.foundAfterMs >= 2000,
        `looked for until it ran: ${JSON.stringify(server(onload).process)}`,
      );
      assert.ok(
        !marks(onload).includes('memcached-unverified') && !marks(onload).includes('acceleration-unverified'),
        JSON.stringify(onload?.marks),
      );
      assert.equal(onload?.accelerated, true, JSON.stringify(server(onload).acceleration));
    },
  );

  it(
    'clients that reach the server through a non-Onload interface are not reported accelerated; through an Onload NIC they are, by onload_stackdump (O6, C7)',
    { timeout: 300_000 },
    async () => {
      const [onloadNic, , otherNic] = lab.interfaces;
      const record = await sweep({ stacks: ['latency'], interfaces: [onloadNic, otherNic] });
      assert.equal(record.error, undefined, JSON.stringify(record.error));
      const viaOnload = record.results.find((cell) => cell.key.interface === onloadNic.label);
      const viaKernel = record.results.find((cell) => cell.key.interface === otherNic.label);
      assert.deepEqual([viaOnload?.status, viaKernel?.status], ['ok', 'ok']);
      // eth2 is no Onload NIC: memcached's listener is in its stack, its clients' connections are not
      assert.notEqual(
        viaKernel?.accelerated,
        true,
        JSON.stringify(server(viaKernel).runAcceleration ?? server(viaKernel).acceleration),
      );
      assert.ok(marks(viaKernel).includes('not-accelerated'), JSON.stringify(viaKernel?.marks));
      assert.equal(server(viaKernel).runAcceleration?.verdict, 'not-accelerated');
      assert.match(
        server(viaKernel).runAcceleration.evidence,
        /\d+ as kernel sockets \(\/proc\/net\/tcp\{,6\}\), none in memcached's Onload stack \(onload_stackdump lots/,
      );
      assert.deepEqual(Object.keys(server(viaKernel).traffic.sources['/proc/net/tcp']), [otherNic.address]);
      // eth0: the connections are the stack's, and they prove the interface
      assert.equal(viaOnload?.accelerated, true, JSON.stringify(server(viaOnload).runAcceleration));
      assert.equal(server(viaOnload).runAcceleration?.verdict, 'accelerated');
      assert.deepEqual(Object.keys(server(viaOnload).traffic.sources['onload_stackdump lots']), [onloadNic.address]);
      assert.deepEqual(server(viaOnload).traffic.sources['/proc/net/tcp'], {});
      assert.ok(
        !marks(viaOnload).includes('wrong-interface') && !marks(viaOnload).includes('acceleration-unverified'),
        JSON.stringify(viaOnload?.marks),
      );
    },
  );
});
