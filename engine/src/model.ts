// The engine's data model: what a run writes to disk and what the report, the CLI and the results
// panel read back. Plain data only (JSON-serialisable); changing a field here is a file-format
// change, so add fields rather than rename them, and bump `resultsFormatVersion` when a reader
// would misread an old file.

export const resultsFormatVersion = 1;

/** One operation type of a YCSB report (READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE, READ-FAILED...). */
export interface OperationStats {
  /** The name as YCSB prints it inside the brackets, e.g. `READ`, `UPDATE-FAILED`. */
  operation: string;
  /** `Operations` of the section (0 when YCSB printed the section without it). */
  operations: number;
  averageUs?: number;
  minUs?: number;
  maxUs?: number;
  /** Percentiles by name as YCSB prints them without the suffix: `50`, `95`, `99`, `99.9`. In µs. */
  percentilesUs: Record<string, number>;
  /** `Return=NAME` counts, e.g. `{ OK: 1000, ERROR: 3 }`. */
  returnCodes: Record<string, number>;
  /** `LatencyVariance(us)` of the `histogram` measurement type, in µs². */
  latencyVarianceUs2?: number;
  /** Verbose `histogram` buckets: operation count per 1 ms bucket (`0`, `1`, ...) and the overflow (`>1000`). */
  histogramCounts?: Record<string, number>;
  /**
   * `timeseries` measurement type: average latency (µs) of each interval, by its start (ms since the first operation).
   */
  timeseries?: { startMs: number; averageUs: number }[];
  /**
   * Where the percentiles of a combined (several clients) report come from: `hdr-merged` = the
   * clients' HDR interval logs merged (true percentiles of all operations), `client-max` = the
   * worst client's percentile (an upper bound). Absent on a single client's own report.
   */
  percentilesSource?: 'hdr-merged' | 'client-max';
}

/** A parsed YCSB final report (see engine/src/ycsb/ycsbOutput.ts). */
export interface YcsbReport {
  runtimeMs: number;
  throughputOpsPerSec: number;
  /** Keyed by operation name. */
  operations: Record<string, OperationStats>;
  /** Any other section's numeric metrics (e.g. `TOTAL_GCS_PS_Scavenge`), kept as printed. */
  other: Record<string, Record<string, number>>;
  /** Quirks met while parsing (missing sections, NaN values...), worded for a user. */
  warnings: string[];
}

/** The coordinates of one cell of the sweep. */
export interface CellKey {
  /** The interface's label from the plan, e.g. `25G`. */
  interface: string;
  /** The server address of that interface. */
  address: string;
  /** `kernel` or the name of an Onload profile from the plan. */
  stack: string;
  threads: number;
  /** Values of further sweep axes (YCSB property name -> value), e.g. `{ fieldlength: 1024 }`. */
  axes: Record<string, string | number>;
  /** Nodes in the cell's cluster: present only when the plan sweeps `clusterSizes`. */
  clusterSize?: number;
  /** 1-based. */
  repetition: number;
}

export type CellStatus = 'ok' | 'failed';

/** A failure, worded for the user: where it happened and what to do next. */
export interface EngineError {
  /** Stable code, e.g. `ssh-unreachable`, `ycsb-exit`, `bucket-create`. */
  code: string;
  host?: string;
  /** The step of the cell: `restart-server`, `recreate-bucket`, `ycsb-load`, `ycsb-run`, ... */
  step: string;
  message: string;
  /** The next action for the user. */
  action: string;
}

/**
 * One line of `results.jsonl`: the outcome of one cell. Readers take one line per id (one reader
 * for all, engine/src/results/resultsReader.ts): an `ok` line wins over a `failed` one, and among lines of
 * the same status the first wins. A last line that does not parse is torn and skipped.
 */
export interface CellResult {
  kind: 'cell';
  /** Deterministic from the key (cellId in cells.ts); resume skips ids already present. */
  id: string;
  key: CellKey;
  status: CellStatus;
  /** For Onload cells: whether Couchbase was verified to run accelerated; null for kernel cells and
   * when it could not be verified (then the cell carries an `acceleration-unverified` mark). */
  accelerated: boolean | null;
  startedAt: string;
  finishedAt: string;
  /** 1 or 2 (a transient failure is retried once). */
  attempts: number;
  /** The combined run report of all client hosts (throughputs add, latencies weighted by ops). */
  run?: YcsbReport;
  /** Each client host's own run report. */
  clients?: { host: string; report: YcsbReport }[];
  /** The load phase's combined report and the item count read back afterwards. */
  load?: { report: YcsbReport; itemCount?: number; expectedItems?: number };
  error?: EngineError;
  /** Raw logs of the cell, relative to the run folder. */
  logs: string[];
  /**
   * Why this cell's numbers may not mean what its key says (not accelerated, wrong NIC, arms that
   * differ in more than the stack, a client-bound client...). Absent or empty: nothing found.
   * Readers show every mark and never count a marked repetition as an improvement; see marks.ts.
   */
  marks?: CellMark[];
  /** What the engine observed on the hosts that backs the numbers; every part optional. */
  evidence?: CellEvidence;
}

/**
 * One reason to doubt a cell. Codes are stable (tests, filters, the panel's legend); the message
 * is worded for the user and names what was seen. A mark is a fact about the cell, not a failure:
 * the cell keeps its numbers.
 */
export interface CellMark {
  code: CellMarkCode;
  message: string;
  host?: string;
}

/** Known codes; readers show an unknown code by its message. */
export type CellMarkCode =
  | 'not-accelerated'
  | 'accelerated-kernel'
  | 'acceleration-unverified'
  | 'wrong-interface'
  | 'arms-differ'
  | 'environment-differs'
  | 'client-bound'
  | 'warmup-too-short'
  | 'warmup-unverified'
  | 'hdr-count-differs'
  | 'cpu-window-unverified'
  | 'busy-polling'
  | 'client-io-spinning'
  | (string & {});

/**
 * The observations behind a cell, grouped by what observes them. Each group is filled by its own
 * engine file (named in the comment) and is optional, so an older record or a step that could not
 * observe simply leaves it out.
 */
export interface CellEvidence {
  /** How Couchbase was started and what memcached really runs with (server side). */
  server?: Record<string, unknown>;
  /** Bucket lifecycle facts: drop/create timing, warm-up, item count polls, write queue. */
  bucket?: Record<string, unknown>;
  /** YCSB on each client: launcher, binding, the keys it was given (never secrets). */
  ycsb?: Record<string, unknown>;
  /** CPU, context switches, interrupts per host during the run phase (engine/src/evidence/cpuSampler.ts). */
  cpu?: CpuEvidence;
  /** Time series and HDR histogram summaries (engine/src/ycsb/ycsbTimeSeries.ts, engine/src/evidence/hdrMerge.ts). */
  timeseries?: TimeseriesEvidence;
  /** The cell's cluster when the plan sweeps `clusterSizes` (engine/src/couchbase/cellCluster.ts). */
  cluster?: ClusterEvidence;
}

/** evidence.cluster: the size, how it was formed, and how the bucket spread over it. */
export interface ClusterEvidence {
  size: number;
  /** Each member: its plan host, how ns_server names it (`address:restPort`) and its services. */
  members: { host: string; hostname: string; services: string[] }[];
  /** bucket.replicas as the plan asks, and as a cluster of `size` gives: min(requested, size − 1). */
  replicas: { requested: number; effective: number };
  /** The bucket dropped before the resize (absent: there was none). */
  bucketDropped?: { polls: number; ms: number };
  /** otpNodes added and ejected by this cell's resize. */
  added: string[];
  ejected: string[];
  rebalance:
    | { outcome: 'not needed' }
    | { outcome: 'balanced'; rebalanceId?: string; ms: number; polls: number; mismatchRetried: boolean };
  /** A rebalance found running before the resize (a run stopped during one), followed to its end. */
  earlierRebalance?: { ms: number; polls: number; outcome: string };
  /**
   * Nodes this resize added only after they finished leaving a cluster (an earlier resize ejected them): how long their
   * addNode was refused.
   */
  waitedForLeave?: LeaveWait[];
  /** /pools/default's `balanced` after the resize (the resize requires it). */
  balanced: boolean;
  /** Per node (its `hostname`), read after the load. */
  nodes?: Record<string, NodeSpread>;
}

/**
 * A node whose addNode was refused while it finished leaving a cluster (lab README K16): its `hostname`, how long, how
 * many requests.
 */
export interface LeaveWait {
  hostname: string;
  ms: number;
  attempts: number;
}

/** One node's share of the bucket: vBuckets from `vBucketServerMap`, items from `interestingStats`. */
export interface NodeSpread {
  services: string[];
  activeVBuckets: number;
  replicaVBuckets: number;
  /** `curr_items`: the active items the node holds. */
  items?: number;
  /** `vb_replica_curr_items`. */
  replicaItems?: number;
}

/** evidence.cpu — sampled ~1/s over the run phase (engine/src/evidence/cpuSampler.ts). */
export interface CpuEvidence {
  /** What the sampler itself cost on each host, % of one core (must stay < 0.5). */
  sampler: { intervalMs: number; selfCostPctOfCore: Record<string, number> };
  /** Key = host alias from the plan. */
  hosts: Record<string, HostCpu>;
  /**
   * µs of server CPU (all server hosts, whole host busy time) per YCSB operation of the run phase (netperf's service
   * demand).
   */
  serverCpuUsPerOp?: number;
  /** µs of memcached CPU per operation. */
  memcachedCpuUsPerOp?: number;
  /** Run throughput / number of busy server cores (busy cores = busy% * cores / 100). */
  opsPerBusyServerCore?: number;
  /**
   * The measured window the figures cover (evidence/measuredWindow.ts): YCSB's own run from its
   * status lines (the first, printed at its start, to the last, printed when its threads ended),
   * the warm-up left out from that start. Absent in older records (first sample + warm-up).
   */
  window?: CpuWindow;
  /**
   * The YCSB JVM's IO threads that spin by design (couchbase2 binding, couchbase.boost > 0:
   * evidence/clientIoSpin.ts), left out of the client-bound check; absent when none do.
   */
  clientIoSpin?: { boost: number; threadPrefix: string; source: string };
}

/** What the CPU figures cover, and from what that is known. */
export interface CpuWindow {
  /**
   * `ycsb-status-lines`: aligned to YCSB's run; `sampler`: the samplers' whole life after the warm-up (not aligned: see
   * `why`).
   */
  source: 'ycsb-status-lines' | 'sampler';
  /** Wall-clock start and end of YCSB's run (ISO, UTC), warm-up not yet left out. */
  runStartedAt?: string;
  runEndedAt?: string;
  warmupSec: number;
  /** Why the figures could not be aligned to YCSB's run. */
  why?: string;
  /**
   * Each host's wall clock minus this workstation's, in ms, measured when its sampler started (the
   * host's reading against the moment it arrived here: off by at most that line's transit). The
   * servers' window is the clients' YCSB clock read on the servers' clocks, so it holds only when
   * these agree (measuredWindow.ts clockAgreement).
   */
  clockOffsetsMs?: Record<string, number>;
}

export interface HostCpu {
  role: 'server' | 'client';
  cores: number;
  /** Means over the run phase (after warm-up when warmupSec is set), % of ALL cores, 0..100. */
  busyPct: number;
  userPct: number;
  systemPct: number;
  softirqPct: number;
  idlePct: number;
  /** The busiest single core's mean busy %. */
  maxCoreBusyPct: number;
  /** memcached on servers, the YCSB JVM on clients: % of one core (can exceed 100) and CPU seconds. */
  process?: { name: string; pid: number; pctOfCore: number; cpuSec: number };
  /**
   * The watched process's busiest threads over the window (from /proc/PID/task/TID/stat, names
   * from their comm), busiest first, at most `busiestThreadCount`; `threadsSeen` of them in all.
   */
  threads?: ThreadCpu[];
  threadsSeen?: number;
  /** The seconds of the series (tSec) the means cover: the measured window on this host's clock. */
  windowSec?: { from: number; to: number };
  contextSwitchesPerSec: number;
  interruptsPerSec: number;
  /** /proc/interrupts lines of the tested NIC's queues, summed per interface device. */
  nicInterruptsPerSec?: Record<string, number>;
  /** One point per sample: seconds since the run phase started. */
  series: { tSec: number; busyPct: number; processPctOfCore?: number }[];
}

/** One thread of the watched process over the measured window. */
export interface ThreadCpu {
  tid: number;
  /** Its comm (15 characters at most, as the kernel keeps it). */
  name: string;
  /** % of one CPU over the window. */
  pctOfCore: number;
  cpuSec: number;
}

/** evidence.timeseries (engine/src/ycsb/ycsbTimeSeries.ts, engine/src/evidence/hdrMerge.ts). */
export interface TimeseriesEvidence {
  /** YCSB status lines per client host: every status.interval seconds. */
  status: Record<string, { tSec: number; operations: number; opsPerSec: number; latencyUs: Record<string, number> }[]>;
  /** Merged HDR histograms of all clients (after warm-up when set), per operation (READ, UPDATE...). */
  hdr?: {
    /** Relative to the run folder. */
    files: string[];
    afterWarmup: boolean;
    operations: Record<string, HdrOperationSummary>;
    /**
     * Every client's HDR count of every operation beside the Operations YCSB reported for it (whole
     * run). Where they differ the cell carries an `hdr-count-differs` mark: the percentiles (from
     * the logs, `percentilesSource: 'hdr-merged'`) then cover fewer operations than the report.
     */
    counts?: HdrCountCheck[];
  };
  warmupSec?: number;
  /** Throughput after warm-up from the status lines (all clients summed). */
  throughputAfterWarmupOpsPerSec?: number;
}

/** One client's count of one operation in its HDR logs and in its YCSB report (hdrMerge.ts hdrCountChecks). */
export interface HdrCountCheck {
  host: string;
  operation: string;
  /** `[OP], Operations` of the client's report (0 when it has no such block). */
  ycsbOperations: number;
  /** The sum of every interval of the client's `OP.hdr` (0 when it has none). */
  hdrCount: number;
}

export interface HdrOperationSummary {
  count: number;
  meanUs: number;
  maxUs: number;
  /** '50','90','95','99','99.9','99.99'. */
  percentilesUs: Record<string, number>;
  /** HdrHistogram percentile distribution, for the spectrum chart. */
  spectrum: { percentile: number; valueUs: number }[];
}

/** `manifest.json` of a run folder: what was run, where, on what. */
export interface RunManifest {
  kind: 'manifest';
  formatVersion: number;
  runId: string;
  createdAt: string;
  /** The plan as it was when the run started (passwords never appear in plans). */
  plan: unknown;
  planPath?: string;
  /**
   * Every cell of the sweep in order, so readers know what is still missing. With
   * `repetitions: { min, max, targetCi }` these are the `min` repetitions; the extra repetitions
   * the run decides on are appended here (with `extra: true`) as they are decided.
   */
  cells: { id: string; key: CellKey; extra?: true }[];
  /** The cell order (plan `order`, `seed`); absent = grouped (older runs). */
  order?: { mode: 'grouped' | 'interleaved' | 'randomized'; seed: number };
  environment?: RunEnvironment;
}

export interface RunEnvironment {
  hosts: Record<string, HostEnvironment>;
  /** Effective Onload settings per profile name: option -> value. */
  profiles: Record<string, Record<string, string>>;
}

export interface HostEnvironment {
  role: 'server' | 'client';
  kernel?: string;
  couchbase?: string;
  ycsb?: string;
  java?: string;
  onload?: string;
  /**
   * Per interface address: driver, firmware, NIC name; its NUMA node (-1: none) and MSI IRQs with their allowed CPUs.
   */
  interfaces?: Record<
    string,
    {
      device?: string;
      driver?: string;
      firmware?: string;
      numaNode?: number;
      irqs?: { irq: number; cpus: string; name?: string }[];
    }
  >;
  /**
   * CPU model and topology, NUMA nodes, frequency governor -> how many CPUs use it
   * (engine/src/evidence/hostHardware.ts).
   */
  cpu?: {
    model?: string;
    sockets?: number;
    cores?: number;
    threads?: number;
    numaNodes?: number;
    governors?: Record<string, number>;
  };
}
