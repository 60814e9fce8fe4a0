// The Couchbase test node against the real `couchbase` SDK 4.7.1: bootstrap, bucket lifecycle,
// documents, item counts over REST, authentication failures and the fault switches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as couchbase from 'couchbase';
import { connect } from 'node:net';
import { encodeRequest, Opcode, responseMagic } from '../lab/memcachedFrames';
import { startCouchbaseTestNode, type CouchbaseTestNode, type TestNodeFaults } from '../lab/couchbaseTestNode';

const username = 'Administrator';
const password = 'node-test-password';
const timeouts = { connectTimeout: 5000, bootstrapTimeout: 5000, kvTimeout: 2500, managementTimeout: 5000 };

async function rest(node: CouchbaseTestNode, path: string, init: RequestInit & { auth?: string } = {}): Promise<Response> {
  const auth = init.auth ?? `${username}:${password}`;
  return fetch(`http://127.0.0.1:${node.restPort}${path}`, {
    ...init,
    headers: { Authorization: `Basic ${Buffer.from(auth).toString('base64')}`, ...(init.headers ?? {}) },
  });
}

async function kvReady(bucket: couchbase.Bucket): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const result = await bucket.ping({ serviceTypes: [couchbase.ServiceType.KeyValue] });
    // The SDK pings every bucket this cluster object has opened, dropped ones included: look at ours.
    const endpoints = (result.services.kv ?? []).filter((endpoint) => endpoint.bucket === undefined || endpoint.bucket === bucket.name);
    if (endpoints.length > 0 && endpoints.every((endpoint) => endpoint.state === couchbase.PingState.Ok)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('KV never became ready');
}

/** Sends raw frames and collects [opcode, status] of the responses until `count` arrive or the node closes. */
function rawExchange(port: number, frames: Buffer[], count: number): Promise<{ responses: [number, number][]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let buffer = Buffer.alloc(0);
    const responses: [number, number][] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`only ${responses.length} of ${count} responses`));
    }, 5000);
    socket.on('connect', () => socket.write(Buffer.concat(frames)));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 24 && buffer.length >= 24 + buffer.readUInt32BE(8)) {
        assert.equal(buffer[0], responseMagic);
        responses.push([buffer[1], buffer.readUInt16BE(6)]);
        buffer = buffer.subarray(24 + buffer.readUInt32BE(8));
      }
      if (responses.length >= count) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ responses, closed: false });
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ responses, closed: true });
    });
    socket.on('error', () => undefined);
  });
}

describe('Couchbase test node with the real SDK', () => {
  let node: CouchbaseTestNode;
  let cluster: couchbase.Cluster;
  let faults: TestNodeFaults = {};

  before(async () => {
    node = await startCouchbaseTestNode({ username, password, addresses: ['127.0.0.1'], memoryQuotaMB: 512, faults: () => faults });
    cluster = await couchbase.connect(`couchbase://127.0.0.1:${node.kvPort}`, { username, password, timeouts });
  });

  after(async () => {
    await cluster?.close();
    await node?.stop();
  });

  it('creates a bucket, becomes KV-ready, stores and reads documents, counts items, drops it', async () => {
    await cluster.buckets().createBucket({ name: 'bench', ramQuotaMB: 128, numReplicas: 0, flushEnabled: true, evictionPolicy: couchbase.EvictionPolicy.FullEviction });
    const settings = await cluster.buckets().getBucket('bench');
    assert.equal(settings.ramQuotaMB, 128);
    assert.equal(settings.flushEnabled, true);
    assert.equal(settings.evictionPolicy, 'fullEviction');

    const bucket = cluster.bucket('bench');
    await kvReady(bucket);
    const collection = bucket.defaultCollection();
    await collection.upsert('user1', { field0: 'a' });
    await collection.insert('user2', { field0: 'b' });
    assert.deepEqual((await collection.get('user1')).content, { field0: 'a' });
    await assert.rejects(collection.insert('user1', {}), couchbase.DocumentExistsError);
    await assert.rejects(collection.get('missing'), couchbase.DocumentNotFoundError);
    await collection.replace('user2', { field0: 'c' });
    assert.deepEqual((await collection.get('user2')).content, { field0: 'c' });

    const info = (await (await rest(node, '/pools/default/buckets/bench')).json()) as { basicStats: { itemCount: number }; quota: { rawRAM: number } };
    assert.equal(info.basicStats.itemCount, 2);
    assert.equal(info.quota.rawRAM, 128 * 1024 * 1024);
    await collection.remove('user2');
    assert.equal(node.itemCount('bench'), 1);

    await assert.rejects(cluster.buckets().createBucket({ name: 'bench', ramQuotaMB: 128 }), couchbase.BucketExistsError);
    await cluster.buckets().dropBucket('bench');
    assert.deepEqual(node.bucketNames(), []);
    await assert.rejects(cluster.buckets().dropBucket('bench'), couchbase.BucketNotFoundError);
  });

  it('answers raw KV frames: unknown command 0x81, no document access before login, closes on a bad frame', async () => {
    const { responses } = await rawExchange(node.kvPort, [
      encodeRequest({ opcode: 0x99, opaque: 1 }),
      encodeRequest({ opcode: Opcode.get, key: Buffer.from('k'), opaque: 2 }),
      encodeRequest({ opcode: Opcode.noop, opaque: 3 }),
    ], 3);
    assert.deepEqual(responses, [[0x99, 0x81], [Opcode.get, 0x20], [Opcode.noop, 0x00]]);
    const bad = Buffer.alloc(24);
    bad[0] = 0x08; // alternative-framing magic, never negotiated
    const outcome = await rawExchange(node.kvPort, [bad], 1);
    assert.deepEqual(outcome, { responses: [], closed: true });
  });

  it('refuses a wrong password at KV login and with HTTP 401 on REST', async () => {
    await assert.rejects(
      couchbase.connect(`couchbase://127.0.0.1:${node.kvPort}`, { username, password: 'wrong', timeouts }),
      couchbase.AuthenticationFailureError,
    );
    const response = await rest(node, '/pools/default/buckets', { auth: `${username}:wrong` });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm=/);
  });

  it('reports version and quota on /pools and /pools/default, and rejects a quota that does not fit', async () => {
    const pools = (await (await fetch(`http://127.0.0.1:${node.restPort}/pools`)).json()) as { implementationVersion: string };
    assert.equal(pools.implementationVersion, '7.6.2-3721-enterprise');
    const pool = (await (await rest(node, '/pools/default')).json()) as { memoryQuota: number; nodes: { version: string; status: string }[] };
    assert.equal(pool.memoryQuota, 512);
    assert.equal(pool.nodes[0].status, 'healthy');
    const response = await rest(node, '/pools/default/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=huge&ramQuotaMB=4096&bucketType=couchbase',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { errors: { ramQuota: 'RAM quota specified is too large to be provisioned into this cluster.' } });
  });

  it('refuses bucket creation on demand, with the message in the SDK error', async () => {
    faults = { refuseBucketCreation: 'lab: bucket creation refused' };
    try {
      await assert.rejects(cluster.buckets().createBucket({ name: 'refused', ramQuotaMB: 128 }), (error: Error) => {
        assert.ok(error instanceof couchbase.CouchbaseError);
        assert.match(JSON.stringify((error as couchbase.CouchbaseError).context ?? {}), /bucket creation refused/);
        return true;
      });
      assert.deepEqual(node.bucketNames(), []);
    } finally {
      faults = {};
    }
  });

  it('answers every Nth document operation with a temporary failure (0x82), which the SDK surfaces', async () => {
    await cluster.buckets().createBucket({ name: 'flaky', ramQuotaMB: 128, numReplicas: 0 });
    const bucket = cluster.bucket('flaky');
    await kvReady(bucket);
    faults = { temporaryFailureEvery: 2 };
    try {
      const collection = bucket.defaultCollection();
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(await collection.upsert(`k${i}`, { i }).then(() => 'ok', (error: Error) => error.constructor.name));
      }
      assert.deepEqual(outcomes, ['ok', 'TemporaryFailureError', 'ok', 'TemporaryFailureError']);
      assert.equal(node.itemCount('flaky'), 2);
    } finally {
      faults = {};
      await cluster.buckets().dropBucket('flaky');
    }
  });
});
