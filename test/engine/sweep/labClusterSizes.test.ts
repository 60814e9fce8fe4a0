// Cluster sizes as a sweep axis on the lab's real hosts: three server hosts (cb-server, cb-server-2,
// cb-server-3: real systemd, sshd, sudo, the packaged Couchbase unit and a test node each, on the
// lab's veth networks) and a client host running the real YCSB 0.17.0. The real engine over real SSH
// sweeps cluster sizes x kernel/Onload x two thread counts: it restarts every member on each arm
// through its unit, forms each size with real REST calls between the hosts' test nodes (addNode,
// rebalance: the orchestrator reaches the joining node over the network), and YCSB's SDK sends each
// key to its node. Asserts in results.jsonl each cell's size, per-member evidence (restart proof and
// acceleration for every member), the vBuckets and items spread over the members, and the requested
// and effective replicas. Bounded: 900 s; every host powered off by pid in after(), also on failure.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan, runSweep } from '../../../engine/src/index';
import type { SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { labUnavailable, startLab, writeLabPlan, type Lab } from '../../lab/index';

const sizes = [1, 2, 3];

describe(
  'cluster sizes on three server hosts of the lab (real engine, SSH, systemd, YCSB)',
  { skip: labUnavailable(), timeout: 900_000 },
  () => {
    let lab: Lab | undefined;
    let work = '';
    before(async () => {
      work = mkdtempSync(join(tmpdir(), 'engine-lab-cluster-'));
      lab = await startLab({ servers: 3 });
    });
    after(async () => {
      // powers every host off by pid, also when the test failed
      await lab?.stop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it(
      `sweeps ${sizes.join(', ')} nodes x kernel/Onload x 1, 2 threads with each member's evidence`,
      { timeout: 840_000 },
      async () => {
        const current = lab!;
        assert.deepEqual(current.serverHosts, ['cb-server', 'cb-server-2', 'cb-server-3']);
        // the hosts reach each other's REST and KV ports over their own networks
        for (const [from, to] of [
          ['cb-server', 'cb-server-3'],
          ['cb-server-3', 'cb-server-2'],
        ] as const) {
          const probe = await current.root(
            from,
            `bash -c 'exec 3<>/dev/tcp/${current.hosts[to].addresses.eth0}/8091 && exec 4<>/dev/tcp/${current.hosts[to].addresses.eth1}/11210 && echo reached'`,
          );
          assert.equal(probe.stdout.trim(), 'reached', `${from} -> ${to}: ${probe.stderr}`);
        }
        const planPath = writeLabPlan(current, {
          dir: join(work, 'plan'),
          stacks: ['kernel', 'latency'],
          threads: [1, 2],
          interfaces: [current.interfaces[0]],
          servers: current.serverHosts,
          // runs of a few seconds: a run shorter than the engine's looks can end between its /proc/net look and its
          // onload_stackdump look, and the cell is then judged not accelerated (two runs of four with 200 operations)
          properties: { recordcount: 150, operationcount: 1500 },
          extra: {
            clusterSizes: sizes,
            bucket: { name: 'bench', ramQuotaMB: 128, replicas: 2, flush: true },
            timeouts: { serverStartSec: 30, bucketReadySec: 30, cellSec: 90 },
          },
        });
        const { plan, errors } = await loadPlan(planPath);
        assert.deepEqual(errors, []);
        const events: SweepEvent[] = [];
        const started = Date.now();
        const outcome = await runSweep({
          planPath,
          plan,
          resultsRoot: join(work, 'results'),
          password: current.couchbase.password,
          signal: new AbortController().signal,
          onEvent: (event) => events.push(event),
          ssh: { configFile: current.sshConfigPath },
        });
        const logs = events
          .filter((event) => event.type === 'log')
          .map((event) => (event as { message: string }).message);
        assert.equal(
          outcome.error,
          undefined,
          JSON.stringify({ error: outcome.error, logs: logs.slice(-20) }, null, 1),
        );
        const results = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as CellResult);
        process.stdout.write(`# ${results.length} cells in ${Math.round((Date.now() - started) / 1000)} s\n`);
        assert.deepEqual(
          results.filter((result) => result.status !== 'ok').map((result) => [result.id, result.error?.message]),
          [],
        );
        assert.equal(results.length, sizes.length * 4);
        assert.deepEqual(
          results.map((result) => result.key.clusterSize),
          sizes.flatMap((size) => [size, size, size, size]),
        );

        for (const result of results) {
          const size = result.key.clusterSize ?? 0;
          const members = current.serverHosts.slice(0, size);
          const cluster = result.evidence?.cluster;
          assert.equal(cluster?.size, size, result.id);
          assert.deepEqual(
            cluster?.members.map((member) => [member.host, member.hostname]),
            members.map((alias) => [alias, `${current.hosts[alias].addresses.eth0}:8091`]),
            result.id,
          );
          assert.deepEqual(cluster?.replicas, { requested: 2, effective: Math.min(2, size - 1) }, result.id);
          assert.equal(cluster?.balanced, true);
          // both arms on every member, each with its restart proof and acceleration evidence
          const onload = result.key.stack !== 'kernel';
          const servers = (result.evidence?.server ?? {}) as Record<string, Record<string, any>>;
          assert.deepEqual(Object.keys(servers).sort(), members, `${result.id}: every member's evidence`);
          for (const alias of members) {
            const evidence = servers[alias];
            assert.equal(evidence.start?.mode, 'service', `${result.id} ${alias}`);
            assert.equal(evidence.start?.dropIn, onload, `${result.id} ${alias}: the Onload arm's drop-in`);
            // the restart proof (REAL-LAB C3): the node's uptime is within the time since the engine started it
            assert.ok(
              typeof evidence.start?.uptimeSec === 'number' && evidence.start.uptimeSec <= evidence.start.sinceStartSec,
              `${result.id} ${alias}: restart proof ${JSON.stringify(evidence.start)}`,
            );
            assert.equal(
              evidence.acceleration?.accelerated,
              onload,
              `${result.id} ${alias}: ${evidence.acceleration?.evidence}`,
            );
          }
          assert.equal(result.accelerated, onload ? true : null, `${result.id}: ${JSON.stringify(result.marks)}`);
          // the bucket's spread over the members (the test node's 64 vBuckets), from the real YCSB's load
          const nodes = Object.entries(cluster?.nodes ?? {});
          assert.deepEqual(
            nodes.map(([hostname]) => hostname).sort(),
            members.map((alias) => `${current.hosts[alias].addresses.eth0}:8091`).sort(),
            result.id,
          );
          assert.equal(
            nodes.reduce((sum, [, node]) => sum + node.activeVBuckets, 0),
            64,
            result.id,
          );
          assert.equal(
            nodes.reduce((sum, [, node]) => sum + node.replicaVBuckets, 0),
            64 * Math.min(2, size - 1),
            result.id,
          );
          for (const [hostname, node] of nodes)
            assert.ok(
              Math.abs(node.activeVBuckets - 64 / size) <= 1,
              `${result.id} ${hostname}: ${node.activeVBuckets} active vBuckets`,
            );
          assert.equal(result.load?.itemCount, 150, result.id);
          assert.equal(
            nodes.reduce((sum, [, node]) => sum + (node.items ?? 0), 0),
            150,
            `${result.id}: items per node ${JSON.stringify(nodes)}`,
          );
          if (size > 1)
            for (const [hostname, node] of nodes)
              assert.ok(
                (node.items ?? 0) > 0 && (node.items ?? 0) < 150,
                `${result.id} ${hostname}: ${node.items} items`,
              );
          assert.ok(result.run && result.run.throughputOpsPerSec > 0, result.id);
        }
        const formed = results
          .filter((result) => result.evidence?.cluster?.rebalance.outcome === 'balanced')
          .map((result) => result.key.clusterSize);
        assert.deepEqual(
          formed,
          sizes.filter((size) => size > 1),
          'one rebalance per new size',
        );
        assert.deepEqual(await current.processesLeft(), []);
      },
    );
  },
);
