// The bucket lifecycle through the official `couchbase` SDK (loaded lazily, it is a native
// module): drop if present, create, wait until every KV endpoint answers a ping. Item counts and
// the memory quota come from the REST API, which the SDK does not expose.
import { quotaProblem, waitBucketGone, waitBucketWarm, type WaitFacts } from './bucketLifecycle';
import { pollIntervalMs } from '../remote/pollInterval';
import { EngineFailure } from '../errors';
import type { PlanBucket, ResolvedServer } from '../plan/planSchema';
import { hostForUrl, sleep, throwIfCancelled } from '../server/serverControl';
import { untilAborted } from '../remote/ssh';

export interface BucketTarget {
  server: ResolvedServer;
  password: string;
  signal?: AbortSignal;
}

type Couchbase = typeof import('couchbase');

async function loadSdk(): Promise<Couchbase> {
  return import('couchbase');
}

function connectionString(server: ResolvedServer): string {
  return `couchbase://${hostForUrl(server.address)}:${server.kvPort}`;
}

/** Words an SDK error for the user; the SDK's own names are not helpful on their own. */
export function describeSdkError(
  error: unknown,
  server: ResolvedServer,
  step: string,
  bucketName: string,
): EngineFailure {
  const name = (error as Error)?.constructor?.name ?? 'Error';
  const detail = sdkDetail(error);
  const host = server.host;
  const at = `${server.address} (KV ${server.kvPort}, REST ${server.restPort})`;
  switch (name) {
    case 'AuthenticationFailureError':
      return new EngineFailure(
        {
          code: 'bucket-auth',
          host,
          step,
          message: `Couchbase at ${at} refused the credentials of "${server.adminUser}".`,
          action: 'Check adminUser in the plan and the password you entered (CB_PASSWORD for the CLI).',
        },
        { cause: error },
      );
    case 'InternalServerFailureError': {
      // a REST 401/403 surfaces as this error too: only then is it about the credentials; otherwise
      // quote what the server said (e.g. REAL-LAB C4's "still exists") instead of guessing
      const status = (error as { context?: { response_code?: unknown } })?.context?.response_code;
      if (status === 401 || status === 403) {
        return new EngineFailure(
          {
            code: 'bucket-auth',
            host,
            step,
            message: `Couchbase at ${at} refused the management request for "${server.adminUser}" (HTTP ${status}).`,
            action: `Check the password and that "${server.adminUser}" may manage buckets (Cluster Admin).`,
          },
          { cause: error },
        );
      }
      return new EngineFailure(
        {
          code: step === 'create-bucket' ? 'bucket-create' : 'bucket-drop',
          host,
          step,
          message: `Couchbase at ${at} failed the management request${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${detail}.`,
          action:
            'Look at the Couchbase logs on the server (an earlier deletion still running, memory, a rebalance); retry the cell.',
        },
        { cause: error },
      );
    }
    case 'UnambiguousTimeoutError':
    case 'AmbiguousTimeoutError':
    case 'TimeoutError':
      return new EngineFailure(
        {
          code: step === 'bucket-ready' ? 'bucket-ready' : 'bucket-create',
          host,
          step,
          message: `Couchbase at ${at} did not answer in time (${name}).`,
          action:
            'Check that the server runs and that this machine reaches its KV and REST ports (firewall, address in the plan).',
        },
        { cause: error },
      );
    case 'InvalidArgumentError':
      return new EngineFailure(
        {
          code: 'bucket-create',
          host,
          step,
          message: `Couchbase rejected the bucket settings for "${bucketName}": ${detail}.`,
          action:
            'Check the bucket section of the plan (RAM quota against the cluster quota, replicas against the node count, eviction policy against the bucket type).',
        },
        { cause: error },
      );
    case 'QuotaLimitedError':
      return new EngineFailure(
        {
          code: 'bucket-create',
          host,
          step,
          message: `Couchbase has no memory quota left for "${bucketName}": ${detail}.`,
          action: 'Lower bucket.ramQuotaMB or drop other buckets.',
        },
        { cause: error },
      );
    default:
      return new EngineFailure(
        {
          code: step === 'bucket-ready' ? 'bucket-ready' : 'bucket-create',
          host,
          step,
          message: `${name} from Couchbase at ${at}: ${detail}.`,
          action: 'Look at the Couchbase logs on the server; retry the cell.',
        },
        { cause: error },
      );
  }
}

/** The SDK's message plus what the server said (management errors carry the REST body). */
export function sdkDetail(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  const body = (error as { context?: { response_body?: unknown } })?.context?.response_body;
  if (typeof body !== 'string' || body.trim() === '') return message;
  let said = body.trim();
  try {
    const parsed = JSON.parse(said) as { errors?: Record<string, unknown> | unknown[] };
    if (parsed && typeof parsed === 'object' && parsed.errors)
      said = Object.values(parsed.errors).map(String).join('; ');
    // ns_server also answers `{"_":"message"}` (e.g. "Bucket with given name still exists")
    else if (
      parsed &&
      typeof parsed === 'object' &&
      !Array.isArray(parsed) &&
      Object.values(parsed).every((value) => typeof value === 'string')
    )
      said = Object.values(parsed).join('; ');
  } catch {
    // not JSON: keep the text
  }
  return `${message} (server: ${said.slice(0, 300)})`;
}

/** What the bucket lifecycle saw, for the cell's evidence.bucket (bucketLifecycle.ts). */
export interface BucketEvidence {
  dropped: boolean;
  /** The drop's 500 "deletion not yet complete" (REAL-LAB C4), quoted. */
  dropAnswer?: string;
  waitGone?: WaitFacts;
  /** Creates answered "still exists" / "already exists" before one succeeded. */
  createRetries: number;
  createMs: number;
  kvReadyMs: number;
  warmup?: WaitFacts;
}

/**
 * Drops `bucket` if it exists, waits until it is gone (REAL-LAB C4), creates it (retrying while the
 * server says it still exists), then waits until every KV endpoint answers and the bucket has
 * warmed up (C8). The quota is checked first (C5).
 */
export async function recreateBucket(
  target: BucketTarget,
  bucket: Required<PlanBucket>,
  readyTimeoutSec: number,
): Promise<BucketEvidence> {
  const sdk = await loadSdk();
  const { server } = target;
  throwIfCancelled(target.signal, server.host, 'connect-couchbase');
  const timeoutMs = readyTimeoutSec * 1000;
  await checkQuota(target, bucket);
  const cluster = await connect(sdk, target, bucket.name, timeoutMs);
  const rest = { server, password: target.password, ...(target.signal ? { signal: target.signal } : {}) };
  try {
    const manager = cluster.buckets();
    const deadline = performance.now() + timeoutMs;
    const dropped = await dropBucket(sdk, manager, target, bucket.name);
    const waitGone = dropped.dropped ? await waitBucketGone(rest, bucket.name, deadline) : undefined;
    const createStarted = performance.now();
    const createRetries = await createBucket(sdk, manager, target, bucket, deadline);
    const createMs = performance.now() - createStarted;
    const kvStarted = performance.now();
    await waitForKv(sdk, cluster, target, bucket.name, deadline);
    const kvReadyMs = performance.now() - kvStarted;
    const warmup = await waitBucketWarm(rest, bucket.name, deadline);
    return {
      dropped: dropped.dropped,
      createRetries,
      createMs,
      kvReadyMs,
      ...(dropped.dropAnswer !== undefined ? { dropAnswer: dropped.dropAnswer } : {}),
      ...(waitGone ? { waitGone } : {}),
      warmup,
    };
  } finally {
    await cluster.close().catch(() => undefined);
  }
}

/** SDK calls take no AbortSignal: stop waiting for them on cancel (the cluster is closed by the caller). */
function cancellable<T>(target: BucketTarget, promise: Promise<T>, step: string): Promise<T> {
  if (!target.signal) return promise;
  return untilAborted(
    promise,
    target.signal,
    () =>
      new EngineFailure({
        code: 'cancelled',
        host: target.server.host,
        step,
        message: 'Cancelled.',
        action: 'Resume the run when ready.',
      }),
  );
}

/** C5: the bucket fits the data service's quota, as far as REST tells (a refused password fails here). */
async function checkQuota(target: BucketTarget, bucket: Required<PlanBucket>): Promise<void> {
  const { server } = target;
  const quota = await clusterQuota(server, target.password, bucket.name, target.signal).catch((error: unknown) => {
    if (error instanceof EngineFailure && (error.error.code === 'bucket-auth' || error.error.code === 'cancelled'))
      throw error;
    return undefined;
  });
  const problem = quotaProblem(bucket.name, bucket.ramQuotaMB, quota);
  if (problem)
    throw new EngineFailure({
      code: 'bucket-quota',
      host: server.host,
      step: 'create-bucket',
      message: `${problem}.`,
      action: 'Change bucket.ramQuotaMB in the plan, or raise the data service quota / drop other buckets.',
    });
}

async function connect(
  sdk: Couchbase,
  target: BucketTarget,
  bucketName: string,
  timeoutMs: number,
): Promise<import('couchbase').Cluster> {
  const { server } = target;
  try {
    return await cancellable(
      target,
      sdk.connect(connectionString(server), {
        username: server.adminUser,
        password: target.password,
        timeouts: {
          connectTimeout: Math.min(timeoutMs, 10_000),
          bootstrapTimeout: Math.min(timeoutMs, 15_000),
          managementTimeout: Math.min(timeoutMs, 60_000),
          kvTimeout: 5_000,
        },
      }),
      'connect-couchbase',
    );
  } catch (error) {
    if (error instanceof EngineFailure) throw error;
    throw describeSdkError(error, server, 'connect-couchbase', bucketName);
  }
}

/** Drops the bucket if it exists; C4: a 500 "not yet complete" means the deletion goes on in the background. */
async function dropBucket(
  sdk: Couchbase,
  manager: import('couchbase').BucketManager,
  target: BucketTarget,
  bucketName: string,
): Promise<Pick<BucketEvidence, 'dropped' | 'dropAnswer'>> {
  try {
    await cancellable(target, manager.dropBucket(bucketName), 'drop-bucket');
    return { dropped: true };
  } catch (error) {
    if (error instanceof EngineFailure) throw error;
    if (error instanceof sdk.InternalServerFailureError && /not yet complete/i.test(sdkDetail(error)))
      return { dropped: true, dropAnswer: sdkDetail(error) };
    if (!(error instanceof sdk.BucketNotFoundError))
      throw describeSdkError(error, target.server, 'drop-bucket', bucketName);
    return { dropped: false };
  }
}

/** Creates the bucket, again while an earlier deletion finishes (C4); returns how many creates were refused. */
async function createBucket(
  sdk: Couchbase,
  manager: import('couchbase').BucketManager,
  target: BucketTarget,
  bucket: Required<PlanBucket>,
  deadline: number,
): Promise<number> {
  const { server } = target;
  const started = performance.now();
  for (let retries = 0; ; retries++) {
    try {
      await cancellable(
        target,
        manager.createBucket({
          name: bucket.name,
          ramQuotaMB: bucket.ramQuotaMB,
          numReplicas: bucket.replicas,
          bucketType:
            bucket.type === 'couchbase'
              ? sdk.BucketType.Couchbase
              : bucket.type === 'ephemeral'
                ? sdk.BucketType.Ephemeral
                : sdk.BucketType.Memcached,
          evictionPolicy: bucket.evictionPolicy,
          flushEnabled: bucket.flush,
        }),
        'create-bucket',
      );
      return retries;
    } catch (error) {
      if (error instanceof EngineFailure) throw error;
      // REAL-LAB C4: 400 "already exists" (BucketExistsError) or 500 "still exists"
      // (InternalServerFailureError) while an earlier deletion finishes
      const stillThere =
        error instanceof sdk.BucketExistsError ||
        (error instanceof sdk.InternalServerFailureError && /still exists/i.test(sdkDetail(error)));
      if (!stillThere || performance.now() >= deadline)
        throw describeSdkError(error, server, 'create-bucket', bucket.name);
      // the deletion is looked at often at first, less as it drags on (pollInterval.ts), not every 500 ms
      await sleep(pollIntervalMs(performance.now() - started, 100), target.signal);
      throwIfCancelled(target.signal, server.host, 'create-bucket');
    }
  }
}

/** `waitUntilReady` can return early right after creation; a ping of every KV endpoint cannot. */
async function waitForKv(
  sdk: Couchbase,
  cluster: import('couchbase').Cluster,
  target: BucketTarget,
  bucketName: string,
  deadline: number,
): Promise<void> {
  const handle = cluster.bucket(bucketName);
  let lastProblem = 'no KV endpoint answered';
  const started = performance.now();
  while (performance.now() < deadline) {
    throwIfCancelled(target.signal, target.server.host, 'bucket-ready');
    try {
      const result = await handle.ping({ serviceTypes: [sdk.ServiceType.KeyValue], timeout: 2000 });
      const endpoints = Object.values(result.services).flat();
      const notReady = endpoints.filter((endpoint) => endpoint.state !== sdk.PingState.Ok);
      if (endpoints.length > 0 && notReady.length === 0) return;
      lastProblem =
        endpoints.length === 0
          ? 'no KV endpoint reported yet'
          : `${notReady.length} of ${endpoints.length} KV endpoints not ready (${notReady.map((endpoint) => `${endpoint.remote ?? '?'}: ${endpoint.state}`).join(', ')})`;
    } catch (error) {
      lastProblem = (error as Error)?.message ?? String(error);
    }
    await sleep(pollIntervalMs(performance.now() - started), target.signal);
  }
  throwIfCancelled(target.signal, target.server.host, 'bucket-ready');
  throw new EngineFailure({
    code: 'bucket-ready',
    host: target.server.host,
    step: 'bucket-ready',
    message: `The bucket "${bucketName}" was created but its KV endpoints did not become ready: ${lastProblem}.`,
    action: 'Look at the Couchbase logs (warmup, memory), or raise timeouts.bucketReadySec.',
  });
}

async function restGet(
  server: ResolvedServer,
  password: string,
  path: string,
  step: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const url = `http://${hostForUrl(server.address)}:${server.restPort}${path}`;
  const authorization = `Basic ${Buffer.from(`${server.adminUser}:${password}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization },
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(10_000)]) : AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new EngineFailure({
      code: 'item-count',
      host: server.host,
      step,
      message: `The REST API at ${server.address}:${server.restPort} did not answer: ${(error as Error).message}.`,
      action: 'Check that Couchbase runs and its REST port is reachable from this machine.',
    });
  }
  if (response.status === 401 || response.status === 403) {
    throw new EngineFailure({
      code: 'bucket-auth',
      host: server.host,
      step,
      message: `Couchbase's REST API refused "${server.adminUser}" (HTTP ${response.status}).`,
      action: 'Check adminUser in the plan and the password.',
    });
  }
  if (!response.ok) {
    throw new EngineFailure({
      code: 'item-count',
      host: server.host,
      step,
      message: `GET ${path} answered HTTP ${response.status}.`,
      action: 'Look at the Couchbase logs on the server.',
    });
  }
  return response.json();
}

/** Memory quota of the cluster and what other buckets use (MiB), for the pre-flight check. */
export async function clusterQuota(
  server: ResolvedServer,
  password: string,
  ourBucket: string,
  signal?: AbortSignal,
): Promise<{ quotaMB: number; usedByOthersMB: number } | undefined> {
  const pool = (await restGet(server, password, '/pools/default', 'preflight', signal)) as { memoryQuota?: unknown };
  if (typeof pool?.memoryQuota !== 'number') return undefined;
  const buckets = (await restGet(server, password, '/pools/default/buckets', 'preflight', signal)) as {
    name?: string;
    quota?: { rawRAM?: number };
  }[];
  const usedByOthersMB = (Array.isArray(buckets) ? buckets : [])
    .filter((entry) => entry.name !== ourBucket)
    .reduce((sum, entry) => sum + (entry.quota?.rawRAM ?? 0) / (1024 * 1024), 0);
  return { quotaMB: pool.memoryQuota, usedByOthersMB };
}
