// The stand-in ycsb's number and line formatting against YCSB 0.17.0's documented shapes
// (../shared/ycsb/OUTPUT.md), and its properties-file reader.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJavaProperties } from '../lab/standins/javaProperties';
import { fnvhash64, parseArguments } from '../lab/standins/ycsb';
import {
  concurrentHashMapOrder,
  decimalFormat,
  javaDouble,
  javaLongOfCeil,
  jsonReport,
  LatencySamples,
  percentileLabel,
  remainingText,
  reportRecords,
  statusLine,
  textReport,
  type Measurement,
} from '../lab/standins/ycsbFormat';

describe('ycsb stand-in formatting', () => {
  it('prints doubles like Java Double.toString', () => {
    assert.equal(javaDouble(0), '0.0');
    assert.equal(javaDouble(594), '594.0');
    assert.equal(javaDouble(26070.23506897832), '26070.23506897832');
    assert.equal(javaDouble(33249478.19354839), '3.324947819354839E7');
    assert.equal(javaDouble(1e7), '1.0E7');
    assert.equal(javaDouble(0.0001), '1.0E-4');
    assert.equal(javaDouble(NaN), 'NaN');
    assert.equal(javaDouble(Infinity), 'Infinity');
  });

  it('rounds status values like DecimalFormat("#.##")', () => {
    assert.equal(decimalFormat(23073.4), '23073.4');
    assert.equal(decimalFormat(20998), '20998');
    assert.equal(decimalFormat(577.1849), '577.18');
    assert.equal(decimalFormat(0.125), '0.12'); // HALF_EVEN
    assert.equal(decimalFormat(0.135), '0.14');
    assert.equal(decimalFormat(Infinity), '\u221e');
    assert.equal(decimalFormat(NaN), 'NaN');
  });

  it('words the remaining time with YCSB quirks', () => {
    assert.equal(remainingText(0n), '0 second ');
    assert.equal(remainingText(9n), '9 second ');
    assert.equal(remainingText(34n), '34 seconds ');
    assert.equal(remainingText(60n), '1 minute ');
    assert.equal(remainingText(3725n), '1 hour 2 minutes ');
    assert.equal(remainingText(javaLongOfCeil(5 / 0)), '106751991167300 days 15 hours ');
    assert.equal(javaLongOfCeil(NaN), 0n);
  });

  it('orders measurements like a ConcurrentHashMap (as in a real 0.17.0 report)', () => {
    const names = ['INSERT', 'SCAN', 'SCAN-LATENCY-PER-RECORD', 'CLEANUP'].map((name) => ({ name }));
    assert.deepEqual(concurrentHashMapOrder(names).map((item) => item.name), ['CLEANUP', 'SCAN-LATENCY-PER-RECORD', 'INSERT', 'SCAN']);
  });

  it('builds status lines in the three documented shapes', () => {
    const now = new Date(2026, 11, 2, 11, 43, 34, 398);
    const first = statusLine({ now, label: '', elapsedMs: 0, totalOps: 0, intervalOps: 0, intervalMs: 0, todo: 1000, summaries: [] });
    assert.equal(first, '2026-12-02 11:43:34:398 0 sec: 0 operations; est completion in 0 second ');
    const samples = new LatencySamples();
    for (const value of [100, 200, 300, 400]) samples.add(value);
    const middle = statusLine({ now, label: '', elapsedMs: 10_004, totalOps: 230734, intervalOps: 230734, intervalMs: 10_000, todo: 769266, summaries: [samples.summary('READ')] });
    assert.equal(
      middle,
      '2026-12-02 11:43:34:398 10 sec: 230734 operations; 23073.4 current ops/sec; est completion in 34 seconds [READ: Count=4, Max=400, Min=100, Avg=250, 90=400, 99=400, 99.9=400, 99.99=400] ',
    );
    const last = statusLine({ now, label: 'lab', elapsedMs: 35_000, totalOps: 10, intervalOps: 0, intervalMs: 1000, todo: 0, summaries: [new LatencySamples().summary('READ-FAILED')] });
    assert.equal(last, 'lab2026-12-02 11:43:34:398 35 sec: 10 operations; 0 current ops/sec; [READ-FAILED: Count=0, Max=0, Min=9223372036854775807, Avg=NaN, 90=0, 99=0, 99.9=0, 99.99=0] ');
  });

  it('writes the report records in the text and both JSON exporter forms', () => {
    const read: Measurement = { name: 'READ', total: new LatencySamples(), interval: new LatencySamples(), returnCodes: new Map([['OK', 2], ['NOT_FOUND', 1]]) };
    read.total.add(100);
    read.total.add(300);
    const failed: Measurement = { name: 'READ-FAILED', total: new LatencySamples(), interval: new LatencySamples(), returnCodes: new Map() };
    failed.total.add(50);
    const records = reportRecords(2000, 3, [read, failed]);
    const text = textReport(records).split('\n');
    assert.equal(text[0], '[OVERALL], RunTime(ms), 2000');
    assert.equal(text[1], '[OVERALL], Throughput(ops/sec), 1.5');
    assert.equal(text[2], '[TOTAL_GCS_G1_Young_Generation], Count, 0');
    assert.equal(text[10], '[TOTAL_GC_TIME_%], Time(%), 0.0');
    assert.deepEqual(text.slice(11, 18), [
      '[READ], Operations, 2',
      '[READ], AverageLatency(us), 200.0',
      '[READ], MinLatency(us), 100',
      '[READ], MaxLatency(us), 300',
      '[READ], 95thPercentileLatency(us), 300',
      '[READ], 99thPercentileLatency(us), 300',
      '[READ], Return=OK, 2',
    ]);
    assert.equal(text[18], '[READ], Return=NOT_FOUND, 1');
    assert.equal(text[19], '[READ-FAILED], Operations, 1');
    const array = jsonReport(records, true);
    assert.ok(array.startsWith('[ {\n  "metric" : "OVERALL",\n  "measurement" : "RunTime(ms)",\n  "value" : 2000\n}, {'));
    assert.ok(array.endsWith('}, {\n  "metric" : "READ-FAILED",\n  "measurement" : "99thPercentileLatency(us)",\n  "value" : 50\n} ]'));
    assert.equal(JSON.parse(array).length, records.length);
    const stream = jsonReport(records, false);
    assert.ok(stream.includes('\n} {\n'));
    assert.ok(!stream.endsWith('\n'));
  });

  it('names report percentiles with English ordinals, as hdrhistogram.percentiles asks', () => {
    assert.deepEqual([1, 2, 3, 11, 12, 13, 21, 50, 95, 99, 99.9].map(percentileLabel), ['1st', '2nd', '3rd', '11th', '12th', '13th', '21st', '50th', '95th', '99th', '99.9']);
    const read: Measurement = { name: 'READ', total: new LatencySamples(), interval: new LatencySamples(), returnCodes: new Map([['OK', 1]]) };
    read.total.add(42);
    const names = reportRecords(1000, 1, [read], [50, 99.9]).filter((record) => record.metric === 'READ').map((record) => record.measurement);
    assert.deepEqual(names, ['Operations', 'AverageLatency(us)', 'MinLatency(us)', 'MaxLatency(us)', '50thPercentileLatency(us)', '99.9PercentileLatency(us)', 'Return=OK']);
  });

  it('hashes record numbers to keys like YCSB (fnvhash64)', () => {
    // expected values computed separately (Python) with YCSB's Utils.fnvhash64 algorithm:
    // FNV-1a over the 8 octets of the long, then the absolute value of the signed result
    assert.equal(fnvhash64(0), 6284781860667377211n);
    assert.equal(fnvhash64(1), 8517097267634966620n);
    assert.equal(fnvhash64(123456), 6192148097294465718n);
  });

  it('reads java.util.Properties syntax', () => {
    const properties = parseJavaProperties('# comment\n! also\nrecordcount=1000\nworkload : site.ycsb.workloads.CoreWorkload\nfieldlength 64\nlong=a\\\n   b\nspace\\ key=x\\ty\n');
    assert.equal(properties.get('recordcount'), '1000');
    assert.equal(properties.get('workload'), 'site.ycsb.workloads.CoreWorkload');
    assert.equal(properties.get('fieldlength'), '64');
    assert.equal(properties.get('long'), 'ab');
    assert.equal(properties.get('space key'), 'x\ty');
  });

  it('refuses a password on the command line and lets -p override -P', () => {
    assert.throws(() => parseArguments(['run', 'couchbase2', '-p', 'couchbase.password=secret'], '/'), /refusing couchbase.password on the command line/);
    assert.throws(() => parseArguments(['run', 'mongodb'], '/'), /not available in this lab/);
    const args = parseArguments(['load', 'couchbase2', '-threads', '4', '-s', '-p', 'recordcount=5'], '/');
    assert.equal(args.threads, 4);
    assert.equal(args.status, true);
    assert.equal(args.properties.get('recordcount'), '5');
  });
});
