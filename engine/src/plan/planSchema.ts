// The plan's TypeScript shape (mirrors schemas/benchplan.schema.json) and its defaults.
// `Plan` is what a user writes; `withDefaults` gives the engine a plan where every optional
// setting has its value, so nothing downstream repeats a default.
import { shellQuote } from '../remote/shellQuote';

export interface LinearRange {
  from: number;
  to: number;
  step?: number;
}
export interface GeometricRange {
  from: number;
  to: number;
  factor: number;
}
export type SweepValues = (string | number)[] | LinearRange | GeometricRange;

/** ns_server's service names (addNode `services`, `/pools/default` nodes[].services; lab README K2). */
export type CouchbaseService = 'kv' | 'n1ql' | 'index' | 'fts' | 'cbas' | 'eventing' | 'backup';

export interface PlanServer {
  host: string;
  address?: string;
  /** This node's address per plan interface label, for a node that joins a cluster of `clusterSizes`. */
  interfaces?: Record<string, string>;
  /** The services it runs in a cluster (default `['kv']`, ns_server's default). */
  services?: CouchbaseService[];
  couchbaseServerPath?: string;
  restPort?: number;
  kvPort?: number;
  adminUser?: string;
  kernelStartCommand?: string;
  kernelStopCommand?: string;
  kernelRunCommand?: string;
  onloadRunCommand?: string;
  acceleratedProcess?: string;
  workDir?: string;
  /** How both arms start (REAL-LAB C1, H3): `service` (default; the Onload arm through a temporary
   * systemd drop-in) or `foreground` (labs without systemd: kernelRunCommand / onloadRunCommand). */
  serverStart?: 'service' | 'foreground';
  /** The systemd unit (default `couchbase-server`). */
  serviceName?: string;
  /** Where the Onload arm's drop-in goes (default `/etc/systemd/system/<serviceName>.service.d`). */
  serviceDropInDir?: string;
  /** Kill memcached/beam.smp left running after a stop instead of failing (REAL-LAB C2). */
  killLeftovers?: boolean;
}

export interface PlanClient {
  host: string;
  ycsbHome: string;
  binding?: string;
  /** false, true (the cell's profile during Onload cells) or a local profile path for every cell. */
  runUnderOnload?: boolean | string;
  onloadCommand?: string;
  javaOptions?: string;
  /** The command that starts YCSB from ycsbHome; default: chosen by pre-flight (ycsbLauncher.ts). */
  ycsbCommand?: string;
  workDir?: string;
}

export interface PlanBucket {
  name: string;
  type?: 'couchbase' | 'ephemeral' | 'memcached';
  ramQuotaMB?: number;
  replicas?: number;
  evictionPolicy?: 'valueOnly' | 'fullEviction' | 'noEviction' | 'nruEviction';
  flush?: boolean;
}

/** `displayName`: how results show the stack (report/stackLabels.ts); default `Onload · <name>`. */
export type PlanStack = 'kernel' | { name: string; profile: string; displayName?: string };

export interface Plan {
  $schema?: string;
  name?: string;
  description?: string;
  servers: PlanServer[];
  interfaces: Record<string, string>;
  clients: PlanClient[];
  bucket: PlanBucket;
  workload: { path: string; properties?: Record<string, string | number | boolean>; splitLoad?: boolean };
  stacks: PlanStack[];
  threads?: number[] | LinearRange | GeometricRange;
  /** Cluster sizes to sweep: a cell's cluster is the first N servers (plan/clusterSizes.ts). */
  clusterSizes?: number[];
  /**
   * Price of a server node per hour: results show ops/s per node, cost per million operations and the best
   * size per price (report/scaling.ts). Shown only: not in the resolved plan, so resume never asks about it.
   */
  cost?: { pricePerNodeHour: number; currency: string };
  /**
   * A count, or run until stable: at least `min`, at most `max`, until the 95 % interval of every profile's throughput
   * difference is narrower than ±targetCi %.
   */
  repetitions?: number | { min: number; max: number; targetCi: number };
  /** Seconds at the start of each run phase left out of the statistics (HDR intervals, status lines, CPU). */
  warmupSec?: number;
  /** The order cells run in (schedule.ts); `seed` makes `randomized` repeatable. */
  order?: 'grouped' | 'interleaved' | 'randomized';
  seed?: number;
  axes?: Record<string, SweepValues>;
  restartServer?: 'on-stack-change' | 'every-cell';
  timeouts?: { serverStartSec?: number; bucketReadySec?: number; cellSec?: number };
}

export const defaultCouchbaseServerPath = '/opt/couchbase/bin/couchbase-server';
export const defaultOnloadRunCommand = 'onload --profile={profile} {couchbaseServerPath} -- -noinput';

export type ResolvedServer = Required<Omit<PlanServer, 'kernelRunCommand'>> & { kernelRunCommand?: string };
export type ResolvedClient = Required<Omit<PlanClient, 'javaOptions' | 'ycsbCommand'>> & {
  javaOptions?: string;
  ycsbCommand?: string;
};

export interface ResolvedPlan {
  name: string;
  servers: ResolvedServer[];
  interfaces: Record<string, string>;
  clients: ResolvedClient[];
  bucket: Required<PlanBucket>;
  workload: { path: string; properties: Record<string, string | number | boolean>; splitLoad: boolean };
  stacks: { name: string; profile?: string; displayName?: string }[];
  threads: number[] | LinearRange | GeometricRange;
  /** Present only when the plan sweeps cluster sizes; a plan without it runs on its servers as they are. */
  clusterSizes?: number[];
  /** The repetitions every point starts with (`min` when run until stable). */
  repetitions: number;
  repetitionPolicy: { min: number; max: number; targetCi?: number };
  warmupSec: number;
  order: 'grouped' | 'interleaved' | 'randomized';
  seed?: number;
  axes: Record<string, SweepValues>;
  restartServer: 'on-stack-change' | 'every-cell';
  timeouts: { serverStartSec: number; bucketReadySec: number; cellSec: number };
}

/** The folder above `bin/couchbase-server`, where VERSION.txt lives (the installation of a server). */
export function couchbaseHome(couchbaseServerPath: string): string {
  const parts = couchbaseServerPath.split('/');
  return parts.length >= 3 ? parts.slice(0, -2).join('/') || '/' : '.';
}

/** The default service commands name the plan's unit (serviceName), never a fixed one. */
export function defaultServiceCommand(verb: 'start' | 'stop', serviceName: string): string {
  return `sudo -n systemctl ${verb} ${shellQuote(serviceName)}`;
}

export function withDefaults(plan: Plan): ResolvedPlan {
  const firstAddress = Object.values(plan.interfaces)[0] ?? '127.0.0.1';
  return {
    name: plan.name ?? 'run',
    servers: plan.servers.map((server, index) => ({
      host: server.host,
      address: server.address ?? Object.values(server.interfaces ?? {})[0] ?? firstAddress,
      // The first server's addresses are the plan's interfaces; another node has its own.
      interfaces: { ...(index === 0 ? plan.interfaces : {}), ...(server.interfaces ?? {}) },
      services: [...(server.services ?? ['kv'])],
      couchbaseServerPath: server.couchbaseServerPath ?? defaultCouchbaseServerPath,
      restPort: server.restPort ?? 8091,
      kvPort: server.kvPort ?? 11210,
      adminUser: server.adminUser ?? 'Administrator',
      kernelStartCommand:
        server.kernelStartCommand ?? defaultServiceCommand('start', server.serviceName ?? 'couchbase-server'),
      kernelStopCommand:
        server.kernelStopCommand ?? defaultServiceCommand('stop', server.serviceName ?? 'couchbase-server'),
      ...(server.kernelRunCommand !== undefined ? { kernelRunCommand: server.kernelRunCommand } : {}),
      onloadRunCommand: server.onloadRunCommand ?? defaultOnloadRunCommand,
      acceleratedProcess: server.acceleratedProcess ?? 'memcached',
      workDir: server.workDir ?? '.onload-bench',
      serverStart: server.serverStart ?? (server.kernelRunCommand !== undefined ? 'foreground' : 'service'),
      serviceName: server.serviceName ?? 'couchbase-server',
      serviceDropInDir:
        server.serviceDropInDir ?? `/etc/systemd/system/${server.serviceName ?? 'couchbase-server'}.service.d`,
      killLeftovers: server.killLeftovers ?? false,
    })),
    interfaces: { ...plan.interfaces },
    clients: plan.clients.map((client) => ({
      host: client.host,
      ycsbHome: client.ycsbHome,
      binding: client.binding ?? 'couchbase2',
      runUnderOnload: client.runUnderOnload ?? false,
      onloadCommand: client.onloadCommand ?? 'onload --profile={profile}',
      ...(client.javaOptions !== undefined ? { javaOptions: client.javaOptions } : {}),
      ...(client.ycsbCommand !== undefined ? { ycsbCommand: client.ycsbCommand } : {}),
      workDir: client.workDir ?? '.onload-bench',
    })),
    bucket: {
      name: plan.bucket.name,
      type: plan.bucket.type ?? 'couchbase',
      ramQuotaMB: plan.bucket.ramQuotaMB ?? 1024,
      replicas: plan.bucket.replicas ?? 0,
      evictionPolicy: plan.bucket.evictionPolicy ?? (plan.bucket.type === 'ephemeral' ? 'noEviction' : 'valueOnly'),
      flush: plan.bucket.flush ?? false,
    },
    workload: {
      path: plan.workload.path,
      properties: { ...(plan.workload.properties ?? {}) },
      splitLoad: plan.workload.splitLoad ?? false,
    },
    stacks: plan.stacks.map((stack) =>
      stack === 'kernel'
        ? { name: 'kernel' }
        : {
            name: stack.name,
            profile: stack.profile,
            ...(stack.displayName !== undefined ? { displayName: stack.displayName } : {}),
          },
    ),
    threads: plan.threads ?? { from: 5, to: 50, step: 5 },
    ...(plan.clusterSizes !== undefined ? { clusterSizes: [...plan.clusterSizes] } : {}),
    repetitions: typeof plan.repetitions === 'object' ? plan.repetitions.min : (plan.repetitions ?? 1),
    repetitionPolicy:
      typeof plan.repetitions === 'object'
        ? {
            min: plan.repetitions.min,
            max: Math.max(plan.repetitions.min, plan.repetitions.max),
            targetCi: plan.repetitions.targetCi,
          }
        : { min: plan.repetitions ?? 1, max: plan.repetitions ?? 1 },
    warmupSec: plan.warmupSec ?? 0,
    order: plan.order ?? 'grouped',
    ...(plan.seed !== undefined ? { seed: plan.seed } : {}),
    axes: { ...(plan.axes ?? {}) },
    restartServer: plan.restartServer ?? 'on-stack-change',
    timeouts: {
      serverStartSec: plan.timeouts?.serverStartSec ?? 300,
      bucketReadySec: plan.timeouts?.bucketReadySec ?? 120,
      cellSec: plan.timeouts?.cellSec ?? 3600,
    },
  };
}
