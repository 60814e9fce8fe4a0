// REAL-LAB H5 on the lab's real hosts: the server's third NIC carries an IPv6 address (test/lab).
// A cell over it must read its own traffic as its own: /proc/net/tcp6 prints addresses as 32 hex
// digits, the plan in RFC 5952's compressed form (or any other), and only parsed addresses compare.
// Not a whole sweep: the real YCSB 0.17.0 of the client hosts (couchbase2, Java SDK 2.3.1) does
// not bootstrap over IPv6 against the lab's node. So the KV connections of the
// run phase are this machine's own, and the cell's traffic is judged by the engine's own watcher
// (watchInterfaceTraffic) over real SSH, reading the server's real /proc/net/tcp6; pre-flight's
// interface check runs as in any run.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan, runPreflight } from '../../../engine/src/index';
import type { PreflightCheck } from '../../../engine/src/events';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import { SessionPool } from '../../../engine/src/remote/ssh';
import { watchInterfaceTraffic } from '../../../engine/src/evidence/serverEvidence';
import { labUnavailable, startLab, writeLabPlan, type Lab } from '../../lab/index';

/** The same address as the plan would hold it uncompressed: `2001:2:0:c8::a` → `2001:2:0:c8:0:0:0:a`. */
function uncompressed(address: string): string {
  const [head, tail] = address.split('::');
  const left = head.split(':');
  const right = tail.split(':');
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].join(':');
}

describe('an IPv6 interface on the lab (H5)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab();
    work = mkdtempSync(join(tmpdir(), 'engine-ipv6-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    "KV traffic over the server's IPv6 address is the cell's own: no wrong-interface mark, recorded under the plan's address",
    { timeout: 60_000 },
    async () => {
      const address = lab.ipv6Interface.address;
      const plan = withDefaults(
        JSON.parse(
          readFileSync(
            writeLabPlan(lab, { dir: work, stacks: ['kernel'], threads: [1], interfaces: [lab.ipv6Interface] }),
            'utf8',
          ),
        ),
      );
      const pool = new SessionPool({ configFile: lab.sshConfigPath });
      const sockets: Socket[] = [];
      try {
        const session = pool.get(lab.serverHost);
        // the run phase: three KV connections over IPv6, held for two seconds
        for (let i = 0; i < 3; i++) {
          sockets.push(
            await new Promise<Socket>((resolve, reject) => {
              const socket = connect({ host: address, port: lab.couchbase.kvPort }, () => resolve(socket));
              socket.once('error', reject);
            }),
          );
        }
        const running = new Promise((resolve) => setTimeout(resolve, 2000));
        const logs: string[] = [];
        const watched = await watchInterfaceTraffic({
          session,
          server: plan.servers[0],
          key: { interface: lab.ipv6Interface.label, address, stack: 'kernel', threads: 1, axes: {}, repetition: 1 },
          cellId: 'nic-c6~kernel~t1~r1',
          password: lab.couchbase.password,
          baseline: [],
          running,
          log: (_level, message) => logs.push(message),
        });
        const traffic = watched.record?.traffic as { samples?: number; localAddresses: Record<string, number> };
        assert.ok((traffic?.samples ?? 0) > 0, 'the connections were sampled');
        assert.equal(
          watched.marks.find((mark) => mark.code === 'wrong-interface')?.message,
          undefined,
          "the traffic went through the cell's interface",
        );
        assert.deepEqual(Object.keys(traffic.localAddresses), [address]);
        assert.deepEqual(logs, []);
      } finally {
        for (const socket of sockets) socket.destroy();
        await pool.closeAll();
      }
    },
  );

  it(
    'pre-flight finds the IPv6 interface on the server whatever its spelling in the plan',
    { timeout: 60_000 },
    async () => {
      const planPath = writeLabPlan(lab, {
        dir: join(work, 'spelled'),
        stacks: ['kernel'],
        threads: [1],
        interfaces: [{ label: 'nic-c6', address: uncompressed(lab.ipv6Interface.address) }],
      });
      const raw = JSON.parse(readFileSync(planPath, 'utf8'));
      raw.servers[0].address = lab.interfaces[0].address; // REST and KV of the run through the first NIC
      writeFileSync(planPath, JSON.stringify(raw));
      const { plan, errors } = await loadPlan(planPath);
      assert.deepEqual(errors, []);
      const checks: PreflightCheck[] = await runPreflight({
        planPath,
        plan,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent: () => undefined,
        ssh: { configFile: lab.sshConfigPath },
      });
      const check = checks.find((candidate) => candidate.id === 'interface-address');
      assert.equal(check?.ok, true, JSON.stringify(check));
      assert.match(check?.detail ?? '', /nic-c6 2001:2:0:\S+ is on cb-server eth2/);
    },
  );
});
