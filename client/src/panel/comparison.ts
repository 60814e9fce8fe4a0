// "Compare two runs": run B against run A. What changed between them comes first (host facts,
// effective Onload options, plan fields), then, only where both runs measured, per interface,
// stack and thread count both values and B's difference from A with its 95 % interval, from the
// same Welch/Fieller computation the kernel-vs-Onload tables use (engine/src/report/statistics.ts).
// Pure.
import {
  baselineStack,
  buildReportTable,
  compareGains,
  compareSamples,
  defaultMetrics,
  type ReportGroup,
  type ReportTable,
  type StackCell,
} from '../../../engine/src/report/index';
import type {
  CompareCell,
  CompareChart,
  CompareGroup,
  CompareTable,
  GainChangeTable,
  MetricId,
  RunComparisonView,
  RunDifference,
} from './protocol';
import { displayUnitOf, seriesPoint, tableCell, unitOf } from './comparisonTables';
import type { RunData } from './runData';

function runIdOf(data: RunData): string {
  return data.manifest?.runId ?? data.runDir.split(/[\\/]/).filter(Boolean).pop() ?? data.runDir;
}

/** A group is the same in both runs when its interface label, cluster size and further axis values are. */
function groupKey(group: ReportGroup): string {
  return JSON.stringify([
    group.interface,
    group.clusterSize ?? null,
    Object.entries(group.axes).sort(([x], [y]) => x.localeCompare(y)),
  ]);
}

/** Leaves of a JSON value as dotted paths: `servers[0].host` -> `127.0.0.1`. */
export function flatten(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flatten(item, prefix ? `${prefix}.${key}` : key, out);
  } else if (value !== undefined) out.set(prefix, String(value));
  return out;
}

function differencesOf(
  section: RunDifference['section'],
  a: Map<string, string>,
  b: Map<string, string>,
  name: (key: string) => string = (key) => key,
): RunDifference[] {
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  return keys
    .filter((key) => a.get(key) !== b.get(key))
    .map((key) => ({
      section,
      name: name(key),
      ...(a.has(key) ? { a: a.get(key) } : {}),
      ...(b.has(key) ? { b: b.get(key) } : {}),
    }));
}

/** What changed between the runs: host facts, then effective Onload options, then plan fields. */
export function runDifferences(a: RunData, b: RunData): RunDifference[] {
  // Keyed `<host> <fact>` and `<profile> <option>`: host names hold dots, so no dotted path here.
  const perName = (entries: Record<string, unknown>) => {
    const out = new Map<string, string>();
    for (const [name, value] of Object.entries(entries))
      for (const [key, text] of flatten(value)) out.set(`${name} ${key}`, text);
    return out;
  };
  const hosts = (data: RunData) => perName(data.manifest?.environment?.hosts ?? {});
  const profiles = (data: RunData) => perName(data.manifest?.environment?.profiles ?? {});
  // The plan's name is how runs are told apart, not a setting.
  const plan = (data: RunData) => {
    const fields = flatten(data.manifest?.plan ?? {});
    fields.delete('name');
    return fields;
  };
  return [
    ...differencesOf('environment', hosts(a), hosts(b)),
    ...differencesOf('profile', profiles(a), profiles(b)),
    ...differencesOf('plan', plan(a), plan(b)),
  ];
}

function compareCell(stack: string, a: StackCell, b: StackCell, higherIsBetter: boolean): CompareCell {
  const marked = a.state === 'marked' || b.state === 'marked';
  const cell: CompareCell = {
    stack,
    a: tableCell(a),
    b: tableCell(b),
    deltaPercent: null,
    significant: false,
    improvement: false,
    marked,
  };
  const usable = (side: StackCell) => (side.state === 'ok' || side.state === 'marked') && side.values.length > 0;
  if (!usable(a) || !usable(b)) {
    cell.deltaNoInterval = 'no-data';
    return cell;
  }
  const difference = compareSamples(a.values, b.values);
  if (!Number.isFinite(difference.percent)) {
    cell.deltaNoInterval = 'no-data';
    return cell;
  }
  cell.deltaPercent = difference.percent;
  cell.deltaInterval = difference.interval
    ? { low: difference.interval.low, high: difference.interval.high, halfWidth: difference.interval.halfWidth }
    : null;
  if (difference.noInterval) cell.deltaNoInterval = difference.noInterval;
  if (difference.pValue !== undefined) cell.pValue = difference.pValue;
  cell.significant = difference.significant;
  cell.improvement =
    difference.significant && !marked && (higherIsBetter ? difference.percent > 0 : difference.percent < 0);
  return cell;
}

interface Matched {
  key: string;
  groupA: ReportGroup;
  groupB: ReportGroup;
  stacks: string[];
  threads: number[];
}

/** Groups, stacks and thread counts both tables have; what only one has goes to `leftOut`. */
function match(tableA: ReportTable, tableB: ReportTable, leftOut: Set<string>): Matched[] {
  const byKeyA = new Map(tableA.groups.map((group) => [groupKey(group), group]));
  const byKeyB = new Map(tableB.groups.map((group) => [groupKey(group), group]));
  for (const [key, group] of byKeyA) if (!byKeyB.has(key)) leftOut.add(`${group.title}: only in run A`);
  for (const [key, group] of byKeyB) if (!byKeyA.has(key)) leftOut.add(`${group.title}: only in run B`);
  for (const stack of tableA.stacks) if (!tableB.stacks.includes(stack)) leftOut.add(`stack ${stack}: only in run A`);
  for (const stack of tableB.stacks) if (!tableA.stacks.includes(stack)) leftOut.add(`stack ${stack}: only in run B`);
  const stacks = tableB.stacks.filter((stack) => tableA.stacks.includes(stack));
  const matched: Matched[] = [];
  for (const [key, groupB] of byKeyB) {
    const groupA = byKeyA.get(key);
    if (!groupA) continue;
    const threadsA = groupA.rows.map((row) => row.threads);
    const threadsB = groupB.rows.map((row) => row.threads);
    for (const t of threadsA)
      if (!threadsB.includes(t)) leftOut.add(`${groupB.title}, ${t} thread${t === 1 ? '' : 's'}: only in run A`);
    for (const t of threadsB)
      if (!threadsA.includes(t)) leftOut.add(`${groupB.title}, ${t} thread${t === 1 ? '' : 's'}: only in run B`);
    matched.push({ key, groupA, groupB, stacks, threads: threadsB.filter((t) => threadsA.includes(t)) });
  }
  return matched;
}

/**
 * Did each profile's gain over the kernel change from A to B, at each common thread count? Undefined without a kernel
 * and a profile in both.
 */
function gainChangeTable(
  id: string,
  metric: MetricId,
  tableA: ReportTable,
  tableB: ReportTable,
  matched: { groupA: ReportGroup; groupB: ReportGroup; stacks: string[]; threads: number[] },
): GainChangeTable | undefined {
  if (!matched.stacks.includes(baselineStack)) return undefined;
  const higherIsBetter = tableB.metric.higherIsBetter;
  const usable = (cell: StackCell) => (cell.state === 'ok' || cell.state === 'marked') && cell.values.length > 0;
  const rows: GainChangeTable['rows'] = [];
  for (const stack of matched.stacks.filter((candidate) => candidate !== baselineStack)) {
    for (const threads of matched.threads) {
      const cells = [
        cellOf(tableA, matched.groupA, threads, baselineStack),
        cellOf(tableA, matched.groupA, threads, stack),
        cellOf(tableB, matched.groupB, threads, baselineStack),
        cellOf(tableB, matched.groupB, threads, stack),
      ];
      if (!cells.every(usable)) continue;
      const change = compareGains(cells[0].values, cells[1].values, cells[2].values, cells[3].values);
      if (!change) continue;
      const marked = cells.some((cell) => cell.state === 'marked');
      rows.push({
        threads,
        stack,
        gainA: change.gainA,
        gainB: change.gainB,
        changePoints: change.changePoints,
        ...(change.interval
          ? { interval: { low: change.interval.low, high: change.interval.high, halfWidth: change.interval.halfWidth } }
          : {}),
        ...(change.noInterval ? { noInterval: change.noInterval } : {}),
        significant: change.significant,
        better: change.significant && !marked && (higherIsBetter ? change.changePoints > 0 : change.changePoints < 0),
        marked,
      });
    }
  }
  if (rows.length === 0) return undefined;
  return {
    id,
    metric,
    title: `${tableB.metric.title}: did Onload's gain over the kernel change (B against A)?`,
    higherIsBetter,
    rows,
  };
}

function cellOf(table: ReportTable, group: ReportGroup, threads: number, stack: string): StackCell {
  const row = group.rows.find((candidate) => candidate.threads === threads)!;
  return row.cells[table.stacks.indexOf(stack)];
}

export function buildComparison(a: RunData, b: RunData, metrics: readonly MetricId[]): RunComparisonView {
  const leftOut = new Set<string>();
  const groups = new Map<string, CompareGroup>();
  let groupIndex = 0;
  for (const metric of metrics) {
    const tableA = buildReportTable({ results: [...a.results.values()], manifest: a.manifest }, metric)!;
    const tableB = buildReportTable({ results: [...b.results.values()], manifest: b.manifest }, metric)!;
    for (const matched of match(tableA, tableB, leftOut)) {
      let group = groups.get(matched.key);
      if (!group) {
        group = {
          id: `cmp-g${groupIndex++}`,
          interface: matched.groupB.interface,
          label: matched.groupB.title,
          tables: [],
          charts: [],
          gainChanges: [],
        };
        groups.set(matched.key, group);
      }
      const unit = unitOf(tableB);
      // One unit for the metric over both runs: A in ms and B in µs would not compare at a glance.
      const displayUnit = displayUnitOf([tableA, tableB]);
      const series = matched.stacks.map((stack) => ({
        stack,
        a: matched.threads.map((threads) => seriesPoint(threads, cellOf(tableA, matched.groupA, threads, stack))),
        b: matched.threads.map((threads) => seriesPoint(threads, cellOf(tableB, matched.groupB, threads, stack))),
      }));
      const anyValue = series.some((s) => [...s.a, ...s.b].some((point) => point.median !== null));
      if (anyValue || metric === 'throughput') {
        const chart: CompareChart = {
          id: `${group.id}-${metric}`,
          metric,
          title: tableB.metric.title,
          unit,
          displayUnit,
          threads: matched.threads,
          series,
        };
        group.charts.push(chart);
      }
      if (defaultMetrics.includes(metric)) {
        const table: CompareTable = {
          id: `${group.id}-${metric}-table`,
          metric,
          title: `${tableB.metric.title}: B against A`,
          unit,
          displayUnit,
          higherIsBetter: tableB.metric.higherIsBetter,
          stacks: matched.stacks,
          rows: matched.threads.map((threads) => ({
            threads,
            cells: matched.stacks.map((stack) =>
              compareCell(
                stack,
                cellOf(tableA, matched.groupA, threads, stack),
                cellOf(tableB, matched.groupB, threads, stack),
                tableB.metric.higherIsBetter,
              ),
            ),
          })),
        };
        group.tables.push(table);
        const gains = gainChangeTable(`${group.id}-${metric}-gain`, metric, tableA, tableB, matched);
        if (gains) group.gainChanges!.push(gains);
      }
    }
  }
  const side = (data: RunData) => ({
    runId: runIdOf(data),
    runDir: data.runDir,
    createdAt: data.manifest?.createdAt ?? '',
    ...(data.manifest?.planPath ? { planPath: data.manifest.planPath } : {}),
  });
  return {
    a: side(a),
    b: side(b),
    differences: runDifferences(a, b),
    groups: [...groups.values()],
    leftOut: [...leftOut],
  };
}
