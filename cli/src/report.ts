// `onload-bench report RUN_DIR_OR_RESULTS [--csv | --json] [--metric NAME]...`: the cookbook's
// tables (kernel vs each Onload profile, difference in percent) from a run folder or its
// results.jsonl. Exit codes: 0 tables printed, 1 nothing readable, 2 bad usage.
import { reportTablesToCsv } from '../../engine/src/csv';
import { buildReportTables, commonMetrics, defaultMetrics, measuredMetrics, metricDefinition, renderReport } from '../../engine/src/report';
import { readRunFolder } from '../../engine/src/resultsFile';
import { commandArguments } from './arguments';

const usage =
  'Usage: onload-bench report RUN_DIR_OR_RESULTS [--csv | --json] [--metric NAME]...\n' +
  `  NAME: ${commonMetrics.join(', ')}, or any <operation>-latency / <operation>-p<N> / <operation>-min / <operation>-max.\n` +
  `  Default: ${defaultMetrics.join(' and ')}; with --csv or --json every metric the run measured. --metric may be repeated or comma-separated.`;

export async function run(args: string[]): Promise<number> {
  const parsed = commandArguments('report', usage, args, {
    csv: { type: 'boolean' },
    json: { type: 'boolean' },
    metric: { type: 'string', short: 'm', multiple: true },
  });
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1 || (parsed.values.csv && parsed.values.json)) {
    console.error(`onload-bench report: expected one run folder or results file, and at most one of --csv and --json.\n${usage}`);
    return 2;
  }
  const asked = parsed.values.metric;
  const metrics = (asked ?? defaultMetrics).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
  const unknown = metrics.filter((metric) => metricDefinition(metric) === undefined);
  if (unknown.length > 0) {
    console.error(`onload-bench report: unknown metric ${unknown.map((name) => `'${name}'`).join(', ')}.\n${usage}`);
    return 2;
  }

  const run = await readRunFolder(parsed.positionals[0]);
  if (!run.ok) {
    console.error(`onload-bench report: ${run.error.message} ${run.error.action}`);
    return 1;
  }
  for (const warning of run.warnings) console.error(`warning: ${warning}`);
  if (run.results.length === 0 && (run.manifest?.cells.length ?? 0) === 0) {
    console.error(`onload-bench report: ${run.runDir} has no results yet.`);
    return 1;
  }
  // A spreadsheet or a script gets everything the run measured unless it asked for less.
  const all = asked === undefined && (parsed.values.csv || parsed.values.json);
  const tables = buildReportTables({ results: run.results, manifest: run.manifest }, all ? measuredMetrics(run.results) : metrics);
  if (parsed.values.csv) process.stdout.write(reportTablesToCsv(tables));
  else if (parsed.values.json) console.log(JSON.stringify(tables, null, 2));
  else process.stdout.write(renderReport(tables, run.results, run.manifest?.environment));
  return 0;
}
