// The YCSB report parser against outputs of YCSB's own code (test/fixtures/ycsb-output, copied
// from shared/ycsb/samples) and against the quirks of shared/ycsb/OUTPUT.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { YcsbReport } from '../../../engine/src/model';
import { parseYcsbReport } from '../../../engine/src/ycsb/ycsbOutput';

const fixtures = join('test', 'fixtures', 'ycsb-output');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');

function report(text: string): YcsbReport {
  const result = parseYcsbReport(text);
  if (!result.ok) assert.fail(`expected a report, got ${result.error.code}: ${result.error.message}`);
  return result.report;
}

test('hdrhistogram with failures: overall, every operation, FAILED blocks, return codes, GC', () => {
  const parsed = parseYcsbReport(fixture('constructed_ycsb-0.17.0_workloadb_run_hdrhistogram_failures.stdout.txt'));
  assert.ok(parsed.ok);
  assert.equal(parsed.format, 'text');
  const { report: r } = parsed;
  assert.equal(r.runtimeMs, 35011);
  assert.equal(r.throughputOpsPerSec, 26070.23506897832);
  assert.deepEqual(Object.keys(r.operations), ['READ', 'UPDATE-FAILED', 'CLEANUP', 'UPDATE', 'READ-FAILED']);
  assert.deepEqual(r.operations.READ, {
    operation: 'READ', operations: 864869, averageUs: 576.856355124302, minUs: 119, maxUs: 35103,
    percentilesUs: { '95': 917, '99': 1248 }, returnCodes: { OK: 864869, NOT_FOUND: 2057, ERROR: 139 },
  });
  assert.deepEqual(r.operations.UPDATE.returnCodes, { OK: 45677, ERROR: 3 });
  assert.equal(r.operations['UPDATE-FAILED'].operations, 3);
  assert.equal(r.operations['UPDATE-FAILED'].averageUs, 594);
  assert.deepEqual(r.operations['READ-FAILED'].percentilesUs, { '95': 905, '99': 1233 });
  assert.equal(r.operations['READ-FAILED'].operations, 2196);
  assert.equal(r.operations.CLEANUP.averageUs, 0.0625);
  assert.deepEqual(r.other.TOTAL_GCS_PS_Scavenge, { Count: 3 });
  assert.deepEqual(r.other['TOTAL_GC_TIME_%'], { 'Time(%)': 0.0485561680614664 });
  assert.equal(r.other.OVERALL, undefined, 'runtime and throughput are not repeated under other');
  assert.deepEqual(r.warnings, []);
});

test('stderr alone (status lines, no report) is a clear error, not an empty report', () => {
  const parsed = parseYcsbReport(fixture('constructed_ycsb-0.17.0_workloadb_run_hdrhistogram_failures.stderr.txt'));
  assert.equal(parsed.ok, false);
  if (!parsed.ok) {
    assert.equal(parsed.error.code, 'ycsb-no-report');
    assert.match(parsed.error.message, /No YCSB report found/);
  }
});

test('histogram type with verbose buckets, LatencyVariance and Intended- blocks', () => {
  const r = report(fixture('constructed_ycsb-0.17.0_workloada_run_histogram-verbose_interval-both_target.txt'));
  assert.equal(r.runtimeMs, 26526);
  assert.equal(r.throughputOpsPerSec, 1884.9430747191434);
  const read = r.operations.READ;
  assert.equal(read.operations, 24949);
  assert.equal(read.averageUs, 689.8606757785883);
  assert.equal(read.latencyVarianceUs2, 852320.7201775224);
  assert.equal(read.minUs, 198);
  assert.equal(read.maxUs, 30710);
  assert.deepEqual(read.percentilesUs, { '95': 1000, '99': 3000 });
  assert.equal(read.histogramCounts?.['0'], 23315);
  assert.equal(read.histogramCounts?.['19'], 6);
  assert.equal(read.histogramCounts?.['>20'], 11);
  assert.equal(Object.keys(read.histogramCounts ?? {}).length, 21);
  assert.equal(read.timeseries, undefined);
  assert.equal(r.operations['Intended-READ'].latencyVarianceUs2, 1.1814112886576753e7);
  assert.equal(r.operations['Intended-UPDATE'].percentilesUs['99'], 14000);
  assert.equal(r.operations['Intended-UPDATE'].histogramCounts?.['>20'], 157);
  assert.deepEqual(r.warnings, []);
});

test('timeseries type: per-interval averages, status lines duplicated on stdout, Operations below Return=OK', () => {
  const r = report(fixture('constructed_ycsb-0.17.0_workloadc_run_timeseries.stdout.txt'));
  assert.equal(r.runtimeMs, 12955);
  assert.equal(r.throughputOpsPerSec, 11578.541103820919);
  const read = r.operations.READ;
  assert.equal(read.operations, 149999);
  assert.deepEqual(read.returnCodes, { OK: 150000 });
  assert.deepEqual(read.percentilesUs, {});
  assert.equal(read.maxUs, 164741);
  assert.deepEqual(read.timeseries, [
    { startMs: 0, averageUs: 572.2275360754255 },
    { startMs: 2000, averageUs: 571.9248507086841 },
    { startMs: 4000, averageUs: 632.5737997855696 },
    { startMs: 6000, averageUs: 578.8582290454017 },
    { startMs: 8000, averageUs: 601.2189676593501 },
    { startMs: 10000, averageUs: 646.5858206496673 },
  ]);
  assert.equal(read.histogramCounts, undefined);
  assert.deepEqual(r.operations.CLEANUP.timeseries, [{ startMs: 0, averageUs: 1.25 }]);
});

test('hdrhistogram+histogram: Hdr blocks become the operation, Bucket blocks stay beside them', () => {
  const r = report(fixture('constructed_ycsb-0.17.0_workloade_run_hdrhistogram-plus-histogram_scan.txt'));
  assert.equal(r.runtimeMs, 35184);
  assert.equal(r.throughputOpsPerSec, 3410.6412005457028);
  assert.deepEqual(Object.keys(r.operations), ['CLEANUP', 'BucketCLEANUP', 'INSERT', 'BucketINSERT', 'SCAN', 'BucketSCAN']);
  assert.deepEqual(r.operations.SCAN, {
    operation: 'SCAN', operations: 114061, averageUs: 4596.620361034885, minUs: 930, maxUs: 302591,
    percentilesUs: { '95': 7667, '99': 10575 }, returnCodes: { OK: 114061 },
  });
  assert.equal(r.operations.BucketSCAN.maxUs, 302389);
  assert.equal(r.operations.BucketSCAN.latencyVarianceUs2, 1.3936663597151287e7);
  assert.deepEqual(r.operations.BucketSCAN.returnCodes, {});
  assert.equal(r.operations.INSERT.averageUs, 828.8455969018353);
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

test('JSON exporter (objects back to back) and JSON array exporter', () => {
  const stream = parseYcsbReport(fixture('constructed_ycsb-0.17.0_workloada_run_json-exporter.json'));
  assert.ok(stream.ok);
  assert.equal(stream.format, 'json');
  assert.equal(stream.report.runtimeMs, 3216);
  assert.equal(stream.report.throughputOpsPerSec, 6218.905472636816);
  assert.deepEqual(stream.report.operations.UPDATE, {
    operation: 'UPDATE', operations: 9985, averageUs: 733.0793189784677, minUs: 171, maxUs: 19487,
    percentilesUs: { '95': 1165, '99': 1539 }, returnCodes: { OK: 9985 },
  });
  assert.deepEqual(stream.report.warnings, []);

  const array = parseYcsbReport(fixture('constructed_ycsb-0.17.0_workloada_run_json-array-exporter.json'));
  assert.ok(array.ok);
  assert.equal(array.format, 'json-array');
  assert.equal(array.report.runtimeMs, 3264);
  assert.equal(array.report.throughputOpsPerSec, 6127.450980392156);
  assert.equal(array.report.operations.READ.averageUs, 588.2764930625377);
  assert.deepEqual(array.report.operations.READ.percentilesUs, { '95': 921, '99': 1408 });
  assert.deepEqual(array.report.other.TOTAL_GCs, { Count: 0 });
});

test('JSON: NaN written as a string, a cut-off file, and garbage', () => {
  const text = '{ "metric" : "OVERALL", "measurement" : "RunTime(ms)", "value" : 10 } { "metric" : "READ", "measurement" : "Operations", "value" : 0 } ' +
    '{ "metric" : "READ", "measurement" : "AverageLatency(us)", "value" : "NaN" } { "metric" : "READ", "measu';
  const parsed = parseYcsbReport(text);
  assert.ok(parsed.ok);
  assert.equal(parsed.report.runtimeMs, 10);
  assert.equal(parsed.report.operations.READ.averageUs, undefined);
  assert.ok(parsed.report.warnings.some((warning) => /cut off/.test(warning)), parsed.report.warnings.join('\n'));

  const broken = parseYcsbReport('[ {"metric": 1} ]');
  assert.equal(broken.ok, false);
  if (!broken.ok) assert.equal(broken.error.code, 'ycsb-bad-json');
});

test('a text log that happens to begin with a JSON log event is still read as text', () => {
  const parsed = parseYcsbReport('{"event":"metrics","kv":3}\n[OVERALL], RunTime(ms), 900\n[OVERALL], Throughput(ops/sec), 10.0\n[READ], Operations, 9\n');
  assert.ok(parsed.ok);
  assert.equal(parsed.format, 'text');
  assert.equal(parsed.report.operations.READ.operations, 9);
});

test('Windows line ends and a byte order mark parse like Unix text', () => {
  const unix = fixture('constructed_ycsb-0.17.0_workloadb_run_hdrhistogram_failures.stdout.txt');
  const windows = report('\ufeff' + unix.replace(/\n/g, '\r\n'));
  assert.deepEqual(windows, report(unix));
});

test('merged stderr and stdout: preamble, status lines, SDK log records and stack traces around the report', () => {
  const merged =
    fixture('constructed_ycsb-0.17.0_workloadb_run_hdrhistogram_failures.stderr.txt') +
    'Mar 30, 2022 8:44:51 AM com.couchbase.client.core.CouchbaseCore <init>\nINFO: Connected to Node 127.0.0.1\n' +
    '[WARN]  Running against a source checkout.\n' +
    fixture('constructed_ycsb-0.17.0_workloadb_run_hdrhistogram_failures.stdout.txt').replace('[UPDATE], Operations', 'Still waiting for thread Thread-3 to complete.\n[UPDATE], Operations');
  const r = report(merged);
  assert.equal(r.runtimeMs, 35011);
  assert.equal(r.operations.UPDATE.operations, 45677);
  assert.equal(Object.keys(r.operations).length, 5);
  assert.deepEqual(r.warnings, []);
});

test('a report line glued to the end of other output is still read, with a warning', () => {
  const r = report('2026-12-02 11:43:34:398 0 sec: 0 operations; [OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 50.0\n[READ], Operations, 50\n');
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
  assert.deepEqual(r.operations.READ, { operation: 'READ', operations: 0, percentilesUs: {}, returnCodes: { ERROR: 12 } });
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
    operation: 'READ', operations: 10000000, averageUs: 1500, minUs: 0, maxUs: 12000, percentilesUs: { '95': 3000 }, returnCodes: { '0': 10000000 },
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
    operation: 'RawREAD', operations: 2, averageUs: 600, minUs: 512, maxUs: 688, percentilesUs: { '1': 512, '99.9': 688 }, returnCodes: {},
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
  const r = report('[OVERALL], RunTime(ms), 800\n[OVERALL], Throughput(ops/sec), 1250.0\n[READ], Operations, 1000\n[READ], AverageLat');
  assert.equal(r.operations.READ.operations, 1000);
  assert.equal(r.operations.READ.averageUs, undefined);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /^Line 4 looks like a cut-off report line/);
});

test('garbage, empty text and binary noise never throw and give the no-report error', () => {
  for (const text of ['', '   \n\n', 'Exception in thread "main" java.lang.NoClassDefFoundError', '\u0000\u0001\ufffd[', '[', '{', '[ ]', '[OVERALL]']) {
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
  const pieces = fixture('constructed_ycsb-0.17.0_workloadb_run_hdrhistogram_failures.stdout.txt').split('\n');
  const piece = fc.oneof(fc.constantFrom(...pieces), fc.string(), fc.constantFrom('NaN', '], ', ', ', '[', '{', '}', '\r', 'Infinity', '-1'));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom('\n', '\r\n', ''), (parts, separator) => {
      const parsed = parseYcsbReport(parts.join(separator));
      const data = parsed.ok ? parsed.report : parsed.error;
      assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
    }),
    { numRuns: 300, seed: 42 },
  );
});
