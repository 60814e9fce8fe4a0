// What tests and the dry run put in place of the network: fake sessions instead of OpenSSH, an I/O
// layer that fails on demand, the bucket's and the cluster's REST steps, the resize's clock.
import type { BucketSeam } from '../couchbase/cellBucket';
import type { CellClusterOptions } from '../couchbase/cellCluster';
import type { ClusterEvidence, NodeSpread } from '../model';
import type { RemoteSession } from '../remote/ssh';
import type { ResultsIo } from '../results/resultsStore';

export interface SweepSeams {
  sessionFactory?: (host: string) => RemoteSession;
  resultsIo?: ResultsIo;
  /** Replaces the bucket lifecycle (unit tests without a Couchbase node). */
  bucket?: BucketSeam;
  /** Skips the server REST wait (unit tests). */
  skipServerWait?: boolean;
  /** Told each step skipped for want of a network (dry run: the REST waits and proofs, the traffic watch). */
  skipped?: (host: string, step: string) => void;
  /** Replaces the cluster's REST steps (dry run: listed instead of sent). */
  cluster?: { form(size: number): Promise<ClusterEvidence>; spread(): Promise<Record<string, NodeSpread>> };
  /** The resize's clock and poll interval (tests decide time). */
  resize?: CellClusterOptions;
}
