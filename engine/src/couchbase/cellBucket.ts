// The bucket side of one cell, in order: re-create the bucket and wait for it (bucket.ts,
// bucketLifecycle.ts), create the bucket-named YCSB user (bucketUser.ts), the primary index when
// the workload scans (primaryIndex.ts); after the load, poll the item count while the write
// queues drain (REAL-LAB C6, C10; both at once) and, for scans, then the index catch up (C11).
// Each returns what it saw for the cell's evidence.bucket, with the failure that stopped it.
import { EngineFailure } from '../errors';
import { recreateBucket } from './bucket';
import { readItemCount, waitItemCount } from './bucketLifecycle';
import { queuesToWaitFor, waitPersistence } from './persistenceQueues';
import { bucketUserRoles, ensureBucketUser, newBucketPassword } from './bucketUser';
import type { PlanBucket, ResolvedServer } from '../plan/planSchema';
import { ensurePrimaryIndex, waitIndexCaughtUp } from './primaryIndex';
import type { BucketLogin } from '../ycsb/ycsbBinding';

/** Unit tests replace the node: no REST, a fixed item count. */
export interface BucketSeam {
  /** Given the bucket as this cell creates it (its replicas are min(requested, N − 1) in a cluster of N). */
  recreate(bucket: Required<PlanBucket>): Promise<void>;
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

/** The bucket's part of a cell: evidence.bucket as far as the steps got, and YCSB's login once all passed. */
export interface CellBucket {
  /** The lifecycle (drop, create, warm-up), the YCSB user, the primary index. */
  evidence: Record<string, unknown>;
  login?: BucketLogin;
  /** The step that failed: the cell fails with it. */
  failure?: unknown;
}

/** Re-creates the bucket, its YCSB user and (for scans) its primary index. */
export async function prepareCellBucket(context: CellBucketContext, scans: boolean): Promise<CellBucket> {
  const evidence: Record<string, unknown> = {};
  try {
    return { evidence, login: await bucketSteps(context, scans, evidence) };
  } catch (failure) {
    return { evidence, failure };
  }
}

/** The steps in order, each recording what it saw into `evidence` as it ends; returns YCSB's login. */
async function bucketSteps(
  context: CellBucketContext,
  scans: boolean,
  evidence: Record<string, unknown>,
): Promise<BucketLogin> {
  if (context.seam) {
    await context.seam.recreate(context.bucket);
    return { username: context.bucket.name, password: newBucketPassword() };
  }
  const target = {
    server: context.server,
    password: context.password,
    ...(context.signal ? { signal: context.signal } : {}),
  };
  const lifecycle = await recreateBucket(target, context.bucket, context.readySec);
  Object.assign(evidence, lifecycle);
  const login = await ensureBucketUser(target, context.bucket.name);
  evidence.ycsbUser = {
    name: login.username,
    roles: bucketUserRoles(context.bucket.name),
    password: 'generated for this cell, given to YCSB only',
  };
  if (scans)
    evidence.primaryIndex = await ensurePrimaryIndex(
      target,
      context.bucket.name,
      performance.now() + context.readySec * 1000,
    );
  return login;
}

/** After the load: the count the bucket settled at and what the settling saw (evidence.bucket). */
export interface SettledLoad {
  /** Absent when the count could not be read. */
  itemCount?: number;
  /** itemCount (the polls), writeQueue, indexCatchUp, as far as they got. */
  evidence: Record<string, unknown>;
  /** A count short of the expected items (naming both numbers), or the step that failed. */
  failure?: unknown;
}

/**
 * After the load: the item count, polled until it matches (or the deadline), then the write
 * queues, then (for scans) the index. A bucket short of the expected items fails the cell, naming
 * both numbers.
 */
export async function settleAfterLoad(
  context: CellBucketContext,
  expected: number | undefined,
  scans = false,
): Promise<SettledLoad> {
  const evidence: Record<string, unknown> = {};
  let itemCount: number;
  try {
    itemCount = await settledItemCount(context, expected, evidence, scans);
  } catch (failure) {
    return { evidence, failure };
  }
  if (expected === undefined || itemCount === expected) return { itemCount, evidence };
  return {
    itemCount,
    evidence,
    failure: new EngineFailure({
      code: 'item-count',
      host: context.server.host,
      step: 'item-count',
      message: `The bucket holds ${itemCount} items after the load; ${expected} were expected (polled for ${context.readySec} s).`,
      action: 'Read the load log for failed inserts; check the bucket quota and eviction policy.',
    }),
  };
}

async function settledItemCount(
  context: CellBucketContext,
  expected: number | undefined,
  evidence: Record<string, unknown>,
  scans: boolean,
): Promise<number> {
  if (context.seam) return context.seam.itemCount();
  const target = {
    server: context.server,
    password: context.password,
    ...(context.signal ? { signal: context.signal } : {}),
  };
  const deadline = performance.now() + context.readySec * 1000;
  // the write queues are waited on while the count is polled, not after it: both wait for the
  // node's next stats sample, and the load has ended before either's first poll, so the
  // persistence baseline is still a sample the server had once the load was over
  const stopQueues = new AbortController();
  const queueTarget = {
    ...target,
    signal: context.signal ? AbortSignal.any([context.signal, stopQueues.signal]) : stopQueues.signal,
  };
  const queues = waitPersistence(
    queueTarget,
    { name: context.bucket.name, type: context.bucket.type, replicas: context.bucket.replicas },
    deadline,
  ).then(
    (facts) => ({ facts }),
    (error: unknown) => ({ error }),
  );
  let count: number;
  try {
    const first = await readItemCount(target, context.bucket.name);
    const counted =
      expected === undefined || first === expected
        ? { count: first, facts: { polls: 1, ms: 0 } }
        : await waitItemCount(target, context.bucket.name, expected, deadline);
    count = counted.count;
    evidence.itemCount = { first, final: count, ...(expected !== undefined ? { expected } : {}), ...counted.facts };
  } catch (error) {
    stopQueues.abort();
    await queues;
    throw error;
  }
  // a bucket short of items fails on its count (the caller says so); its queues are not judged
  if (expected !== undefined && count !== expected) {
    stopQueues.abort();
    await queues;
    return count;
  }
  const persisted = await queues;
  if ('error' in persisted) throw persisted.error;
  evidence.writeQueue = persisted.facts;
  if (scans) evidence.indexCatchUp = await waitIndexCaughtUp(target, context.bucket.name, deadline);
  return count;
}

/**
 * The REST and SDK steps of `prepareCellBucket` in order, in words, for `--dry-run` (dryRun.ts).
 * Kept beside the code it describes: change one, change the other.
 */
export function describeCellBucket(
  server: ResolvedServer,
  bucket: Required<PlanBucket>,
  scans: boolean,
  password: string,
): string[] {
  const rest = `http://${server.address}:${server.restPort}`;
  const admin = `as ${server.adminUser} (password ${password})`;
  const path = `/pools/default/buckets/${encodeURIComponent(bucket.name)}`;
  return [
    `REST ${admin}: GET ${rest}/pools/default and ${rest}/pools/default/buckets (the data service quota must hold ${bucket.ramQuotaMB} MiB, at least 100)`,
    `SDK ${admin}: connect to couchbase://${server.address}:${server.kvPort}; drop bucket ${bucket.name} if it exists`,
    `REST ${admin}: GET ${rest}${path} until it answers 404 (a drop finishes in the background)`,
    `SDK ${admin}: create bucket ${bucket.name} (${bucket.type}, ${bucket.ramQuotaMB} MiB, ${bucket.replicas} replicas, ${bucket.evictionPolicy}), again while the server answers "still exists"`,
    `SDK: ping every KV endpoint of ${bucket.name}; REST: GET ${rest}${path} until every node is healthy (warm-up)`,
    `REST ${admin}: PUT ${rest}/settings/rbac/users/local/${encodeURIComponent(bucket.name)} roles=${bucketUserRoles(bucket.name)} password=<generated for this cell, given to YCSB only>`,
    ...(scans
      ? [
          `REST ${admin}: GET ${rest}/pools/default/nodeServices (the query port); POST /query/service "CREATE PRIMARY INDEX ON \`${bucket.name}\`"; poll system:indexes until it is online`,
        ]
      : []),
  ];
}

/** The steps of `settleAfterLoad`, in words, for `--dry-run`. */
export function describeSettleAfterLoad(
  server: ResolvedServer,
  bucket: Required<PlanBucket>,
  expected: number | undefined,
  password: string,
  scans = false,
): string[] {
  const rest = `http://${server.address}:${server.restPort}/pools/default/buckets/${encodeURIComponent(bucket.name)}`;
  return [
    `REST as ${server.adminUser} (password ${password}): GET ${rest} (basicStats.itemCount) until it is ${expected ?? 'read'}`,
    `REST: GET ${rest}/stats until a sample newer than the load shows ${queuesToWaitFor(bucket.type, bucket.replicas).join(', ') || 'no queue to wait for'} at 0 (a missing stat is not known yet)`,
    ...(scans
      ? [
          `REST: POST /query/service "SELECT RAW COUNT(*) FROM \`${bucket.name}\`" with scan_consistency=request_plus (the primary index caught up with the load)`,
        ]
      : []),
  ];
}
