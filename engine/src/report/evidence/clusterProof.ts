// How a cell's cluster was formed and how its bucket spread over the nodes, in words a reader can
// check, per node: the size and members, the rebalance
// that formed it (from /pools/default/tasks) or that none was needed, a node waited for while it
// left the cluster that ejected it, the replicas asked and given, and per node its vBuckets (the
// bucket's vBucketServerMap) and items (interestingStats). The text report, the HTML report and
// the panel's time-series view show these lines; pure, and absent for a cell of a one-server plan.
import type { CellResult, ClusterEvidence } from '../../model';

export interface ClusterNodeProof {
  /** How ns_server names the node (`address:restPort`), with its plan host when known. */
  node: string;
  services: string;
  vBuckets: string;
  items: string;
}

export interface ClusterProof {
  /** The size, its members and how it was formed. */
  formed: string;
  /** The bucket's replicas as asked and as this size gives. */
  replicas: string;
  /** Per node, in the order the bucket's map lists them; empty when the spread was not read. */
  nodes: ClusterNodeProof[];
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function formedText(cluster: ClusterEvidence): string {
  const members = cluster.members.map((member) => member.host).join(', ');
  const size = `${cluster.size} node${cluster.size === 1 ? '' : 's'} (${members})`;
  const parts: string[] = [];
  if (cluster.earlierRebalance)
    parts.push(
      `a rebalance left running by an earlier run followed to its end (${cluster.earlierRebalance.outcome}, ${seconds(cluster.earlierRebalance.ms)})`,
    );
  for (const wait of cluster.waitedForLeave ?? [])
    parts.push(
      `${wait.hostname} still leaving the cluster that ejected it: added after ${seconds(wait.ms)} (${wait.attempts} addNode requests)`,
    );
  const rebalance = cluster.rebalance;
  if (rebalance.outcome === 'not needed') {
    parts.push('already formed: no rebalance needed');
  } else {
    const changed = [
      cluster.added.length > 0 ? `added ${cluster.added.join(', ')}` : '',
      cluster.ejected.length > 0 ? `ejected ${cluster.ejected.join(', ')}` : '',
    ]
      .filter((text) => text !== '')
      .join(', ');
    parts.push(
      `rebalanced in ${seconds(rebalance.ms)}${rebalance.rebalanceId ? ` (id ${rebalance.rebalanceId})` : ''}${changed ? `: ${changed}` : ''}${rebalance.mismatchRetried ? '; a stale node list ({"mismatch":1}) re-read once' : ''}`,
    );
  }
  parts.push(cluster.balanced ? '/pools/default balanced' : '/pools/default NOT balanced');
  return `${size}; ${parts.join('; ')}`;
}

/** The cell's cluster in words, or undefined when the cell recorded none. */
export function clusterProof(result: Pick<CellResult, 'evidence'>): ClusterProof | undefined {
  const cluster = result.evidence?.cluster;
  if (!cluster) return undefined;
  const hostOf = new Map(cluster.members.map((member) => [member.hostname, member.host]));
  const nodes = Object.entries(cluster.nodes ?? {}).map(([hostname, spread]) => ({
    node: hostOf.has(hostname) ? `${hostOf.get(hostname)} (${hostname})` : hostname,
    services: spread.services.join(', '),
    vBuckets: `${spread.activeVBuckets} active, ${spread.replicaVBuckets} replica (vBucketServerMap)`,
    items:
      spread.items === undefined
        ? 'not read'
        : `${spread.items} active${spread.replicaItems === undefined ? '' : `, ${spread.replicaItems} replica`} (interestingStats)`,
  }));
  const { requested, effective } = cluster.replicas;
  const replicas =
    requested === effective
      ? `${effective} replica${effective === 1 ? '' : 's'}, as asked`
      : `${effective} replica${effective === 1 ? '' : 's'} (${requested} asked; ${cluster.size} node${cluster.size === 1 ? '' : 's'} hold at most ${cluster.size - 1})`;
  return { formed: formedText(cluster), replicas, nodes };
}
