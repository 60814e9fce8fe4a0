// The waits around a bucket that a real node needs (REAL-LAB C4, C5, C6, C8), through REST:
// - C4: a drop finishes asynchronously: wait until GET /pools/default/buckets/B answers 404;
// - C5: ramQuotaMB must be at least 100 MiB and fit in the data quota left by other buckets;
// - C8: a new (or restarted) bucket warms up: wait until every node of the bucket is "healthy";
// - C6: basicStats.itemCount is the last stats sample: poll until it matches or a deadline, then
//   wait for the disk write queue (ep_queue_size) to drain, as perfrunner does before a run.
// Each wait returns what it saw (polls, milliseconds) for the cell's evidence.bucket. Deadlines and
// durations are performance.now() readings (monotonic): a wall-clock step neither ends nor stretches a wait.
import { EngineFailure } from '../errors';
import { quote, restCall, type RestTarget } from './couchbaseRest';
import { sleep } from '../server/serverControl';
import { pollIntervalMs } from '../remote/pollInterval';

/** REAL-LAB C5: menelaus_web_buckets refuses less ("RAM quota cannot be less than 100 MiB"). */
export const minimumRamQuotaMB = 100;

export interface WaitFacts {
  polls: number;
  ms: number;
}

function bucketPath(bucket: string): string {
  return `/pools/default/buckets/${encodeURIComponent(bucket)}`;
}

/** A quota problem worded for the user, or undefined. Pure. */
export function quotaProblem(
  bucket: string,
  ramQuotaMB: number,
  cluster?: { quotaMB: number; usedByOthersMB: number },
): string | undefined {
  if (ramQuotaMB < minimumRamQuotaMB)
    return `bucket.ramQuotaMB is ${ramQuotaMB} MiB; Couchbase needs at least ${minimumRamQuotaMB} MiB per bucket`;
  if (cluster && ramQuotaMB > cluster.quotaMB - cluster.usedByOthersMB) {
    return `the bucket "${bucket}" needs ${ramQuotaMB} MiB but only ${Math.floor(cluster.quotaMB - cluster.usedByOthersMB)} MiB of the node's ${cluster.quotaMB} MiB data quota are free (other buckets use ${Math.ceil(cluster.usedByOthersMB)} MiB)`;
  }
  return undefined;
}

async function poll<T>(
  target: RestTarget,
  step: string,
  deadline: number,
  probe: () => Promise<{ done: boolean; value: T; last: string }>,
): Promise<{ value: T; facts: WaitFacts; done: boolean; last: string }> {
  const started = performance.now();
  let polls = 0;
  for (;;) {
    polls += 1;
    const outcome = await probe();
    if (outcome.done || performance.now() >= deadline)
      return {
        value: outcome.value,
        facts: { polls, ms: performance.now() - started },
        done: outcome.done,
        last: outcome.last,
      };
    await sleep(
      Math.min(pollIntervalMs(performance.now() - started), Math.max(0, deadline - performance.now())),
      target.signal,
    );
    if (target.signal?.aborted)
      throw new EngineFailure({
        code: 'cancelled',
        host: target.server.host,
        step,
        message: 'Cancelled.',
        action: 'Resume the run when ready.',
      });
  }
}

/** REAL-LAB C4: until the bucket answers 404 (a 500 "deletion not yet complete" means: still going). */
export async function waitBucketGone(target: RestTarget, bucket: string, deadline: number): Promise<WaitFacts> {
  const outcome = await poll(target, 'drop-bucket', deadline, async () => {
    const answer = await restCall(target, 'GET', bucketPath(bucket), 'drop-bucket');
    return { done: answer.status === 404, value: answer.status, last: `HTTP ${answer.status}` };
  });
  if (!outcome.done) {
    throw new EngineFailure({
      code: 'bucket-drop',
      host: target.server.host,
      step: 'drop-bucket',
      message: `The bucket "${bucket}" was dropped but still exists after ${Math.round(outcome.facts.ms / 1000)} s (GET ${bucketPath(bucket)}: ${outcome.last}).`,
      action:
        'Look at the Couchbase logs (a deletion can take long on a large bucket), or raise timeouts.bucketReadySec.',
    });
  }
  return outcome.facts;
}

/** REAL-LAB C8: every node of the bucket reports status "healthy" (not "warmup"). */
export async function waitBucketWarm(target: RestTarget, bucket: string, deadline: number): Promise<WaitFacts> {
  const outcome = await poll(target, 'bucket-ready', deadline, async () => {
    const answer = await restCall(target, 'GET', bucketPath(bucket), 'bucket-ready');
    const nodes = (answer.json as { nodes?: { status?: string; hostname?: string }[] } | undefined)?.nodes ?? [];
    const cold = nodes.filter((node) => node.status !== 'healthy');
    return {
      done: answer.status === 200 && nodes.length > 0 && cold.length === 0,
      value: undefined,
      last:
        answer.status !== 200
          ? `HTTP ${answer.status}: ${quote(answer.text)}`
          : nodes.length === 0
            ? 'no node listed'
            : cold.map((node) => `${node.hostname ?? '?'} ${node.status ?? '?'}`).join(', '),
    };
  });
  if (!outcome.done) {
    throw new EngineFailure({
      code: 'bucket-ready',
      host: target.server.host,
      step: 'bucket-ready',
      message: `The bucket "${bucket}" did not finish warming up (${outcome.last}).`,
      action: 'Look at the Couchbase logs (warm-up, memory), or raise timeouts.bucketReadySec.',
    });
  }
  return outcome.facts;
}

/** basicStats.itemCount as the node reports it now (a sample, REAL-LAB C6). */
export async function readItemCount(target: RestTarget, bucket: string): Promise<number> {
  const answer = await restCall(target, 'GET', bucketPath(bucket), 'item-count');
  const count = (answer.json as { basicStats?: { itemCount?: unknown } } | undefined)?.basicStats?.itemCount;
  if (answer.status !== 200 || typeof count !== 'number') {
    throw new EngineFailure({
      code: 'item-count',
      host: target.server.host,
      step: 'item-count',
      message: `GET ${bucketPath(bucket)} gave no item count (HTTP ${answer.status}: ${quote(answer.text)}).`,
      action: 'Check that the bucket exists and the node runs.',
    });
  }
  return count;
}

/** REAL-LAB C6: polls the item count until it equals `expected` or the deadline; returns the last count. */
export async function waitItemCount(
  target: RestTarget,
  bucket: string,
  expected: number | undefined,
  deadline: number,
): Promise<{ count: number; facts: WaitFacts }> {
  const outcome = await poll(target, 'item-count', deadline, async () => {
    const count = await readItemCount(target, bucket);
    return { done: expected === undefined || count === expected, value: count, last: String(count) };
  });
  return { count: outcome.value, facts: outcome.facts };
}
