// After the load (REAL-LAB C6, C10): the write queues are waited on while the item count
// is polled, not after it, and a short bucket still fails on its count; the REST polls start fast.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { settleAfterLoad, type CellBucketContext } from '../../../engine/src/couchbase/cellBucket';
import { queuesToWaitFor } from '../../../engine/src/couchbase/persistenceQueues';
import { pollIntervalMs } from '../../../engine/src/remote/pollInterval';
import { EngineFailure } from '../../../engine/src/errors';

/** A node whose item count reaches `finalCount` on its 4th read and whose stats sample advances on every read. */
function fakeNode(finalCount: number): { server: Server; calls: string[] } {
  const calls: string[] = [];
  let countReads = 0;
  let scrapes = 0;
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    response.setHeader('content-type', 'application/json');
    if (path.endsWith('/stats')) {
      calls.push('stats');
      scrapes += 1;
      response.end(
        JSON.stringify({
          op: {
            lastTStamp: 1000 + scrapes,
            samples: Object.fromEntries(queuesToWaitFor('couchbase', 0).map((queue) => [queue, [0]])),
          },
        }),
      );
    } else {
      calls.push('count');
      countReads += 1;
      response.end(JSON.stringify({ basicStats: { itemCount: countReads >= 4 ? finalCount : 10 } }));
    }
  });
  return { server, calls };
}

function contextFor(server: Server): CellBucketContext {
  const port = (server.address() as AddressInfo).port;
  return {
    server: {
      host: 'node',
      address: '127.0.0.1',
      restPort: port,
      adminUser: 'Administrator',
    } as CellBucketContext['server'],
    password: 'secret',
    bucket: { name: 'ycsb', type: 'couchbase', replicas: 0 } as CellBucketContext['bucket'],
    readySec: 5,
  };
}

describe('settling after the load', () => {
  const full = fakeNode(100);
  const short = fakeNode(99);
  before(async () => {
    await new Promise<void>((resolve) => full.server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => short.server.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    full.server.close();
    short.server.close();
  });

  it('reads the write queues while the count is still short, and records both', async () => {
    const settled = await settleAfterLoad(contextFor(full.server), 100);
    const { evidence } = settled;
    assert.equal(settled.failure, undefined);
    assert.equal(settled.itemCount, 100);
    assert.deepEqual((evidence.itemCount as { first: number; final: number; polls: number }).final, 100);
    assert.equal((evidence.writeQueue as { drained: boolean }).drained, true);
    const lastCount = full.calls.lastIndexOf('count');
    assert.ok(
      full.calls.indexOf('stats') < lastCount,
      `the queues were first read after the count settled: ${full.calls.join(' ')}`,
    );
  });

  it('a short bucket fails on its count, without a write-queue verdict', async () => {
    const context = { ...contextFor(short.server), readySec: 1 };
    const settled = await settleAfterLoad(context, 100);
    const error = settled.failure;
    assert.ok(
      error instanceof EngineFailure && error.error.code === 'item-count' && /holds 99 items/.test(error.error.message),
      String(error),
    );
    assert.equal(settled.evidence.writeQueue, undefined);
  });

  it('polls fast at first, slower as a wait drags on, never slower than every 500 ms', () => {
    assert.ok(pollIntervalMs(0) <= 100);
    assert.ok(pollIntervalMs(20_000) > pollIntervalMs(0));
    for (const elapsed of [0, 1_000, 5_000, 60_000, 600_000]) assert.ok(pollIntervalMs(elapsed) <= 500);
  });
});
