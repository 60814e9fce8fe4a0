// What a run found, at a glance: one line per interface (group) and Onload profile, with the best
// significant difference from the kernel over the given tables' metrics and thread counts (or why
// there is none), its 95 % interval, threads and metric. The results panel, `onload-bench report`
// and the HTML report open with these same lines, so the three never disagree. Pure.
//
// Better and worse are said by the sign of the number and by a word with a symbol (▲ better,
// ▼ worse), never by colour alone: a reader who cannot tell green from red, or prints in grey,
// reads the same verdict. A comparison with a marked side proves nothing (report.ts) and is left
// out; the line says how many were.
import type { ReportTable, StackComparison } from './report';
import { axisPointText } from './axes';
import { stackLabel } from './stackLabels';

export type VerdictKind = 'better' | 'worse' | 'no-significant-difference' | 'no-interval' | 'no-data';

export interface VerdictLine {
  /** The group's title (`25G (10.20.128.35)`, with further axes). */
  group: string;
  interface: string;
  /** The profile's stack name, and how it is shown (`Onload · latency`). */
  stack: string;
  stackLabel: string;
  kind: VerdictKind;
  /** The colour-free cue: `▲ better`, `▼ worse`, `no significant difference`, ... */
  cue: string;
  /** The difference shown (better / worse only). */
  metric?: string;
  metricTitle?: string;
  threads?: number;
  percent?: number;
  interval?: { low: number; high: number; level: number };
  /** Comparisons with an interval, and how many of them are significant (unmarked only). */
  tested: number;
  significant: number;
  /** Significant differences the other way than the one shown (e.g. worse at other points). */
  otherWay: number;
  /** Comparisons left out because a side is marked. */
  markedLeftOut: number;
  /** The whole line, as every edge prints it. */
  text: string;
}

/** `+59.5 %`, `−36.6 %` (a true minus sign, as the panel writes differences). */
function signedPercent(percent: number): string {
  const rounded = Math.round(percent * 10) / 10;
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '±';
  return `${sign}${Math.abs(rounded).toFixed(1)} %`;
}

interface Candidate {
  table: ReportTable;
  threads: number;
  /** The point's value of the table's x axis (threads unless the table is drawn against another). */
  x: number | string;
  comparison: StackComparison;
  /** The change in the better direction, in percent (positive: better). */
  gain: number;
}

/** One line per group and profile over the given tables (same run, same groups); none without a kernel stack. */
export function buildVerdict(
  tables: readonly ReportTable[],
  displayNames: Readonly<Record<string, string>> = {},
): VerdictLine[] {
  const first = tables[0];
  if (!first || !first.hasBaseline || first.profiles.length === 0) return [];
  const lines: VerdictLine[] = [];
  first.groups.forEach((group, groupIndex) => {
    first.profiles.forEach((stack) => {
      const { candidates, tested, markedLeftOut, anyValue } = collectCandidates(tables, groupIndex, stack);
      const label = stackLabel(stack, displayNames);
      const base = {
        group: group.title,
        interface: group.interface,
        stack,
        stackLabel: label,
        tested,
        significant: candidates.length,
        markedLeftOut,
      };
      const better = candidates.filter((candidate) => candidate.gain > 0).sort((a, b) => b.gain - a.gain);
      const worse = candidates.filter((candidate) => candidate.gain < 0).sort((a, b) => a.gain - b.gain);
      const shown = better[0] ?? worse[0];
      const head = `${group.title} · ${label} vs ${stackLabel('kernel', displayNames)}: `;
      const leftOut =
        markedLeftOut > 0 ? `; ${markedLeftOut} marked point${markedLeftOut === 1 ? '' : 's'} left out` : '';
      if (shown) {
        const kind: VerdictKind = shown.gain > 0 ? 'better' : 'worse';
        const otherWay = kind === 'better' ? worse.length : 0;
        const interval = shown.comparison.difference!.interval!;
        const cue = kind === 'better' ? '▲ better' : '▼ worse';
        const percent = shown.comparison.difference!.percent;
        const also = otherWay > 0 ? `; also ▼ worse at ${otherWay} point${otherWay === 1 ? '' : 's'}` : '';
        const text = `${head}${cue}: ${shown.table.metric.title.toLowerCase()} ${signedPercent(percent)} (95 % CI ${signedPercent(interval.low)} to ${signedPercent(interval.high)}) at ${axisPointText(shown.table.xAxis.id, shown.x)}${also}${leftOut}`;
        lines.push({
          ...base,
          kind,
          cue,
          metric: shown.table.metric.id,
          metricTitle: shown.table.metric.title,
          threads: shown.threads,
          percent,
          interval: { low: interval.low, high: interval.high, level: interval.level },
          otherWay,
          text,
        });
        return;
      }
      if (tested > 0) {
        const cue = 'no significant difference';
        lines.push({
          ...base,
          kind: 'no-significant-difference',
          cue,
          otherWay: 0,
          text: `${head}= ${cue} (${tested} point${tested === 1 ? '' : 's'} tested at 95 %)${leftOut}`,
        });
        return;
      }
      if (anyValue) {
        const cue = 'no interval';
        const why =
          markedLeftOut > 0 && markedLeftOut === countDifferences(tables, groupIndex, stack)
            ? 'every point has a marked side'
            : 'each point needs 2+ repetitions of both stacks (plan: repetitions)';
        lines.push({
          ...base,
          kind: 'no-interval',
          cue,
          otherWay: 0,
          text: `${head}? ${cue}: ${why}${markedLeftOut > 0 && why !== 'every point has a marked side' ? leftOut : ''}`,
        });
        return;
      }
      lines.push({ ...base, kind: 'no-data', cue: 'no results yet', otherWay: 0, text: `${head}… no results yet` });
    });
  });
  return lines;
}

/** The points of one group and profile, over every table: the significant differences and what was counted. */
function collectCandidates(
  tables: readonly ReportTable[],
  groupIndex: number,
  stack: string,
): { candidates: Candidate[]; tested: number; markedLeftOut: number; anyValue: boolean } {
  const candidates: Candidate[] = [];
  let tested = 0;
  let markedLeftOut = 0;
  let anyValue = false;
  for (const table of tables) {
    const tableGroup = table.groups[groupIndex];
    const profileColumn = table.profiles.indexOf(stack);
    if (!tableGroup || profileColumn < 0) continue;
    for (const row of tableGroup.rows) {
      const comparison = row.comparisons[profileColumn];
      if (!comparison?.difference) continue;
      anyValue = true;
      if (comparison.marked) {
        markedLeftOut += 1;
        continue;
      }
      if (!comparison.difference.interval) continue;
      tested += 1;
      if (!comparison.significant) continue;
      const gain = table.metric.higherIsBetter ? comparison.difference.percent : -comparison.difference.percent;
      candidates.push({ table, threads: row.threads, x: row.x, comparison, gain });
    }
  }
  return { candidates, tested, markedLeftOut, anyValue };
}

function countDifferences(tables: readonly ReportTable[], groupIndex: number, stack: string): number {
  let count = 0;
  for (const table of tables) {
    const column = table.profiles.indexOf(stack);
    for (const row of table.groups[groupIndex]?.rows ?? [])
      if (column >= 0 && row.comparisons[column]?.difference) count += 1;
  }
  return count;
}

/** The verdict for the terminal: a heading and one indented line each; empty without lines. */
export function renderVerdict(lines: readonly VerdictLine[]): string {
  if (lines.length === 0) return '';
  return [
    'Verdict (best significant difference from the kernel, 95 % interval):',
    ...lines.map((line) => `  ${line.text}`),
  ].join('\n');
}
