// The contract between the results panel's host (client/src/panel) and its webview (media/src), which
// imports these types only. The host computes everything from the run folder and posts a
// ready-to-draw model, so the webview stays a renderer and never needs the engine's code.

/**
 * Which metric a chart or table shows, named as `onload-bench report --metric` names them
 * (engine/src/report/report.ts). Throughput is better higher; latencies better lower.
 */
export type MetricId =
  | 'throughput'
  | 'read-latency'
  | 'read-p95'
  | 'read-p99'
  | 'update-latency'
  | 'update-p95'
  | 'update-p99'
  | CpuMetricId;

/** CPU figures from the cells' evidence (engine/src/report/evidence/evidenceMetrics.ts). */
export type CpuMetricId =
  'server-cpu' | 'client-cpu' | 'server-cpu-per-op' | 'memcached-cpu-per-op' | 'ops-per-busy-core';

export type MetricUnit = 'ops/s' | 'µs' | '%' | 'µs/op' | 'ops/s/core';

/**
 * The unit a metric is shown in, chosen once per metric from the run's data (both runs' when
 * comparing) by engine/src/report/displayUnits.ts: latencies in ms from 10,000 µs up. Values in the
 * model stay in the metric's unit; headings, axes, tables and tooltips use this one.
 */
export type DisplayUnit = MetricUnit | 'ms';

/**
 * How a stack did at one thread count (the engine report's cell state): `ok`; `marked` (every
 * repetition that ran carries a mark, e.g. Onload not verified, so the number may be the
 * kernel's: shown, never an improvement); `failed` (every repetition); `pending` (not run yet);
 * `no-data` (ran, but YCSB did not measure this).
 */
export type CellState = 'ok' | 'marked' | 'failed' | 'pending' | 'no-data';

/** One mark of a table cell or chart point (engine/src/evidence/marks.ts), over its repetitions. */
export interface CellMarkView {
  code: string;
  /** Short words for badges, e.g. `not accelerated`. */
  label: string;
  /** The mark's own explanation(s), joined. */
  message: string;
  /** Repetitions carrying it. */
  repetitions: number;
}

/** The repetitions of one (stack, threads) point, reduced to what a chart draws. */
export interface SeriesPoint {
  /** The point's thread count (its x against threads; the held value against another axis). */
  threads: number;
  /** Against another axis than threads (ChartModel.xAxis): the point's value of it. */
  x?: number | string;
  /** Median of the repetitions; null unless the state is `ok` (a chart never draws a kernel number as Onload). */
  median: number | null;
  min: number | null;
  max: number | null;
  state: CellState;
  /** Repetitions in the median. */
  repetitions: number;
  /** Repetitions with a result so far, failed ones included. */
  finished: number;
  /** Repetitions planned. */
  planned: number;
  failed: number;
  /** Repetitions that ran with at least one mark. */
  marked: number;
  /** Marked repetitions left out of the median because unmarked ones exist. */
  markedLeftOut: number;
  marks: CellMarkView[];
  /** The value of a `marked` point (every repetition marked): drawn apart, never as the line. */
  markedValue?: number | null;
  /** The 95 % interval of the counted repetitions' mean (error bars), when 2+ count. */
  interval?: { low: number; high: number } | null;
  /** Profile points: the difference from the kernel at this point, with its interval. */
  delta?: { percent: number; halfWidth?: number; significant: boolean; marked?: boolean };
  /** Percentile metrics: `client-max` (or `mixed`) means an upper bound (max of clients). */
  percentilesSource?: 'hdr-merged' | 'client-max' | 'mixed';
  /** The cells behind the point (every repetition), for the time-series view and their logs and records. */
  cellIds?: string[];
}

export interface ChartSeries {
  /** `kernel` or an Onload profile name. */
  stack: string;
  points: SeriesPoint[];
}

export interface ChartModel {
  /** Stable, unique in the panel: `<run index>-<group id>-<metric>`; safe as an HTML id. */
  id: string;
  metric: MetricId;
  title: string;
  unit: MetricUnit;
  displayUnit: DisplayUnit;
  /** Every thread count of the sweep, ascending (x axis). */
  threads: number[];
  /** Drawn against another swept axis: which one, and its values in order (x). Absent: threads. */
  xAxis?: AxisView;
  xValues?: (number | string)[];
  series: ChartSeries[];
  /** When comparing runs: the top of the y axis shared by the same chart of both runs. */
  sharedMax?: number;
  /** A caveat shown under the chart, e.g. that percentiles are upper bounds (max of clients). */
  note?: string;
}

export interface TableCell {
  /** Median value (also shown for `marked`, with its marks); null when there is none. */
  value: number | null;
  state: CellState;
  /** Every mark of the repetitions that ran (also on `ok` cells whose marked repetitions were left out). */
  marks: CellMarkView[];
  /** Marked repetitions left out of the median because unmarked ones exist. */
  markedLeftOut: number;
  /** The difference involves a marked side: shown, proves nothing. */
  deltaMarked?: boolean;
  /** (mean profile - mean kernel) / mean kernel * 100; only on profile cells with both numbers. */
  deltaPercent?: number | null;
  /** The 95 % confidence interval of deltaPercent (engine/src/report/statistics.ts), when one can be given. */
  deltaInterval?: { low: number; high: number; halfWidth: number } | null;
  /** Why there is no interval: one repetition on a side, or a baseline too noisy to bound a ratio. */
  deltaNoInterval?: 'single-repetition' | 'no-spread' | 'unbounded' | 'no-data';
  /** The interval excludes 0 %. */
  significant?: boolean;
  /** Welch's two-sided p-value. */
  pValue?: number;
  /** True when deltaPercent is a significant improvement (more throughput, less latency, neither side marked). */
  improvement?: boolean;
  /** The best improvement of its column within its group (highlighted). */
  best?: boolean;
  repetitions: { counted: number; finished: number; planned: number; failed: number };
  /** Spread of the repetitions (max - min) in percent of the median, when 2+ are counted. */
  spreadPercent?: number | null;
  /** Lowest and highest counted repetition, when 2+ are counted (tooltips). */
  min?: number;
  max?: number;
  /** The cells (repetitions) behind this entry, for opening their logs and records. */
  cellIds?: string[];
}

/** Cookbook-style table: rows are thread counts, kernel then each profile with its difference. */
export interface ComparisonTable {
  id: string;
  metric: MetricId;
  title: string;
  unit: MetricUnit;
  displayUnit: DisplayUnit;
  /** The profile names, in plan order; the first column is always the kernel. */
  profiles: string[];
  /** Rows are another axis' values than threads (`x` of each row). Absent: threads. */
  xAxis?: AxisView;
  rows: { threads: number; x?: number | string; kernel: TableCell; profiles: TableCell[] }[];
}

/** A swept axis (engine/src/report/axes.ts): `threads`, `clusterSize` or a YCSB property such as `fieldlength`. */
export interface AxisView {
  id: string;
  /** `YCSB threads`, `cluster size (nodes)`, `fieldlength`. */
  title: string;
}

/**
 * Throughput against the cluster size (engine/src/report/scaling.ts): per held point (interface,
 * threads, YCSB properties) and stack, the medians beside the ideal linear line from the smallest
 * size, the efficiency of each step with its interval, ops/s per node and the best size per price.
 */
export interface ScalingPanelView {
  sizes: number[];
  groups: {
    /** Safe as an HTML id. */
    id: string;
    title: string;
    series: {
      stack: string;
      points: {
        size: number;
        median: number | null;
        ideal: number | null;
        ofIdealPercent: number | null;
        perNode: number | null;
        marked: boolean;
      }[];
      /** `96.2 % (95 % CI 93.7 to 98.7 %)` or `... (1 repetition: no interval)`, by the size it reaches. */
      steps: { from: number; to: number; efficiency: number; text: string }[];
      /**
       * The best size per price and the sizes it cannot be told apart from, in words (price-free: a price per node hour
       * ranks the same).
       */
      best: string;
      bestSize: number | null;
    }[];
  }[];
}

/** A price per server node hour (plan `cost`, or set in the panel). */
export interface CostView {
  pricePerNodeHour: number;
  currency: string;
}

/** One interface (and value of any further sweep axes): its charts and tables. */
export interface ChartGroup {
  id: string;
  interface: string;
  address: string;
  axes: Record<string, string | number>;
  /** e.g. `25G (10.0.0.1), fieldlength=1024`. */
  label: string;
  charts: ChartModel[];
  tables: ComparisonTable[];
  /** CPU utilisation and CPU per operation against threads (when the run sampled CPU). */
  cpuCharts?: ChartModel[];
  /** Latency percentile spectra per point and operation, the arms overlaid (HdrHistogram style). */
  spectra?: SpectrumView[];
}

/** One point's latency distribution for one operation, each stack a series. */
export interface SpectrumView {
  /** Safe as an HTML id: `<group id>-spectrum-t<threads>-<operation>`. */
  id: string;
  threads: number;
  operation: string;
  series: {
    stack: string;
    repetition: number;
    /**
     * `hdr-merged`: the clients' merged HDR histograms; `client-max`: upper bound (max of clients); `ycsb`: one
     * client's summary.
     */
    source: 'hdr-merged' | 'client-max' | 'ycsb';
    marked: boolean;
    /** x: the percentile's place on the nines scale (0 = 0 %, 1 = 90 %, 2 = 99 %...). */
    points: { x: number; percentile: number; valueUs: number }[];
  }[];
  /** The x axis ticks: place and label (`99.9`). */
  ticks: { x: number; label: string }[];
}

/** A mark code met in the run, explained once for the legend. */
export interface MarkLegendView {
  code: string;
  label: string;
  explanation: string;
  /** Cells (repetitions that ran) carrying it. */
  cells: number;
}

/** One cell's series over time (engine/src/report/evidence/evidenceViews.ts), as the time-series view draws it. */
export interface CellTimeSeriesView {
  cellId: string;
  repetition: number;
  throughput: { tSec: number; opsPerSec: number }[];
  latency: { operation: string; points: { tSec: number; latencyUs: number }[] }[];
  cpu: {
    host: string;
    role: 'server' | 'client';
    process?: string;
    points: { tSec: number; busyPct: number; processPctOfCore?: number }[];
  }[];
  warmupSec?: number;
  marks: CellMarkView[];
  /** What the CPU figures cover (engine/src/report/evidence/busiestThreads.ts cpuWindowText). */
  cpuWindow?: string;
  /** Each host's busiest threads of memcached or the YCSB JVM over that window (/proc/PID/task/TID/stat). */
  threads?: {
    host: string;
    role: 'server' | 'client';
    process: string;
    threads: { tid: number; name: string; pctOfCore: number; saturated: boolean; spinning?: boolean }[];
    more: number;
  }[];
  /**
   * How the cell's acceleration and interface were proven, or why not, per server host
   * (engine/src/report/evidence/cellProofs.ts).
   */
  proofs?: { host: string; acceleration: string; interface: string; memcached: string }[];
  /**
   * How the cell's cluster was formed and spread over its nodes (engine/src/report/evidence/clusterProof.ts); plans
   * with
   * cluster sizes only.
   */
  cluster?: {
    formed: string;
    replicas: string;
    nodes: { node: string; services: string; vBuckets: string; items: string }[];
  };
}

/** The answer to `open-timeseries`: every repetition of one point of one stack. */
export interface TimeSeriesView {
  runIndex: number;
  /** e.g. `25G (127.0.0.1), kernel, 10 threads`. */
  title: string;
  stack: string;
  threads: number;
  /** Every cell asked for, with or without a series: what "Open records and logs" opens (`open-cell`). */
  cellIds?: string[];
  cells: CellTimeSeriesView[];
  /** Cells asked for that recorded no series (older records, failed cells), described for the reader. */
  missing: string[];
}

export interface RunProgress {
  total: number;
  finished: number;
  failed: number;
  /** Set while a sweep is feeding the panel. */
  running?: { cell: string; index: number; total: number; remainingEstimateMs?: number };
  /** Set once the run reported its end. */
  outcome?: { completed: number; failed: number; total: number; cancelled: boolean; error?: string };
}

export interface EnvironmentRow {
  host: string;
  role: string;
  /** Label -> value, e.g. `Kernel` -> `6.8.0`. */
  facts: { label: string; value: string }[];
}

/** One pre-flight check as the panel lists it (engine/src/events.ts PreflightCheck). */
export interface PreflightCheckView {
  id: string;
  /** The check in words, e.g. `Host reachable over SSH`. */
  label: string;
  host?: string;
  ok: boolean;
  blocking: boolean;
  detail: string;
  action?: string;
}

/**
 * Where a run is: `preflight` (checks running, no cell yet), `preflight-failed` (a blocking check
 * failed; the engine removed the new run folder), `running`, `finished`, `stopped` (an error),
 * `cancelled`, or `incomplete` (read from disk, not all cells done, no sweep feeding it).
 */
export type RunStatus =
  'preflight' | 'preflight-failed' | 'running' | 'finished' | 'stopped' | 'cancelled' | 'incomplete';

/**
 * One line of the run's verdict (engine/src/report/verdict.ts): the best significant difference of a
 * profile from the kernel on one interface, or why there is none. `cue` is the colour-free word and
 * symbol (`▲ better`, `▼ worse`), which `text` contains.
 */
export interface VerdictView {
  interface: string;
  stack: string;
  kind: 'better' | 'worse' | 'no-significant-difference' | 'no-interval' | 'no-data';
  cue: string;
  text: string;
}

export interface RunView {
  runDir: string;
  runId: string;
  createdAt: string;
  planPath?: string;
  stacks: string[];
  progress: RunProgress;
  environment: EnvironmentRow[];
  /** Effective Onload options per profile. */
  profiles: { name: string; options: { name: string; value: string }[] }[];
  groups: ChartGroup[];
  /** What the run found, one line per interface and profile, shown first (absent in models from older hosts). */
  verdict?: VerdictView[];
  /** The largest improvements of each table metric anywhere in the run, best first. */
  bestImprovements: {
    metric: MetricId;
    title: string;
    items: { group: string; threads: number; stack: string; percent: number }[];
  }[];
  /** Problems met reading the folder (a torn last line, an unknown format version...). */
  warnings: string[];
  /** The axes the run sweeps that can be x (threads first); absent or one: threads only. */
  axes?: AxisView[];
  /** The groups drawn against each other axis than threads, by axis id (charts and cookbook tables). */
  axisGroups?: Record<string, ChartGroup[]>;
  /** With 2+ cluster sizes: the scaling view. */
  scaling?: ScalingPanelView;
  /** The plan's price per node hour, when it gives one (the panel can set another). */
  cost?: CostView;
  /** Every mark code met in the run, explained (legend of the marked cells). */
  marksLegend?: MarkLegendView[];
  /** Where the run is; absent in models from older hosts. */
  status?: RunStatus;
  /** The pre-flight checks reported so far (live), when a sweep fed the panel. */
  preflight?: { checks: PreflightCheckView[]; done: boolean };
  /** Why the run stopped, with the next step (pre-flight failures and other errors). */
  failure?: { host?: string; step: string; message: string; action: string };
  /** The run folder no longer exists (a new run that failed pre-flight leaves none behind). */
  removed?: boolean;
}

export interface PanelViewModel {
  /** Also the webview panel's title: `Onload Bench Results: <run id>`. */
  title: string;
  /** One run, or, when comparing, run A then run B. */
  runs: RunView[];
  /** When comparing: run B against run A (client/src/panel/comparison.ts). */
  comparison?: RunComparisonView;
  /** Series colours, kernel first (engine/src/report/palette.ts): the same in the panel and every export. */
  palette?: string[];
  /** Every stack of the runs shown -> how it reads (`kernel`, `Onload · latency`, the plan's display name). */
  stackLabels?: Record<string, string>;
  /** Background of exported images (setting onloadBench.results.exportBackground); light by default. */
  exportBackground?: 'light' | 'theme';
}

/** One thing that differs between two runs: a host fact, a plan field or an effective Onload option. */
export interface RunDifference {
  section: 'environment' | 'plan' | 'profile';
  /** e.g. `127.0.0.1 Kernel`, `workload.properties.recordcount`, `latency-best EF_POLL_USEC`. */
  name: string;
  /** Absent: the run does not have it. */
  a?: string;
  b?: string;
}

/** B against A at one point for one stack: both values and the difference with its interval. */
export interface CompareCell {
  stack: string;
  a: TableCell;
  b: TableCell;
  /** (mean B - mean A) / mean A * 100, with its 95 % interval (engine/src/report/statistics.ts). */
  deltaPercent: number | null;
  deltaInterval?: { low: number; high: number; halfWidth: number } | null;
  deltaNoInterval?: 'single-repetition' | 'no-spread' | 'unbounded' | 'no-data';
  significant: boolean;
  pValue?: number;
  /** Significant and in the better direction, neither side marked. */
  improvement: boolean;
  /** Either side marked: shown, proves nothing. */
  marked: boolean;
}

export interface CompareTable {
  id: string;
  metric: MetricId;
  title: string;
  unit: MetricUnit;
  displayUnit: DisplayUnit;
  higherIsBetter: boolean;
  /** Stacks both runs have, kernel first. */
  stacks: string[];
  /** Only thread counts both runs have. */
  rows: { threads: number; cells: CompareCell[] }[];
}

/** One chart, both runs on shared axes: per stack A's line (dashed) and B's (solid). */
export interface CompareChart {
  id: string;
  metric: MetricId;
  title: string;
  unit: MetricUnit;
  displayUnit: DisplayUnit;
  threads: number[];
  series: { stack: string; a: SeriesPoint[]; b: SeriesPoint[] }[];
}

/** An interface (and axis values) both runs measured. */
/**
 * Did Onload's gain over the kernel change from run A to run B? Per thread count and profile, each
 * run's gain ((profile / kernel − 1) × 100) and the change in percentage points with its 95 %
 * interval (engine/src/report/gainChange.ts).
 */
export interface GainChangeTable {
  id: string;
  metric: MetricId;
  title: string;
  higherIsBetter: boolean;
  rows: {
    threads: number;
    stack: string;
    gainA: number;
    gainB: number;
    changePoints: number;
    interval?: { low: number; high: number; halfWidth: number };
    noInterval?: 'single-repetition' | 'no-spread' | 'unbounded' | 'no-data';
    significant: boolean;
    /** Significant, and the gain grew the better way for this metric (more throughput, less latency). */
    better: boolean;
    /** A value in one of the four arms is marked: shown, proves nothing. */
    marked: boolean;
  }[];
}

export interface CompareGroup {
  id: string;
  interface: string;
  label: string;
  tables: CompareTable[];
  charts: CompareChart[];
  /** Absent in models from older hosts. */
  gainChanges?: GainChangeTable[];
}

export interface RunComparisonView {
  a: { runId: string; runDir: string; createdAt: string; planPath?: string };
  b: { runId: string; runDir: string; createdAt: string; planPath?: string };
  /** What changed between the runs: environment, plan fields, effective Onload options. */
  differences: RunDifference[];
  groups: CompareGroup[];
  /** Groups, stacks or thread counts only one run has (left out of the comparison). */
  leftOut: string[];
}

/** Host -> webview. */
export type HostMessage =
  | { type: 'model'; model: PanelViewModel }
  | { type: 'live'; runDir: string; text: string }
  | { type: 'notice'; level: 'info' | 'error'; text: string }
  | { type: 'timeseries'; view: TimeSeriesView };

export type ImageFormat = 'png' | 'svg';

/** Webview -> host. The host validates every one (see client/src/panel/messageValidation.ts). */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'export-csv'; runIndex: number }
  | { type: 'save-image'; format: ImageFormat; name: string; data: string }
  /** The self-contained HTML report of one run (engine/src/report/htmlReport). */
  | { type: 'export-report'; runIndex: number }
  /** The time series of a point's cells (a clicked chart point or table cell). */
  | { type: 'open-timeseries'; runIndex: number; cellIds: string[]; stack: string; threads: number; title: string }
  /** The records and YCSB logs of a point's cells (the time-series view's button, a compare-view value). */
  | { type: 'open-cell'; runIndex: number; cellIds: string[] };

/** What the webview keeps with setState, and what the serializer gets back after a reload. */
export interface PanelUiState {
  runDirs: string[];
  scrollY?: number;
  /** Chart id -> 'chart' | 'table'. */
  views?: Record<string, 'chart' | 'table'>;
  /** Chart id -> hidden series (stack names). */
  hidden?: Record<string, string[]>;
  /** Run folder -> stacks hidden in every chart of that run (the keyboard-usable filter). */
  hiddenStacks?: Record<string, string[]>;
  /** Group ids the user collapsed. */
  collapsed?: string[];
  /** Run folder -> the axis its charts and tables are drawn against (absent: threads). */
  xAxis?: Record<string, string>;
  /** Run folder -> the price per node hour set in the panel (instead of the plan's). */
  price?: Record<string, CostView | null>;
}
