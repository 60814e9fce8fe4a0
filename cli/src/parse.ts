// `onload-bench parse YCSB_LOG [--json]`: reads a YCSB log or export file (`-` for stdin) and
// prints its final report, as a table or, with --json, as the full parsed report.
// Exit codes: 0 report printed, 1 no report in the file or the file cannot be read, 2 bad usage.
import { readFile } from 'node:fs/promises';
import { parseYcsbReport, type YcsbReport } from '../../engine/src/report/index';
import { commandArguments } from './arguments';

const usage = 'Usage: onload-bench parse YCSB_LOG [--json]   (YCSB_LOG may be - for stdin)';

export async function run(args: string[]): Promise<number> {
  const parsed = commandArguments('parse', usage, args, { json: { type: 'boolean' } });
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) {
    console.error(`onload-bench parse: expected one YCSB log file.\n${usage}`);
    return 2;
  }
  const path = parsed.positionals[0];
  let text: string;
  try {
    text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  } catch (error) {
    console.error(`onload-bench parse: cannot read ${path}: ${(error as Error).message}`);
    return 1;
  }
  const result = parseYcsbReport(text);
  if (!result.ok) {
    for (const warning of result.warnings) console.error(`warning: ${warning}`);
    console.error(`onload-bench parse: ${path}: ${result.error.message}`);
    return 1;
  }
  if (parsed.values.json) {
    console.log(JSON.stringify({ format: result.format, ...result.report }, null, 2));
  } else {
    console.log(renderYcsbReport(result.report, result.format));
    for (const warning of result.report.warnings) console.error(`warning: ${warning}`);
  }
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const formatNames = { text: 'text exporter', json: 'JSON exporter', 'json-array': 'JSON array exporter' };

/** The report as an aligned table: one line per operation, latencies in µs. */
export function renderYcsbReport(report: YcsbReport, format: keyof typeof formatNames): string {
  const operations = Object.values(report.operations);
  const percentiles = [...new Set(operations.flatMap((stats) => Object.keys(stats.percentilesUs)))].sort(
    (a, b) => Number(a) - Number(b),
  );
  const number = (value: number | undefined, decimals = 0) =>
    value === undefined ? '-' : decimals === 0 ? String(Math.round(value)) : value.toFixed(decimals);
  const header = [
    'operation',
    'operations',
    'avg µs',
    'min µs',
    'max µs',
    ...percentiles.map((p) => `p${p} µs`),
    'return codes',
  ];
  const rows = operations.map((stats) => [
    stats.operation,
    String(stats.operations),
    number(stats.averageUs, 1),
    number(stats.minUs),
    number(stats.maxUs),
    ...percentiles.map((p) => number(stats.percentilesUs[p])),
    Object.entries(stats.returnCodes)
      .map(([code, count]) => `${code}=${count}`)
      .join(' ') || '-',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row
      .map((text, column) =>
        column === 0 || column === row.length - 1 ? text.padEnd(widths[column]) : text.padStart(widths[column]),
      )
      .join('  ')
      .trimEnd();
  const lines = [
    `YCSB report (${formatNames[format]}): runtime ${report.runtimeMs} ms, throughput ${report.throughputOpsPerSec.toFixed(1)} ops/s`,
    '',
    line(header),
    ...rows.map(line),
  ];
  const failed = operations.reduce(
    (sum, stats) =>
      sum +
      Object.entries(stats.returnCodes)
        .filter(([code]) => code !== 'OK')
        .reduce((s, [, count]) => s + count, 0),
    0,
  );
  if (failed > 0) lines.push('', `${failed} operation(s) did not return OK (see the return codes).`);
  const gc = garbageCollection(report);
  if (gc.length > 0) lines.push('', ...gc);
  const rest = Object.entries(report.other).filter(([metric]) => !metric.startsWith('TOTAL_GC'));
  for (const [metric, section] of rest) {
    lines.push(
      `${metric}: ${Object.entries(section)
        .map(([measurement, value]) => `${measurement} ${value}`)
        .join(', ')}`,
    );
  }
  return lines.join('\n');
}

/** `GC PS_Scavenge: 3 collections, 17 ms (0.05 % of the runtime)`, one line per collector and the total. */
function garbageCollection(report: YcsbReport): string[] {
  const collectors = Object.keys(report.other)
    .filter((metric) => metric.startsWith('TOTAL_GCS_'))
    .map((metric) => metric.slice('TOTAL_GCS_'.length));
  const line = (label: string, count?: number, timeMs?: number, percent?: number) =>
    `${label}: ${count ?? '?'} collections, ${timeMs ?? '?'} ms${percent === undefined ? '' : ` (${percent.toFixed(2)} % of the runtime)`}`;
  const lines = collectors.map((name) =>
    line(
      `GC ${name}`,
      report.other[`TOTAL_GCS_${name}`]?.Count,
      report.other[`TOTAL_GC_TIME_${name}`]?.['Time(ms)'],
      report.other[`TOTAL_GC_TIME_%_${name}`]?.['Time(%)'],
    ),
  );
  if (report.other.TOTAL_GCs) {
    lines.push(
      line(
        'GC total',
        report.other.TOTAL_GCs.Count,
        report.other.TOTAL_GC_TIME?.['Time(ms)'],
        report.other['TOTAL_GC_TIME_%']?.['Time(%)'],
      ),
    );
  }
  return lines;
}
