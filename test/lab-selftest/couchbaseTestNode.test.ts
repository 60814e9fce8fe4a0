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

async function rest(
  node: CouchbaseTestNode,
  path: string,
  init: RequestInit & { auth?: string } = {},
): Promise<Response> {
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
    const endpoints = (result.services.kv ?? []).filter(
      (endpoint) => endpoint.bucket === undefined || endpoint.bucket === bucket.name,
    );
    if (endpoints.length > 0 && endpoints.every((endpoint) => endpoint.state === couchbase.PingState.Ok)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('KV never became ready');
}

/** Sends raw frames and collects [opcode, status] of the responses until `count` arrive or the node closes. */
function rawExchange(
  port: number,
  frames: Buffer[],
  count: number,
): Promise<{ responses: [number, number][]; closed: boolean }> {
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
  // these tests are about the protocol, not the timing: deletions at once, live item counts
  const relaxed: TestNodeFaults = { bucketDeletionMs: 0, statsIntervalMs: 0 };
  let faults: TestNodeFaults = relaxed;

  before(async () => {
    node = await startCouchbaseTestNode({
      username,
      password,
      addresses: ['127.0.0.1'],
      memoryQuotaMB: 512,
      faults: () => faults,
    });
    cluster = await couchbase.connect(`couchbase://127.0.0.1:${node.kvPort}`, { username, password, timeouts });
  });

  after(async () => {
    await cluster?.close();
    await node?.stop();
  });

  it('creates a bucket, becomes KV-ready, stores and reads documents, counts items, drops it', async () => {
    await cluster.buckets().createBucket({
      name: 'bench',
      ramQuotaMB: 128,
      numReplicas: 0,
      flushEnabled: true,
      evictionPolicy: couchbase.EvictionPolicy.FullEviction,
    });
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

    const info = (await (await rest(node, '/pools/default/buckets/bench')).json()) as {
      basicStats: { itemCount: number };
      quota: { rawRAM: number };
    };
    assert.equal(info.basicStats.itemCount, 2);
    assert.equal(info.quota.rawRAM, 128 * 1024 * 1024);
    await collection.remove('user2');
    assert.equal(node.itemCount('bench'), 1);

    await assert.rejects(
      cluster.buckets().createBucket({ name: 'bench', ramQuotaMB: 128 }),
      couchbase.BucketExistsError,
    );
    await cluster.buckets().dropBucket('bench');
    assert.deepEqual(node.bucketNames(), []);
    await assert.rejects(cluster.buckets().dropBucket('bench'), couchbase.BucketNotFoundError);
  });

  it('answers raw KV frames: unknown command 0x81, no document access before login, closes on a bad frame', async () => {
    const { responses } = await rawExchange(
      node.kvPort,
      [
        encodeRequest({ opcode: 0x99, opaque: 1 }),
        encodeRequest({ opcode: Opcode.get, key: Buffer.from('k'), opaque: 2 }),
        encodeRequest({ opcode: Opcode.noop, opaque: 3 }),
      ],
      3,
    );
    assert.deepEqual(responses, [
      [0x99, 0x81],
      [Opcode.get, 0x20],
      [Opcode.noop, 0x00],
    ]);
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
    const pools = (await (await fetch(`http://127.0.0.1:${node.restPort}/pools`)).json()) as {
      implementationVersion: string;
    };
    assert.equal(pools.implementationVersion, '7.6.2-3721-enterprise');
    const pool = (await (await rest(node, '/pools/default')).json()) as {
      memoryQuota: number;
      nodes: { version: string; status: string }[];
    };
    assert.equal(pool.memoryQuota, 512);
    assert.equal(pool.nodes[0].status, 'healthy');
    const response = await rest(node, '/pools/default/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=huge&ramQuotaMB=4096&bucketType=couchbase',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), {
      errors: { ramQuota: 'RAM quota specified is too large to be provisioned into this cluster.' },
    });
  });

  it('refuses bucket creation on demand, with the message in the SDK error', async () => {
    faults = { ...relaxed, refuseBucketCreation: 'lab: bucket creation refused' };
    try {
      await assert.rejects(cluster.buckets().createBucket({ name: 'refused', ramQuotaMB: 128 }), (error: Error) => {
        assert.ok(error instanceof couchbase.CouchbaseError);
        assert.match(JSON.stringify((error as couchbase.CouchbaseError).context ?? {}), /bucket creation refused/);
        return true;
      });
      assert.deepEqual(node.bucketNames(), []);
    } finally {
      faults = relaxed;
    }
  });

  it('answers every Nth document operation with a temporary failure (0x82), which the SDK surfaces', async () => {
    await cluster.buckets().createBucket({ name: 'flaky', ramQuotaMB: 128, numReplicas: 0 });
    const bucket = cluster.bucket('flaky');
    await kvReady(bucket);
    faults = { ...relaxed, temporaryFailureEvery: 2 };
    try {
      const collection = bucket.defaultCollection();
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(
          await collection.upsert(`k${i}`, { i }).then(
            () => 'ok',
            (error: Error) => error.constructor.name,
          ),
        );
      }
      assert.deepEqual(outcomes, ['ok', 'TemporaryFailureError', 'ok', 'TemporaryFailureError']);
      assert.equal(node.itemCount('flaky'), 2);
    } finally {
      faults = relaxed;
      await cluster.buckets().dropBucket('flaky');
    }
  });
});

async function form(
  node: CouchbaseTestNode,
  method: string,
  path: string,
  body: Record<string, string>,
  auth?: string,
): Promise<Response> {
  return rest(node, path, {
    method,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
    ...(auth ? { auth } : {}),
  });
}

async function query(
  node: CouchbaseTestNode,
  statement: string,
  auth: string,
  args?: unknown[],
): Promise<{ status: number; body: { results?: unknown[]; errors?: { code: number; msg: string }[] } }> {
  const services = (await (await rest(node, '/pools/default/nodeServices', { auth })).json()) as {
    nodesExt: { services: { n1ql?: number } }[];
  };
  const port = services.nodesExt[0].services.n1ql;
  assert.ok(port, 'n1ql announced');
  const response = await fetch(`http://127.0.0.1:${port}/query/service`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ statement, ...(args ? { args } : {}) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { results?: unknown[]; errors?: { code: number; msg: string }[] },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('Couchbase test node, strict like a real node (REAL-LAB Y2, Y7, C4, C6, C8, C10)', () => {
  let node: CouchbaseTestNode;
  let cluster: couchbase.Cluster;
  let faults: TestNodeFaults = {};
  before(async () => {
    node = await startCouchbaseTestNode({
      username,
      password,
      addresses: ['127.0.0.1'],
      memoryQuotaMB: 512,
      faults: () => faults,
    });
    cluster = await couchbase.connect(`couchbase://127.0.0.1:${node.kvPort}`, { username, password, timeouts });
  });
  after(async () => {
    await cluster?.close();
    await node?.stop();
  });

  it('Y2: the bucket-named login works only once that RBAC user exists with a role on the bucket', async () => {
    await cluster.buckets().createBucket({ name: 'rbac', ramQuotaMB: 128, numReplicas: 0 });
    // the admin password for a user named like the bucket: refused (no such user)
    await assert.rejects(
      couchbase.connect(`couchbase://127.0.0.1:${node.kvPort}`, { username: 'rbac', password, timeouts }),
      couchbase.AuthenticationFailureError,
    );
    const refused = await form(node, 'PUT', '/settings/rbac/users/local/rbac', {
      password: 'short',
      roles: 'bucket_full_access[rbac]',
    });
    assert.equal(refused.status, 400);
    const unknownBucket = await form(node, 'PUT', '/settings/rbac/users/local/rbac', {
      password: 'generated-123',
      roles: 'bucket_full_access[nope]',
    });
    assert.equal(unknownBucket.status, 400);
    assert.match(await unknownBucket.text(), /bucket_full_access\[nope\]/);
    const created = await form(node, 'PUT', '/settings/rbac/users/local/rbac', {
      password: 'generated-123',
      roles: 'bucket_full_access[rbac]',
    });
    assert.equal(created.status, 200);
    assert.deepEqual(node.users(), { rbac: ['bucket_full_access[rbac]'] });
    const user = await couchbase.connect(`couchbase://127.0.0.1:${node.kvPort}`, {
      username: 'rbac',
      password: 'generated-123',
      timeouts,
    });
    try {
      const bucket = user.bucket('rbac');
      await kvReady(bucket);
      await bucket.defaultCollection().upsert('k', { v: 1 });
      assert.deepEqual((await bucket.defaultCollection().get('k')).content, { v: 1 });
    } finally {
      await user.close();
    }
    // REST management stays the admin's
    assert.equal((await rest(node, '/pools/default/buckets', { auth: 'rbac:generated-123' })).status, 401);
  });

  it('C4: a drop finishes later: DELETE 500, GET still 200 and create 500 "still exists" until it is gone', async () => {
    await cluster.buckets().createBucket({ name: 'slowdrop', ramQuotaMB: 128, numReplicas: 0 });
    await assert.rejects(cluster.buckets().dropBucket('slowdrop'), (error: Error) => {
      assert.ok(error instanceof couchbase.InternalServerFailureError);
      assert.match(
        JSON.stringify((error as couchbase.CouchbaseError).context),
        /Bucket deletion not yet complete, but will continue/,
      );
      return true;
    });
    assert.equal((await rest(node, '/pools/default/buckets/slowdrop')).status, 200);
    await assert.rejects(
      cluster.buckets().createBucket({ name: 'slowdrop', ramQuotaMB: 128, numReplicas: 0 }),
      (error: Error) => {
        assert.ok(error instanceof couchbase.InternalServerFailureError, error.constructor.name);
        assert.match(
          JSON.stringify((error as couchbase.CouchbaseError).context),
          /Bucket with given name still exists/,
        );
        return true;
      },
    );
    await sleep(900);
    assert.equal((await rest(node, '/pools/default/buckets/slowdrop')).status, 404);
    await cluster.buckets().createBucket({ name: 'slowdrop', ramQuotaMB: 128, numReplicas: 0 });
  });

  it('C8, C6, C10: a new bucket warms up; the item count is a sample; queue stats come from a scrape, none before the first', async () => {
    faults = { statsScrapeMs: 500, persistDelayMs: 800 };
    type Stats = { op: { samples: Record<string, (number | string)[]>; lastTStamp: number } };
    const stats = async (): Promise<Stats['op']> =>
      ((await (await rest(node, '/pools/default/buckets/lag/stats')).json()) as Stats).op;
    try {
      await cluster.buckets().createBucket({ name: 'lag', ramQuotaMB: 128, numReplicas: 0 });
      const fresh = await stats();
      assert.equal(fresh.samples.ep_queue_size, undefined, 'no series before the first scrape: missing, not 0');
      const status = async (): Promise<string> =>
        ((await (await rest(node, '/pools/default/buckets/lag')).json()) as { nodes: { status: string }[] }).nodes[0]
          .status;
      assert.equal(await status(), 'warmup');
      const bucket = cluster.bucket('lag');
      await kvReady(bucket);
      // a KV ping can answer before warm-up ends: only the REST status says when it did
      for (let i = 0; i < 20 && (await status()) !== 'healthy'; i++) await sleep(50);
      assert.equal(await status(), 'healthy');
      for (let i = 0; i < 20; i++) await bucket.defaultCollection().upsert(`k${i}`, { i });
      const written = Date.now();
      const info = (await (await rest(node, '/pools/default/buckets/lag')).json()) as {
        basicStats: { itemCount: number };
      };
      assert.ok(info.basicStats.itemCount < 20, `the count lags (${info.basicStats.itemCount})`);
      const newer = async (than: number): Promise<Stats['op']> => {
        for (let i = 0; i < 40; i++) {
          const sample = await stats();
          if (sample.lastTStamp > than) return sample;
          await sleep(50);
        }
        throw new Error('no newer scrape');
      };
      const queued = await newer(written);
      const last = (name: string): number => Number(queued.samples[name]?.at(-1));
      assert.ok(last('ep_diskqueue_items') > 0, 'mutations queued for disk');
      assert.equal(last('ep_queue_size') + last('ep_flusher_todo'), last('ep_diskqueue_items'));
      const drained = await newer(written + 900);
      for (const name of [
        'ep_queue_size',
        'ep_flusher_todo',
        'ep_diskqueue_items',
        'vb_active_queue_size',
        'ep_dcp_replica_items_remaining',
      ])
        assert.deepEqual(drained.samples[name], [0], name);
      assert.deepEqual(drained.samples.curr_items, [20]);
    } finally {
      faults = {};
    }
  });

  it('Y7: scans need the query service and an online primary index', async () => {
    await cluster.buckets().createBucket({ name: 'scans', ramQuotaMB: 128, numReplicas: 0 });
    await form(node, 'PUT', '/settings/rbac/users/local/scans', {
      password: 'scan-pass-1',
      roles: 'bucket_full_access[scans]',
    });
    const bucket = cluster.bucket('scans');
    await kvReady(bucket);
    for (const key of ['user3', 'user1', 'user2']) await bucket.defaultCollection().upsert(key, { key });
    const scan = 'SELECT RAW meta().id FROM `scans` WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2';
    const before = await query(node, scan, 'scans:scan-pass-1', ['user1', 2]);
    assert.equal(before.status, 500);
    assert.equal(before.body.errors?.[0].code, 4000);
    assert.equal((await query(node, 'CREATE PRIMARY INDEX ON `scans`', `${username}:${password}`)).status, 200);
    assert.equal(
      (await query(node, 'CREATE PRIMARY INDEX ON `scans`', `${username}:${password}`)).body.errors?.[0].code,
      4300,
    );
    const state = 'SELECT RAW state FROM system:indexes WHERE keyspace_id = "scans" AND is_primary = true';
    assert.deepEqual((await query(node, state, `${username}:${password}`)).body.results, ['building']);
    await sleep(400);
    assert.deepEqual((await query(node, state, `${username}:${password}`)).body.results, ['online']);
    assert.deepEqual((await query(node, scan, 'scans:scan-pass-1', ['user2', 5])).body.results, ['user2', 'user3']);
    // a node without the query service
    faults = { nodeServices: ['kv'] };
    try {
      const pool = (await (await rest(node, '/pools/default')).json()) as { nodes: { services: string[] }[] };
      assert.deepEqual(pool.nodes[0].services, ['kv']);
      const services = (await (await rest(node, '/pools/default/nodeServices')).json()) as {
        nodesExt: { services: Record<string, number> }[];
      };
      assert.equal(services.nodesExt[0].services.n1ql, undefined);
      await assert.rejects(
        fetch(`http://127.0.0.1:${node.queryPort}/query/service`, { method: 'POST', body: 'statement=SELECT 1' }),
      );
    } finally {
      faults = {};
    }
  });
});
