// The persistence wait's judgement (REAL-LAB C10): every queue perfrunner waits on, a missing stat
// read as "not known yet", and only a sample newer than the one the load ended with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeQueues, queuesToWaitFor, readQueueSample } from '../../../engine/src/couchbase/persistenceQueues';

const queues = queuesToWaitFor('couchbase', 1);
const empty = Object.fromEntries(queues.map((queue) => [queue, 0]));

describe('persistence queues (REAL-LAB C10)', () => {
  it('waits on the disk queues, the vBuckets and (with replicas) replication; an ephemeral bucket on replication only', () => {
    assert.deepEqual(queues, [
      'ep_queue_size',
      'ep_flusher_todo',
      'ep_diskqueue_items',
      'vb_active_queue_size',
      'vb_replica_queue_size',
      'vb_pending_queue_size',
      'ep_dcp_replica_items_remaining',
    ]);
    assert.deepEqual(queuesToWaitFor('couchbase', 0).includes('ep_dcp_replica_items_remaining'), false);
    assert.deepEqual(queuesToWaitFor('ephemeral', 1), ['ep_dcp_replica_items_remaining']);
    assert.deepEqual(queuesToWaitFor('memcached', 0), []);
  });

  it('a missing stat is not an empty queue; a stale sample decides nothing; a newer all-zero one does', () => {
    const baseline = { sampledAt: 1000, values: { ep_queue_size: 0 } };
    assert.deepEqual(judgeQueues({ sampledAt: 2000, values: { ep_queue_size: 0 } }, queues, baseline).drained, false);
    assert.match(
      judgeQueues({ sampledAt: 2000, values: { ep_queue_size: 0 } }, queues, baseline).waitingFor.join(', '),
      /ep_flusher_todo \(not reported yet\)/,
    );
    assert.deepEqual(judgeQueues({ sampledAt: 1000, values: empty }, queues, baseline).waitingFor, [
      'a stats sample newer than the end of the load',
    ]);
    assert.deepEqual(
      judgeQueues({ sampledAt: 3000, values: { ...empty, ep_flusher_todo: 12 } }, queues, baseline).waitingFor,
      ['ep_flusher_todo 12'],
    );
    assert.deepEqual(judgeQueues({ sampledAt: 3000, values: empty }, queues, baseline), {
      drained: true,
      waitingFor: [],
    });
    assert.equal(
      judgeQueues({ values: empty }, queues, 'first').drained,
      false,
      'the first answer after the load is the baseline',
    );
  });

  it('reads the last value of each series and the sample time', () => {
    assert.deepEqual(
      readQueueSample({
        op: {
          samples: { ep_queue_size: [3, 0], curr_items: [], ep_warmup_state: ['done'] },
          lastTStamp: 1796336482930,
        },
      }),
      { sampledAt: 1796336482930, values: { ep_queue_size: 0 } },
    );
    assert.deepEqual(readQueueSample({ op: { samples: {}, lastTStamp: 0 } }), { values: {} });
  });
});
