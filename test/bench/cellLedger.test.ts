// The per-step breakdown `npm run bench` prints (issue 24): round trips and waits land in the step
// of the cell they happened in, per cell, with parallel trips on several hosts counted once.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CellLedger, coveredMs, formatLedger, TRAFFIC_WATCH, YCSB_COMMAND } from '../../bench/cellLedger';

it('overlapping round trips count once, gaps not at all', () => {
  assert.equal(coveredMs([]), 0);
  assert.equal(
    coveredMs([
      { startMs: 0, endMs: 10 },
      { startMs: 5, endMs: 20 },
      { startMs: 30, endMs: 35 },
    ]),
    25,
  );
  assert.equal(
    coveredMs([
      { startMs: 30, endMs: 35 },
      { startMs: 0, endMs: 40 },
    ]),
    40,
  );
});

it('each trip is counted in its step, per cell; pre-flight stays outside the cells', () => {
  const ledger = new CellLedger(0);
  ledger.record({ kind: 'ssh', phase: ledger.phaseAt(), label: 'preflight', host: 'server', startMs: 0, endMs: 50 });
  for (const base of [100, 1100]) {
    ledger.cellStarted(base);
    ledger.phase('restart-server', base + 10);
    ledger.record({
      kind: 'ssh',
      phase: ledger.phaseAt(),
      label: 'start-server',
      host: 'server',
      startMs: base + 10,
      endMs: base + 60,
    });
    ledger.record({
      kind: 'rest',
      phase: ledger.phaseAt(),
      label: 'GET /pools',
      host: 'server:8091',
      startMs: base + 60,
      endMs: base + 70,
    });
    ledger.record({
      kind: 'rest',
      phase: ledger.phaseAt(),
      label: 'GET /pools',
      host: 'server:8091',
      startMs: base + 80,
      endMs: base + 90,
    });
    ledger.phase('ycsb-run', base + 210);
    // two clients in parallel: 400 ms of waiting, not 700
    ledger.record({
      kind: 'ssh',
      phase: ledger.phaseAt(),
      label: YCSB_COMMAND,
      host: 'client-1',
      startMs: base + 210,
      endMs: base + 610,
    });
    ledger.record({
      kind: 'ssh',
      phase: ledger.phaseAt(),
      label: YCSB_COMMAND,
      host: 'client-2',
      startMs: base + 220,
      endMs: base + 520,
    });
    ledger.record({
      kind: 'ssh',
      phase: ledger.phaseAt(),
      label: 'fetch-hdr',
      host: 'client-1',
      startMs: base + 700,
      endMs: base + 710,
    });
    ledger.record({
      kind: 'ssh',
      phase: ledger.phaseAt(),
      label: TRAFFIC_WATCH,
      host: 'server',
      startMs: base + 300,
      endMs: base + 310,
    });
    ledger.cellFinished(base + 810);
  }
  const summary = ledger.summary(2000);
  assert.equal(summary.cells, 2);
  assert.deepEqual(
    summary.steps.map((step) => step.phase),
    ['cell opening', 'restart-server', 'ycsb-run'],
  );
  const [opening, restart, run] = summary.steps;
  assert.deepEqual([opening.wallMs, opening.sshTrips, opening.restCalls], [10, 0, 0]);
  assert.deepEqual(
    [restart.wallMs, restart.sshTrips, restart.restCalls, restart.waitingMs, restart.ycsbMs],
    [200, 1, 2, 70, 0],
  );
  assert.deepEqual(restart.busiest, ['GET /pools ×2', 'start-server ×1']);
  assert.deepEqual([run.wallMs, run.sshTrips, run.waitingMs, run.ycsbMs], [600, 4, 410, 400]);
  assert.deepEqual([summary.sshTripsPerCell, summary.watchTripsPerCell, summary.restCallsPerCell], [5, 1, 2]);
  const lines = formatLedger(summary);
  assert.match(
    lines.find((line) => line.includes('restart-server')) ?? '',
    /restart-server\s+200 ms\s+ssh\s+1\s+rest\s+2\s+waiting\s+70 ms \(YCSB\s+0 ms\)\s+GET \/pools ×2, start-server ×1$/,
  );
  assert.equal(lines.at(-1), "  round trips per cell: 5 SSH (4 besides the traffic watch's 1 looks), 2 REST");
});
