// A small run folder with known numbers: one interface, kernel and one Onload profile, three
// thread counts, two repetitions each, one failed kernel repetition and an Onload point that
// failed or ran without acceleration. Every cell that ran carries issue 10's evidence (CPU per
// host, YCSB status lines, merged HDR percentiles; see fixtureEvidence) except the kernel's at 20
// threads, which has no HDR logs (its percentiles are the clients' maximum, an upper bound).
// Checked in under fixtures/run-fixture (viewModel.test.ts checks the files are what this builds).
import type {
  CellResult,
  CellStatus,
  ClusterEvidence,
  CpuEvidence,
  RunManifest,
  TimeseriesEvidence,
  YcsbReport,
} from '../../engine/src/model';

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
      READ: {
        operation: 'READ',
        operations: Math.round(ops / 2),
        averageUs: n.readAvg,
        minUs: 50,
        maxUs: n.readP99 * 4,
        percentilesUs: { '95': n.readP95, '99': n.readP99 },
        returnCodes: { OK: Math.round(ops / 2) },
      },
      UPDATE: {
        operation: 'UPDATE',
        operations: Math.round(ops / 2),
        averageUs: n.updateAvg,
        minUs: 60,
        maxUs: n.updateAvg * 8,
        percentilesUs: { '95': n.updateAvg * 2, '99': n.updateAvg * 3 },
        returnCodes: { OK: Math.round(ops / 2) },
      },
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

function cell(
  stack: string,
  threads: number,
  repetition: number,
  numbers: Numbers | 'failed',
  accelerated?: boolean,
): CellResult {
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
    result.error = {
      code: 'ycsb-exit',
      host: '127.0.0.1',
      step: 'ycsb-run',
      message: 'YCSB exited with status 1.',
      action: 'Read the cell log.',
    };
  } else {
    result.run = report(numbers);
    const hdr = !(stack === 'kernel' && threads === 20);
    for (const operation of Object.values(result.run.operations))
      operation.percentilesSource = hdr ? 'hdr-merged' : 'client-max';
    result.evidence = fixtureEvidence(stack, threads, repetition, numbers, hdr);
  }
  return result;
}

export const serverHost = '127.0.0.1';
export const clientHost = '127.0.0.2';
export const serverCores = 8;
export const clientCores = 4;

/** Server busy %: Onload spends less CPU per operation than the kernel stack. */
export function serverBusy(stack: string, threads: number, repetition: number): number {
  return stack === 'kernel' ? 20 + threads * 2 + repetition : 12 + threads * 1.5 + repetition;
}

/** The busiest client's busy %. */
export function clientBusy(threads: number, repetition: number): number {
  return 10 + threads * 3 + repetition;
}

/** The HDR percentile distribution the fixture's merged histograms give: a latency tail that grows with the nines. */
export function spectrumOf(averageUs: number): { percentile: number; valueUs: number }[] {
  const percentiles = [0, 50, 75, 87.5, 90, 93.75, 96.875, 99, 99.9, 99.99, 100];
  return percentiles.map((percentile) => {
    const nines = percentile >= 100 ? 5 : -Math.log10(1 - percentile / 100);
    return { percentile, valueUs: Math.round(averageUs * (0.5 + nines * 0.6)) };
  });
}

function fixtureEvidence(
  stack: string,
  threads: number,
  repetition: number,
  n: Numbers,
  hdr: boolean,
): { cpu: CpuEvidence; timeseries: TimeseriesEvidence } {
  const busy = serverBusy(stack, threads, repetition);
  const client = clientBusy(threads, repetition);
  const samples = (level: number) =>
    Array.from({ length: 12 }, (_, index) => ({ tSec: index * 5, busyPct: level + (index % 3) - 1 }));
  const busyCores = (busy * serverCores) / 100;
  const cpu: CpuEvidence = {
    sampler: { intervalMs: 1000, selfCostPctOfCore: { [serverHost]: 0.12, [clientHost]: 0.1 } },
    hosts: {
      [serverHost]: {
        role: 'server',
        cores: serverCores,
        busyPct: busy,
        userPct: busy * 0.4,
        systemPct: busy * 0.4,
        softirqPct: busy * 0.2,
        idlePct: 100 - busy,
        maxCoreBusyPct: Math.min(100, busy * 2),
        process: { name: 'memcached', pid: 4242, pctOfCore: busyCores * 70, cpuSec: busyCores * 0.7 * 60 },
        contextSwitchesPerSec: 1000 * threads,
        interruptsPerSec: 500 * threads,
        nicInterruptsPerSec: { sfc0: 400 * threads },
        series: samples(busy).map((sample) => ({ ...sample, processPctOfCore: busyCores * 70 })),
      },
      [clientHost]: {
        role: 'client',
        cores: clientCores,
        busyPct: client,
        userPct: client * 0.7,
        systemPct: client * 0.2,
        softirqPct: client * 0.1,
        idlePct: 100 - client,
        maxCoreBusyPct: Math.min(100, client * 1.5),
        process: { name: 'java', pid: 777, pctOfCore: client * 3, cpuSec: client * 0.03 * 60 },
        contextSwitchesPerSec: 800 * threads,
        interruptsPerSec: 300 * threads,
        series: samples(client),
      },
    },
    serverCpuUsPerOp: (busyCores * 1e6) / n.throughput,
    memcachedCpuUsPerOp: (busyCores * 0.7 * 1e6) / n.throughput,
    opsPerBusyServerCore: n.throughput / busyCores,
  };
  // Status lines every 10 s: a ramp over the first interval, then steady.
  const status = Array.from({ length: 6 }, (_, index) => {
    const tSec = (index + 1) * 10;
    const opsPerSec = index === 0 ? n.throughput * 0.8 : n.throughput;
    return {
      tSec,
      operations: Math.round(n.throughput * tSec),
      opsPerSec,
      latencyUs: { READ: n.readAvg * (index === 0 ? 1.2 : 1), UPDATE: n.updateAvg },
    };
  });
  const timeseries: TimeseriesEvidence = {
    status: { [clientHost]: status },
    throughputAfterWarmupOpsPerSec: n.throughput,
  };
  if (hdr) {
    const operation = (averageUs: number, count: number) => {
      const spectrum = spectrumOf(averageUs);
      const at = (percentile: number) => spectrum.find((point) => point.percentile === percentile)?.valueUs ?? 0;
      return {
        count,
        meanUs: averageUs,
        maxUs: at(100),
        percentilesUs: { '50': at(50), '90': at(90), '99': at(99), '99.9': at(99.9), '99.99': at(99.99) },
        spectrum,
      };
    };
    const ops = Math.round((n.throughput * 60) / 2);
    timeseries.hdr = {
      files: [`hdr/${stack}-t${threads}-r${repetition}-${clientHost}.hdr`],
      afterWarmup: false,
      operations: { READ: operation(n.readAvg, ops), UPDATE: operation(n.updateAvg, ops) },
    };
  }
  return { cpu, timeseries };
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
      for (const repetition of [1, 2])
        cells.push({ id: idFor(stack, threads, repetition), key: keyFor(stack, threads, repetition) });
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
          interfaces: {
            '127.0.0.1': {
              device: 'sfc0',
              driver: 'sfc',
              firmware: '8.2.1',
              numaNode: 1,
              irqs: [
                { irq: 90, cpus: '8' },
                { irq: 91, cpus: '9' },
              ],
            },
          },
          cpu: {
            model: 'AMD EPYC 7313',
            sockets: 1,
            cores: 16,
            threads: 32,
            numaNodes: 2,
            governors: { performance: 32 },
          },
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
    results:
      fixtureResults()
        .map((result) => JSON.stringify(result))
        .join('\n') + '\n',
  };
}

/**
 * A cell's cluster of two nodes (issue 23): formed by a rebalance after waiting for a node still leaving; the second
 * node's items not read.
 */
export const twoNodes: ClusterEvidence = {
  size: 2,
  members: [
    { host: 'cb1', hostname: '10.0.0.1:8091', services: ['kv'] },
    { host: 'cb2', hostname: '10.0.0.2:8091', services: ['kv', 'index'] },
  ],
  replicas: { requested: 2, effective: 1 },
  added: ['ns_1@10.0.0.2'],
  ejected: [],
  rebalance: { outcome: 'balanced', rebalanceId: 'r-77', ms: 4200, polls: 4, mismatchRetried: false },
  waitedForLeave: [{ hostname: '10.0.0.2:8091', ms: 2100, attempts: 3 }],
  balanced: true,
  nodes: {
    '10.0.0.1:8091': { services: ['kv'], activeVBuckets: 512, replicaVBuckets: 512, items: 5012, replicaItems: 4988 },
    '10.0.0.2:8091': { services: ['kv', 'index'], activeVBuckets: 512, replicaVBuckets: 512 },
  },
};

/** The result with that cluster (or another) in its evidence. */
export function withCluster(result: CellResult, cluster: ClusterEvidence = twoNodes): CellResult {
  return { ...result, evidence: { ...(result.evidence ?? {}), cluster } };
}
