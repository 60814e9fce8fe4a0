// The panel's comparison tables as CSV (RFC 4180 quoting), one block per table, for the
// "Export CSV" button. Numbers are written unrounded so spreadsheets keep full precision.
import type { ComparisonTable, RunView, TableCell } from './protocol';

function field(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function cellValue(cell: TableCell): string | number {
  return cell.value ?? cell.mark ?? '';
}

export function tableCsvRows(run: RunView, groupLabel: string, table: ComparisonTable): string[] {
  const header = ['run', 'group', 'metric', 'unit', 'threads', 'kernel'];
  for (const profile of table.profiles) header.push(profile, `${profile} diff %`);
  const rows = [header.map(field).join(',')];
  for (const row of table.rows) {
    const line: (string | number | null | undefined)[] = [run.runId, groupLabel, table.metric, table.unit, row.threads, cellValue(row.kernel)];
    for (const cell of row.profiles) line.push(cellValue(cell), cell.deltaPercent);
    rows.push(line.map(field).join(','));
  }
  return rows;
}

/** Every table of a run, each block headed by its own header row, blocks separated by a blank line. */
export function runTablesCsv(run: RunView): string {
  const blocks = run.groups.flatMap((group) => group.tables.map((table) => tableCsvRows(run, group.label, table).join('\r\n')));
  return blocks.join('\r\n\r\n') + (blocks.length > 0 ? '\r\n' : '');
}
