// "Export CSV" writes the same CSV as `onload-bench report --csv`: the engine's report tables of
// the cookbook metrics (engine/src/csv.ts), so a spreadsheet made from either is the same.
import { reportTablesToCsv } from '../../../engine/src/csv';
import { buildReportTables, defaultMetrics } from '../../../engine/src/report';
import type { RunData } from './runData';

export function runTablesCsv(data: RunData): string {
  return reportTablesToCsv(buildReportTables({ results: [...data.results.values()], manifest: data.manifest }, defaultMetrics));
}
