// The YCSB report parser against outputs of the real YCSB 0.17.0 captured in the loopback lab
// (test/fixtures/ycsb-output/lab_ycsb-0.17.0_*, test/lab/captureYcsbOutput.ts; every figure of them
// is checked in ycsbOutputLab.test.ts), samples of what the lab does not run (constructed_*: YCSB
// master), and the quirks of shared/ycsb/OUTPUT.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { YcsbReport } from '../../../engine/src/model';
import { parseYcsbReport } from '../../../engine/src/ycsb/ycsbOutput';

const fixtures = join('test', 'fixtures', 'ycsb-output');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const failures = 'lab_ycsb-0.17.0_workloadb_run_hdrhistogram-fileoutput_failures';

function report(text: string): YcsbReport {
  const result = parseYcsbReport(text);
  if (!result.ok) assert.fail(`expected a report, got ${result.error.code}: ${result.error.message}`);
  return result.report;
}

test('hdrhistogram with failures: overall, every operation, FAILED blocks, return codes, GC', () => {
  const parsed = parseYcsbReport(fixture(`${failures}.stdout.txt`));
  assert.ok(parsed.ok);
  assert.equal(parsed.format, 'text');
  const { report: r } = parsed;
  for (const name of ['CLEANUP', 'READ', 'READ-FAILED', 'UPDATE']) assert.ok(name in r.operations, name);
  assert.deepEqual(
    Object.keys(r.operations)
      .filter((name) => name.endsWith('-FAILED'))
      .map((name) => r.operations[name].operations),
    Object.keys(r.operations)
      .filter((name) => name.endsWith('-FAILED'))
      .map((name) => r.operations[name.replace(/-FAILED$/, '')].returnCodes.ERROR),
  );
  assert.equal(r.operations['READ-FAILED'].operations, r.operations.READ.returnCodes.ERROR);
  assert.deepEqual(r.operations['READ-FAILED'].returnCodes, {}, 'a FAILED block has no return codes of its own');
  assert.equal(r.operations.READ.operations, r.operations.READ.returnCodes.OK, 'Operations counts the OK reads only');
  assert.ok(r.other.TOTAL_GCS_G1_Young_Generation.Count >= 0, 'Java 17 names G1');
  assert.ok('Time(%)' in r.other['TOTAL_GC_TIME_%']);
  assert.equal(r.other.OVERALL, undefined, 'runtime and throughput are not repeated under other');
  assert.deepEqual(r.warnings, []);
});

test('stderr alone (status lines, no report) is a clear error, not an empty report', () => {
  const parsed = parseYcsbReport(fixture(`${failures}.stderr.txt`));
  assert.equal(parsed.ok, false);
  if (!parsed.ok) {
    assert.equal(parsed.error.code, 'ycsb-no-report');
    assert.match(parsed.error.message, /No YCSB report found/);
  }
});

test('histogram type with verbose buckets, LatencyVariance and Intended- blocks', () => {
  const r = report(fixture('lab_ycsb-0.17.0_workloada_run_histogram-verbose_interval-both_target.stdout.txt'));
  const read = r.operations.READ;
  assert.ok(read.operations > 0 && (read.latencyVarianceUs2 ?? 0) > 0);
  assert.deepEqual(Object.keys(read.percentilesUs).sort(), ['95', '99']);
  assert.equal(Object.keys(read.histogramCounts ?? {}).length, 21, 'buckets 0..19 and >20');
  assert.equal(
    Object.values(read.histogramCounts ?? {}).reduce((sum, count) => sum + count, 0),
    read.operations,
  );
  assert.equal(read.timeseries, undefined);
  assert.ok(
    (r.operations['Intended-READ'].latencyVarianceUs2 ?? 0) > 0,
    'measurement.interval=both adds Intended- blocks',
  );
  assert.equal(r.operations['Intended-UPDATE'].operations, r.operations.UPDATE.operations);
  assert.deepEqual(r.warnings, []);
});

test('timeseries type: per-interval averages, Operations and Return=OK, no percentiles', () => {
  const r = report(fixture('lab_ycsb-0.17.0_workloadc_run_timeseries.stdout.txt'));
  const read = r.operations.READ;
  assert.equal(read.operations, 300);
  assert.deepEqual(read.returnCodes, { OK: 300 });
  assert.deepEqual(read.percentilesUs, {});
  assert.ok((read.timeseries?.length ?? 0) >= 1);
  assert.ok(
    read.timeseries?.every((point) => point.startMs % 100 === 0 && point.averageUs > 0),
    'timeseries.granularity=100',
  );
  assert.equal(read.histogramCounts, undefined);
});

test('hdrhistogram+histogram: Hdr blocks become the operation, Bucket blocks stay beside them', () => {
  const r = report(fixture('lab_ycsb-0.17.0_workloade_run_hdrhistogram-plus-histogram_scan.stdout.txt'));
  assert.ok(
    ['SCAN', 'BucketSCAN', 'INSERT', 'BucketINSERT', 'CLEANUP', 'BucketCLEANUP'].every((name) => name in r.operations),
    JSON.stringify(Object.keys(r.operations)),
  );
  assert.equal(r.operations.SCAN.returnCodes.OK, r.operations.SCAN.operations);
  assert.equal(r.operations.BucketSCAN.operations, r.operations.SCAN.operations);
  assert.ok((r.operations.BucketSCAN.latencyVarianceUs2 ?? 0) > 0);
  assert.deepEqual(r.operations.BucketSCAN.returnCodes, {});
});

test('YCSB master: 50th percentile, SCAN-LATENCY-PER-RECORD, G1 collector names', () => {
  const r = report(fixture('constructed_ycsb-master-2026_workloade_run_hdrhistogram-p50_scan.txt'));
  assert.equal(r.runtimeMs, 34789);
  assert.equal(r.throughputOpsPerSec, 3449.3661789646153);
  assert.deepEqual(r.operations.SCAN.percentilesUs, { '50': 4123, '95': 7379, '99': 9863 });
  assert.equal(r.operations['SCAN-LATENCY-PER-RECORD'].operations, 114063);
  assert.equal(r.operations['SCAN-LATENCY-PER-RECORD'].averageUs, 232.4014798839238);
  assert.equal(r.operations.CLEANUP.averageUs, 5);
  assert.deepEqual(r.other.TOTAL_GCS_G1_Young_Generation, { Count: 4 });
  assert.deepEqual(r.other['TOTAL_GC_TIME_%_G1_Young_Generation'], { 'Time(%)': 0.040242605421253845 });
});

test('JSON exporter (objects back to back) and JSON array exporter: the same figures as the text exporter would give', () => {
  const stream = parseYcsbReport(fixture('lab_ycsb-0.17.0_workloada_run_json-exporter.stdout.txt'));
  const array = parseYcsbReport(fixture('lab_ycsb-0.17.0_workloada_run_json-array-exporter.stdout.txt'));
  assert.ok(stream.ok && array.ok);
  if (!stream.ok || !array.ok) return;
  assert.deepEqual([stream.format, array.format], ['json', 'json-array']);
  for (const r of [stream.report, array.report]) {
    assert.deepEqual(Object.keys(r.operations).sort(), ['CLEANUP', 'READ', 'UPDATE']);
    assert.ok(r.other.TOTAL_GCs.Count >= 0);
    assert.match(r.warnings.join(' '), /java command line/, 'bin/ycsb.sh printed it first');
  }
});

test('JSON: NaN written as a string, a cut-off file, and garbage', () => {
  const text =
    '{ "metric" : "OVERALL", "measurement" : "RunTime(ms)", "value" : 10 } { "metric" : "READ", "measurement" : "Operations", "value" : 0 } ' +
    '{ "metric" : "READ", "measurement" : "AverageLatency(us)", "value" : "NaN" } { "metric" : "READ", "measu';
  const parsed = parseYcsbReport(text);
  assert.ok(parsed.ok);
  assert.equal(parsed.report.runtimeMs, 10);
  assert.equal(parsed.report.operations.READ.averageUs, undefined);
  assert.ok(
    parsed.report.warnings.some((warning) => /cut off/.test(warning)),
    parsed.report.warnings.join('\n'),
  );

  const broken = parseYcsbReport('[ {"metric": 1} ]');
  assert.equal(broken.ok, false);
  if (!broken.ok) assert.equal(broken.error.code, 'ycsb-bad-json');
});

test('a text log that happens to begin with a JSON log event is still read as text', () => {
  const parsed = parseYcsbReport(
    '{"event":"metrics","kv":3}\n[OVERALL], RunTime(ms), 900\n[OVERALL], Throughput(ops/sec), 10.0\n[READ], Operations, 9\n',
  );
  assert.ok(parsed.ok);
  assert.equal(parsed.format, 'text');
  assert.equal(parsed.report.operations.READ.operations, 9);
});

test('Windows line ends and a byte order mark parse like Unix text', () => {
  const unix = fixture(`${failures}.stdout.txt`);
  const windows = report('\ufeff' + unix.replace(/\n/g, '\r\n'));
  assert.deepEqual(windows, report(unix));
});

test('merged stderr and stdout: preamble, status lines, SDK log records and stack traces around the report', () => {
  const stdout = fixture(`${failures}.stdout.txt`);
  const merged =
    fixture(`${failures}.stderr.txt`) +
    'Mar 30, 2022 8:44:51 AM com.couchbase.client.core.CouchbaseCore <init>\nINFO: Connected to Node 127.0.0.1\n' +
    '[WARN]  Running against a source checkout.\n' +
    stdout.replace('[UPDATE], Operations', 'Still waiting for thread Thread-3 to complete.\n[UPDATE], Operations');
  const r = report(merged);
  const alone = report(stdout);
  assert.equal(r.runtimeMs, alone.runtimeMs);
  assert.equal(r.operations.UPDATE.operations, alone.operations.UPDATE.operations);
  assert.deepEqual(Object.keys(r.operations), Object.keys(alone.operations));
  assert.deepEqual(r.warnings, []);
});

test('a report line glued to the end of other output is still read, with a warning', () => {
  const r = report(
    '2026-12-02 11:43:34:398 0 sec: 0 operations; [OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 50.0\n[READ], Operations, 50\n',
  );
  assert.equal(r.runtimeMs, 1000);
  assert.equal(r.operations.READ.operations, 50);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /Line 1: a report line was preceded by other output/);
});

test('empty sections: NaN average, Long.MAX_VALUE minimum and zero percentiles are not latencies', () => {
  const r = report(
    [
      '[OVERALL], RunTime(ms), 2000',
      '[OVERALL], Throughput(ops/sec), 0.0',
      '[READ], Operations, 0',
      '[READ], AverageLatency(us), NaN',
      '[READ], MinLatency(us), 9223372036854775807',
      '[READ], MaxLatency(us), 0',
      '[READ], 95thPercentileLatency(us), 0',
      '[READ], 99thPercentileLatency(us), 0',
      '[READ], Return=ERROR, 12',
      '[READ-FAILED], Operations, 12',
      '[READ-FAILED], AverageLatency(us), 3.324947819354839E7',
      '[READ-FAILED], MinLatency(us), 31375360',
      '[READ-FAILED], MaxLatency(us), 35618815',
      '[READ-FAILED], 95thPercentileLatency(us), 34701311',
      '[READ-FAILED], 99.9PercentileLatency(us), 35618815',
    ].join('\n'),
  );
  assert.deepEqual(r.operations.READ, {
    operation: 'READ',
    operations: 0,
    percentilesUs: {},
    returnCodes: { ERROR: 12 },
  });
  assert.equal(r.operations['READ-FAILED'].averageUs, 33249478.19354839);
  assert.deepEqual(r.operations['READ-FAILED'].percentilesUs, { '95': 34701311, '99.9': 35618815 });
  assert.deepEqual(r.warnings, ['READ: no successful operation was measured, so it has no latency figures.']);
  // Every value survives a trip through results.jsonl (no NaN, no Infinity).
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
});

test('old YCSB: longs printed as doubles, latencies in ms, integer return codes, empty histogram -1', () => {
  const r = report(
    [
      '[OVERALL], RunTime(ms), 30261.0',
      '[OVERALL], Throughput(ops/sec), 330.4583',
      '[READ], Operations, 1.0E7',
      '[READ], AverageLatency(ms), 1.5',
      '[READ], MinLatency(ms), 0.0',
      '[READ], MaxLatency(ms), 12.0',
      '[READ], 95thPercentileLatency(ms), 3.0',
      '[READ], Return=0, 1.0E7',
      '[UPDATE], Operations, 0',
      '[UPDATE], AverageLatency(us), NaN',
      '[UPDATE], MinLatency(us), -1',
      '[UPDATE], MaxLatency(us), -1',
    ].join('\n'),
  );
  assert.equal(r.runtimeMs, 30261);
  assert.deepEqual(r.operations.READ, {
    operation: 'READ',
    operations: 10000000,
    averageUs: 1500,
    minUs: 0,
    maxUs: 12000,
    percentilesUs: { '95': 3000 },
    returnCodes: { '0': 10000000 },
  });
  assert.equal(r.operations.UPDATE.minUs, undefined);
  assert.equal(r.operations.UPDATE.maxUs, undefined);
});

test('raw and hdrhistogram+raw blocks', () => {
  const r = report(
    [
      'HdrREAD latency raw data: op, timestamp(ms), latency(us)',
      'READ,1764675600000,512',
      '[OVERALL], RunTime(ms), 1000',
      '[OVERALL], Throughput(ops/sec), 2.0',
      '[HdrREAD], Operations, 2',
      '[HdrREAD], AverageLatency(us), 600.0',
      '[HdrREAD], MinLatency(us), 512',
      '[HdrREAD], MaxLatency(us), 688',
      '[HdrREAD], 95thPercentileLatency(us), 688',
      '[HdrREAD], Return=OK, 2',
      '[RawREAD], Total Operations, 2',
      '[RawREAD], Below is a summary of latency in microseconds:, -1',
      '[RawREAD], Average, 600.0',
      '[RawREAD], Min, 512',
      '[RawREAD], Max, 688',
      '[RawREAD], p1, 512',
      '[RawREAD], p99.9, 688',
    ].join('\n'),
  );
  assert.deepEqual(Object.keys(r.operations), ['READ', 'RawREAD']);
  assert.deepEqual(r.operations.READ.returnCodes, { OK: 2 });
  assert.deepEqual(r.operations.RawREAD, {
    operation: 'RawREAD',
    operations: 2,
    averageUs: 600,
    minUs: 512,
    maxUs: 688,
    percentilesUs: { '1': 512, '99.9': 688 },
    returnCodes: {},
  });
});

test('two reports in one file (a load log and a run log appended): the last one wins, with a warning', () => {
  const load = '[OVERALL], RunTime(ms), 500\n[OVERALL], Throughput(ops/sec), 2000.0\n[INSERT], Operations, 1000\n';
  const run = '[OVERALL], RunTime(ms), 800\n[OVERALL], Throughput(ops/sec), 1250.0\n[READ], Operations, 1000\n';
  const r = report(load + run);
  assert.equal(r.runtimeMs, 800);
  assert.deepEqual(Object.keys(r.operations), ['READ']);
  assert.deepEqual(r.warnings, ['The text holds 2 YCSB reports; only the last one was read.']);
});

test('a report cut off mid-line keeps what came before and says what was lost', () => {
  const r = report(
    '[OVERALL], RunTime(ms), 800\n[OVERALL], Throughput(ops/sec), 1250.0\n[READ], Operations, 1000\n[READ], AverageLat',
  );
  assert.equal(r.operations.READ.operations, 1000);
  assert.equal(r.operations.READ.averageUs, undefined);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /^Line 4 looks like a cut-off report line/);
});

test('garbage, empty text and binary noise never throw and give the no-report error', () => {
  for (const text of [
    '',
    '   \n\n',
    'Exception in thread "main" java.lang.NoClassDefFoundError',
    '\u0000\u0001\ufffd[',
    '[',
    '{',
    '[ ]',
    '[OVERALL]',
  ]) {
    const parsed = parseYcsbReport(text);
    assert.equal(parsed.ok, false, JSON.stringify(text));
    if (!parsed.ok) assert.match(parsed.error.code, /^ycsb-(no-report|bad-json)$/);
  }
});

test('a report without an OVERALL block still gives its operations, with warnings', () => {
  const r = report('[READ], Operations, 5\n[READ], AverageLatency(us), 10.5\n');
  assert.equal(r.runtimeMs, 0);
  assert.equal(r.operations.READ.averageUs, 10.5);
  assert.equal(r.warnings.length, 2);
});

test('property: any text, including shuffled pieces of real reports, parses without throwing into JSON-safe data', async () => {
  const fc = await import('fast-check');
  const pieces = fixture(`${failures}.stdout.txt`).split('\n');
  const piece = fc.oneof(
    fc.constantFrom(...pieces),
    fc.string(),
    fc.constantFrom('NaN', '], ', ', ', '[', '{', '}', '\r', 'Infinity', '-1'),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom('\n', '\r\n', ''), (parts, separator) => {
      const parsed = parseYcsbReport(parts.join(separator));
      const data = parsed.ok ? parsed.report : parsed.error;
      assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
    }),
    { numRuns: 300, seed: 42 },
  );
});
