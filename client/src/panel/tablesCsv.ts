// "Export CSV" writes the same CSV as `onload-bench report --csv`: the engine's report tables of
// every metric the run measured (engine/src/report/csv.ts), with intervals and marks, so a spreadsheet
// made from either is the same.
import {
  buildReportTables,
  measuredMetrics,
  reportTablesToCsv,
  stackDisplayNames,
} from '../../../engine/src/report/index';
import type { RunData } from './runData';

export function runTablesCsv(data: RunData): string {
  const results = [...data.results.values()];
  return reportTablesToCsv(
    buildReportTables({ results, manifest: data.manifest }, measuredMetrics(results)),
    stackDisplayNames(data.manifest?.plan),
  );
}
