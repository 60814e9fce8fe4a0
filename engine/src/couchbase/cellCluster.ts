// A cell's cluster, when the plan sweeps cluster sizes: the sweep forms the cluster of a cell's
// size before its bucket and reads, after the load, how the bucket is spread over its nodes.
// Forming: drop the bucket over REST and wait until it answers 404 (REAL-LAB C4; sizes are formed
// with no bucket, K10), then resize (clusterResizeSteps.ts: addNode, rebalance, tasks, balanced and
// healthy). The spread, from the bucket's own answer (K13): active and replica vBuckets per node
// from `vBucketServerMap`, items per node from `nodes[].interestingStats`. Both are returned for
// the cell's evidence.cluster; `describeCellCluster` words the same steps for the dry run.
import { EngineFailure } from '../errors';
import type { ClusterEvidence, NodeSpread } from '../model';
import { clusterMembers, effectiveReplicas } from '../plan/clusterSizes';
import type { ResolvedPlan, ResolvedServer } from '../plan/planSchema';
import { canonicalAddress } from '../remote/ipAddress';
import { waitBucketGone } from './bucketLifecycle';
import { wantedMembers } from './clusterResize';
import { monotonicClock, resizeCluster, type ResizeClock } from './clusterResizeSteps';
import { quote, restCall, type RestTarget } from './couchbaseRest';

export interface CellClusterOptions {
  clock?: ResizeClock;
  pollMs?: number;
  settleMs?: number;
}

/** Drops the bucket (waiting for 404), then makes the cluster exactly the first `size` servers. */
export async function formCellCluster(
  target: RestTarget,
  plan: ResolvedPlan,
  size: number,
  readySec: number,
  options: CellClusterOptions = {},
): Promise<ClusterEvidence> {
  const members = clusterMembers(plan, size);
  const name = plan.bucket.name;
  const path = `/pools/default/buckets/${encodeURIComponent(name)}`;
  const dropped = await restCall(target, 'DELETE', path, 'drop-bucket', {
    timeoutMs: Math.max(10_000, readySec * 1000),
  });
  let bucketDropped: ClusterEvidence['bucketDropped'];
  // 200: dropped; 404: none; 500 "not yet complete": the deletion goes on in the background (C4)
  if (dropped.status === 200 || (dropped.status === 500 && /not yet complete/i.test(dropped.text))) {
    bucketDropped = await waitBucketGone(target, name, performance.now() + readySec * 1000);
  } else if (dropped.status !== 404) {
    throw new EngineFailure({
      code: 'bucket-drop',
      host: target.server.host,
      step: 'drop-bucket',
      message: `Couchbase refused to drop the bucket "${name}" before the resize (DELETE ${path}: HTTP ${dropped.status}: ${quote(dropped.text)}).`,
      action: 'Look at the Couchbase logs on the first server; a cluster is resized with no bucket.',
    });
  }
  const wanted = wantedMembers(members);
  const facts = await resizeCluster(target, wanted, options.clock ?? monotonicClock, {
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
  });
  return {
    size,
    members: members.map((server, index) => ({
      host: server.host,
      hostname: wanted[index].hostname,
      services: [...server.services],
    })),
    replicas: { requested: plan.bucket.replicas, effective: effectiveReplicas(plan.bucket.replicas, size) },
    ...(bucketDropped ? { bucketDropped } : {}),
    added: facts.added,
    ejected: facts.ejected,
    rebalance: facts.rebalance ? { outcome: 'balanced', ...facts.rebalance } : { outcome: 'not needed' },
    ...(facts.earlierRebalance ? { earlierRebalance: facts.earlierRebalance } : {}),
    ...(facts.waitedForLeave ? { waitedForLeave: facts.waitedForLeave } : {}),
    balanced: true,
  };
}

/** The host part of `host:port` / `[v6]:port`, canonical. */
function hostOf(endpoint: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(endpoint);
  const host = bracketed
    ? bracketed[1]
    : (endpoint.match(/:/g) ?? []).length === 1
      ? endpoint.slice(0, endpoint.lastIndexOf(':'))
      : endpoint;
  return canonicalAddress(host).toLowerCase();
}

/**
 * K13: how the bucket's answer spreads it over the nodes, keyed by each node's `hostname`. A
 * `serverList` entry (`host:11210`) is matched to a node by host and KV port (`ports.direct`).
 * Pure; a problem in words when the answer has no vBucket map.
 */
export function bucketSpread(json: unknown): Record<string, NodeSpread> | { problem: string } {
  const bucket = json as
    { vBucketServerMap?: { serverList?: unknown; vBucketMap?: unknown }; nodes?: unknown } | undefined;
  const serverList = bucket?.vBucketServerMap?.serverList;
  const map = bucket?.vBucketServerMap?.vBucketMap;
  if (!Array.isArray(serverList) || !Array.isArray(map))
    return { problem: 'the bucket has no vBucketServerMap (serverList, vBucketMap)' };
  const nodes = Array.isArray(bucket?.nodes) ? (bucket.nodes as Record<string, unknown>[]) : [];
  const spread: Record<string, NodeSpread> = {};
  const byServer: (NodeSpread | undefined)[] = serverList.map((entry) => {
    const text = String(entry);
    const kvPort = text.slice(text.lastIndexOf(':') + 1);
    const node = nodes.find(
      (candidate) =>
        typeof candidate.hostname === 'string' &&
        hostOf(candidate.hostname) === hostOf(text) &&
        String((candidate.ports as { direct?: unknown } | undefined)?.direct ?? kvPort) === kvPort,
    );
    const name = typeof node?.hostname === 'string' ? node.hostname : text;
    const stats = (node?.interestingStats ?? {}) as { curr_items?: unknown; vb_replica_curr_items?: unknown };
    spread[name] = {
      services: Array.isArray(node?.services) ? (node.services as unknown[]).map(String) : [],
      activeVBuckets: 0,
      replicaVBuckets: 0,
      ...(typeof stats.curr_items === 'number' ? { items: stats.curr_items } : {}),
      ...(typeof stats.vb_replica_curr_items === 'number' ? { replicaItems: stats.vb_replica_curr_items } : {}),
    };
    return spread[name];
  });
  for (const chain of map) {
    if (!Array.isArray(chain)) continue;
    chain.forEach((index, position) => {
      const node = typeof index === 'number' && index >= 0 ? byServer[index] : undefined;
      if (!node) return;
      if (position === 0) node.activeVBuckets += 1;
      else node.replicaVBuckets += 1;
    });
  }
  return spread;
}

/** After the load: the bucket's spread over the nodes (K13), or a cell failure naming what was missing. */
export async function readBucketSpread(target: RestTarget, bucketName: string): Promise<Record<string, NodeSpread>> {
  const path = `/pools/default/buckets/${encodeURIComponent(bucketName)}`;
  const answer = await restCall(target, 'GET', path, 'cluster-spread');
  const spread =
    answer.status === 200 ? bucketSpread(answer.json) : { problem: `HTTP ${answer.status}: ${quote(answer.text)}` };
  if ('problem' in spread)
    throw new EngineFailure({
      code: 'rest',
      host: target.server.host,
      step: 'cluster-spread',
      message: `GET ${path} did not say how the bucket is spread over the nodes: ${spread.problem}.`,
      action: 'Check that the bucket exists and the first server runs.',
    });
  return spread;
}

/** The steps of `formCellCluster` and `readBucketSpread`, in words, for `--dry-run`. */
export function describeCellCluster(
  plan: ResolvedPlan,
  size: number,
  password: string,
): { form: string[]; spread: string[] } {
  const first: ResolvedServer = plan.servers[0];
  const rest = `http://${first.address.includes(':') ? `[${first.address}]` : first.address}:${first.restPort}`;
  const admin = `as ${first.adminUser} (password ${password})`;
  const path = `/pools/default/buckets/${encodeURIComponent(plan.bucket.name)}`;
  const wanted = wantedMembers(clusterMembers(plan, size));
  return {
    form: [
      `REST ${admin}: DELETE ${rest}${path}, then GET it until it answers 404 (a cluster is resized with no bucket)`,
      `REST: GET ${rest}/pools/default/buckets (must be empty) and ${rest}/pools/default/tasks (a rebalance still running is followed to its end)`,
      `REST: GET ${rest}/pools/default (nodes[].otpNode, hostname, services, clusterMembership); the cluster of ${size} node${size === 1 ? '' : 's'} is ${wanted.map((member) => `${member.hostname} (${member.services.join(',')})`).join(', ')}`,
      `REST: POST ${rest}/controller/addNode hostname=<member> user=${first.adminUser} password=${password} services=<its services>, for each member not in the cluster`,
      `REST: POST ${rest}/controller/rebalance knownNodes=<every otpNode> ejectedNodes=<those not of this size> (on {"mismatch":1}: read /pools/default again and retry once)`,
      `REST: GET ${rest}/pools/default/tasks every second until the rebalance ends (hung after 600 s without progress; a failure keeps GET ${rest}/logs/rebalanceReport in the cell's logs)`,
      `REST: GET ${rest}/pools/default until balanced is true and every member is active and healthy (up to 20 s)`,
      `the bucket is created with ${effectiveReplicas(plan.bucket.replicas, size)} replica(s): min(bucket.replicas ${plan.bucket.replicas}, ${size} - 1)`,
    ],
    spread: [
      `REST ${admin}: GET ${rest}${path} (vBucketServerMap: active and replica vBuckets per node; nodes[].interestingStats: items per node)`,
    ],
  };
}
