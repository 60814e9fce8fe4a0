// `onload-bench parse` and `onload-bench report` as a user runs them: output and exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYcsbReport } from '../../engine/src/ycsb/ycsbOutput';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const fixtures = join('test', 'fixtures', 'ycsb-output');

function cli(args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('cli', 'src', 'main.ts'), ...args], {
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('parse prints the report table and GC summary; --json prints every measurement', () => {
  // a real YCSB 0.17.0 run in the lab, with failed reads (test/lab/captureYcsbOutput.ts)
  const file = join(fixtures, 'lab_ycsb-0.17.0_workloadb_run_hdrhistogram-fileoutput_failures.stdout.txt');
  const expected = parseYcsbReport(readFileSync(file, 'utf8'));
  assert.ok(expected.ok);
  if (!expected.ok) return;
  const r = expected.report;
  const text = cli(['parse', file]);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.split('\n');
  assert.equal(
    lines[0],
    `YCSB report (text exporter): runtime ${r.runtimeMs} ms, throughput ${r.throughputOpsPerSec.toFixed(1)} ops/s`,
  );
  assert.match(lines[2], /^operation +operations +avg µs +min µs +max µs +p50 µs +p95 µs +p99 µs +return codes$/);
  const read = lines.find((line) => line.startsWith('READ '));
  assert.match(
    read ?? '',
    new RegExp(
      `^READ +${r.operations.READ.operations} .* OK=${r.operations.READ.returnCodes.OK} ERROR=${r.operations.READ.returnCodes.ERROR}$`,
    ),
  );
  const notOk = Object.values(r.operations).reduce(
    (sum, stats) =>
      sum +
      Object.entries(stats.returnCodes)
        .filter(([code]) => code !== 'OK')
        .reduce((total, [, count]) => total + count, 0),
    0,
  );
  assert.ok(lines.includes(`${notOk} operation(s) did not return OK (see the return codes).`), text.stdout);
  assert.ok(
    lines.some((line) => /^GC G1_Young_Generation: \d+ collections, \d+ ms \([\d.]+ % of the runtime\)$/.test(line)),
    text.stdout,
  );

  const json = cli(['parse', '--json', file]);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.format, 'text');
  assert.equal(parsed.operations['READ-FAILED'].operations, r.operations.READ.returnCodes.ERROR);
  assert.deepEqual(parsed.operations.READ.returnCodes, r.operations.READ.returnCodes);
  assert.deepEqual(parsed.operations.UPDATE.percentilesUs, r.operations.UPDATE.percentilesUs);
});

test('parse reads stdin and JSON exports; no report exits 1 with the reason; bad usage exits 2', () => {
  const exported = readFileSync(join(fixtures, 'lab_ycsb-0.17.0_workloada_run_json-exporter.stdout.txt'), 'utf8');
  const fromStdin = cli(['parse', '-', '--json'], exported);
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  assert.equal(
    JSON.parse(fromStdin.stdout).runtimeMs,
    Number(/"RunTime\(ms\)",\s*"value" : (\d+)/.exec(exported)?.[1]),
  );

  const stderrOnly = cli(['parse', join(fixtures, 'lab_ycsb-0.17.0_workloadc_run_timeseries.stderr.txt')]);
  assert.equal(stderrOnly.code, 1);
  assert.equal(stderrOnly.stdout, '');
  assert.match(stderrOnly.stderr, /No YCSB report found/);

  const missing = cli(['parse', join(fixtures, 'nope.txt')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read .*nope\.txt/);

  assert.equal(cli(['parse']).code, 2);
  assert.equal(cli(['parse', '--bogus', 'x']).code, 2);
});

test('report prints the tables with warnings on stderr; --csv and --metric; bad metric exits 2; no run exits 1', () => {
  const run = join(fixtures, 'run-cookbook');
  const text = cli(['report', run]);
  assert.equal(text.code, 0, text.stderr);
  // The verdict comes first, then the tables.
  assert.ok(
    text.stdout.startsWith(
      'Verdict (best significant difference from the kernel, 95 % interval):\n' +
        '  25G (10.20.128.35) · Onload · redis-balanced vs kernel: ▲ better: read average latency −16.3 % (95 % CI −27.2 % to −4.2 %) at 5 threads\n' +
        '  10G (10.20.129.35) · Onload · redis-balanced vs kernel: ? no interval: every point has a marked side\n\n' +
        'Throughput (ops/s, higher is better)\n',
    ),
    text.stdout.slice(0, 400),
  );
  assert.ok(text.stdout.includes('\nRead average latency (µs, lower is better)\n'));
  // Stacks are named as stacks in the columns.
  assert.ok(
    text.stdout.includes('threads  kernel               Onload · redis-balanced  Onload · redis-balanced vs kernel\n'),
  );
  assert.ok(
    text.stdout.includes(
      '     10  20000 (1/2 failed)       26500 [26000-27000]  +32.5 % (1 repetition: no interval)\n',
    ),
  );
  assert.match(text.stderr, /^warning: The last line of results\.jsonl is incomplete/);

  // Without --metric a CSV holds every metric the run measured.
  const everything = cli(['report', run, '--csv']).stdout.split('\r\n');
  assert.deepEqual(
    [...new Set(everything.slice(1, -1).map((line) => line.split(',')[0]))],
    [
      'throughput',
      'read-latency',
      'read-min',
      'read-max',
      'read-p95',
      'read-p99',
      'update-latency',
      'update-min',
      'update-max',
      'update-p95',
      'update-p99',
    ],
  );
  const csv = cli(['report', join(run, 'results.jsonl'), '--csv', '--metric', 'read-p95,update-p99']);
  assert.equal(csv.code, 0, csv.stderr);
  const rows = csv.stdout.split('\r\n');
  assert.equal(rows.length, 10);
  assert.equal(
    rows[1],
    'read-p95,µs,25G,10.20.128.35,5,890,880,900,2,0,ok,,,710,700,720,2,0,ok,,,-20.22,-26.23,-13.84,true,0.00612,best',
  );
  assert.ok(rows[5].startsWith('update-p99,µs,25G,'));

  const json = cli(['report', run, '--json', '--metric', 'throughput']);
  assert.equal(json.code, 0, json.stderr);
  const [table] = JSON.parse(json.stdout);
  assert.equal(table.metric.id, 'throughput');
  assert.equal(table.groups[0].rows[1].comparisons[0].percent, 32.5);

  const bad = cli(['report', run, '--metric', 'speed']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown metric 'speed'/);

  const none = cli(['report', join(fixtures, 'no-such-run')]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /Cannot open .*no-such-run/);
});

test(
  'the bundled dist/cli.js parses JSON exports too (jsonc-parser must be bundled, not required at run time)',
  { skip: !existsSync(join('dist', 'cli.js')) && 'dist/cli.js not built' },
  () => {
    const result = spawnSync(
      process.execPath,
      [join('dist', 'cli.js'), 'parse', join(fixtures, 'lab_ycsb-0.17.0_workloada_run_json-exporter.stdout.txt')],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout.split('\n')[0],
      /^YCSB report \(JSON exporter\): runtime \d+ ms, throughput [\d.]+ ops\/s$/,
    );
  },
);
