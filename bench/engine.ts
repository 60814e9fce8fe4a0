// `npm run bench` (engine part): what the engine costs on top of the work it orchestrates.
// - per remote command: the engine's session (`run('true')`) against raw multiplexed
//   `ssh host true` on the same master, and against one new connection per command;
// - per cell: a small lab sweep's wall time split into server restart, bucket re-creation, YCSB's
//   own runtime and the rest (the engine: SSH round trips, uploads, parsing, fsynced writes), with
//   the share that rest would take of a sweep whose YCSB run lasts 10 s per cell;
// - per step of a cell (issue 24): every SSH command, upload and REST call the engine makes,
//   counted and timed against the cell's phase (cellLedger.ts).
// Runs on the lab (test/lab: real hosts, their sshd; the real SDK). Figures only, no assertions.
//   node --import tsx bench/engine.ts [--json]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadPlan } from '../engine/src/index';
import type { SweepEvent } from '../engine/src/events';
import { OpenSshSession, SessionPool, type RemoteSession } from '../engine/src/remote/ssh';
import { runSweep as runSweepWithSeams } from '../engine/src/sweep/sweep';
import { startLab, writeLabPlan } from '../test/lab/index';
import { CellLedger, formatLedger, YCSB_COMMAND, type LedgerSummary } from './cellLedger';
import { round, summarise, time, type Timing } from './stats';

export interface EngineFigures {
  perCommand: {
    engine: Timing;
    rawMultiplexed: Timing;
    connectionPerCommand: Timing;
    engineVsRaw: number;
    perConnectionVsEngine: number;
  };
  perCell: {
    cells: number;
    wallMs: number;
    restartServerMs: number;
    recreateBucketMs: number;
    /** YCSB's commands on the clients (process start to exit), per cell. */
    ycsbRuntimeMs: number;
    engineMs: number;
    /** engineMs / (wall time of a cell whose YCSB run lasts 10 s), in percent. */
    engineShareAt10sPercent: number;
    /**
     * Of engineMs, the item-count step: the item count and the write queues, waiting for the node's next stats sample
     * (REAL-LAB C10).
     */
    itemCountMs: number;
    /** engineMs without it, and its share of a 10 s cell. */
    engineBesidesItemCountMs: number;
    engineBesidesItemCountSharePercent: number;
  };
  steps: LedgerSummary;
}

function sshTrue(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('ssh', args, (error) => (error ? reject(error) : resolve()));
  });
}

export async function benchEngine(runs = 30): Promise<EngineFigures> {
  const lab = await startLab();
  const work = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  const controlDir = mkdtempSync(join(tmpdir(), 'obb-'));
  const pool = new SessionPool({ configFile: lab.sshConfigPath, controlDir });
  try {
    const session = pool.get(lab.serverHost) as OpenSshSession;
    await session.connect('bench');
    const muxArgs = [
      '-F',
      lab.sshConfigPath,
      '-o',
      'BatchMode=yes',
      '-o',
      'ControlMaster=auto',
      '-o',
      `ControlPath=${join(controlDir, '%C')}`,
      '-T',
      lab.serverHost,
      'true',
    ];
    // interleaved, so both see the same load on a shared machine
    const engineSamples: number[] = [];
    const rawSamples: number[] = [];
    for (let i = -3; i < runs; i++) {
      let start = performance.now();
      await session.run('true', { step: 'bench' });
      if (i >= 0) engineSamples.push(performance.now() - start);
      start = performance.now();
      await sshTrue(muxArgs);
      if (i >= 0) rawSamples.push(performance.now() - start);
    }
    const engine = summarise(engineSamples);
    const rawMultiplexed = summarise(rawSamples);
    const plainArgs = [
      '-F',
      lab.sshConfigPath,
      '-o',
      'BatchMode=yes',
      '-o',
      'ControlMaster=no',
      '-o',
      'ControlPath=none',
      '-T',
      lab.serverHost,
      'true',
    ];
    const connectionPerCommand = await time(Math.min(runs, 15), () => sshTrue(plainArgs));

    // a small sweep: 2 stacks x 2 thread counts, one interface
    const planPath = writeLabPlan(lab, {
      dir: join(work, 'plan'),
      stacks: ['kernel', 'latency'],
      threads: [1, 2],
      interfaces: [lab.interfaces[0]],
      properties: { operationcount: 2000 },
    });
    const { plan } = await loadPlan(planPath);
    const phaseStarts = new Map<string, number>();
    const spent: Record<string, number> = {};
    let cellStart = 0;
    const cellWall: number[] = [];
    let ycsbRuntimeMs = 0;
    const ledger = new CellLedger(performance.now());
    const onEvent = (event: SweepEvent): void => {
      const now = performance.now();
      if (event.type === 'cell-started') ledger.cellStarted(now);
      if (event.type === 'phase') ledger.phase(event.phase, now);
      if (event.type === 'cell-finished') ledger.cellFinished(now);
      const close = (id: string): void => {
        for (const [phase, started] of phaseStarts) spent[phase] = (spent[phase] ?? 0) + (now - started);
        phaseStarts.clear();
        void id;
      };
      if (event.type === 'cell-started') cellStart = now;
      if (event.type === 'phase') {
        close(event.id);
        phaseStarts.set(event.phase, now);
      }
      if (event.type === 'cell-finished') {
        close(event.result.id);
        cellWall.push(now - cellStart);
        ycsbRuntimeMs += (event.result.run?.runtimeMs ?? 0) + (event.result.load?.report?.runtimeMs ?? 0);
      }
    };
    // time YCSB's own commands (process start to exit, as seen through ssh) to separate them out
    const inner = new SessionPool({ configFile: lab.sshConfigPath });
    let ycsbCommandMs = 0;
    const timed = (host: string): RemoteSession => {
      const real = inner.get(host);
      return {
        host,
        run: async (command, options) => {
          const start = performance.now();
          const phase = ledger.phaseAt();
          const isYcsb = /bin\/ycsb/.test(command) && !/ shell /.test(command);
          try {
            return await real.run(command, options);
          } finally {
            const end = performance.now();
            if (isYcsb) ycsbCommandMs += end - start;
            ledger.record({
              kind: 'ssh',
              phase,
              label: isYcsb ? YCSB_COMMAND : options.step,
              host,
              startMs: start,
              endMs: end,
            });
          }
        },
        upload: async (path, content, options) => {
          const start = performance.now();
          const phase = ledger.phaseAt();
          try {
            await real.upload(path, content, options);
          } finally {
            ledger.record({
              kind: 'ssh',
              phase,
              label: `upload ${options.step}`,
              host,
              startMs: start,
              endMs: performance.now(),
            });
          }
        },
        close: async () => undefined,
      };
    };
    // REST calls go straight to the management port with fetch: count them too
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const start = performance.now();
      const phase = ledger.phaseAt();
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      try {
        return await realFetch(input, init);
      } finally {
        ledger.record({
          kind: 'rest',
          phase,
          label: `${init?.method ?? 'GET'} ${url.pathname.replace(/\/buckets\/[^/]+/, '/buckets/…')}`,
          host: url.host,
          startMs: start,
          endMs: performance.now(),
        });
      }
    };
    try {
      await runSweepWithSeams(
        {
          planPath,
          plan,
          resultsRoot: join(work, 'results'),
          password: lab.couchbase.password,
          signal: new AbortController().signal,
          onEvent,
          ssh: { configFile: lab.sshConfigPath },
        },
        { sessionFactory: timed },
      );
    } finally {
      globalThis.fetch = realFetch;
      await inner.closeAll();
    }
    const steps = ledger.summary(performance.now());
    const cells = cellWall.length || 1;
    const wallMs = cellWall.reduce((sum, value) => sum + value, 0) / cells;
    const restartServerMs = (spent['restart-server'] ?? 0) / cells;
    const recreateBucketMs = (spent['recreate-bucket'] ?? 0) / cells;
    // YCSB's command time (its process start, the work and its exit) is not the engine's
    const ycsbPerCell = Math.max(ycsbRuntimeMs, ycsbCommandMs) / cells;
    const engineMs = Math.max(0, wallMs - restartServerMs - recreateBucketMs - ycsbPerCell);
    const at10s = engineMs + restartServerMs + recreateBucketMs + 10_000;
    const itemCountMs = Math.min(engineMs, (spent['item-count'] ?? 0) / cells);
    const besides = engineMs - itemCountMs;
    return {
      perCommand: {
        engine,
        rawMultiplexed,
        connectionPerCommand,
        engineVsRaw: round(engine.medianMs / rawMultiplexed.medianMs),
        perConnectionVsEngine: round(connectionPerCommand.medianMs / engine.medianMs),
      },
      perCell: {
        cells: cellWall.length,
        wallMs: round(wallMs, 0),
        restartServerMs: round(restartServerMs, 0),
        recreateBucketMs: round(recreateBucketMs, 0),
        ycsbRuntimeMs: round(ycsbPerCell, 0),
        engineMs: round(engineMs, 0),
        engineShareAt10sPercent: round((engineMs / at10s) * 100),
        itemCountMs: round(itemCountMs, 0),
        engineBesidesItemCountMs: round(besides, 0),
        engineBesidesItemCountSharePercent: round((besides / at10s) * 100),
      },
      steps,
    };
  } finally {
    await pool.closeAll();
    rmSync(controlDir, { recursive: true, force: true });
    await lab.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

export function formatEngineFigures(figures: EngineFigures): string {
  const { perCommand: c, perCell: p } = figures;
  const ms = (timing: Timing): string =>
    `median ${round(timing.medianMs)} ms, p99 ${round(timing.p99Ms)} ms (${timing.runs} runs)`;
  return [
    'Engine: per remote command (ssh host true on the lab)',
    `  engine session.run      ${ms(c.engine)}`,
    `  raw multiplexed ssh     ${ms(c.rawMultiplexed)}`,
    `  new connection each     ${ms(c.connectionPerCommand)}`,
    `  engine / raw multiplexed = ${c.engineVsRaw}x (target <= 1.2x); new connection / engine = ${c.perConnectionVsEngine}x`,
    `Engine: per cell (${p.cells} lab cells)`,
    `  wall ${p.wallMs} ms = server restart ${p.restartServerMs} + bucket ${p.recreateBucketMs} + YCSB commands ${p.ycsbRuntimeMs} + engine ${p.engineMs} ms`,
    `  engine share of a cell whose YCSB run lasts 10 s: ${p.engineShareAt10sPercent}% (target < 1%)`,
    `  of it the item count and write queues (waiting for the node's next stats sample, the proof the load is on disk) ${p.itemCountMs} ms; the rest ${p.engineBesidesItemCountMs} ms: ${p.engineBesidesItemCountSharePercent}% of that cell`,
    ...formatLedger(figures.steps),
  ].join('\n');
}

if (require.main === module) {
  benchEngine().then(
    (figures) =>
      console.log(process.argv.includes('--json') ? JSON.stringify(figures, null, 2) : formatEngineFigures(figures)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
