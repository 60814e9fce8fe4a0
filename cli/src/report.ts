// `onload-bench report RUN_DIR_OR_RESULTS [--csv | --json | --html [--output FILE]] [--metric NAME]... [--x-axis AXIS]
// [--price N --currency C]`:
// the verdict (one line per interface and profile, engine/src/report/verdict.ts), then the
// cookbook's tables (kernel vs each Onload profile, difference in percent) from a run folder
// or its results.jsonl; --html: one self-contained HTML file with tables, figures, marks,
// environment and Onload settings (engine/src/report/htmlReport). Exit codes: 0 report written, 1 nothing
// readable or the output file could not be written, 2 bad usage. Whatever reaches the terminal
// has the control characters of run data escaped (engine/src/report/controlCharacters.ts): a run
// folder is anyone's, and its stack names or messages must not retitle the window or fake a line.
import { writeFile } from 'node:fs/promises';
import {
  buildHtmlReport,
  buildReportTables,
  buildScaling,
  buildVerdict,
  clusterSizeAxis,
  commonMetrics,
  type CostSettings,
  defaultMetrics,
  escapeControlCharacters,
  measuredMetrics,
  metricDefinition,
  planCost,
  readRunFolder,
  renderReport,
  renderScaling,
  renderVerdict,
  reportTablesToCsv,
  stackDisplayNames,
  stackLabel,
  sweptAxes,
} from '../../engine/src/report/index';
import { commandArguments } from './arguments';

const usage =
  'Usage: onload-bench report RUN_DIR_OR_RESULTS [--csv | --json | --html [--output FILE]] [--metric NAME]... [--x-axis AXIS] [--price N --currency C]\n' +
  `  NAME: ${commonMetrics.join(', ')}, or any <operation>-latency / <operation>-p<N> / <operation>-min / <operation>-max.\n` +
  `  Default: ${defaultMetrics.join(' and ')}; with --csv or --json every metric the run measured. --metric may be repeated or comma-separated.\n` +
  '  --html: one self-contained HTML file (tables with intervals, figures as SVG, CPU, marks, environment, Onload settings) on stdout or in --output FILE.\n' +
  '  --x-axis AXIS: the rows of the tables: threads (default), cluster-size, or a YCSB property the plan sweeps (e.g. fieldlength); the other axes are held, one table each.\n' +
  "  --price N --currency C: the price of a server node per hour, instead of the plan's cost, for ops/s per node, cost per million operations and the best size per price.";

export async function run(args: string[]): Promise<number> {
  const parsed = commandArguments('report', usage, args, {
    csv: { type: 'boolean' },
    json: { type: 'boolean' },
    html: { type: 'boolean' },
    output: { type: 'string', short: 'o' },
    metric: { type: 'string', short: 'm', multiple: true },
    'x-axis': { type: 'string', short: 'x' },
    price: { type: 'string' },
    currency: { type: 'string' },
  });
  if (typeof parsed === 'number') return parsed;
  const formats = [parsed.values.csv, parsed.values.json, parsed.values.html].filter(Boolean).length;
  if (parsed.positionals.length !== 1 || formats > 1) {
    console.error(
      `onload-bench report: expected one run folder or results file, and at most one of --csv, --json and --html.\n${usage}`,
    );
    return 2;
  }
  if (parsed.values.output !== undefined && !parsed.values.html) {
    console.error(`onload-bench report: --output goes with --html.\n${usage}`);
    return 2;
  }
  const asked = parsed.values.metric;
  const metrics = (asked ?? defaultMetrics)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
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
  const axes = sweptAxes([
    ...(run.manifest?.cells.map((cell) => cell.key) ?? []),
    ...run.results.map((result) => result.key),
  ]);
  const askedAxis = parsed.values['x-axis'];
  const xAxis =
    askedAxis === undefined ? 'threads' : /^(cluster-?size|nodes)$/i.test(askedAxis) ? clusterSizeAxis : askedAxis;
  if (!axes.some((axis) => axis.id === xAxis)) {
    // Axis names come from the run folder: escaped like every other text of it (say).
    say(
      `onload-bench report: the run does not sweep '${askedAxis}': its axes are ${axes.map((axis) => (axis.id === clusterSizeAxis ? 'cluster-size' : axis.id)).join(', ')}.`,
    );
    return 2;
  }
  const cost = costOf(parsed.values.price, parsed.values.currency, run.manifest?.plan);
  if (typeof cost === 'string') {
    console.error(`onload-bench report: ${cost}\n${usage}`);
    return 2;
  }
  if (parsed.values.html) {
    const html = buildHtmlReport({
      runDir: run.runDir,
      results: run.results,
      manifest: run.manifest,
      warnings: run.warnings,
      generatedAt: new Date().toISOString(),
      xAxis,
      ...(cost ? { cost } : {}),
    });
    if (parsed.values.output === undefined) {
      process.stdout.write(escapeControlCharacters(html));
      return 0;
    }
    try {
      await writeFile(parsed.values.output, html, 'utf8');
    } catch (error) {
      console.error(
        `onload-bench report: cannot write ${parsed.values.output}: ${(error as Error).message}. Choose a writable path.`,
      );
      return 1;
    }
    console.error(`Wrote ${parsed.values.output}`);
    return 0;
  }
  // A spreadsheet or a script gets everything the run measured unless it asked for less.
  const all = asked === undefined && (parsed.values.csv || parsed.values.json);
  const tables = buildReportTables(
    { results: run.results, manifest: run.manifest },
    all ? measuredMetrics(run.results) : metrics,
    xAxis,
  );
  // the CSV escapes its fields itself (its own line ends are CRLF); JSON stays valid with \u00XX escapes
  // Stacks are shown as stacks (`Onload · latency`) or by the display name the plan gives them.
  const displayNames = stackDisplayNames(run.manifest?.plan);
  if (parsed.values.csv) process.stdout.write(reportTablesToCsv(tables, displayNames));
  else if (parsed.values.json) process.stdout.write(`${escapeControlCharacters(JSON.stringify(tables, null, 2))}\n`);
  else {
    // What the run found comes first: one verdict line per interface and profile (verdict.ts).
    const verdict = renderVerdict(buildVerdict(tables, displayNames));
    // With cluster sizes: throughput against nodes beside the ideal line, and cost per node (scaling.ts).
    const scaling = buildScaling({ results: run.results, manifest: run.manifest });
    const scalingText = scaling
      ? `${renderScaling(scaling, (stack) => stackLabel(stack, displayNames), cost)}\n\n`
      : '';
    process.stdout.write(
      escapeControlCharacters(
        `${verdict ? `${verdict}\n\n` : ''}${scalingText}${renderReport(tables, run.results, run.manifest?.environment, displayNames)}`,
      ),
    );
  }
  return 0;
}

/** The price asked for on the command line, else the plan's; a sentence when the options are wrong. */
function costOf(
  price: string | undefined,
  currency: string | undefined,
  plan: unknown,
): CostSettings | undefined | string {
  if (price === undefined && currency === undefined) return planCost(plan);
  const value = Number(price);
  if (price === undefined || !Number.isFinite(value) || value <= 0)
    return '--price must be a positive number (the price of a server node per hour).';
  if (currency === undefined || currency.trim() === '' || currency.length > 12)
    return '--currency must name the currency (e.g. USD) in at most 12 characters.';
  return { pricePerNodeHour: value, currency: currency.trim() };
}

/** A line on stderr, its control characters escaped (paths and messages come from the run folder). */
function say(text: string): void {
  process.stderr.write(`${escapeControlCharacters(text)}\n`);
}
