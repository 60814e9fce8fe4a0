// The parsers on the real YCSB 0.17.0's output, captured in the loopback lab
// (test/fixtures/ycsb-output/lab_ycsb-0.17.0_*, made by test/lab/captureYcsbOutput.ts): every
// figure of each report line must come out of the parser as printed, the status lines, the HDR
// interval logs with counts equal to the report's, the JSON exporters, failures, and a killed JVM.
// Figures are read from the fixture itself, so a re-capture keeps the tests meaningful.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { YcsbReport } from '../../../engine/src/model';
import { decodeIntervals, hdrOperationOf, mergeHdrLogs } from '../../../engine/src/evidence/hdrMerge';
import { parseYcsbReport } from '../../../engine/src/ycsb/ycsbOutput';
import { parseStatusLines } from '../../../engine/src/ycsb/ycsbStatus';

const fixture = (name: string): string =>
  readFileSync(join('test', 'fixtures', 'ycsb-output', `lab_ycsb-0.17.0_${name}`), 'utf8');

function report(text: string): YcsbReport {
  const result = parseYcsbReport(text);
  if (!result.ok) assert.fail(`expected a report, got ${result.error.code}: ${result.error.message}`);
  return result.report;
}

/** `[SECTION], Metric, value` lines of a text report, as printed. */
function lines(text: string): [string, string, string][] {
  return [...text.matchAll(/^\[([^\]]+)\], ([^,]+), (.+)$/gm)].map((match) => [match[1], match[2], match[3]]);
}

/** Every line of a text report is in the parsed report with the same value. */
function assertEveryFigure(text: string, parsed: YcsbReport): void {
  for (const [section, metric, value] of lines(text)) {
    const number = Number(value);
    if (section === 'OVERALL') {
      assert.equal(
        metric === 'RunTime(ms)' ? parsed.runtimeMs : parsed.throughputOpsPerSec,
        number,
        `${section} ${metric}`,
      );
      continue;
    }
    const operation = parsed.operations[section];
    if (!operation) {
      assert.equal(parsed.other[section]?.[metric], number, `${section} ${metric}`);
      continue;
    }
    const percentile = /^(\d+(?:\.\d+)?)thPercentileLatency\(us\)$/.exec(metric);
    const code = /^Return=(.+)$/.exec(metric);
    if (metric === 'Operations') assert.equal(operation.operations, number, `${section} ${metric}`);
    else if (metric === 'AverageLatency(us)') assert.equal(operation.averageUs, number, `${section} ${metric}`);
    else if (metric === 'MinLatency(us)') assert.equal(operation.minUs, number, `${section} ${metric}`);
    else if (metric === 'MaxLatency(us)') assert.equal(operation.maxUs, number, `${section} ${metric}`);
    else if (percentile) assert.equal(operation.percentilesUs[percentile[1]], number, `${section} ${metric}`);
    else if (code) assert.equal(operation.returnCodes[code[1]], number, `${section} ${metric}`);
  }
}

test('a load: the real text report, every figure; status lines up to the last operation', () => {
  const stdout = fixture('workloada_load_hdrhistogram_status.stdout.txt');
  const parsed = report(stdout);
  assertEveryFigure(stdout, parsed);
  assert.equal(parsed.operations.INSERT.operations, 300);
  assert.equal(parsed.operations.INSERT.returnCodes.OK, 300);
  const statuses = parseStatusLines(fixture('workloada_load_hdrhistogram_status.stderr.txt'));
  assert.ok(statuses.length >= 2);
  assert.equal(statuses.at(-1)?.operations, 300);
  assert.ok(statuses.every((status, index) => index === 0 || status.operations >= statuses[index - 1].operations));
});

test('a run with failed reads (the node answered TMPFAIL): Return=ERROR, READ-FAILED, the 50th percentile asked for', () => {
  const stdout = fixture('workloadb_run_hdrhistogram-fileoutput_failures.stdout.txt');
  const parsed = report(stdout);
  assertEveryFigure(stdout, parsed);
  assert.ok((parsed.operations.READ.returnCodes.ERROR ?? 0) > 0);
  assert.equal(parsed.operations['READ-FAILED'].operations, parsed.operations.READ.returnCodes.ERROR);
  assert.deepEqual(Object.keys(parsed.operations.READ.percentilesUs).sort(), ['50', '95', '99']);
  // the status lines of the same run carry the failed interval too
  const statuses = parseStatusLines(fixture('workloadb_run_hdrhistogram-fileoutput_failures.stderr.txt'));
  assert.ok(
    statuses.some((status) => 'READ-FAILED' in (status.perOperation ?? {})),
    JSON.stringify(statuses.at(-1)),
  );
});

test('HDR interval logs of that run: one per measurement, counts equal to the report', () => {
  const parsed = report(fixture('workloadb_run_hdrhistogram-fileoutput_failures.stdout.txt'));
  const names = ['READ', 'READ-FAILED', 'UPDATE', 'CLEANUP'];
  const files = names.map((name) => ({ name: `${name}.hdr`, text: fixture(`workloadb_run_${name}.hdr`) }));
  for (const file of files) {
    assert.equal(hdrOperationOf(file.name), file.name.replace(/\.hdr$/, ''));
    assert.ok(decodeIntervals(file.text).length >= 1, file.name);
  }
  const merged = mergeHdrLogs(
    files.map((file) => ({
      host: 'ycsb-client',
      operation: file.name.replace(/\.hdr$/, ''),
      file: file.name,
      text: file.text,
    })),
  );
  for (const name of names) assert.equal(merged.get(name)?.totalCount, parsed.operations[name].operations, name);
});

test('the JSON exporter (objects back to back) and the JSON array exporter, after the java command line', () => {
  for (const name of ['workloada_run_json-exporter.stdout.txt', 'workloada_run_json-array-exporter.stdout.txt']) {
    const text = fixture(name);
    const parsed = parseYcsbReport(text);
    assert.ok(parsed.ok, name);
    if (!parsed.ok) continue;
    assert.equal(parsed.format, name.includes('array') ? 'json-array' : 'json');
    const r = parsed.report;
    assert.ok(r.runtimeMs > 0 && r.throughputOpsPerSec > 0);
    assert.equal((r.operations.READ?.operations ?? 0) + (r.operations.UPDATE?.operations ?? 0), 300, name);
    assert.ok((r.operations.READ?.percentilesUs['95'] ?? 0) > 0);
    assert.equal(r.operations.READ?.returnCodes.OK, r.operations.READ?.operations);
  }
});

test('histogram and timeseries measurements of the real client', () => {
  const histogram = fixture('workloade_run_histogram_scan.stdout.txt');
  const scans = report(histogram);
  assert.ok(scans.operations.SCAN.operations > 0);
  assert.equal(scans.operations.SCAN.returnCodes.OK, scans.operations.SCAN.operations);
  assert.ok(parseStatusLines(fixture('workloade_run_histogram_scan.stderr.txt')).length >= 1);
  const timeseries = report(fixture('workloadc_run_timeseries.stdout.txt'));
  assert.equal(timeseries.operations.READ.operations, 300);
  assert.equal(timeseries.operations.READ.returnCodes.OK, 300);
});

test('a JVM killed mid-run: status lines, then no report, a clear error', () => {
  const parsed = parseYcsbReport(fixture('workloadc_run_jvm-killed.stdout.txt'));
  assert.equal(parsed.ok, false);
  if (!parsed.ok) assert.equal(parsed.error.code, 'ycsb-no-report');
  const statuses = parseStatusLines(fixture('workloadc_run_jvm-killed.stderr.txt'));
  assert.ok(statuses.length >= 1 && (statuses.at(-1)?.operations ?? 600) < 600);
});
