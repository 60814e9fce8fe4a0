// A small run folder with known numbers: one interface, kernel and one Onload profile, three
// thread counts, two repetitions each, one failed kernel repetition and an Onload point that
// failed or ran without acceleration. Checked in under fixtures/run-fixture (see fixtureRun.test.ts).
import type { CellResult, CellStatus, RunManifest, YcsbReport } from '../../engine/src/model';

export const fixtureRunId = 'run-fixture';
export const profileName = 'latency-best';

interface Numbers {
  throughput: number;
  readAvg: number;
  readP95: number;
  readP99: number;
  updateAvg: number;
}

function report(n: Numbers): YcsbReport {
  const ops = Math.round(n.throughput * 60);
  return {
    runtimeMs: 60000,
    throughputOpsPerSec: n.throughput,
    operations: {
      READ: { operation: 'READ', operations: Math.round(ops / 2), averageUs: n.readAvg, minUs: 50, maxUs: n.readP99 * 4, percentilesUs: { '95': n.readP95, '99': n.readP99 }, returnCodes: { OK: Math.round(ops / 2) } },
      UPDATE: { operation: 'UPDATE', operations: Math.round(ops / 2), averageUs: n.updateAvg, minUs: 60, maxUs: n.updateAvg * 8, percentilesUs: { '95': n.updateAvg * 2, '99': n.updateAvg * 3 }, returnCodes: { OK: Math.round(ops / 2) } },
    },
    other: {},
    warnings: [],
  };
}

const keyFor = (stack: string, threads: number, repetition: number) => ({
  interface: '25G',
  address: '127.0.0.1',
  stack,
  threads,
  axes: {},
  repetition,
});

const idFor = (stack: string, threads: number, repetition: number) => `25G-${stack}-t${threads}-r${repetition}`;

function cell(stack: string, threads: number, repetition: number, numbers: Numbers | 'failed', accelerated?: boolean): CellResult {
  const status: CellStatus = numbers === 'failed' ? 'failed' : 'ok';
  const minute = threads + repetition;
  const result: CellResult = {
    kind: 'cell',
    id: idFor(stack, threads, repetition),
    key: keyFor(stack, threads, repetition),
    status,
    accelerated: stack === 'kernel' ? null : (accelerated ?? true),
    startedAt: `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
    finishedAt: `2026-01-01T10:${String(minute).padStart(2, '0')}:59.000Z`,
    attempts: status === 'failed' ? 2 : 1,
    logs: [`logs/${idFor(stack, threads, repetition)}.log`],
  };
  if (numbers === 'failed') {
    result.error = { code: 'ycsb-exit', host: '127.0.0.1', step: 'ycsb-run', message: 'YCSB exited with status 1.', action: 'Read the cell log.' };
  } else {
    result.run = report(numbers);
  }
  return result;
}

const n = (throughput: number, readAvg: number, updateAvg = readAvg * 1.5): Numbers => ({
  throughput,
  readAvg,
  readP95: readAvg * 2,
  readP99: readAvg * 3,
  updateAvg,
});

export function fixtureResults(): CellResult[] {
  return [
    cell('kernel', 5, 1, n(10000, 400)),
    cell('kernel', 5, 2, n(11000, 420)),
    cell(profileName, 5, 1, n(15000, 250)),
    cell(profileName, 5, 2, n(16000, 270)),
    cell('kernel', 10, 1, n(18000, 500)),
    cell('kernel', 10, 2, n(19000, 520)),
    cell(profileName, 10, 1, n(30000, 300)),
    cell(profileName, 10, 2, n(29000, 310)),
    cell('kernel', 20, 1, n(25000, 800)),
    cell('kernel', 20, 2, 'failed'),
    cell(profileName, 20, 1, n(26000, 780), false),
    cell(profileName, 20, 2, 'failed'),
  ];
}

export function fixtureManifest(): RunManifest {
  const cells: RunManifest['cells'] = [];
  for (const threads of [5, 10, 20]) {
    for (const stack of ['kernel', profileName]) {
      for (const repetition of [1, 2]) cells.push({ id: idFor(stack, threads, repetition), key: keyFor(stack, threads, repetition) });
    }
  }
  return {
    kind: 'manifest',
    formatVersion: 1,
    runId: fixtureRunId,
    createdAt: '2026-01-01T10:00:00.000Z',
    plan: { name: 'fixture' },
    planPath: 'plans/fixture.plan.json',
    cells,
    environment: {
      hosts: {
        '127.0.0.1': {
          role: 'server',
          kernel: '6.1.0-fixture',
          couchbase: '7.6.2',
          onload: '9.0.1',
          interfaces: { '127.0.0.1': { device: 'sfc0', driver: 'sfc', firmware: '8.2.1', numaNode: 1, irqs: [{ irq: 90, cpus: '8' }, { irq: 91, cpus: '9' }] } },
          cpu: { model: 'AMD EPYC 7313', sockets: 1, cores: 16, threads: 32, numaNodes: 2, governors: { performance: 32 } },
        },
        '127.0.0.2': { role: 'client', kernel: '6.1.0-fixture', ycsb: '0.17.0', java: '17.0.9' },
      },
      profiles: { [profileName]: { EF_POLL_USEC: '100000', EF_TCP_FASTSTART_INIT: '0' } },
    },
  };
}

export function fixtureFiles(): { manifest: string; results: string } {
  return {
    manifest: JSON.stringify(fixtureManifest(), null, 2) + '\n',
    results: fixtureResults().map((result) => JSON.stringify(result)).join('\n') + '\n',
  };
}
