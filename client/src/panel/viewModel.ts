// Turns what the panel knows about one or two runs into the model the webview draws. Pure: the
// same input always gives the same model, which is what the tests compare with the files.
import type { CellKey, CellResult, RunEnvironment } from '../../../engine/src/model';
import type {
  ChartGroup,
  ChartModel,
  EnvironmentRow,
  MetricId,
  PanelViewModel,
  RunView,
} from './protocol';
import { comparisonTable } from './comparisonTables';
import { metrics, reducePoint } from './metrics';
import type { RunData } from './runData';

export const panelTitlePrefix = 'Onload Bench Results';

/** Metrics that get a cookbook table (the charts cover all of them). */
const tableMetrics: readonly MetricId[] = ['throughput', 'read-avg'];

function axesKey(axes: Record<string, string | number>): string {
  return JSON.stringify(Object.keys(axes).sort().map((name) => [name, axes[name]]));
}

function groupKey(key: Pick<CellKey, 'interface' | 'address' | 'axes'>): string {
  return `${key.interface}\u0000${key.address}\u0000${axesKey(key.axes)}`;
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part.length > 0);
  return parts[parts.length - 1] ?? path;
}

export function runIdOf(data: RunData): string {
  return data.manifest?.runId ?? basename(data.runDir);
}

export function panelTitle(runIds: readonly string[]): string {
  return runIds.length === 0 ? panelTitlePrefix : `${panelTitlePrefix}: ${runIds.join(' vs ')}`;
}

/** Every cell key the run knows: the manifest's plan of cells, plus any result it lacks. */
function knownKeys(data: RunData): CellKey[] {
  const keys = (data.manifest?.cells ?? []).map((cell) => cell.key);
  const planned = new Set((data.manifest?.cells ?? []).map((cell) => cell.id));
  for (const result of data.results.values()) if (!planned.has(result.id)) keys.push(result.key);
  return keys;
}

function uniqueInOrder<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

function buildGroups(data: RunData, runIndex: number, stacks: string[]): ChartGroup[] {
  const keys = knownKeys(data);
  const groupKeys = uniqueInOrder(keys.map(groupKey));
  const results = [...data.results.values()];
  return groupKeys.map((key, groupIndex) => {
    const sample = keys.find((candidate) => groupKey(candidate) === key)!;
    const threads = uniqueInOrder(keys.filter((k) => groupKey(k) === key).map((k) => k.threads)).sort((a, b) => a - b);
    const groupResults = results.filter((result) => groupKey(result.key) === key);
    const id = `r${runIndex}-g${groupIndex}`;
    const charts: ChartModel[] = [];
    for (const metric of metrics) {
      const series = stacks.map((stack) => ({
        stack,
        points: threads.map((count) =>
          reducePoint(
            count,
            groupResults.filter((result) => result.key.stack === stack && result.key.threads === count),
            metric,
          ),
        ),
      }));
      // A latency chart for an operation the workload never ran (no UPDATE in workload c) is noise,
      // but throughput is always drawn so a fresh run shows its empty frame at once.
      const anyValue = series.some((s) => s.points.some((point) => point.values.length > 0));
      if (!anyValue && metric.id !== 'throughput' && metric.id !== 'read-avg') continue;
      charts.push({ id: `${id}-${metric.id}`, metric: metric.id, title: metric.title, unit: metric.unit, threads, series });
    }
    const tables = charts
      .filter((chart) => tableMetrics.includes(chart.metric))
      .map(comparisonTable)
      .filter((table) => table !== undefined);
    const axes = Object.entries(sample.axes).map(([name, value]) => `, ${name}=${value}`).join('');
    return {
      id,
      interface: sample.interface,
      address: sample.address,
      axes: sample.axes,
      label: `${sample.interface} (${sample.address})${axes}`,
      charts,
      tables,
    };
  });
}

function environmentRows(environment: RunEnvironment | undefined): EnvironmentRow[] {
  if (!environment) return [];
  return Object.entries(environment.hosts).map(([host, env]) => {
    const facts: { label: string; value: string }[] = [];
    const add = (label: string, value: string | undefined) => {
      if (value) facts.push({ label, value });
    };
    add('Kernel', env.kernel);
    add('Couchbase', env.couchbase);
    add('YCSB', env.ycsb);
    add('Java', env.java);
    add('Onload', env.onload);
    for (const [address, nic] of Object.entries(env.interfaces ?? {})) {
      const parts = [nic.device, nic.driver, nic.firmware && `firmware ${nic.firmware}`].filter(Boolean);
      add(`Interface ${address}`, parts.join(', ') || 'unknown');
    }
    return { host, role: env.role, facts };
  });
}

function stacksOf(data: RunData): string[] {
  const stacks = uniqueInOrder(knownKeys(data).map((key) => key.stack));
  // Kernel first: it is the baseline every table compares against.
  return stacks.includes('kernel') ? ['kernel', ...stacks.filter((stack) => stack !== 'kernel')] : stacks;
}

export function buildRunView(data: RunData, runIndex: number): RunView {
  const stacks = stacksOf(data);
  const results: CellResult[] = [...data.results.values()];
  const warnings = [...data.warnings];
  const environment = data.manifest?.environment;
  const outcome = data.outcome;
  return {
    runDir: data.runDir,
    runId: runIdOf(data),
    createdAt: data.manifest?.createdAt ?? '',
    planPath: data.manifest?.planPath,
    stacks,
    progress: {
      total: data.manifest?.cells.length ?? results.length,
      finished: results.length,
      failed: results.filter((result) => result.status === 'failed').length,
      running: data.running ? { ...data.running } : undefined,
      outcome: outcome && {
        completed: outcome.completed,
        failed: outcome.failed,
        total: outcome.total,
        cancelled: outcome.cancelled,
        error: outcome.error && `${outcome.error.message} ${outcome.error.action}`.trim(),
      },
    },
    environment: environmentRows(environment),
    profiles: Object.entries(environment?.profiles ?? {}).map(([name, options]) => ({
      name,
      options: Object.entries(options).map(([option, value]) => ({ name: option, value })),
    })),
    groups: buildGroups(data, runIndex, stacks),
    warnings,
  };
}

export function buildViewModel(runs: readonly RunData[]): PanelViewModel {
  return { title: panelTitle(runs.map(runIdOf)), runs: runs.map(buildRunView) };
}
