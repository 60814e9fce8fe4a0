// A one-node "Couchbase Server" for the loopback lab: enough of the KV binary protocol and of the
// REST API for the real `couchbase` SDK (4.7.x) to bootstrap, manage buckets and read and write
// documents (facts in ../shared/notes/COUCHBASE-TEST-NODE.md). It listens on every address given
// (one per lab "interface"), keeps documents in memory within a hard byte budget, and reads its
// fault switches through a callback so a lab can flip them while it runs in another process.
// Several of them form a cluster (issue 23, test/lab/README.md K1-K14): membership in
// clusterMembership.ts, the cluster map spread over the members and the buckets and users made on
// every member here.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import {
  Datatype,
  encodeResponse,
  FrameError,
  Opcode,
  readRequests,
  Status,
  type KvRequest,
  type KvResponse,
} from './memcachedFrames';
import { QueryService, queryRequestFrom } from './queryService';
import { clusterMembership, type MembershipFaults, type SavedMembership } from './clusterMembership';
import { newScramSecrets, ScramConversation, scramMechanism } from './scramServer';

/**
 * Switches a test flips to make the node misbehave (in a lab: `lab.faults.set`, LabFaults). Read again for every
 * request.
 */
export interface TestNodeFaults extends MembershipFaults {
  /** Refuse `POST /pools/default/buckets` with this message (HTTP 400, as a real node does). */
  refuseBucketCreation?: string;
  /** Delay every KV document operation by this many ms ("slow server"). */
  kvDelayMs?: number;
  /** Delay every REST answer by this many ms. */
  restDelayMs?: number;
  /**
   * Answer every Nth document operation of a bucket with 0x82 (temporary failure): neither SDK retries it (Node 4.x:
   * TemporaryFailureError; Java 2.3.1: TemporaryFailureException, which YCSB's couchbase2 counts as Return=ERROR).
   */
  temporaryFailureEvery?: number;
  /**
   * The client process that sends the Nth document operation counted from when this is set gets
   * SIGKILL: a YCSB whose JVM dies mid-phase (bin/ycsb then exits 247, bin/ycsb.sh 137), no report.
   * Needs the node's `signalClient` (the lab's node has it).
   */
  ycsbCrashAfterOps?: number;
  /** Likewise with SIGSTOP: the JVM hangs, its connections stay open, until it is killed. */
  ycsbHangAfterOps?: number;
  /**
   * After a bucket is created, SELECT_BUCKET answers "not found" and REST shows the node's status
   * as "warmup" for this long (REAL-LAB C8). Default 300 ms; 0 = ready at once.
   */
  bucketWarmupMs?: number;
  /**
   * REAL-LAB C4: a deletion finishes this long after DELETE (default 700 ms; 0 = at once). Meanwhile
   * DELETE has answered 500 "Bucket deletion not yet complete, but will continue.", GET still shows
   * the bucket and a create of that name answers 500 "Bucket with given name still exists".
   */
  bucketDeletionMs?: number;
  /** REAL-LAB C6: basicStats.itemCount is sampled this often (default 1000 ms; 0 = live). */
  statsIntervalMs?: number;
  /**
   * REAL-LAB C6, C10: a mutation is on disk this long after it is made (default 400 ms): its first
   * quarter in the checkpoint queue (ep_queue_size, vb_active_queue_size), the rest with the
   * flusher (ep_flusher_todo); ep_diskqueue_items counts both.
   */
  persistDelayMs?: number;
  /**
   * REAL-LAB C10: bucket stats (/pools/default/buckets/B/stats) come from a scrape this often
   * (default 1000 ms; Couchbase 7.x's Prometheus: 10 s): between scrapes the answer is the last
   * one, and before a new bucket's first scrape it has no queue stats at all.
   */
  statsScrapeMs?: number;
  /** `nodes[].services` (default kv, index, n1ql). Without n1ql the query port refuses every request (REAL-LAB Y7). */
  nodeServices?: string[];
  /** A `CREATE PRIMARY INDEX` is building (not online) this long (default 300 ms). */
  indexBuildMs?: number;
  /**
   * REAL-LAB C11: the indexer applies a mutation to the primary index no sooner than this long after
   * it (default 300 ms) and at most `indexItemsPerSec` a second (default 400): after a load it is
   * still catching up, and a scan then reads an index without the newest keys. 0 and 0 = at once.
   */
  indexLagMs?: number;
  indexItemsPerSec?: number;
}

/** The strict defaults of the switches above (the lab is as strict as a real node unless a test relaxes it). */
export const strictNodeDefaults = {
  bucketWarmupMs: 300,
  bucketDeletionMs: 700,
  statsIntervalMs: 1000,
  persistDelayMs: 400,
  statsScrapeMs: 1000,
  nodeServices: ['kv', 'index', 'n1ql'],
  indexBuildMs: 300,
  indexLagMs: 300,
  indexItemsPerSec: 400,
} as const;

export interface TestNodeOptions {
  /** Addresses to listen on, one per lab interface. Default `['127.0.0.1']`. */
  addresses?: string[];
  /** 0 (default) picks a free port on the first address and uses it on all of them. */
  kvPort?: number;
  restPort?: number;
  username: string;
  password: string;
  /** What `/pools` and `/nodes/self` report, e.g. `7.6.2-3721-enterprise`. */
  version?: string;
  /** The cluster's RAM quota for data, in MiB (bucket quotas must fit in it). Default 2048. */
  memoryQuotaMB?: number;
  /** Hard cap on stored key+value bytes over all buckets; writes beyond get 0x82. Default 64 MiB. */
  maxDataBytes?: number;
  faults?: () => TestNodeFaults;
  log?: (line: string) => void;
  /** The node's configured name (REAL-LAB C7): set, the cluster map and /pools/default name the node
   * by it, so clients send data traffic there whatever address they bootstrapped through. Unset:
   * a fresh node configured as 127.0.0.1, announced as the address each client used ($HOST). */
  nodeName?: string;
  /**
   * Sends a signal to the process at the other end of a KV connection (faults ycsbCrashAfterOps,
   * ycsbHangAfterOps); returns what was done, for the log. Without it those faults do nothing.
   */
  signalClient?: (
    connection: { nodeAddress: string; nodePort: number; clientAddress: string; clientPort: number },
    signal: NodeJS.Signals,
  ) => string;
  /** Addresses whose KV port the node listens on itself (default: every address). The others' KV
   * connections are handed in through `acceptKv` (the lab's Onload stack, standins/onloadStack.ts). */
  kvAddresses?: string[];
  /** The same for REST (default: every address); the others' come through `acceptRest`. */
  restAddresses?: string[];
  /** A file that keeps the node's cluster membership across a restart (clusterMembership.ts `saved`). */
  membershipFile?: string;
}

export interface CouchbaseTestNode {
  addresses: string[];
  kvPort: number;
  restPort: number;
  /** The query service's port (REAL-LAB Y7), announced as `n1ql` in /pools/default/nodeServices. */
  queryPort: number;
  version: string;
  bucketNames(): string[];
  /** RBAC users: name -> roles. */
  users(): Record<string, string[]>;
  /** Items in a bucket, or undefined if there is no such bucket. */
  itemCount(bucket: string): number | undefined;
  /** Serves a KV connection accepted elsewhere (the lab's Onload stack). */
  acceptKv(socket: Socket): void;
  /** Serves a REST connection accepted elsewhere (the lab babysitter's listeners, C9). */
  acceptRest(socket: Socket): void;
  stop(): Promise<void>;
}

interface StoredDocument {
  value: Buffer;
  flags: number;
  datatype: number;
  cas: bigint;
}

interface Bucket {
  name: string;
  uuid: string;
  bucketType: string;
  ramQuotaMB: number;
  replicaNumber: number;
  evictionPolicy: string;
  conflictResolutionType: string;
  flushEnabled: boolean;
  durabilityMinLevel: string;
  storageBackend: string;
  maxTTL: number;
  compressionMode: string;
  createdAt: number;
  documents: Map<string, StoredDocument>;
  bytes: number;
  operations: number;
  /** REAL-LAB C4: when a deletion in progress ends (the bucket is gone for KV already). */
  deletingUntil?: number;
  /** REAL-LAB C6: the last stats sample of the item count, and when it was taken. */
  sampledItems: number;
  sampledAt: number;
  /** REAL-LAB C6: when each queued mutation was made (drained after persistDelayMs). */
  writeQueue: number[];
  /** REAL-LAB C10: the last stats scrape (none yet right after creation). */
  scrape?: { at: number; values: Record<string, number | string> };
  /** REAL-LAB Y7, C11: the primary index (online from `onlineAt`), which trails the data. */
  primaryIndex?: PrimaryIndex;
}

/** A primary index: the keys it holds, and the mutations its indexer has not applied yet. */
interface PrimaryIndex {
  onlineAt: number;
  keys: Set<string>;
  backlog: { at: number; key: string; removed: boolean }[];
  /** Keys in id order, rebuilt after a change. */
  sorted?: string[];
}

interface RbacUser {
  password: string;
  roles: string[];
}

interface Connection {
  socket: Socket;
  username?: string;
  bucket?: Bucket;
  scram?: ScramConversation;
}

const defaultVersion = '7.6.2-3721-enterprise';
const vbucketCount = 64;
const mebibyte = 1024 * 1024;
const bucketNamePattern = /^[A-Za-z0-9._%-]{1,100}$/;
// HELLO features the node agrees to: TCP nodelay (0x03) and select bucket (0x08). Anything else
// (xerror, collections, snappy, alternative framing) would need more protocol than a test needs.
const supportedHelloFeatures = new Set([0x03, 0x08]);

export async function startCouchbaseTestNode(options: TestNodeOptions): Promise<CouchbaseTestNode> {
  const addresses = options.addresses && options.addresses.length > 0 ? options.addresses : ['127.0.0.1'];
  const version = options.version ?? defaultVersion;
  const memoryQuotaMB = options.memoryQuotaMB ?? 2048;
  const maxDataBytes = options.maxDataBytes ?? 64 * mebibyte;
  const faults = (): TestNodeFaults => options.faults?.() ?? {};
  const log = options.log ?? (() => undefined);
  const buckets = new Map<string, Bucket>();
  const connections = new Set<Connection>();
  const scramSecrets = newScramSecrets();
  const nodeUuid = randomBytes(16).toString('hex');
  let startedAt = Date.now();
  let configRevision = 1;
  let casCounter = BigInt(Date.now()) * 1000000n;
  let storedBytes = 0;
  let kvPort = options.kvPort ?? 0;
  let restPort = options.restPort ?? 0;
  let queryPort = 0;
  const setting = <K extends keyof typeof strictNodeDefaults>(
    name: K,
  ): (typeof strictNodeDefaults)[K] | NonNullable<TestNodeFaults[K]> => faults()[name] ?? strictNodeDefaults[name];

  // --- the cluster this node is a member of (issue 23, lab README K1-K9: clusterMembership.ts)
  const nodeAddress = options.nodeName ?? addresses[0];
  const membership = clusterMembership({
    self: () => ({
      otpNode: `ns_1@${nodeAddress}`,
      hostname: `${nodeAddress.includes(':') ? `[${nodeAddress}]` : nodeAddress}:${restPort}`,
      services: [...setting('nodeServices')],
    }),
    username: options.username,
    password: options.password,
    faults,
    // K9: an ejected node forgets its buckets and users, and its memcached restarts
    wipe: () => {
      buckets.clear();
      users.clear();
      setClusterView([]);
      storedBytes = 0;
      for (const connection of connections) connection.socket.destroy();
      startedAt = Date.now();
    },
    log,
    ...(options.membershipFile !== undefined ? { saved: membershipFileStore(options.membershipFile, log) } : {}),
    onMembersChanged: (members) => void shareClusterView(members),
  });

  // --- the cluster map over the members (issue 23, lab README K13) ------------------------------
  // After a rebalance the orchestrator reads every member's ports and hands the member list to
  // each (`POST /_lab/clusterView`, the lab's stand-in for ns_server's replicated config); every
  // member's cluster map then lists them all and spreads the vBuckets over them, so the SDKs and
  // YCSB send each key to its node. A bucket or RBAC user made on one member is made on the others
  // (`x-lab-forwarded`), and the orchestrator's bucket answer counts every member's items.
  let clusterView: ViewMember[] | undefined;
  if (options.membershipFile !== undefined) {
    try {
      const kept = JSON.parse(readFileSync(`${options.membershipFile}.map`, 'utf8')) as ViewMember[];
      if (kept.length > 1) clusterView = kept;
    } catch {
      // no map kept: a node of its own
    }
  }
  const selfOtpNode = (): string => `ns_1@${nodeAddress}`;
  const adminHeader = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  async function shareClusterView(members: { otpNode: string; hostname: string; services: string[] }[]): Promise<void> {
    try {
      const view: ViewMember[] = [];
      for (const member of members) {
        if (member.otpNode === selfOtpNode()) {
          view.push({
            otpNode: member.otpNode,
            name: nodeAddress,
            restPort,
            kvPort,
            ...(setting('nodeServices').includes('n1ql') ? { queryPort } : {}),
          });
          continue;
        }
        const answer = (await (
          await fetch(`http://${member.hostname}/pools/default/nodeServices`, {
            headers: { authorization: adminHeader },
            signal: AbortSignal.timeout(5000),
          })
        ).json()) as { nodesExt?: { services?: Record<string, number> }[] };
        const ports = answer.nodesExt?.[0]?.services ?? {};
        const name = member.hostname.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
        view.push({
          otpNode: member.otpNode,
          name,
          restPort: ports.mgmt ?? 8091,
          kvPort: ports.kv ?? 11210,
          ...(ports.n1ql !== undefined ? { queryPort: ports.n1ql } : {}),
        });
      }
      setClusterView(view);
      await Promise.all(
        view
          .filter((member) => member.otpNode !== selfOtpNode())
          .map((member) =>
            fetch(`http://${hostPort(member.name, member.restPort)}/_lab/clusterView`, {
              method: 'POST',
              headers: { authorization: adminHeader, 'content-type': 'application/json' },
              body: JSON.stringify(view),
              signal: AbortSignal.timeout(5000),
            }),
          ),
      );
    } catch (error) {
      log(`cluster: could not share the cluster map: ${String(error)}`);
    }
  }
  function setClusterView(view: ViewMember[]): void {
    clusterView = view.length > 1 ? view : undefined;
    configRevision += 1;
    // kept with the membership: a member that restarts serves the same map (its ports are fixed then)
    if (options.membershipFile !== undefined) {
      try {
        writeFileSync(`${options.membershipFile}.map`, `${JSON.stringify(clusterView ?? [])}\n`, { mode: 0o600 });
      } catch (error) {
        log(`cluster: could not keep the cluster map: ${String(error)}`);
      }
    }
    log(`cluster: cluster map over ${view.map((member) => member.name).join(', ')}`);
  }
  /** The other members, when this node is in a cluster of several. */
  const otherMembers = (): ViewMember[] => (clusterView ?? []).filter((member) => member.otpNode !== selfOtpNode());
  /** Sends what a client asked of this node to every other member (which does not send it on). */
  async function forward(
    method: string,
    path: string,
    body: string | undefined,
    contentType: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<void> {
    await Promise.all(
      otherMembers().map(async (member) => {
        try {
          await fetch(`http://${hostPort(member.name, member.restPort)}${path}`, {
            method,
            headers: {
              authorization: adminHeader,
              'x-lab-forwarded': '1',
              ...headers,
              ...(contentType ? { 'content-type': contentType } : {}),
            },
            ...(body !== undefined ? { body } : {}),
            signal: AbortSignal.timeout(5000),
          });
        } catch (error) {
          log(`cluster: ${method} ${path} did not reach ${member.name}: ${String(error)}`);
        }
      }),
    );
  }
  /** Each other member's share of a bucket (its last items sample and warm-up), for the orchestrator's answer. */
  async function memberShares(bucket: string): Promise<Map<string, { items: number; warm: boolean }>> {
    const shares = new Map<string, { items: number; warm: boolean }>();
    await Promise.all(
      otherMembers().map(async (member) => {
        try {
          const answer = await fetch(
            `http://${hostPort(member.name, member.restPort)}/_lab/share?bucket=${encodeURIComponent(bucket)}`,
            { headers: { authorization: adminHeader }, signal: AbortSignal.timeout(5000) },
          );
          if (answer.status === 200)
            shares.set(member.otpNode, (await answer.json()) as { items: number; warm: boolean });
        } catch {
          // an unreachable member counts no items and is not healthy
        }
      }),
    );
    return shares;
  }

  // --- users: the admin and the RBAC users created through REST (REAL-LAB Y2: nobody else; a
  // couchbase2 client logging in with the bucket's name needs such a user)
  const users = new Map<string, RbacUser>();
  const passwordOf = (username: string): string | undefined =>
    username === options.username ? options.password : users.get(username)?.password;
  /** Whether `username` may use the bucket's data (the admin, or a role on that bucket). */
  const mayUseBucket = (username: string, bucket: string): boolean => {
    if (username === options.username) return true;
    const roles = users.get(username)?.roles ?? [];
    return roles.some((role) =>
      /^(bucket_full_access|bucket_admin|data_reader|data_writer)\[([^\]:]+)/
        .exec(role)
        ?.slice(2)
        .some((name) => name === bucket || name === '*'),
    );
  };
  /** REAL-LAB C8: a new bucket is not ready for this long after its creation. */
  const warmingUp = (bucket: Bucket): boolean => Date.now() - bucket.createdAt < setting('bucketWarmupMs');
  /** The live buckets (a bucket being deleted is gone for KV, REAL-LAB C4). */
  const liveBucket = (name: string): Bucket | undefined => {
    const bucket = buckets.get(name);
    return bucket && bucket.deletingUntil === undefined ? bucket : undefined;
  };
  // finish deletions, take stats samples, drain write queues
  const housekeeping = setInterval(() => {
    const now = Date.now();
    for (const bucket of [...buckets.values()]) {
      if (bucket.deletingUntil !== undefined && now >= bucket.deletingUntil) {
        buckets.delete(bucket.name);
        log(`rest: deletion of ${bucket.name} complete`);
        continue;
      }
      if (now - bucket.sampledAt >= setting('statsIntervalMs')) {
        bucket.sampledItems = bucket.documents.size;
        bucket.sampledAt = now;
      }
      const persisted = now - setting('persistDelayMs');
      const queued = bucket.writeQueue.length;
      while (bucket.writeQueue.length > 0 && bucket.writeQueue[0] <= persisted) bucket.writeQueue.shift();
      // what a test compares with the moment the run started (REAL-LAB C10)
      if (queued > 0 && bucket.writeQueue.length === 0) log(`persistence: every mutation of ${bucket.name} is on disk`);
      if (now - (bucket.scrape?.at ?? bucket.createdAt) >= setting('statsScrapeMs'))
        bucket.scrape = { at: now, values: statValues(bucket, now) };
      indexerTick(bucket, now);
    }
    lastIndexerTick = Date.now();
  }, 50);
  /** The stats a scrape records: the queues a mutation passes through, the items, the warm-up (REAL-LAB C6, C10). */
  function statValues(bucket: Bucket, now: number): Record<string, number | string> {
    const inCheckpoint = now - setting('persistDelayMs') / 4;
    const checkpoint = bucket.writeQueue.filter((at) => at > inCheckpoint).length;
    const flusher = bucket.writeQueue.length - checkpoint;
    return {
      ep_queue_size: checkpoint,
      ep_flusher_todo: flusher,
      ep_diskqueue_items: checkpoint + flusher,
      vb_active_queue_size: checkpoint,
      vb_replica_queue_size: 0,
      vb_pending_queue_size: 0,
      // a single node holds no replica vBuckets, whatever replicaNumber says
      ep_dcp_replica_items_remaining: 0,
      curr_items: bucket.documents.size,
      ep_warmup_state: warmingUp(bucket) ? 'loading data' : 'done',
    };
  }
  let lastIndexerTick = Date.now();
  /** REAL-LAB C11: the indexer applies what is old enough, at its rate. */
  function indexerTick(bucket: Bucket, now: number): void {
    const index = bucket.primaryIndex;
    if (!index || now < index.onlineAt) return;
    const rate = setting('indexItemsPerSec');
    let budget = rate > 0 ? Math.max(1, Math.floor(((now - lastIndexerTick) * rate) / 1000)) : Number.POSITIVE_INFINITY;
    const ripe = now - setting('indexLagMs');
    while (budget > 0 && index.backlog.length > 0 && index.backlog[0].at <= ripe) {
      const change = index.backlog.shift()!;
      if (change.removed) index.keys.delete(change.key);
      else index.keys.add(change.key);
      index.sorted = undefined;
      budget -= 1;
    }
  }
  housekeeping.unref();

  // --- cluster map -----------------------------------------------------------------------------
  // What ns_server's bucket_info_cache hands to clients (over GET_CLUSTER_CONFIG and the terse
  // REST config): `nodesExt` with every service's port, and for a bucket also the older `nodes`
  // list (hostname with the REST port, `ports.direct` = KV), which Java SDK 2.x reads for a node's
  // address and the Node SDK ignores. Services a node does not run are left out.
  function serviceMap(): Record<string, number> {
    const services: Record<string, number> = { mgmt: restPort, kv: kvPort };
    if (setting('nodeServices').includes('n1ql')) services.n1ql = queryPort;
    return services;
  }

  function clusterConfig(host: string, bucket?: Bucket): Record<string, unknown> {
    if (clusterView) return clusterViewConfig(clusterView, bucket);
    const name = options.nodeName ?? host;
    const node = { hostname: name, thisNode: true, services: serviceMap() };
    const config: Record<string, unknown> = { rev: configRevision, revEpoch: 1, nodesExt: [node] };
    if (!bucket) return config;
    return {
      ...bucketEnvelope(bucket),
      nodes: [{ hostname: `${name}:${restPort}`, ports: { direct: kvPort } }],
      nodesExt: [node],
      vBucketServerMap: {
        hashAlgorithm: 'CRC',
        numReplicas: 0,
        serverList: [`${name}:${kvPort}`],
        vBucketMap: Array.from({ length: vbucketCount }, () => [0]),
      },
    };
  }

  /** What a bucket's cluster map says of the bucket itself, whatever its nodes. */
  function bucketEnvelope(bucket: Bucket): Record<string, unknown> {
    return {
      rev: configRevision,
      revEpoch: 1,
      name: bucket.name,
      uri: `/pools/default/buckets/${bucket.name}?bucket_uuid=${bucket.uuid}`,
      streamingUri: `/pools/default/bucketsStreaming/${bucket.name}?bucket_uuid=${bucket.uuid}`,
      uuid: bucket.uuid,
      nodeLocator: 'vbucket',
      bucketCapabilitiesVer: '',
      bucketCapabilities: ['cbhello', 'touch', 'cccp', 'xdcrCheckpointing', 'nodesExt', 'xattr', 'dcp'],
    };
  }

  /**
   * K13: every member in nodesExt and the bucket's serverList, vBucket v active on member v mod N, its replicas on the
   * next ones.
   */
  function clusterViewConfig(view: ViewMember[], bucket?: Bucket): Record<string, unknown> {
    const nodesExt = view.map((member) => ({
      hostname: member.name,
      ...(member.otpNode === selfOtpNode() ? { thisNode: true } : {}),
      services: {
        mgmt: member.restPort,
        kv: member.kvPort,
        ...(member.queryPort !== undefined ? { n1ql: member.queryPort } : {}),
      },
    }));
    if (!bucket) return { rev: configRevision, revEpoch: 1, nodesExt };
    const replicas = Math.min(bucket.replicaNumber, view.length - 1);
    return {
      ...bucketEnvelope(bucket),
      nodes: view.map((member) => ({
        hostname: hostPort(member.name, member.restPort),
        ports: { direct: member.kvPort },
      })),
      nodesExt,
      vBucketServerMap: {
        hashAlgorithm: 'CRC',
        numReplicas: bucket.replicaNumber,
        serverList: view.map((member) => hostPort(member.name, member.kvPort)),
        vBucketMap: Array.from({ length: vbucketCount }, (_, vbucket) =>
          Array.from({ length: bucket.replicaNumber + 1 }, (__, copy) =>
            copy <= replicas ? (vbucket + copy) % view.length : -1,
          ),
        ),
      },
    };
  }

  // --- KV --------------------------------------------------------------------------------------
  function nextCas(): bigint {
    casCounter += 1n;
    return casCounter;
  }

  function removeDocument(bucket: Bucket, key: string): void {
    const old = bucket.documents.get(key);
    if (!old) return;
    const size = key.length + old.value.length;
    bucket.bytes -= size;
    storedBytes -= size;
    bucket.documents.delete(key);
  }

  function mutate(connection: Connection, request: KvRequest): KvResponse {
    const bucket = connection.bucket!;
    const key = request.key.toString('utf8');
    const existing = bucket.documents.get(key);
    if (request.opcode === Opcode.delete) {
      if (!existing) return { status: Status.keyNotFound };
      if (request.cas !== 0n && request.cas !== existing.cas) return { status: Status.keyExists };
      removeDocument(bucket, key);
      if (bucket.bucketType === 'membase') bucket.writeQueue.push(Date.now());
      bucket.primaryIndex?.backlog.push({ at: Date.now(), key, removed: true });
      return { status: Status.success, cas: nextCas() };
    }
    if (request.opcode === Opcode.add && existing) return { status: Status.keyExists };
    if (request.opcode === Opcode.replace && !existing) return { status: Status.keyNotFound };
    if (request.cas !== 0n) {
      if (!existing) return { status: Status.keyNotFound };
      if (request.cas !== existing.cas) return { status: Status.keyExists };
    }
    const growth = key.length + request.value.length - (existing ? key.length + existing.value.length : 0);
    if (storedBytes + growth > maxDataBytes || bucket.bytes + growth > bucket.ramQuotaMB * mebibyte) {
      return { status: Status.temporaryFailure, value: Buffer.from('Temporary failure: out of memory') };
    }
    removeDocument(bucket, key);
    const document: StoredDocument = {
      value: request.value,
      flags: request.extras.length >= 4 ? request.extras.readUInt32BE(0) : 0,
      datatype: request.datatype & Datatype.json,
      cas: nextCas(),
    };
    bucket.documents.set(key, document);
    if (bucket.bucketType === 'membase') bucket.writeQueue.push(Date.now());
    if (!existing) bucket.primaryIndex?.backlog.push({ at: Date.now(), key, removed: false });
    bucket.bytes += key.length + request.value.length;
    storedBytes += key.length + request.value.length;
    return { status: Status.success, cas: document.cas };
  }

  /** Document operations served, and where each client-process fault started counting. */
  let documentOperations = 0;
  const faultStarts = new Map<string, number>();
  /** ycsbCrashAfterOps / ycsbHangAfterOps: the Nth operation since the switch was set signals its sender. */
  function clientProcessFaults(connection: Connection): void {
    const set = faults();
    for (const [name, signal] of [
      ['ycsbCrashAfterOps', 'SIGKILL'],
      ['ycsbHangAfterOps', 'SIGSTOP'],
    ] as const) {
      const after = set[name];
      if (after === undefined) {
        faultStarts.delete(name);
        continue;
      }
      const key = `${name}=${after}`;
      if (!faultStarts.has(key)) faultStarts.set(key, documentOperations - 1);
      if (documentOperations - faultStarts.get(key)! !== after) continue;
      const socket = connection.socket;
      const what = options.signalClient?.(
        {
          nodeAddress: socket.localAddress?.replace(/^::ffff:/, '') ?? '',
          nodePort: socket.localPort ?? 0,
          clientAddress: socket.remoteAddress?.replace(/^::ffff:/, '') ?? '',
          clientPort: socket.remotePort ?? 0,
        },
        signal,
      );
      log(`fault ${key}: ${what ?? 'no signalClient, nothing done'}`);
    }
  }

  function documentOperation(connection: Connection, request: KvRequest): KvResponse {
    const bucket = connection.bucket;
    if (!connection.username) return { status: Status.authError };
    if (!bucket || liveBucket(bucket.name) !== bucket) return { status: Status.noAccess };
    bucket.operations += 1;
    documentOperations += 1;
    clientProcessFaults(connection);
    const every = faults().temporaryFailureEvery ?? 0;
    if (every > 0 && bucket.operations % every === 0) {
      return { status: Status.temporaryFailure, value: Buffer.from('Temporary failure (lab fault)') };
    }
    if (request.opcode === Opcode.get) {
      const document = bucket.documents.get(request.key.toString('utf8'));
      if (!document) return { status: Status.keyNotFound };
      const extras = Buffer.alloc(4);
      extras.writeUInt32BE(document.flags >>> 0, 0);
      return { status: Status.success, extras, value: document.value, cas: document.cas, datatype: document.datatype };
    }
    return mutate(connection, request);
  }

  function handle(connection: Connection, request: KvRequest): KvResponse {
    const host = connection.socket.localAddress?.replace(/^::ffff:/, '') ?? addresses[0];
    switch (request.opcode) {
      case Opcode.hello: {
        const accepted: number[] = [];
        for (let i = 0; i + 1 < request.value.length; i += 2) {
          const feature = request.value.readUInt16BE(i);
          if (supportedHelloFeatures.has(feature)) accepted.push(feature);
        }
        const value = Buffer.alloc(accepted.length * 2);
        accepted.forEach((feature, index) => value.writeUInt16BE(feature, index * 2));
        return { status: Status.success, value };
      }
      case Opcode.saslListMechs:
        return { status: Status.success, value: Buffer.from(scramMechanism) };
      case Opcode.saslAuth: {
        if (request.key.toString() !== scramMechanism) return { status: Status.authError };
        connection.scram = new ScramConversation(passwordOf, scramSecrets);
        const serverFirst = connection.scram.start(request.value.toString('utf8'));
        if (!serverFirst) return { status: Status.authError };
        return { status: Status.authContinue, value: Buffer.from(serverFirst) };
      }
      case Opcode.saslStep: {
        const outcome = connection.scram?.finish(request.value.toString('utf8'));
        connection.scram = undefined;
        if (!outcome) {
          log(`kv: authentication failed on ${host}`);
          return { status: Status.authError, value: Buffer.from('Auth failure') };
        }
        connection.username = outcome.username;
        // kv_engine (7.x daemon/protocol/mcbp/sasl_auth_command_context.cc): a successful login
        // binds the connection to the bucket named after the user when the user may use it, and to
        // no bucket otherwise. Java SDK 2.x (couchbase2, REAL-LAB Y2) relies on it: it never
        // sends SELECT_BUCKET. A bucket still warming up is not ready to be bound (C8).
        const own = liveBucket(outcome.username);
        connection.bucket = own && mayUseBucket(outcome.username, own.name) && !warmingUp(own) ? own : undefined;
        return { status: Status.success, value: Buffer.from(outcome.serverFinal) };
      }
      case Opcode.selectBucket: {
        if (!connection.username) return { status: Status.authError };
        const bucket = liveBucket(request.key.toString('utf8'));
        // REAL-LAB Y2: a user without a role on the bucket sees no bucket at all
        if (!bucket || !mayUseBucket(connection.username, bucket.name)) {
          log(`kv: ${connection.username} may not select ${request.key.toString('utf8')}`);
          return { status: Status.noAccess };
        }
        if (warmingUp(bucket)) return { status: Status.keyNotFound };
        connection.bucket = bucket;
        return { status: Status.success };
      }
      case Opcode.getClusterConfig: {
        const bucket =
          connection.bucket && liveBucket(connection.bucket.name) === connection.bucket ? connection.bucket : undefined;
        const value = Buffer.from(JSON.stringify(clusterConfig(host, bucket)));
        return { status: Status.success, value, datatype: Datatype.json };
      }
      case Opcode.noop:
        return { status: Status.success };
      case Opcode.get:
      case Opcode.set:
      case Opcode.add:
      case Opcode.replace:
      case Opcode.delete:
        return documentOperation(connection, request);
      default:
        return { status: Status.unknownCommand };
    }
  }

  function isDocumentOperation(opcode: number): boolean {
    return opcode <= Opcode.delete;
  }

  function acceptKv(socket: Socket): void {
    socket.setNoDelay(true);
    const connection: Connection = { socket };
    connections.add(connection);
    let pending: Buffer = Buffer.alloc(0);
    // Requests are answered in arrival order, even when a fault delays some of them.
    let queue: Promise<void> = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let requests: KvRequest[];
      try {
        ({ requests, rest: pending } = readRequests(pending));
      } catch (error) {
        log(`kv: closing connection: ${error instanceof FrameError ? error.message : String(error)}`);
        socket.destroy();
        return;
      }
      for (const request of requests) {
        queue = queue.then(async () => {
          const delay = isDocumentOperation(request.opcode) ? (faults().kvDelayMs ?? 0) : 0;
          if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
          if (socket.destroyed) return;
          socket.write(encodeResponse(request, handle(connection, request)));
        });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => connections.delete(connection));
  }

  // --- REST ------------------------------------------------------------------------------------
  function nodeJson(host: string, bucket?: Bucket): Record<string, unknown> {
    // REAL-LAB C8: a bucket's node reports "warmup" until its vBuckets are loaded
    const warming = bucket !== undefined && Date.now() - bucket.createdAt < setting('bucketWarmupMs');
    return {
      hostname: `${options.nodeName ?? host}:${restPort}`,
      // whole seconds since this process started, as a string (REAL-LAB C3: proof of a fresh start)
      uptime: String(Math.floor((Date.now() - startedAt) / 1000)),
      thisNode: true,
      status: warming ? 'warmup' : 'healthy',
      clusterMembership: 'active',
      recoveryType: 'none',
      version,
      os: 'x86_64-pc-linux-gnu',
      nodeUUID: nodeUuid,
      services: [...setting('nodeServices')],
      memoryQuota: memoryQuotaMB,
      ports: { direct: kvPort, distTCP: 21100, distTLS: 21150, httpsMgmt: 18091, httpsCAPI: 18092 },
    };
  }

  function bucketJson(
    bucket: Bucket,
    host: string,
    shares?: Map<string, { items: number; warm: boolean }>,
  ): Record<string, unknown> {
    const ownItems = setting('statsIntervalMs') === 0 ? bucket.documents.size : bucket.sampledItems;
    // K13: in a cluster the answer lists every member with its own items; the count is the cluster's
    const memberNodes =
      clusterView && shares
        ? clusterView.map((member) =>
            member.otpNode === selfOtpNode()
              ? { ...nodeJson(host, bucket), interestingStats: { curr_items: ownItems, vb_replica_curr_items: 0 } }
              : {
                  hostname: hostPort(member.name, member.restPort),
                  thisNode: false,
                  status:
                    shares.get(member.otpNode)?.warm === false
                      ? 'warmup'
                      : shares.has(member.otpNode)
                        ? 'healthy'
                        : 'unhealthy',
                  clusterMembership: 'active',
                  services: ['kv'],
                  ports: { direct: member.kvPort },
                  interestingStats: { curr_items: shares.get(member.otpNode)?.items ?? 0, vb_replica_curr_items: 0 },
                },
          )
        : undefined;
    const itemCount = ownItems + [...(shares?.values() ?? [])].reduce((sum, share) => sum + share.items, 0);
    const controllers: Record<string, string> = {
      compactAll: `/pools/default/buckets/${bucket.name}/controller/compactBucket`,
    };
    if (bucket.flushEnabled) controllers.flush = `/pools/default/buckets/${bucket.name}/controller/doFlush`;
    return {
      name: bucket.name,
      uuid: bucket.uuid,
      bucketType: bucket.bucketType,
      authType: 'sasl',
      uri: `/pools/default/buckets/${bucket.name}?bucket_uuid=${bucket.uuid}`,
      replicaNumber: bucket.replicaNumber,
      replicaIndex: false,
      evictionPolicy: bucket.evictionPolicy,
      conflictResolutionType: bucket.conflictResolutionType,
      durabilityMinLevel: bucket.durabilityMinLevel,
      storageBackend: bucket.storageBackend,
      maxTTL: bucket.maxTTL,
      compressionMode: bucket.compressionMode,
      quota: { ram: bucket.ramQuotaMB * mebibyte, rawRAM: bucket.ramQuotaMB * mebibyte },
      basicStats: {
        // REAL-LAB C6: the last sample, not a live count
        itemCount,
        memUsed: bucket.bytes,
        dataUsed: bucket.bytes,
        diskUsed: 0,
        opsPerSec: 0,
        quotaPercentUsed: (100 * bucket.bytes) / (bucket.ramQuotaMB * mebibyte),
      },
      controllers,
      // the verbose form carries the cluster map too (Java SDK 2.x's last fallback)
      nodeLocator: 'vbucket',
      rev: configRevision,
      streamingUri: `/pools/default/bucketsStreaming/${bucket.name}?bucket_uuid=${bucket.uuid}`,
      vBucketServerMap: (clusterConfig(host, bucket) as { vBucketServerMap: unknown }).vBucketServerMap,
      nodesExt: (clusterConfig(host, bucket) as { nodesExt: unknown }).nodesExt,
      nodes: memberNodes ?? [
        { ...nodeJson(host, bucket), interestingStats: { curr_items: ownItems, vb_replica_curr_items: 0 } },
      ],
      bucketCapabilities: ['cbhello', 'touch', 'cccp', 'xdcrCheckpointing', 'nodesExt', 'xattr', 'dcp'],
    };
  }

  function reservedQuotaMB(): number {
    let total = 0;
    for (const bucket of buckets.values()) total += bucket.ramQuotaMB;
    return total;
  }

  function createBucket(form: URLSearchParams, uuid?: string): { status: number; body?: unknown } {
    const refusal = faults().refuseBucketCreation;
    if (refusal) return { status: 400, body: { errors: { _: refusal } } };
    const errors: Record<string, string> = {};
    const name = form.get('name') ?? '';
    if (name === '') errors.name = 'Bucket name needs to be specified';
    else if (!bucketNamePattern.test(name)) {
      errors.name =
        'Bucket name can only contain characters in range A-Z, a-z, 0-9 as well as underscore, period, dash & percent. Consult the documentation.';
    } else if (buckets.get(name)?.deletingUntil !== undefined) {
      // REAL-LAB C4: a 500, which the SDK reports as InternalServerFailureError
      return { status: 500, body: { _: 'Bucket with given name still exists' } };
    } else if (buckets.has(name)) errors.name = 'Bucket with given name already exists';
    const requestedType = form.get('bucketType') ?? 'membase';
    const bucketType = requestedType === 'couchbase' ? 'membase' : requestedType;
    if (!['membase', 'ephemeral', 'memcached'].includes(bucketType)) errors.bucketType = 'invalid bucket type';
    const quotaText = form.get('ramQuotaMB') ?? form.get('ramQuota');
    const ramQuotaMB = Number(quotaText);
    if (quotaText === null || !Number.isInteger(ramQuotaMB)) errors.ramQuota = 'RAM quota must be an integer';
    else if (ramQuotaMB < 100) errors.ramQuota = 'RAM quota cannot be less than 100 MiB';
    else if (reservedQuotaMB() + ramQuotaMB > memoryQuotaMB) {
      errors.ramQuota = 'RAM quota specified is too large to be provisioned into this cluster.';
    }
    const replicaNumber = Number(form.get('replicaNumber') ?? '1');
    if (!Number.isInteger(replicaNumber) || replicaNumber < 0 || replicaNumber > 3) {
      errors.replicaNumber = 'Replica number larger than 3 is not supported.';
    }
    if (Object.keys(errors).length > 0) return { status: 400, body: { errors } };
    buckets.set(name, {
      name,
      uuid: uuid ?? randomUUID().replace(/-/g, ''),
      bucketType,
      ramQuotaMB,
      replicaNumber,
      evictionPolicy: form.get('evictionPolicy') ?? (bucketType === 'ephemeral' ? 'noEviction' : 'valueOnly'),
      conflictResolutionType: form.get('conflictResolutionType') ?? 'seqno',
      flushEnabled: form.get('flushEnabled') === '1',
      durabilityMinLevel: form.get('durabilityMinLevel') ?? 'none',
      storageBackend: form.get('storageBackend') ?? 'couchstore',
      maxTTL: Number(form.get('maxTTL') ?? '0') || 0,
      compressionMode: form.get('compressionMode') ?? 'passive',
      createdAt: Date.now(),
      documents: new Map(),
      bytes: 0,
      operations: 0,
      sampledItems: 0,
      sampledAt: Date.now(),
      writeQueue: [],
    });
    configRevision += 1;
    log(`rest: created bucket ${name} (${ramQuotaMB} MiB)`);
    return { status: 202 };
  }

  /** Returns whether the deletion is still going on (REAL-LAB C4). */
  function dropBucket(name: string): boolean {
    const bucket = buckets.get(name);
    if (!bucket) return false;
    storedBytes -= bucket.bytes;
    const delay = setting('bucketDeletionMs');
    if (delay > 0) bucket.deletingUntil = bucket.deletingUntil ?? Date.now() + delay;
    else buckets.delete(name);
    configRevision += 1;
    // A real node closes KV connections bound to a deleted bucket; the SDK then re-bootstraps.
    for (const connection of connections) if (connection.bucket === bucket) connection.socket.destroy();
    log(`rest: dropped bucket ${name}${delay > 0 ? ' (deletion continues)' : ''}`);
    return delay > 0;
  }

  function authorised(request: IncomingMessage): boolean {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const expected = `${options.username}:${options.password}`;
    const given = Buffer.from(decoded);
    const wanted = Buffer.from(expected);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > mebibyte) throw new Error('request body too large');
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(response: ServerResponse, status: number, body?: unknown): void {
    if (body === undefined) {
      response.writeHead(status, { 'Content-Length': '0' });
      response.end();
      return;
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, {
      'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
    });
    response.end(text);
  }

  /** The user a Basic header authenticates (admin or RBAC user), or undefined. */
  function authenticatedUser(request: IncomingMessage): string | undefined {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const [name, given] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    const wanted = passwordOf(name);
    if (wanted === undefined) return undefined;
    const a = Buffer.from(given);
    const b = Buffer.from(wanted);
    return a.length === b.length && timingSafeEqual(a, b) ? name : undefined;
  }

  function nodeServicesJson(host: string): Record<string, unknown> {
    const services: Record<string, number> = { mgmt: restPort, kv: kvPort };
    if (setting('nodeServices').includes('n1ql')) services.n1ql = queryPort;
    return {
      rev: configRevision,
      nodesExt: [{ hostname: host, thisNode: true, services }],
      clusterCapabilitiesVer: [1, 0],
      clusterCapabilities: { n1ql: ['enhancedPreparedStatements'] },
    };
  }

  /** PUT/DELETE /settings/rbac/users/local/NAME, as ns_server validates them. */
  async function rbacUser(
    method: string,
    name: string,
    form?: URLSearchParams,
  ): Promise<{ status: number; body?: unknown }> {
    if (method === 'DELETE') {
      if (!users.delete(name)) return { status: 404, body: '"User was not found."' };
      return { status: 200, body: '""' };
    }
    if (method !== 'PUT' || !form) return { status: 405 };
    const password = form.get('password') ?? users.get(name)?.password ?? '';
    if (password.length < 6)
      return { status: 400, body: { errors: { password: 'The password must be at least 6 characters long.' } } };
    const roles = (form.get('roles') ?? '')
      .split(',')
      .map((role) => role.trim())
      .filter(Boolean);
    const bad = roles.filter((role) => {
      const match = /^([a-z_]+)(?:\[([^\]]+)\])?$/.exec(role);
      if (!match) return true;
      const bucket = match[2]?.split(':')[0];
      return bucket !== undefined && bucket !== '*' && liveBucket(bucket) === undefined;
    });
    if (bad.length > 0)
      return {
        status: 400,
        body: {
          errors: {
            roles: `Cannot assign roles to user because the following roles are unknown, malformed or role parameters are undefined: [${bad.join(',')}]`,
          },
        },
      };
    users.set(name, { password, roles });
    log(`rest: user ${name} with ${roles.join(',')}`);
    return { status: 200, body: '""' };
  }

  function sendOutcome(response: ServerResponse, outcome: { status: number; body?: unknown }): void {
    send(response, outcome.status, outcome.body);
  }

  // --- query service (REAL-LAB Y7, C11): queryService.ts over this node's buckets --------------
  const queryService = new QueryService({
    hasBucket: (name) => liveBucket(name) !== undefined,
    mayUse: mayUseBucket,
    createPrimaryIndex: (name) => {
      const bucket = liveBucket(name);
      if (!bucket || bucket.primaryIndex) return false;
      // the initial build takes what is there; later mutations go through the indexer
      bucket.primaryIndex = {
        onlineAt: Date.now() + setting('indexBuildMs'),
        keys: new Set(bucket.documents.keys()),
        backlog: [],
      };
      return true;
    },
    indexState: (name) => {
      const index = liveBucket(name)?.primaryIndex;
      return index === undefined ? undefined : Date.now() >= index.onlineAt ? 'online' : 'building';
    },
    indexedKeys: (name) => {
      const index = liveBucket(name)?.primaryIndex;
      if (!index || Date.now() < index.onlineAt) return undefined;
      index.sorted ??= [...index.keys].sort();
      // REAL-LAB C11: what a test looks for when a run scanned before the index caught up
      if (index.backlog.length > 0)
        log(`query: scan of ${name} read the primary index ${index.backlog.length} mutation(s) behind`);
      return index.sorted;
    },
    document: (name, key) => {
      const stored = liveBucket(name)?.documents.get(key);
      if (!stored) return undefined;
      try {
        return JSON.parse(stored.value.toString('utf8')) as unknown;
      } catch {
        return stored.value.toString('base64');
      }
    },
    indexCaughtUp: async (name, since, deadline) => {
      for (;;) {
        const index = liveBucket(name)?.primaryIndex;
        if (!index) return false;
        if (Date.now() >= index.onlineAt && (index.backlog.length === 0 || index.backlog[0].at > since)) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  });

  async function handleQuery(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!setting('nodeServices').includes('n1ql')) {
      // no query service on this node: nothing would listen on its port
      request.socket.destroy();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://node');
    // Java SDK 2.x posts to /query, the Node SDK and the engine to /query/service: both are the service's
    if (url.pathname === '/admin/ping' && request.method === 'GET') return send(response, 200, {});
    if ((url.pathname !== '/query/service' && url.pathname !== '/query') || request.method !== 'POST')
      return send(response, 404, 'Not found.\r\n');
    const username = authenticatedUser(request);
    if (username === undefined)
      return send(response, 401, { status: 'fatal', errors: [{ code: 10000, msg: 'Authentication failure' }] });
    let parsed;
    try {
      parsed = queryRequestFrom(await readBody(request), request.headers['content-type'] ?? '');
    } catch (error) {
      return send(response, 400, {
        status: 'fatal',
        errors: [{ code: 1040, msg: `Error processing request: ${String(error)}` }],
      });
    }
    const answer = await queryService.answer(username, parsed);
    response.writeHead(answer.httpStatus, {
      'Content-Type': 'application/json; version=7.6.2',
      'Content-Length': String(Buffer.byteLength(answer.body)),
    });
    response.end(answer.body);
  }

  /** `/pools/default/bs/B`: the terse configuration, then again whenever it changes, each followed by four newlines. */
  function streamBucketConfig(request: IncomingMessage, response: ServerResponse, bucket: Bucket, host: string): void {
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Transfer-Encoding': 'chunked' });
    let sent = -1;
    const push = (): void => {
      if (liveBucket(bucket.name) !== bucket) {
        clearInterval(timer);
        response.end();
        return;
      }
      if (sent === configRevision) return;
      sent = configRevision;
      response.write(`${JSON.stringify(clusterConfig(host, bucket))}\n\n\n\n`);
    };
    const timer = setInterval(push, 500);
    timer.unref();
    request.socket.on('close', () => clearInterval(timer));
    push();
  }

  async function handleRest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const delay = faults().restDelayMs ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const url = new URL(request.url ?? '/', 'http://node');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = request.method ?? 'GET';
    const host = request.socket.localAddress?.replace(/^::ffff:/, '') ?? addresses[0];
    if (method === 'GET' && path === '/') return send(response, 200, 'Couchbase Server (loopback lab test node)');
    if (method === 'GET' && path === '/pools') {
      // Public on a real node too: version and whether the cluster is initialised.
      return send(response, 200, {
        isAdminCreds: authorised(request),
        isEnterprise: version.includes('enterprise'),
        implementationVersion: version,
        uuid: nodeUuid,
        pools: [{ name: 'default', uri: '/pools/default', streamingUri: '/poolsStreaming/default' }],
      });
    }
    if (method === 'GET' && path === '/pools/default/nodeServices' && authenticatedUser(request) !== undefined) {
      // any authenticated user may read where the services are (clients bootstrap from it)
      return send(response, 200, nodeServicesJson(host));
    }
    // ns_server (menelaus_web.erl, menelaus_roles.erl): a bucket's configuration, terse (`b`, `bs`
    // streaming) or verbose, needs {[{bucket, B}, settings], read}, which a role on the bucket
    // such as bucket_full_access gives: Java SDK 2.x falls back to these, as the bucket's user,
    // when the KV port gives it no configuration.
    const bucketConfigPath = method === 'GET' ? /^\/pools\/default\/(b|bs|buckets)\/([^/]+)$/.exec(path) : null;
    if (bucketConfigPath && !authorised(request)) {
      const user = authenticatedUser(request);
      if (user === undefined) {
        response.setHeader('WWW-Authenticate', 'Basic realm="Couchbase Server Admin / REST"');
        return send(response, 401);
      }
      const name = decodeURIComponent(bucketConfigPath[2]);
      if (!mayUseBucket(user, name))
        return send(response, 403, {
          message: 'Forbidden. User needs the following permissions',
          permissions: [`cluster.bucket[${name}].settings!read`],
        });
    }
    if (bucketConfigPath && bucketConfigPath[1] !== 'buckets') {
      const bucket = liveBucket(decodeURIComponent(bucketConfigPath[2]));
      if (!bucket) return send(response, 404, 'Requested resource not found.\r\n');
      if (bucketConfigPath[1] === 'b') return send(response, 200, clusterConfig(host, bucket));
      return streamBucketConfig(request, response, bucket, host);
    }
    if (!authorised(request) && !bucketConfigPath) {
      response.setHeader('WWW-Authenticate', 'Basic realm="Couchbase Server Admin / REST"');
      return send(response, 401);
    }
    const forwarded = request.headers['x-lab-forwarded'] === '1';
    if (method === 'POST' && path === '/_lab/clusterView') {
      setClusterView(JSON.parse(await readBody(request)) as ViewMember[]);
      return send(response, 200);
    }
    if (method === 'GET' && path === '/_lab/share') {
      const bucket = liveBucket(url.searchParams.get('bucket') ?? '');
      if (!bucket) return send(response, 404);
      return send(response, 200, {
        items: setting('statsIntervalMs') === 0 ? bucket.documents.size : bucket.sampledItems,
        warm: !warmingUp(bucket),
      });
    }
    const userPath = /^\/settings\/rbac\/users\/local\/([^/]+)$/.exec(path);
    if (userPath) {
      const body = method === 'PUT' ? await readBody(request) : undefined;
      const outcome = await rbacUser(
        method,
        decodeURIComponent(userPath[1]),
        body !== undefined ? new URLSearchParams(body) : undefined,
      );
      if (!forwarded && outcome.status === 200) await forward(method, path, body, request.headers['content-type']);
      return sendOutcome(response, outcome);
    }
    if (method === 'GET' && path === '/settings/rbac/users') {
      return send(
        response,
        200,
        [...users.entries()].map(([id, user]) => ({
          id,
          domain: 'local',
          roles: user.roles.map((role) => ({
            role: role.replace(/\[.*$/, ''),
            bucket_name: /\[([^\]]+)\]/.exec(role)?.[1],
          })),
        })),
      );
    }
    const membershipOutcome = await membership.handle(
      method,
      path,
      url.searchParams,
      () => readBody(request),
      Date.now(),
    );
    if (membershipOutcome) return send(response, membershipOutcome.status, membershipOutcome.body);
    if (method === 'GET' && path === '/pools/default') {
      const now = Date.now();
      return send(response, 200, {
        name: 'default',
        nodes: membership.nodes(now, nodeJson(host), () => ({
          thisNode: false,
          status: 'healthy',
          recoveryType: 'none',
          version,
          os: 'x86_64-pc-linux-gnu',
        })),
        buckets: { uri: '/pools/default/buckets' },
        memoryQuota: memoryQuotaMB,
        storageTotals: {
          ram: {
            total: memoryQuotaMB * mebibyte * 2,
            quotaTotal: memoryQuotaMB * mebibyte,
            quotaUsed: reservedQuotaMB() * mebibyte,
            used: storedBytes,
          },
        },
        rebalanceStatus: membership.rebalanceStatus(now),
        balanced: membership.balanced(now),
      });
    }
    if (method === 'GET' && path === '/nodes/self') return send(response, 200, nodeJson(host));
    if (path === '/pools/default/buckets') {
      if (method === 'GET')
        return send(
          response,
          200,
          [...buckets.values()].map((bucket) => bucketJson(bucket, host)),
        );
      if (method === 'POST') {
        const body = await readBody(request);
        const form = new URLSearchParams(body);
        const outcome = createBucket(
          form,
          typeof request.headers['x-lab-bucket-uuid'] === 'string' ? request.headers['x-lab-bucket-uuid'] : undefined,
        );
        // every member holds the bucket, under one uuid
        const uuid = buckets.get(form.get('name') ?? '')?.uuid;
        if (!forwarded && outcome.status < 300)
          await forward('POST', path, body, request.headers['content-type'], uuid ? { 'x-lab-bucket-uuid': uuid } : {});
        return send(response, outcome.status, outcome.body);
      }
    }
    const bucketPath = /^\/pools\/default\/buckets\/([^/]+)(\/controller\/doFlush|\/stats)?$/.exec(path);
    if (bucketPath) {
      const name = decodeURIComponent(bucketPath[1]);
      const bucket = buckets.get(name);
      if (!bucket) return send(response, 404, 'Requested resource not found.\r\n');
      if (bucketPath[2] === '/stats' && method === 'GET') {
        // REAL-LAB C6, C10: the last scrape, stale by up to statsScrapeMs; no series before the first
        const scrape = bucket.scrape;
        const samples = Object.fromEntries(
          Object.entries(scrape?.values ?? {})
            .filter(([name]) => bucket.bucketType === 'membase' || !/queue|flusher|diskqueue/.test(name))
            .map(([name, value]) => [name, [value]]),
        );
        return send(response, 200, {
          op: {
            samples,
            samplesCount: scrape ? 1 : 0,
            isPersistent: bucket.bucketType === 'membase',
            lastTStamp: scrape?.at ?? 0,
            interval: setting('statsScrapeMs'),
          },
        });
      }
      if (bucketPath[2] && method === 'POST') {
        if (!bucket.flushEnabled) return send(response, 400, { _: 'Flush is disabled for the bucket' });
        storedBytes -= bucket.bytes;
        bucket.documents.clear();
        bucket.bytes = 0;
        return send(response, 200);
      }
      if (!bucketPath[2] && method === 'GET')
        return send(
          response,
          200,
          bucketJson(bucket, host, clusterView && !forwarded ? await memberShares(name) : undefined),
        );
      if (!bucketPath[2] && method === 'DELETE') {
        const going = dropBucket(name);
        if (!forwarded) await forward('DELETE', path, undefined, undefined);
        // REAL-LAB C4: the SDK turns this 500 into InternalServerFailureError
        if (going) return send(response, 500, 'Bucket deletion not yet complete, but will continue.\r\n');
        return send(response, 200);
      }
    }
    return send(response, 404, 'Not found.\r\n');
  }

  // --- listeners -------------------------------------------------------------------------------
  const netServers: NetServer[] = [];
  const httpServers: HttpServer[] = [];

  async function listen(server: NetServer | HttpServer, address: string, port: number): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address, port, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = server.address();
    return typeof bound === 'object' && bound ? bound.port : port;
  }

  async function stop(): Promise<void> {
    clearInterval(housekeeping);
    for (const connection of connections) connection.socket.destroy();
    await Promise.all(
      [...netServers, ...httpServers].map(
        (server) =>
          new Promise<void>((resolve) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }

  function restServer(): HttpServer {
    const httpServer = createHttpServer((request, response) => {
      handleRest(request, response).catch((error: unknown) => {
        log(`rest: ${String(error)}`);
        if (!response.headersSent) send(response, 400, { errors: { _: String(error) } });
        else response.destroy();
      });
    });
    httpServer.keepAliveTimeout = 1000;
    httpServers.push(httpServer);
    return httpServer;
  }
  // REST connections accepted elsewhere (the lab babysitter's listeners, REAL-LAB C9)
  let injectedRest: HttpServer | undefined;
  const acceptRest = (socket: Socket): void => {
    injectedRest ??= restServer();
    injectedRest.emit('connection', socket);
  };

  try {
    for (const address of addresses) {
      if (options.kvAddresses === undefined || options.kvAddresses.includes(address)) {
        const kvServer = createNetServer(acceptKv);
        netServers.push(kvServer);
        kvPort = await listen(kvServer, address, kvPort);
      }
      if (options.restAddresses === undefined || options.restAddresses.includes(address))
        restPort = await listen(restServer(), address, restPort);
      const queryServer = createHttpServer((request, response) => {
        handleQuery(request, response).catch((error: unknown) => {
          log(`query: ${String(error)}`);
          if (!response.headersSent)
            send(response, 400, { status: 'fatal', errors: [{ code: 1000, msg: String(error) }] });
          else response.destroy();
        });
      });
      queryServer.keepAliveTimeout = 1000;
      httpServers.push(queryServer);
      queryPort = await listen(queryServer, address, queryPort);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  log(`listening on ${addresses.join(', ')}: kv ${kvPort}, rest ${restPort}`);

  return {
    addresses,
    kvPort,
    restPort,
    queryPort,
    version,
    bucketNames: () => [...buckets.keys()].filter((name) => liveBucket(name) !== undefined),
    users: () => Object.fromEntries([...users.entries()].map(([name, user]) => [name, [...user.roles]])),
    itemCount: (name) => buckets.get(name)?.documents.size,
    acceptKv,
    acceptRest,
    stop,
  };
}

/** The membership kept in a JSON file (written whole, then renamed into place). */
function membershipFileStore(
  path: string,
  log: (line: string) => void,
): { read(): SavedMembership | undefined; write(state: SavedMembership): void } {
  return {
    read: () => {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as SavedMembership;
      } catch {
        return undefined;
      }
    },
    write: (state) => {
      try {
        writeFileSync(`${path}.new`, `${JSON.stringify(state)}\n`, { mode: 0o600 });
        renameSync(`${path}.new`, path);
      } catch (error) {
        log(`cluster: could not keep the membership in ${path}: ${String(error)}`);
      }
    },
  };
}

/** A member of the cluster map: its name (address), ports and otpNode. */
interface ViewMember {
  otpNode: string;
  name: string;
  restPort: number;
  kvPort: number;
  queryPort?: number;
}

/** `host:port`, IPv6 in brackets. */
function hostPort(name: string, port: number): string {
  return `${name.includes(':') ? `[${name}]` : name}:${port}`;
}
