// Each client's HDR logs against its own YCSB report: the logs of the real YCSB 0.17.0 can hold
// fewer operations than it reports (Measurements.getOpMeasurement lets two threads construct the
// same measurement; the dropped one's FileOutputStream truncates the log after the kept one logged
// an interval: test/lab/README.md Y12). The engine must record such a difference, per client and
// operation, and mark the cell, never pass the merged count off as the report's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runEvidence } from '../../../engine/src/evidence/cellEvidence';
import { hdrCountChecks, hdrEvidence, type HdrLogFile } from '../../../engine/src/evidence/hdrMerge';
import type { YcsbReport } from '../../../engine/src/model';
import { parseYcsbReport } from '../../../engine/src/ycsb/ycsbOutput';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'ycsb-output');
const fixture = (name: string): string => readFileSync(join(fixtures, name), 'utf8');

// Written by YCSB 0.17.0's own OneMeasurementHdrHistogram (HdrHistogram 2.1.4) in the order the race
// allows: the kept measurement records one SCAN and logs it at a status tick, a second
// OneMeasurementHdrHistogram("SCAN") opens the same file (truncating it, its header over the
// first bytes, NULs where the first interval was), then a tick with no SCAN, a second SCAN, a
// tick and exportMeasurements, which printed "[SCAN], Operations, 2".
const truncatedScanLog = fixture('constructed_ycsb-0.17.0_SCAN-second-measurement-truncated.hdr');

function report(operations: Record<string, number>): YcsbReport {
  return {
    runtimeMs: 5000,
    throughputOpsPerSec: 1,
    operations: Object.fromEntries(
      Object.entries(operations).map(([operation, count]) => [
        operation,
        { operation, operations: count, percentilesUs: { '95': 1, '99': 1 }, returnCodes: { OK: count } },
      ]),
    ),
    other: {},
    warnings: [],
  } as YcsbReport;
}

test('the truncated log of the real YCSB holds one SCAN fewer than its report: recorded per client and marked', () => {
  assert.ok(truncatedScanLog.includes('\0'), 'the gap the second FileOutputStream left');
  const files: HdrLogFile[] = [
    { host: 'c1', operation: 'SCAN', file: 'logs/x/attempt1-c1-hdr/SCAN.hdr', text: truncatedScanLog },
    {
      host: 'c2',
      operation: 'SCAN',
      file: 'logs/x/attempt1-c2-hdr/SCAN.hdr',
      text: truncatedScanLog.replace(/\0+/, ''),
    },
  ];
  const clients = [
    { host: 'c1', report: report({ SCAN: 2 }) },
    { host: 'c2', report: report({ SCAN: 1 }) },
  ];
  assert.deepEqual(hdrCountChecks(files, clients), [
    { host: 'c1', operation: 'SCAN', ycsbOperations: 2, hdrCount: 1 },
    { host: 'c2', operation: 'SCAN', ycsbOperations: 1, hdrCount: 1 },
  ]);

  const judged = runEvidence(
    { clients, run: report({ SCAN: 3 }) },
    { samplers: [], statusByHost: {}, hdrFiles: files, warmupSec: 0 },
  );
  const { marks } = judged;
  const hdr = judged.evidence.timeseries?.hdr;
  assert.equal(hdr?.operations.SCAN.count, 2, 'the merged logs: one SCAN each');
  assert.deepEqual(
    hdr?.counts?.map((check) => check.ycsbOperations - check.hdrCount),
    [1, 0],
  );
  const differs = marks.filter((mark) => mark.code === 'hdr-count-differs');
  assert.equal(differs.length, 1, JSON.stringify(marks));
  assert.equal(differs[0].host, 'c1');
  assert.match(differs[0].message, /SCAN: 1 in the HDR logs, 2 reported by YCSB \(1 missing from the logs\)/);
  assert.match(differs[0].message, /percentiles of SCAN come from the HDR logs/);
  // the percentiles say where they come from; the count stays YCSB's
  assert.equal(judged.run?.operations.SCAN.percentilesSource, 'hdr-merged');
  assert.equal(judged.run?.operations.SCAN.operations, 3);
});

test('a client without logs counts as holding none, and logs equal to the report raise no mark', () => {
  const stdout = fixture('lab_ycsb-0.17.0_workloadb_run_hdrhistogram-fileoutput_failures.stdout.txt');
  const parsed = parseYcsbReport(stdout);
  assert.ok(parsed.ok);
  const real = (parsed as Extract<typeof parsed, { ok: true }>).report;
  const files: HdrLogFile[] = ['READ', 'READ-FAILED', 'UPDATE', 'UPDATE-FAILED', 'CLEANUP'].map((operation) => ({
    host: 'c1',
    operation,
    file: `${operation}.hdr`,
    text: fixture(`lab_ycsb-0.17.0_workloadb_run_${operation}.hdr`),
  }));
  const checks = hdrCountChecks(files, [
    { host: 'c1', report: real },
    { host: 'c2', report: report({ READ: 7 }) },
  ]);
  for (const check of checks.filter((entry) => entry.host === 'c1'))
    assert.equal(check.hdrCount, check.ycsbOperations, check.operation);
  assert.deepEqual(
    checks.filter((entry) => entry.host === 'c2'),
    [{ host: 'c2', operation: 'READ', ycsbOperations: 7, hdrCount: 0 }],
  );
  assert.equal(hdrEvidence(files, 0)?.counts, undefined, 'no reports, no check');
});
