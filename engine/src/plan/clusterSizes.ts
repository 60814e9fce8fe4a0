// Cluster size as a sweep axis: which servers form a cell's cluster, how many replicas
// its bucket gets, and the plan checks the JSON schema cannot express. A size N is the first N
// servers, as perfrunner forms a cluster from `servers[:initial_nodes]` (lab README K10); the first
// server is in every size and takes the REST calls. Replicas are min(requested, N − 1): a node
// holds no replica of its own vBuckets, and both numbers are recorded. Durability that needs more
// copies than a size has is refused before anything runs (K12: ns_server refuses durability on one
// data node with replicas). Pure.
import type { Plan, ResolvedPlan, ResolvedServer, SweepValues } from './planSchema';
import { expandValues } from './cells';

export interface ClusterSizeProblem {
  segments: (string | number)[];
  message: string;
}

/** The replicas a bucket on N nodes really gets: at most N − 1. */
export function effectiveReplicas(requested: number, size: number): number {
  return Math.max(0, Math.min(requested, size - 1));
}

/** The servers of a cluster of `size` nodes: the first `size` of the plan's. */
export function clusterMembers(plan: ResolvedPlan, size: number): ResolvedServer[] {
  if (!Number.isInteger(size) || size < 1 || size > plan.servers.length) {
    throw new Error(`a cluster of ${size} nodes needs ${size} servers; the plan names ${plan.servers.length}`);
  }
  return plan.servers.slice(0, size);
}

/** couchbase2's durability keys (YCSB Y1): replicateTo counts replicas, persistTo the active copy and replicas. */
const durabilityKeys = ['couchbase.replicateTo', 'couchbase.persistTo'] as const;

/** Every problem of a plan that sweeps cluster sizes; [] for a plan without `clusterSizes`. */
export function clusterSizeProblems(plan: Plan): ClusterSizeProblem[] {
  const sizes = plan.clusterSizes;
  if (sizes === undefined) return [];
  const members = plan.servers.slice(0, Math.min(Math.max(...sizes), plan.servers.length));
  return [
    ...sizesBeyondServers(sizes, plan.servers.length),
    ...sharedHosts(members),
    ...firstServerProblems(plan),
    ...memberAddressProblems(plan, sizes, members),
    ...durabilityProblems(plan, sizes),
  ];
}

function sizesBeyondServers(sizes: number[], servers: number): ClusterSizeProblem[] {
  return sizes.flatMap((size, index) =>
    size > servers
      ? [
          {
            segments: ['clusterSizes', index],
            message: `a cluster of ${size} nodes needs ${size} servers, but "servers" names ${servers}`,
          },
        ]
      : [],
  );
}

/** Each node of a cluster is its own host. */
function sharedHosts(members: Plan['servers']): ClusterSizeProblem[] {
  const problems: ClusterSizeProblem[] = [];
  const hosts = new Map<string, number>();
  members.forEach((server, index) => {
    const first = hosts.get(server.host);
    if (first !== undefined)
      problems.push({
        segments: ['servers', index, 'host'],
        message: `the server host "${server.host}" is also servers[${first}]: each node of a cluster is its own host`,
      });
    else hosts.set(server.host, index);
  });
  return problems;
}

/** The first server is in every size and holds the bucket; its addresses are the plan's own interfaces. */
function firstServerProblems(plan: Plan): ClusterSizeProblem[] {
  const problems: ClusterSizeProblem[] = [];
  const first = plan.servers[0];
  if (first && !(first.services ?? ['kv']).includes('kv')) {
    problems.push({
      segments: ['servers', 0, 'services'],
      message: 'the first server is in every cluster size and holds the bucket: its services must include "kv"',
    });
  }
  if (first?.interfaces) {
    for (const [label, address] of Object.entries(first.interfaces)) {
      if (plan.interfaces[label] !== address)
        problems.push({
          segments: ['servers', 0, 'interfaces', label],
          message: `the first server's addresses are the top-level "interfaces" (${label}: ${plan.interfaces[label] ?? 'none'}); leave them out here`,
        });
    }
  }
  return problems;
}

/** Every other node of a size needs its own address on every interface the cells use. */
function memberAddressProblems(plan: Plan, sizes: number[], members: Plan['servers']): ClusterSizeProblem[] {
  const problems: ClusterSizeProblem[] = [];
  const labels = Object.keys(plan.interfaces);
  const owner = new Map<string, string>(
    labels.map((label) => [`${label}\u0000${plan.interfaces[label]}`, 'servers[0]']),
  );
  members.forEach((server, index) => {
    if (index === 0) return;
    const own = server.interfaces ?? {};
    for (const label of Object.keys(own)) {
      if (!labels.includes(label))
        problems.push({
          segments: ['servers', index, 'interfaces', label],
          message: `"${label}" is not one of the plan's interfaces (${labels.join(', ')})`,
        });
    }
    const missing = labels.filter((label) => own[label] === undefined);
    if (missing.length > 0) {
      problems.push({
        segments: ['servers', index, ...(server.interfaces ? ['interfaces'] : [])],
        message: `this node joins clusters of ${sizes.filter((size) => size > index).join(', ')} nodes and needs its address on every interface the cells use: missing ${missing.map((label) => `"${label}"`).join(', ')}`,
      });
    }
    for (const label of labels) {
      const address = own[label];
      if (address === undefined) continue;
      const key = `${label}\u0000${address}`;
      const taken = owner.get(key);
      if (taken !== undefined)
        problems.push({
          segments: ['servers', index, 'interfaces', label],
          message: `${address} is already ${taken}'s address on "${label}": each node has its own`,
        });
      else owner.set(key, `servers[${index}]`);
    }
  });
  return problems;
}

/** Durability asked of YCSB (couchbase2) that some size cannot give. */
function durabilityProblems(plan: Plan, sizes: number[]): ClusterSizeProblem[] {
  const problems: ClusterSizeProblem[] = [];
  const requestedReplicas = plan.bucket.replicas ?? 0;
  for (const key of durabilityKeys) {
    const places: { segments: (string | number)[]; values: (string | number | boolean)[] }[] = [];
    const fixed = plan.workload.properties?.[key];
    if (fixed !== undefined) places.push({ segments: ['workload', 'properties', key], values: [fixed] });
    const swept: SweepValues | undefined = plan.axes?.[key];
    if (swept !== undefined) places.push({ segments: ['axes', key], values: expandValues(swept) });
    for (const place of places) {
      const asked = Math.max(
        ...place.values.map((value) => Number(value)).filter((value) => Number.isFinite(value)),
        0,
      );
      const short = sizes.filter((size) => {
        const replicas = effectiveReplicas(requestedReplicas, size);
        return key === 'couchbase.replicateTo' ? asked > replicas : asked > replicas + 1;
      });
      if (short.length === 0) continue;
      const size = Math.min(...short);
      const replicas = effectiveReplicas(requestedReplicas, size);
      problems.push({
        segments: place.segments,
        message: `${key}=${asked} needs ${key === 'couchbase.replicateTo' ? asked : asked - 1} replica(s), but a cluster of ${size} node${size === 1 ? '' : 's'} (clusterSizes) gets ${replicas} (min(bucket.replicas ${requestedReplicas}, ${size} - 1)); every durable write would fail there${size === 1 ? ' (on one data node ns_server itself refuses durability: "You do not have enough data servers to support this durability level")' : ''}`,
      });
    }
  }
  return problems;
}

/**
 * The plan as one cell of a sized sweep sees it: its servers are the members of its
 * cluster (every per-server step: acceleration proofs, samplers, traffic watch, applies to each
 * of them and to no other), its bucket gets min(requested, N − 1) replicas. A key without a size
 * gets the plan unchanged.
 */
export function planForCell(plan: ResolvedPlan, size: number | undefined): ResolvedPlan {
  if (size === undefined) return plan;
  return {
    ...plan,
    servers: clusterMembers(plan, size),
    bucket: { ...plan.bucket, replicas: effectiveReplicas(plan.bucket.replicas, size) },
  };
}

/** A server's own address on the cell's interface (the first server's is the cell's). */
export function serverAddressOn(server: ResolvedServer, label: string, cellAddress: string): string {
  return server.interfaces?.[label] ?? cellAddress; // a server made by hand (tests) may have none
}
