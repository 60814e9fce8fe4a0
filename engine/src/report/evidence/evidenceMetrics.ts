// Metrics read from a cell's evidence (contract, model.ts CpuEvidence) rather than from
// YCSB's report: what the server and the clients spent in CPU, and the CPU cost of one operation.
// The report tables, the CSV, the JSON and the panel treat them like any YCSB metric (medians,
// repetitions, the Onload-vs-kernel difference with its interval). A cell without CPU evidence
// (an older record, a host the sampler could not read) simply has no value. Pure.
import type { CellResult, HostCpu } from '../../model';

export interface EvidenceMetric {
  id: string;
  title: string;
  unit: string;
  higherIsBetter: boolean;
  read(result: CellResult): number | undefined;
}

function hostsOf(result: CellResult, role: HostCpu['role']): HostCpu[] {
  return Object.values(result.evidence?.cpu?.hosts ?? {}).filter(
    (host) => host?.role === role && Number.isFinite(host.busyPct),
  );
}

function mean(values: number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/** In the order the report and the panel list them. */
export const evidenceMetrics: readonly EvidenceMetric[] = [
  {
    // Mean over the server hosts (one in the cookbook's lab): % of all the host's cores.
    id: 'server-cpu',
    title: 'Server CPU busy',
    unit: '%',
    higherIsBetter: false,
    read: (result) => mean(hostsOf(result, 'server').map((host) => host.busyPct)),
  },
  {
    // The busiest client: the one that would make the cell client-bound.
    id: 'client-cpu',
    title: 'Busiest client CPU busy',
    unit: '%',
    higherIsBetter: false,
    read: (result) => {
      const hosts = hostsOf(result, 'client');
      return hosts.length === 0 ? undefined : Math.max(...hosts.map((host) => host.busyPct));
    },
  },
  {
    // netperf's service demand: server CPU time per operation.
    id: 'server-cpu-per-op',
    title: 'Server CPU per operation',
    unit: 'µs/op',
    higherIsBetter: false,
    read: (result) => finite(result.evidence?.cpu?.serverCpuUsPerOp),
  },
  {
    id: 'memcached-cpu-per-op',
    title: 'memcached CPU per operation',
    unit: 'µs/op',
    higherIsBetter: false,
    read: (result) => finite(result.evidence?.cpu?.memcachedCpuUsPerOp),
  },
  {
    id: 'ops-per-busy-core',
    title: 'Operations per busy server core',
    unit: 'ops/s/core',
    higherIsBetter: true,
    read: (result) => finite(result.evidence?.cpu?.opsPerBusyServerCore),
  },
];

export function evidenceMetric(id: string): EvidenceMetric | undefined {
  const name = id.trim().toLowerCase();
  return evidenceMetrics.find((metric) => metric.id === name);
}

/** The evidence metrics at least one cell has a value for, in list order. */
export function measuredEvidenceMetrics(results: readonly CellResult[]): string[] {
  return evidenceMetrics
    .filter((metric) => results.some((result) => result.status === 'ok' && metric.read(result) !== undefined))
    .map((metric) => metric.id);
}
