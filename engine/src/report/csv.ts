// CSV export (RFC 4180): CRLF line ends, fields with a comma, quote or LF are quoted and their
// quotes doubled. Text fields that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
// CR) get a leading apostrophe; numbers are written as numbers. Control characters in text (a run
// folder's stack names, axis values, messages) are escaped (controlCharacters.ts): the CSV is also
// printed to terminals. Pure.
import { escapeControlCharacters } from './controlCharacters';
import type { ReportTable, StackCell, StackComparison } from './report';
import { stackLabel, type StackDisplayNames } from './stackLabels';

export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  text = escapeControlCharacters(text);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Rounds away float noise (0.1 + 0.2) without hiding real precision. */
function rounded(value: number | undefined, decimals: number): number | undefined {
  if (value === undefined) return undefined;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Why a difference proves less than its number: no interval, marked side; `best` for the starred one. */
function comparisonNote(comparison: StackComparison): string {
  const notes: string[] = [];
  const reason = comparison.difference?.noInterval;
  if (reason === 'single-repetition') notes.push('one repetition: no interval');
  else if (reason === 'no-spread') notes.push('no spread: no interval');
  else if (reason === 'unbounded') notes.push('baseline too noisy: no interval');
  if (comparison.marked) notes.push('a side is marked');
  if (comparison.best) notes.push('best');
  return notes.join('; ');
}

/** `code:repetitions` per mark, `;`-separated, e.g. `not-accelerated:2;client-bound:1`. */
function marksField(cell: StackCell): string {
  return cell.marks.map((mark) => `${mark.code}:${mark.repetitions}`).join(';');
}

/**
 * The report tables as one CSV: one line per metric, group and thread count, with each stack's
 * median, spread, repetitions, state, marks (`code:repetitions`: client-bound, not accelerated...)
 * and, for percentiles, their source (`hdr-merged`, or `client-max`: an upper bound), then each profile's
 * difference from the kernel in percent with its 95 % interval, verdict, p-value and a note.
 * `significant` is empty when no interval could be given. The CPU figures (server and busiest
 * client busy %, server and memcached CPU µs per operation, operations per busy server core;
 * evidence/evidenceMetrics.ts) are metrics like the others: one line each, with their own differences.
 * Columns name their stack as a stack (stackLabels.ts): `kernel median`, `Onload · latency min`,
 * `Onload · latency vs kernel (%)`, never a bare `latency min` that reads as a metric.
 */
export function reportTablesToCsv(tables: readonly ReportTable[], displayNames: StackDisplayNames = {}): string {
  const stacks = [...new Set(tables.flatMap((table) => table.stacks))];
  const profiles = [...new Set(tables.flatMap((table) => table.profiles))];
  // Every row names its whole point, whatever the x axis (axes.ts): the cluster size when the run
  // has sizes, each YCSB property, the threads.
  const isProperty = (axis: string) => axis !== 'threads' && axis !== 'clusterSize';
  const axisNames = [
    ...new Set(
      tables.flatMap((table) => [
        ...table.groups.flatMap((group) => Object.keys(group.axes)),
        ...(isProperty(table.xAxis.id) ? [table.xAxis.id] : []),
      ]),
    ),
  ];
  const sizes = tables.some(
    (table) => table.xAxis.id === 'clusterSize' || table.groups.some((group) => group.clusterSize !== undefined),
  );
  const header: CsvValue[] = [
    'metric',
    'unit',
    'interface',
    'address',
    ...(sizes ? ['nodes'] : []),
    ...axisNames,
    'threads',
    ...stacks
      .map((stack) => stackLabel(stack, displayNames))
      .flatMap((label) => [
        `${label} median`,
        `${label} min`,
        `${label} max`,
        `${label} repetitions`,
        `${label} failed`,
        `${label} state`,
        `${label} marks`,
        `${label} percentile source`,
      ]),
    ...profiles
      .map((stack) => `${stackLabel(stack, displayNames)} vs ${stackLabel('kernel', displayNames)}`)
      .flatMap((label) => [
        `${label} (%)`,
        `${label} low (%)`,
        `${label} high (%)`,
        `${label} significant`,
        `${label} p`,
        `${label} note`,
      ]),
  ];
  const rows: CsvValue[][] = [header];
  for (const table of tables) {
    for (const group of table.groups) {
      for (const row of group.rows) {
        const size = table.xAxis.id === 'clusterSize' ? row.x : group.clusterSize;
        const line: CsvValue[] = [
          table.metric.id,
          table.metric.unit,
          group.interface,
          group.address,
          ...(sizes ? [size] : []),
          ...axisNames.map((name) => (table.xAxis.id === name ? row.x : group.axes[name])),
          row.threads,
        ];
        for (const stack of stacks) {
          const cell: StackCell | undefined = row.cells.find((candidate) => candidate.stack === stack);
          line.push(
            rounded(cell?.value, 3),
            rounded(cell?.min, 3),
            rounded(cell?.max, 3),
            cell?.repetitions,
            cell?.failed,
            cell?.state,
            cell ? marksField(cell) : undefined,
            cell?.percentilesSource,
          );
        }
        for (const stack of profiles) {
          const comparison = row.comparisons.find((candidate) => candidate.stack === stack);
          const difference = comparison?.difference;
          line.push(
            rounded(comparison?.percent, 2),
            rounded(difference?.interval?.low, 2),
            rounded(difference?.interval?.high, 2),
            difference ? (difference.interval ? difference.significant : undefined) : undefined,
            difference?.pValue === undefined ? undefined : Number(difference.pValue.toPrecision(3)),
            comparison ? comparisonNote(comparison) : undefined,
          );
        }
        rows.push(line);
      }
    }
  }
  return toCsv(rows);
}
