// After the load, before the run: wait until the load is on disk and on the replicas, so that the
// run does not measure the load's persistence too (REAL-LAB C6, C10). perfrunner waits on every
// queue a mutation passes through, and so does the engine: ep_queue_size (the checkpoint queue),
// ep_flusher_todo (taken by the flusher, not yet written), ep_diskqueue_items (both), the vBuckets'
// queues, and ep_dcp_replica_items_remaining when the bucket has replicas.
// From 7.0 /pools/default/buckets/B/stats is answered from Prometheus, scraped every ~10 s: a
// sample can predate the end of the load, and a stat it has no series for yet is simply missing.
// So a missing queue is "not known yet", never "empty", and only a sample newer than the one the
// server had when the load ended (op.lastTStamp, the server's own clock: no skew with this
// machine's) can say the queues drained. Bucket types without a disk (ephemeral, memcached) only
// wait for replication.
import { EngineFailure } from '../errors';
import type { WaitFacts } from './bucketLifecycle';
import { restCall, type RestTarget } from './couchbaseRest';
import { sleep } from '../server/serverControl';
import { pollIntervalMs } from '../remote/pollInterval';

const diskQueues = [
  'ep_queue_size',
  'ep_flusher_todo',
  'ep_diskqueue_items',
  'vb_active_queue_size',
  'vb_replica_queue_size',
  'vb_pending_queue_size',
];
const replicaQueues = ['ep_dcp_replica_items_remaining'];

/** The queue stats a bucket of this type and replica count must show empty. Pure. */
export function queuesToWaitFor(bucketType: string, replicas: number): string[] {
  const disk = bucketType === 'couchbase' || bucketType === 'membase';
  return [...(disk ? diskQueues : []), ...(replicas > 0 ? replicaQueues : [])];
}

export interface QueueSample {
  /** When the stats were sampled (op.lastTStamp, ms), if the server says. */
  sampledAt?: number;
  /** The last value of each stat the answer carries. */
  values: Record<string, number>;
}

export interface QueueVerdict {
  drained: boolean;
  /** Why not yet, in words. */
  waitingFor: string[];
}

/**
 * Whether a sample shows every queue empty and is newer than `baseline`, the sample the server had
 * when the load ended (undefined: that one had no time, so any later poll counts). Pure.
 */
export function judgeQueues(sample: QueueSample, queues: string[], baseline: QueueSample | 'first'): QueueVerdict {
  const waitingFor: string[] = [];
  if (baseline === 'first') waitingFor.push('a sample taken after the load');
  else if (
    baseline.sampledAt !== undefined &&
    (sample.sampledAt === undefined || sample.sampledAt <= baseline.sampledAt)
  )
    waitingFor.push('a stats sample newer than the end of the load');
  for (const queue of queues) {
    const value = sample.values[queue];
    if (value === undefined) waitingFor.push(`${queue} (not reported yet)`);
    else if (value !== 0) waitingFor.push(`${queue} ${value}`);
  }
  return { drained: waitingFor.length === 0, waitingFor };
}

/** The last value of every stat in a /stats answer, and its sample time. Pure. */
export function readQueueSample(json: unknown): QueueSample {
  const op = (json as { op?: { samples?: Record<string, unknown>; lastTStamp?: unknown } } | undefined)?.op;
  const values: Record<string, number> = {};
  for (const [name, series] of Object.entries(op?.samples ?? {})) {
    if (!Array.isArray(series) || series.length === 0) continue;
    const last = Number(series[series.length - 1]);
    if (Number.isFinite(last)) values[name] = last;
  }
  const stamp = Number(op?.lastTStamp);
  return { ...(Number.isFinite(stamp) && stamp > 0 ? { sampledAt: stamp } : {}), values };
}

/**
 * Polls the bucket's stats (called right after the load) until a newer sample shows every queue empty, or the deadline.
 */
export async function waitPersistence(
  target: RestTarget,
  bucket: { name: string; type: string; replicas: number },
  deadline: number,
): Promise<WaitFacts & { drained: true; queues: Record<string, number>; sampledAt?: number }> {
  const queues = queuesToWaitFor(bucket.type, bucket.replicas);
  const started = performance.now();
  let polls = 0;
  let verdict: QueueVerdict = { drained: queues.length === 0, waitingFor: [] };
  let sample: QueueSample = { values: {} };
  let baseline: QueueSample | 'first' = 'first';
  while (queues.length > 0) {
    polls += 1;
    const answer = await restCall(
      target,
      'GET',
      `/pools/default/buckets/${encodeURIComponent(bucket.name)}/stats`,
      'write-queue',
    );
    sample = answer.status === 200 ? readQueueSample(answer.json) : { values: {} };
    verdict = judgeQueues(sample, queues, baseline);
    if (baseline === 'first') baseline = sample;
    if (verdict.drained || performance.now() >= deadline) break;
    await sleep(
      Math.min(pollIntervalMs(performance.now() - started), Math.max(0, deadline - performance.now())),
      target.signal,
    );
    if (target.signal?.aborted)
      throw new EngineFailure({
        code: 'cancelled',
        host: target.server.host,
        step: 'write-queue',
        message: 'Cancelled.',
        action: 'Resume the run when ready.',
      });
  }
  if (!verdict.drained) {
    throw new EngineFailure({
      code: 'write-queue',
      host: target.server.host,
      step: 'write-queue',
      message: `The load of "${bucket.name}" was not known to be persisted after ${Math.round((performance.now() - started) / 1000)} s (waiting for ${verdict.waitingFor.join(', ')}): the run would measure the load's persistence too.`,
      action:
        'Check the server disk and replication, or raise timeouts.bucketReadySec (stats are sampled about every 10 s).',
    });
  }
  return {
    polls,
    ms: performance.now() - started,
    drained: true,
    queues: Object.fromEntries(queues.map((queue) => [queue, sample.values[queue] ?? 0])),
    ...(sample.sampledAt !== undefined ? { sampledAt: sample.sampledAt } : {}),
  };
}
