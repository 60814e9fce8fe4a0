// One cell's story, in the order its steps run: put Couchbase on the cell's stack, form its
// cluster, observe what the servers really run while the bucket is re-created, load and let the
// bucket settle, read how the bucket spread over the cluster, then run YCSB with the run phase's
// evidence around it. Each step returns its part of the cell (cellRecord.ts assembles the record
// from them); a step that fails part-way returns what it saw with its failure, which is kept before
// the failure ends the cell. The steps themselves are bound to the run in cellSteps.ts.
import type { CellBucket, SettledLoad } from '../couchbase/cellBucket';
import type { RunPhasePart } from '../evidence/cellEvidence';
import type { ServerObservation } from '../evidence/serverEvidence';
import type { CellKey, CellMark, ClusterEvidence, NodeSpread } from '../model';
import type { LoadPart } from '../ycsb/cellPhases';
import type { BucketLogin } from '../ycsb/ycsbBinding';

/** evidence.ycsb without the keys: the binding, each client's launcher, the clients without HDR logs. */
export type YcsbSetup = Record<string, unknown>;

/** What each step of a cell returned, in the order they ran; an attempt that failed has those that ran. */
export interface CellParts {
  /** Once the server is on the cell's stack: how YCSB runs in this cell. */
  ycsb?: YcsbSetup;
  cluster?: ClusterEvidence;
  servers?: ServerObservation;
  bucket?: CellBucket;
  /** The kernel arm of the same point against this cell's servers. */
  arms?: CellMark[];
  load?: LoadPart;
  settled?: SettledLoad;
  /** The bucket's spread over the cluster's nodes, after the load. */
  spread?: Record<string, NodeSpread>;
  run?: RunPhasePart;
}

/** The steps of one attempt of a cell, bound to its run. */
export interface CellSteps {
  key: CellKey;
  /** Tells the run's listeners which step the cell is in. */
  phase(name: string): void;
  /** Couchbase must be (re)started on the cell's stack first. */
  restartNeeded: boolean;
  putServersOnStack(): Promise<void>;
  ycsbSetup(): YcsbSetup;
  formCluster(size: number): Promise<ClusterEvidence>;
  observeServers(): Promise<ServerObservation>;
  compareArms(servers: ServerObservation): CellMark[];
  prepareBucket(): Promise<CellBucket>;
  load(login: BucketLogin | undefined): Promise<LoadPart>;
  settle(expectedItems: number | undefined): Promise<SettledLoad>;
  spread(): Promise<Record<string, NodeSpread>>;
  runWithEvidence(login: BucketLogin | undefined, servers: ServerObservation): Promise<RunPhasePart>;
}

/** A cell's parts, and the failure that ended it early. */
export interface CellOutcome {
  parts: CellParts;
  failure?: unknown;
}

/** Runs one attempt of a cell, step by step. */
export async function runCell(steps: CellSteps): Promise<CellOutcome> {
  const parts: CellParts = {};
  try {
    if (steps.restartNeeded) {
      steps.phase('restart-server');
      await steps.putServersOnStack();
    }
    parts.ycsb = steps.ycsbSetup();
    if (steps.key.clusterSize !== undefined) {
      steps.phase('resize-cluster');
      parts.cluster = await steps.formCluster(steps.key.clusterSize);
    }
    // The servers are checked over SSH while the bucket is re-created over REST and the SDK; neither
    // waits on the other (the check reads memcached's process and its Onload stack's listener, which
    // a bucket does not change), and the cell goes on once both are done.
    steps.phase('check-acceleration');
    const observing = steps.observeServers();
    let serversChecked = false;
    void observing.then(() => (serversChecked = true));
    steps.phase('recreate-bucket');
    parts.bucket = await steps.prepareBucket();
    // still checking once the bucket is ready: the wait is the check's, and the panel says so
    if (!serversChecked) steps.phase('check-acceleration');
    parts.servers = await observing;
    stopOnFailure(parts.servers);
    parts.arms = steps.compareArms(parts.servers);
    stopOnFailure(parts.bucket);
    steps.phase('ycsb-load');
    parts.load = await steps.load(parts.bucket.login);
    stopOnFailure(parts.load);
    // REAL-LAB C6, C10, C11: the count is a stats sample: poll it, let the write queues drain, and the index catch up
    steps.phase('item-count');
    parts.settled = await steps.settle(parts.load.record?.expectedItems);
    stopOnFailure(parts.settled);
    if (parts.cluster) {
      // K13: active and replica vBuckets and items per node, once the load is in
      steps.phase('cluster-spread');
      parts.spread = await steps.spread();
    }
    steps.phase('ycsb-run');
    parts.run = await steps.runWithEvidence(parts.bucket.login, parts.servers);
    stopOnFailure(parts.run);
    return { parts };
  } catch (failure) {
    return { parts, failure };
  }
}

/** Ends the cell with a step's failure, once its part is kept. */
function stopOnFailure(part: { failure?: unknown }): void {
  if ('failure' in part) throw part.failure;
}
