// The bucket side of one cell, in order: re-create the bucket and wait for it (bucket.ts,
// bucketLifecycle.ts), create the bucket-named YCSB user (bucketUser.ts), the primary index when
// the workload scans (primaryIndex.ts); after the load, poll the item count and let the write
// queue drain (REAL-LAB C6). Everything seen goes to the cell's evidence.bucket.
import { recreateBucket } from './bucket';
import { readItemCount, waitItemCount, waitWriteQueue } from './bucketLifecycle';
import { bucketUserRoles, ensureBucketUser, newBucketPassword } from './bucketUser';
import type { PlanBucket, ResolvedServer } from './planSchema';
import { ensurePrimaryIndex } from './primaryIndex';
import type { BucketLogin } from './ycsbBinding';

/** Unit tests replace the node: no REST, a fixed item count. */
export interface BucketSeam {
  recreate(): Promise<void>;
  itemCount(): Promise<number>;
}

export interface CellBucketContext {
  server: ResolvedServer;
  password: string;
  bucket: Required<PlanBucket>;
  readySec: number;
  signal?: AbortSignal;
  seam?: BucketSeam;
}

/** Re-creates the bucket, its YCSB user and (for scans) its primary index; returns YCSB's login. */
export async function prepareCellBucket(context: CellBucketContext, scans: boolean, evidence: Record<string, unknown>): Promise<BucketLogin> {
  if (context.seam) {
    await context.seam.recreate();
    return { username: context.bucket.name, password: newBucketPassword() };
  }
  const target = { server: context.server, password: context.password, ...(context.signal ? { signal: context.signal } : {}) };
  const lifecycle = await recreateBucket(target, context.bucket, context.readySec);
  Object.assign(evidence, lifecycle);
  const login = await ensureBucketUser(target, context.bucket.name);
  evidence.ycsbUser = { name: login.username, roles: bucketUserRoles(context.bucket.name), password: 'generated for this cell, given to YCSB only' };
  if (scans) evidence.primaryIndex = await ensurePrimaryIndex(target, context.bucket.name, Date.now() + context.readySec * 1000);
  return login;
}

/** After the load: the item count, polled until it matches (or the deadline), then the write queue. */
export async function settleAfterLoad(context: CellBucketContext, expected: number | undefined, evidence: Record<string, unknown>): Promise<number> {
  if (context.seam) return context.seam.itemCount();
  const target = { server: context.server, password: context.password, ...(context.signal ? { signal: context.signal } : {}) };
  const deadline = Date.now() + context.readySec * 1000;
  const first = await readItemCount(target, context.bucket.name);
  const { count, facts } = expected === undefined || first === expected ? { count: first, facts: { polls: 1, ms: 0 } } : await waitItemCount(target, context.bucket.name, expected, deadline);
  evidence.itemCount = { first, final: count, ...(expected !== undefined ? { expected } : {}), ...facts };
  if (expected !== undefined && count !== expected) return count;
  evidence.writeQueue = await waitWriteQueue(target, context.bucket.name, deadline);
  return count;
}
