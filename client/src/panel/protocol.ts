// The contract between the results panel's host (client/src/panel) and its webview (media/src), which
// imports these types only. The host computes everything from the run folder and posts a
// ready-to-draw model, so the webview stays a renderer and never needs the engine's code.

/** Which metric a chart or table shows. Throughput is better higher; latencies better lower. */
export type MetricId =
  | 'throughput'
  | 'read-avg'
  | 'read-p95'
  | 'read-p99'
  | 'update-avg'
  | 'update-p95'
  | 'update-p99';

export type MetricUnit = 'ops/s' | 'µs';

/** The repetitions of one (stack, threads) point, reduced to what a chart draws. */
export interface SeriesPoint {
  threads: number;
  /** Median of the successful repetitions; null when none succeeded (or none finished yet). */
  median: number | null;
  min: number | null;
  max: number | null;
  /** Each successful repetition's value, in repetition order. */
  values: number[];
  /** Repetitions finished so far, failed ones included. */
  finished: number;
  failed: number;
  /** Onload repetitions where Couchbase was found running without acceleration. */
  notAccelerated: number;
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
  /** Every thread count of the sweep, ascending (x axis). */
  threads: number[];
  series: ChartSeries[];
}

/** A mark on a table cell that has no trustworthy number. */
export type CellMark = 'failed' | 'not-accelerated' | 'missing';

export interface TableCell {
  /** Median value; null when there is none. */
  value: number | null;
  /** (profile - kernel) / kernel * 100; only on profile cells with both numbers. */
  deltaPercent?: number | null;
  /** True when deltaPercent is an improvement (more throughput, less latency). */
  improvement?: boolean;
  /** The best improvement of its column (highlighted). */
  best?: boolean;
  mark?: CellMark;
  /** Successful / finished repetitions, for the tooltip and screen readers. */
  repetitions?: { ok: number; finished: number };
  /** Spread of the repetitions (max - min) in percent of the median, when there are 2+. */
  spreadPercent?: number | null;
}

/** Cookbook-style table: rows are thread counts, kernel then each profile with its difference. */
export interface ComparisonTable {
  id: string;
  metric: MetricId;
  title: string;
  unit: MetricUnit;
  /** The profile names, in plan order; the first column is always the kernel. */
  profiles: string[];
  rows: { threads: number; kernel: TableCell; profiles: TableCell[] }[];
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
  /** Problems met reading the folder (a torn last line, an unknown format version...). */
  warnings: string[];
}

export interface PanelViewModel {
  /** Also the webview panel's title: `Onload Bench Results: <run id>`. */
  title: string;
  /** One run, or two side by side when comparing. */
  runs: RunView[];
}

/** Host -> webview. */
export type HostMessage =
  | { type: 'model'; model: PanelViewModel }
  | { type: 'live'; runDir: string; text: string }
  | { type: 'notice'; level: 'info' | 'error'; text: string };

export type ImageFormat = 'png' | 'svg';

/** Webview -> host. The host validates every one (see client/src/panel/messageValidation.ts). */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'export-csv'; runIndex: number }
  | { type: 'save-image'; format: ImageFormat; name: string; data: string };

/** What the webview keeps with setState, and what the serializer gets back after a reload. */
export interface PanelUiState {
  runDirs: string[];
  scrollY?: number;
  /** Chart id -> 'chart' | 'table'. */
  views?: Record<string, 'chart' | 'table'>;
  /** Chart id -> hidden series (stack names). */
  hidden?: Record<string, string[]>;
  /** Group ids the user collapsed. */
  collapsed?: string[];
}
