// A fake first server's REST API for sweep tests of cluster sizes (issue 23), on this machine:
// answers what the engine's resize and spread read as ns_server does (lab README K3-K8, K13):
// `/pools/default` nodes with membership and `balanced`, addNode (only the K1 keys, an
// `inactiveAdded` member), rebalance (knownNodes exactly the members, else {"mismatch":1}), the
// tasks' rebalance entry moving a third per poll, `/logs/rebalanceReport`, the bucket's drop
// (200, then 404) and its answer with a vBucketServerMap over the members and items per node,
// stopRebalance (K15). Faults: rebalances that fail (errorMessage, report), hang, and one left running (an
// engine killed mid-rebalance). The full stand-in that real YCSB talks to is test/lab's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeMember {
  otpNode: string;
  hostname: string;
  services: string[];
  membership: 'active' | 'inactiveAdded';
}

export interface FakeClusterFaults {
  /** The next `times` rebalances (default 1) end at half way with this errorMessage and a report saying `report`. */
  fail?: { errorMessage: string; report: string; times?: number };
  /** Every rebalance's progress stops at 50 % while set. */
  stall?: boolean;
}

const vBuckets = 1024;

export class FakeCluster {
  private server: Server | undefined;
  port = 0;
  members: FakeMember[] = [];
  /** Every request, `METHOD path` (bodies of POSTs in `forms`). */
  readonly requests: string[] = [];
  readonly forms: { path: string; form: Record<string, string> }[] = [];
  /** The sizes the cluster had after each finished rebalance. */
  readonly formed: number[] = [];
  faults: FakeClusterFaults = {};
  private bucket: { name: string; replicas: number; items: number } | undefined;
  private rebalance:
    | {
        id: string;
        statusId: string;
        progress: number;
        stalled: boolean;
        fail?: FakeClusterFaults['fail'];
        eject: string[];
      }
    | undefined;
  private lastTask: { statusId: string; errorMessage?: string } = { statusId: 's0' };
  private report = '{"completionMessage":"Rebalance completed successfully."}';
  private count = 0;

  /** `first` is the first server as ns_server names it (`127.0.0.1:<port>` once listening). */
  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const path = request.url ?? '';
        this.requests.push(`${request.method} ${path}`);
        const form = Object.fromEntries(new URLSearchParams(body));
        if (request.method === 'POST') this.forms.push({ path, form });
        const [status, json] = this.answer(request.method ?? 'GET', path, form);
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.members = [
      { otpNode: 'ns_1@127.0.0.1', hostname: `127.0.0.1:${this.port}`, services: ['kv'], membership: 'active' },
    ];
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** What the bucket seam calls: the bucket as the engine creates it. */
  createBucket(name: string, replicas: number, items = 0): void {
    this.bucket = { name, replicas, items };
  }

  /** The items YCSB loaded (the fake hosts' load reports them). */
  setItems(items: number): void {
    if (this.bucket) this.bucket.items = items;
  }

  /**
   * An engine killed mid-rebalance: `hostnames` added and a rebalance running that ends after `polls` more task reads.
   */
  leaveRebalanceRunning(hostnames: string[], polls = 2): void {
    for (const hostname of hostnames)
      this.members.push({
        otpNode: `ns_1@${hostname.split(':')[0]}`,
        hostname,
        services: ['kv'],
        membership: 'inactiveAdded',
      });
    this.rebalance = { id: 'left-running', statusId: 's-left', progress: 100 - polls * 34, stalled: false, eject: [] };
  }

  private answer(method: string, path: string, form: Record<string, string>): [number, unknown] {
    const bucketPath = this.bucket ? `/pools/default/buckets/${encodeURIComponent(this.bucket.name)}` : undefined;
    if (method === 'GET' && path === '/pools/default') {
      const balanced =
        this.rebalance === undefined &&
        this.members.every((member) => member.membership === 'active') &&
        this.lastTask.errorMessage === undefined;
      return [
        200,
        {
          balanced,
          rebalanceStatus: this.rebalance ? 'running' : 'none',
          nodes: this.members.map((member) => ({
            otpNode: member.otpNode,
            hostname: member.hostname,
            services: member.services,
            clusterMembership: member.membership,
            status: 'healthy',
          })),
        },
      ];
    }
    if (method === 'GET' && path === '/pools/default/buckets')
      return [200, this.bucket ? [{ name: this.bucket.name }] : []];
    if (method === 'DELETE' && path.startsWith('/pools/default/buckets/')) {
      if (!bucketPath || path !== bucketPath) return [404, 'Requested resource not found.\r\n'];
      this.bucket = undefined;
      return [200, ''];
    }
    if (method === 'GET' && path.startsWith('/pools/default/buckets/')) {
      if (!bucketPath || path !== bucketPath || !this.bucket) return [404, 'Requested resource not found.\r\n'];
      return [200, this.bucketAnswer(this.bucket)];
    }
    if (method === 'POST' && path === '/controller/addNode') {
      if (this.rebalance) return [400, ['Node addition is disallowed while rebalance is in progress']];
      const unknown = Object.keys(form).filter(
        (key) => !['hostname', 'user', 'password', 'services', 'clientCertAuth'].includes(key),
      );
      if (unknown.length > 0) return [400, [`Got unknown parameters: ${JSON.stringify(unknown)}`]];
      const otpNode = `ns_1@${form.hostname.split(':')[0]}`;
      this.members.push({
        otpNode,
        hostname: form.hostname,
        services: form.services.split(','),
        membership: 'inactiveAdded',
      });
      return [200, { otpNode }];
    }
    if (method === 'POST' && path === '/controller/rebalance') {
      if (this.rebalance) return [503, { error: 'Cannot rebalance during rebalance' }];
      const known = (form.knownNodes ?? '').split(',').filter(Boolean).sort();
      const eject = (form.ejectedNodes ?? '').split(',').filter(Boolean);
      if (
        known.join(',') !==
          this.members
            .map((member) => member.otpNode)
            .sort()
            .join(',') ||
        eject.some((node) => !known.includes(node))
      )
        return [400, { mismatch: 1 }];
      this.count += 1;
      const { fail, stall } = this.faults;
      this.faults = {
        ...(fail && (fail.times ?? 1) > 1 ? { fail: { ...fail, times: (fail.times ?? 1) - 1 } } : {}),
        ...(stall ? { stall } : {}),
      };
      this.rebalance = {
        id: `rebalance-${this.count}`,
        statusId: `s${this.count}`,
        progress: 0,
        stalled: stall === true,
        ...(fail ? { fail } : {}),
        eject,
      };
      return [200, { rebalance_id: this.rebalance.id }];
    }
    if (method === 'GET' && path === '/pools/default/tasks') return [200, [this.task()]];
    if (method === 'POST' && path === '/controller/stopRebalance') {
      // K15: the members stay as they were (added ones inactiveAdded, none ejected)
      if (this.rebalance) {
        this.lastTask = { statusId: this.rebalance.statusId };
        this.rebalance = undefined;
        this.report = '{"completionMessage":"Rebalance stopped by user."}';
      }
      return [200, ''];
    }
    if (method === 'GET' && path.startsWith('/logs/rebalanceReport')) return [200, JSON.parse(this.report)];
    return [404, `not in the fake: ${method} ${path}`];
  }

  /** K6: one poll moves a running rebalance by a third, or ends it. */
  private task(): Record<string, unknown> {
    const running = this.rebalance;
    if (!running)
      return {
        type: 'rebalance',
        status: 'notRunning',
        statusId: this.lastTask.statusId,
        statusIsStale: false,
        ...(this.lastTask.errorMessage
          ? {
              errorMessage: this.lastTask.errorMessage,
              lastReportURI: '/logs/rebalanceReport?reportID=0123456789abcdef0123456789abcdef',
            }
          : {}),
      };
    if (running.fail && running.progress >= 50) {
      this.rebalance = undefined;
      this.lastTask = { statusId: running.statusId, errorMessage: running.fail.errorMessage };
      this.report = JSON.stringify({
        completionMessage: running.fail.report,
        reportID: '0123456789abcdef0123456789abcdef',
      });
      return this.task();
    }
    if (running.progress >= 100) {
      this.rebalance = undefined;
      this.members = this.members
        .filter((member) => !running.eject.includes(member.otpNode))
        .map((member) => ({ ...member, membership: 'active' }));
      this.formed.push(this.members.length);
      this.lastTask = { statusId: running.statusId };
      this.report = '{"completionMessage":"Rebalance completed successfully."}';
      return this.task();
    }
    const entry = {
      type: 'rebalance',
      subtype: 'rebalance',
      status: 'running',
      progress: running.progress,
      statusId: running.statusId,
      rebalanceId: running.id,
      perNode: {},
    };
    if (!(running.stalled && running.progress >= 50)) running.progress = Math.min(100, running.progress + 34);
    return entry;
  }

  /** K13: vBuckets over the members round robin, each chain's replicas on the next members; items spread evenly. */
  private bucketAnswer(bucket: { name: string; replicas: number; items: number }): Record<string, unknown> {
    const nodes = this.members.filter((member) => member.membership === 'active');
    const host = (member: FakeMember): string => member.hostname.split(':')[0];
    const map = Array.from({ length: vBuckets }, (_, vb) =>
      Array.from({ length: bucket.replicas + 1 }, (__, copy) =>
        copy < nodes.length ? (vb + copy) % nodes.length : -1,
      ),
    );
    return {
      name: bucket.name,
      basicStats: { itemCount: bucket.items },
      nodes: nodes.map((member, index) => ({
        hostname: member.hostname,
        services: member.services,
        ports: { direct: 11210 },
        interestingStats: {
          curr_items: Math.floor(bucket.items / nodes.length) + (index < bucket.items % nodes.length ? 1 : 0),
          vb_replica_curr_items: Math.min(bucket.replicas, nodes.length - 1) * Math.floor(bucket.items / nodes.length),
        },
      })),
      vBucketServerMap: {
        hashAlgorithm: 'CRC',
        numReplicas: bucket.replicas,
        serverList: nodes.map((member) => `${host(member)}:11210`),
        vBucketMap: map,
      },
    };
  }
}
