// `onload-bench report RUN_DIR_OR_RESULTS [--csv | --json | --html [--output FILE]] [--metric NAME]...`:
// the verdict (one line per interface and profile, engine/src/report/verdict.ts), then the
// cookbook's tables (kernel vs each Onload profile, difference in percent) from a run folder
// or its results.jsonl; --html: one self-contained HTML file with tables, figures, marks,
// environment and Onload settings (engine/src/report/htmlReport). Exit codes: 0 report written, 1 nothing
// readable or the output file could not be written, 2 bad usage. Whatever reaches the terminal
// has the control characters of run data escaped (engine/src/report/controlCharacters.ts): a run
// folder is anyone's, and its stack names or messages must not retitle the window or fake a line.
import { writeFile } from 'node:fs/promises';
import { escapeControlCharacters } from '../../engine/src/report/controlCharacters';
import { reportTablesToCsv } from '../../engine/src/report/csv';
import { buildHtmlReport } from '../../engine/src/report/htmlReport';
import { buildReportTables, commonMetrics, defaultMetrics, measuredMetrics, metricDefinition, renderReport } from '../../engine/src/report/report';
import { stackDisplayNames } from '../../engine/src/report/stackLabels';
import { buildVerdict, renderVerdict } from '../../engine/src/report/verdict';
import { readRunFolder } from '../../engine/src/results/resultsFile';
import { commandArguments } from './arguments';

const usage =
  'Usage: onload-bench report RUN_DIR_OR_RESULTS [--csv | --json | --html [--output FILE]] [--metric NAME]...\n' +
  `  NAME: ${commonMetrics.join(', ')}, or any <operation>-latency / <operation>-p<N> / <operation>-min / <operation>-max.\n` +
  `  Default: ${defaultMetrics.join(' and ')}; with --csv or --json every metric the run measured. --metric may be repeated or comma-separated.\n` +
  '  --html: one self-contained HTML file (tables with intervals, figures as SVG, CPU, marks, environment, Onload settings) on stdout or in --output FILE.';

export async function run(args: string[]): Promise<number> {
  const parsed = commandArguments('report', usage, args, {
    csv: { type: 'boolean' },
    json: { type: 'boolean' },
    html: { type: 'boolean' },
    output: { type: 'string', short: 'o' },
    metric: { type: 'string', short: 'm', multiple: true },
  });
  if (typeof parsed === 'number') return parsed;
  const formats = [parsed.values.csv, parsed.values.json, parsed.values.html].filter(Boolean).length;
  if (parsed.positionals.length !== 1 || formats > 1) {
    console.error(`onload-bench report: expected one run folder or results file, and at most one of --csv, --json and --html.\n${usage}`);
    return 2;
  }
  if (parsed.values.output !== undefined && !parsed.values.html) {
    console.error(`onload-bench report: --output goes with --html.\n${usage}`);
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
    say(`onload-bench report: ${run.error.message} ${run.error.action}`);
    return 1;
  }
  for (const warning of run.warnings) say(`warning: ${warning}`);
  if (run.results.length === 0 && (run.manifest?.cells.length ?? 0) === 0) {
    say(`onload-bench report: ${run.runDir} has no results yet.`);
    return 1;
  }
  if (parsed.values.html) {
    const html = buildHtmlReport({ runDir: run.runDir, results: run.results, manifest: run.manifest, warnings: run.warnings, generatedAt: new Date().toISOString() });
    if (parsed.values.output === undefined) {
      process.stdout.write(escapeControlCharacters(html));
      return 0;
    }
    try {
      await writeFile(parsed.values.output, html, 'utf8');
    } catch (error) {
      console.error(`onload-bench report: cannot write ${parsed.values.output}: ${(error as Error).message}. Choose a writable path.`);
      return 1;
    }
    console.error(`Wrote ${parsed.values.output}`);
    return 0;
  }
  // A spreadsheet or a script gets everything the run measured unless it asked for less.
  const all = asked === undefined && (parsed.values.csv || parsed.values.json);
  const tables = buildReportTables({ results: run.results, manifest: run.manifest }, all ? measuredMetrics(run.results) : metrics);
  // the CSV escapes its fields itself (its own line ends are CRLF); JSON stays valid with \u00XX escapes
  // Stacks are shown as stacks (`Onload · latency`) or by the display name the plan gives them.
  const displayNames = stackDisplayNames(run.manifest?.plan);
  if (parsed.values.csv) process.stdout.write(reportTablesToCsv(tables, displayNames));
  else if (parsed.values.json) process.stdout.write(`${escapeControlCharacters(JSON.stringify(tables, null, 2))}\n`);
  else {
    // What the run found comes first: one verdict line per interface and profile (verdict.ts).
    const verdict = renderVerdict(buildVerdict(tables, displayNames));
    process.stdout.write(escapeControlCharacters(`${verdict ? `${verdict}\n\n` : ''}${renderReport(tables, run.results, run.manifest?.environment, displayNames)}`));
  }
  return 0;
}

/** A line on stderr, its control characters escaped (paths and messages come from the run folder). */
function say(text: string): void {
  process.stderr.write(`${escapeControlCharacters(text)}\n`);
}
