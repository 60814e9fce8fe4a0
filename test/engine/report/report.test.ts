// Report tables from a hand-made run folder (test/fixtures/ycsb-output/run-cookbook): two
// interfaces, kernel vs redis-balanced, 5 and 10 threads, two repetitions, with a failed
// repetition, a cell whose repetitions all failed, a not-accelerated Onload cell and a torn last line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportTablesToCsv, toCsv } from '../../../engine/src/report/csv';
import type { CellResult } from '../../../engine/src/model';
import {
  alignColumns,
  buildReportTable,
  buildReportTables,
  measuredMetrics,
  metricDefinition,
  renderReport,
} from '../../../engine/src/report/report';
import { parseResultsJsonl, parseRunFiles, readRunFolder } from '../../../engine/src/results/resultsFile';

const runDir = join('test', 'fixtures', 'ycsb-output', 'run-cookbook');

async function cookbookRun() {
  const run = await readRunFolder(runDir);
  if (!run.ok) assert.fail(run.error.message);
  return run;
}

test('the run folder reader keeps every whole line and reports the torn last line', async () => {
  const run = await cookbookRun();
  assert.equal(run.results.length, 15);
  assert.equal(run.manifest?.cells.length, 16);
  assert.deepEqual(run.warnings, [
    'The last line of results.jsonl is incomplete (the run was still writing it or was interrupted); it was ignored and every earlier line was read.',
  ]);
  const viaFile = await readRunFolder(join(runDir, 'results.jsonl'));
  assert.ok(viaFile.ok);
  assert.equal(viaFile.results.length, 15);
  assert.equal(viaFile.manifest?.runId, '20261202-120000-cookbook');
});

test('damaged lines, duplicates, other record kinds and a missing manifest', () => {
  const good = readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n')[0];
  const retried = JSON.stringify({ ...JSON.parse(good), attempts: 2 });
  const text = [
    good,
    '{not json',
    JSON.stringify({ kind: 'event', note: 'ignored' }),
    JSON.stringify({ kind: 'cell', id: 'x' }),
    retried,
    '',
  ].join('\n');
  const warnings: string[] = [];
  const results = parseResultsJsonl(text, warnings);
  assert.equal(results.length, 1);
  assert.equal(results[0].attempts, 1, 'of two ok lines the first wins');
  assert.deepEqual(warnings, [
    'Line 2 of results.jsonl is not valid JSON; skipped.',
    'Line 4 of results.jsonl is not a complete cell result; skipped.',
    '1 cell(s) appear more than once in results.jsonl; for each, the first ok line was used (or the first line when none is ok).',
  ]);
  const contents = parseRunFiles('/runs/x', undefined, text);
  assert.equal(contents.manifest, undefined);
  assert.match(contents.warnings[0], /^No manifest\.json in \/runs\/x/);
  const badManifest = parseRunFiles('/runs/x', '{"kind":"manifest"', '');
  assert.match(badManifest.warnings[0], /^manifest\.json is not valid JSON/);
});

test('a path that is not a run gives a clear error value', async () => {
  const missing = await readRunFolder(join(runDir, 'no-such-folder'));
  assert.equal(missing.ok, false);
  if (!missing.ok) {
    assert.equal(missing.error.code, 'results-read');
    assert.match(missing.error.message, /^Cannot open /);
  }
  const empty = await readRunFolder(join('test', 'engine', 'report'));
  assert.equal(empty.ok, false);
  if (!empty.ok) assert.match(empty.error.message, /holds neither manifest\.json nor results\.jsonl/);
});

test('throughput table: medians, spread, percent vs kernel, failed and not-accelerated cells, pending repetition', async () => {
  const run = await cookbookRun();
  const table = buildReportTable(run, 'throughput')!;
  assert.deepEqual(table.stacks, ['kernel', 'redis-balanced']);
  assert.deepEqual(
    table.groups.map((group) => group.title),
    ['25G (10.20.128.35)', '10G (10.20.129.35)'],
  );
  const [g25, g10] = table.groups;
  assert.deepEqual(
    g25.rows.map((row) => row.threads),
    [5, 10],
  );

  const [kernel5, onload5] = g25.rows[0].cells;
  assert.deepEqual(
    [kernel5.state, kernel5.value, kernel5.min, kernel5.max, kernel5.repetitions],
    ['ok', 10500, 10000, 11000, 2],
  );
  assert.deepEqual([onload5.value, onload5.min, onload5.max], [12800, 12600, 13000]);
  assert.equal(g25.rows[0].comparisons[0].percent!.toFixed(4), (((12800 - 10500) / 10500) * 100).toFixed(4));
  // Two repetitions a side spread by ±5 %: the 95 % interval spans 0, so +21.9 % is not an improvement yet.
  const noisy = g25.rows[0].comparisons[0];
  assert.deepEqual([noisy.significant, noisy.improvement, noisy.best], [false, false, false]);
  assert.ok(noisy.difference!.interval!.low < 0 && noisy.difference!.interval!.high > 40);

  // 25G, 10 threads: one kernel repetition failed, the other counts.
  const kernel10 = g25.rows[1].cells[0];
  assert.deepEqual(
    [kernel10.state, kernel10.value, kernel10.repetitions, kernel10.failed, kernel10.finished],
    ['ok', 20000, 1, 1, 2],
  );
  // One kernel repetition: no interval can be given, so no star however large the difference.
  assert.equal(g25.rows[1].comparisons[0].percent, 32.5);
  assert.equal(g25.rows[1].comparisons[0].difference!.noInterval, 'single-repetition');
  assert.deepEqual([g25.rows[1].comparisons[0].improvement, g25.rows[1].comparisons[0].best], [false, false]);

  // 10G, 5 threads: Onload ran but was not verified (old records' accelerated:false reads as the
  // not-accelerated mark): shown, marked, not an improvement.
  const unverified = g10.rows[0].cells[1];
  assert.deepEqual(
    [unverified.state, unverified.value, unverified.marked, unverified.markedLeftOut],
    ['marked', 9000, 2, 0],
  );
  assert.deepEqual(
    unverified.marks.map((mark) => [mark.code, mark.repetitions]),
    [['not-accelerated', 2]],
  );
  const markedComparison = g10.rows[0].comparisons[0];
  assert.deepEqual(
    [markedComparison.percent, markedComparison.marked, markedComparison.improvement, markedComparison.best],
    [12.5, true, false, false],
  );

  // 10G, 10 threads: every Onload repetition failed; the kernel's second repetition is the torn line.
  const [kernelPending, onloadFailed] = g10.rows[1].cells;
  assert.deepEqual(
    [kernelPending.state, kernelPending.value, kernelPending.finished, kernelPending.planned],
    ['ok', 9000, 1, 2],
  );
  assert.deepEqual([onloadFailed.state, onloadFailed.value, onloadFailed.failed], ['failed', undefined, 2]);
  assert.equal(g10.rows[1].comparisons[0].percent, undefined);

  assert.deepEqual(table.bestImprovements, [], 'nothing in this table is a proven improvement');
  assert.deepEqual([table.tested, table.significantCount], [1, 0]);
});

test('latency tables: lower is better, so a negative difference is the improvement', async () => {
  const run = await cookbookRun();
  const [read, p99, update] = buildReportTables(run, ['read-latency', 'read-p99', 'update-latency']);
  assert.equal(read.metric.higherIsBetter, false);
  assert.equal(read.groups[0].rows[0].cells[0].value, 490);
  assert.equal(read.groups[0].rows[0].cells[1].value, 410);
  assert.equal(read.groups[0].rows[1].comparisons[0].percent!.toFixed(2), '-23.33');
  assert.equal(read.groups[0].rows[1].comparisons[0].best, false, 'one kernel repetition: no interval');
  // 490 [480-500] against 410 [400-420]: -16.3 %, the interval below 0: a significant improvement.
  const proven = read.groups[0].rows[0].comparisons[0];
  assert.deepEqual([proven.significant, proven.improvement, proven.best], [true, true, true]);
  assert.ok(proven.difference!.interval!.high < 0);
  assert.deepEqual(
    read.bestImprovements.map((best) => [best.threads, Math.round(best.percent * 10) / 10]),
    [[5, -16.3]],
  );
  assert.equal(p99.groups[0].rows[0].cells[0].value, 1450);
  assert.equal(update.groups[0].rows[0].cells[1].value, 605);
  assert.equal(metricDefinition('bogus'), undefined);
  assert.equal(metricDefinition('read-p99.9')?.title, 'Read p99.9 latency');
  assert.equal(buildReportTable(run, 'scan-latency')!.groups[0].rows[0].cells[0].state, 'no-data');
});

test('further sweep axes get their own groups; a run without a kernel stack has no comparisons', () => {
  const cell = (stack: string, fieldlength: number, throughput: number): CellResult => ({
    kind: 'cell',
    id: `${stack}-${fieldlength}`,
    status: 'ok',
    accelerated: stack === 'kernel' ? null : true,
    key: { interface: '25G', address: '127.0.0.1', stack, threads: 5, axes: { fieldlength }, repetition: 1 },
    startedAt: '',
    finishedAt: '',
    attempts: 1,
    logs: [],
    run: { runtimeMs: 1, throughputOpsPerSec: throughput, operations: {}, other: {}, warnings: [] },
  });
  const table = buildReportTable(
    {
      results: [cell('kernel', 128, 100), cell('tuned', 128, 150), cell('kernel', 16384, 50), cell('tuned', 16384, 40)],
    },
    'throughput',
  )!;
  assert.equal(table.groups[0].rows[0].comparisons[0].improvement, false, 'one repetition proves nothing');
  assert.deepEqual(
    table.groups.map((group) => group.title),
    ['25G (127.0.0.1), fieldlength=128', '25G (127.0.0.1), fieldlength=16384'],
  );
  assert.equal(table.groups[0].rows[0].comparisons[0].percent, 50);
  assert.equal(table.groups[1].rows[0].comparisons[0].percent, -20);
  assert.equal(table.groups[1].rows[0].comparisons[0].improvement, false);
  const noKernel = buildReportTable({ results: [cell('tuned', 128, 150)] }, 'throughput')!;
  assert.equal(noKernel.hasBaseline, false);
  assert.deepEqual(noKernel.groups[0].rows[0].comparisons, [
    { stack: 'tuned', significant: false, improvement: false, best: false },
  ]);
});

test('text rendering shows the marks a user needs', async () => {
  const run = await cookbookRun();
  const text = renderReport(buildReportTables(run, ['throughput']), run.results);
  const lines = text.split('\n');
  assert.equal(lines[0], 'Throughput (ops/s, higher is better)');
  assert.ok(
    lines.includes('threads  kernel               Onload · redis-balanced  Onload · redis-balanced vs kernel'),
    text,
  );
  assert.ok(
    lines.includes('      5  10500 [10000-11000]      12800 [12600-13000]  +21.9 % (±51.2, not significant)'),
    text,
  );
  assert.ok(
    lines.includes('     10  20000 (1/2 failed)       26500 [26000-27000]  +32.5 % (1 repetition: no interval)'),
    text,
  );
  assert.ok(
    lines.includes('      5  8000                              9000 !  +12.5 % (no spread: no interval) !'),
    text,
  );
  assert.ok(
    lines.includes(
      'No difference has an interval: every point needs at least two repetitions of each stack (plan: repetitions).',
    ) === false,
  );
  assert.ok(
    lines.includes(
      '0 of 1 differences with an interval are significant at 95 %; about 1 in 20 differences that are not real reads as significant by chance.',
    ),
    text,
  );
  assert.ok(lines.includes('No significant improvement over the kernel stack so far.'), text);
  assert.ok(lines.includes('Marked cells (1):'), text);
  assert.ok(
    lines.includes(
      "  10G · redis-balanced · 5 threads, repetitions 1, 2: [not-accelerated] Couchbase was not verified to run on Onload: the numbers are really the kernel stack's.",
    ),
    text,
  );
  assert.ok(lines.includes('     10  9000 (1/2 done)                 FAILED          -'), text);
  // the legend lists only what the tables use: no pending, n/a, best (*) or "marked left out" here
  assert.ok(lines.includes('FAILED  every repetition failed'), text);
  assert.ok(
    !/pending|n\/a {2}|^\* {2}best|marked left out\) {2}/m.test(text.slice(text.indexOf('Values are medians'))),
    text,
  );
  assert.ok(lines.includes('Failed cells (3):'), text);
  assert.ok(
    lines.includes(
      '  10G · redis-balanced · 10 threads · repetition 1: [ycsb-exit] client1: ycsb-run: ycsb exited with status 1. Next: Read the run log of the cell.',
    ),
    text,
  );
});

test('text tables right-align numbers of different widths and keep notes after them', () => {
  const lines = alignColumns(
    ['threads', 'kernel', 'tuned vs kernel'],
    [
      ['1', '950 [900-1000]', '+5.0 % (±1.0)'],
      ['128', '12000', '-12.5 % (±3.2, not significant)'],
      ['2', 'pending', '-'],
    ],
  );
  assert.deepEqual(lines, [
    'threads   kernel             tuned vs kernel',
    '      1      950 [900-1000]   +5.0 % (±1.0)',
    '    128    12000             -12.5 % (±3.2, not significant)',
    '      2  pending                   -',
  ]);
});

test("the text report ends with each host's environment, CPU, NUMA and IRQ facts included", async () => {
  const run = await cookbookRun();
  const text = renderReport(buildReportTables(run, ['throughput']), run.results, {
    hosts: {
      server1: {
        role: 'server',
        kernel: '6.1.0',
        onload: 'Onload 9.0.1.86',
        interfaces: {
          '10.20.128.35': {
            device: 'enp1s0f0',
            driver: 'sfc',
            numaNode: 1,
            irqs: [
              { irq: 90, cpus: '8' },
              { irq: 91, cpus: '9' },
            ],
          },
        },
        cpu: {
          model: 'AMD EPYC 7313',
          sockets: 1,
          cores: 16,
          threads: 32,
          numaNodes: 2,
          governors: { performance: 32 },
        },
      },
    },
    profiles: {},
  });
  const tail = text.slice(text.indexOf('Environment:'));
  assert.equal(
    tail,
    [
      'Environment:',
      '  server1 (server)',
      '    Kernel: 6.1.0',
      '    Onload: Onload 9.0.1.86',
      '    Interface 10.20.128.35: enp1s0f0, sfc',
      '    CPU: AMD EPYC 7313: 1 socket, 16 cores, 32 threads',
      '    NUMA nodes: 2',
      '    Frequency governor: performance (all 32 CPUs)',
      '    NUMA node of 10.20.128.35: 1',
      '    IRQ affinity of 10.20.128.35: 2 IRQs (IRQ→CPUs): 90→8, 91→9',
      '',
    ].join('\n'),
  );
});

test('CSV follows RFC 4180 and holds the same numbers as the tables', async () => {
  assert.equal(
    toCsv([['a', 'b,c', 'say "hi"', 'two\nlines', 3.5, undefined, '=cmd()']]),
    'a,"b,c","say ""hi""","two\nlines",3.5,,\'=cmd()\r\n',
  );
  const run = await cookbookRun();
  const csv = reportTablesToCsv(buildReportTables(run, ['throughput', 'read-latency']));
  const lines = csv.split('\r\n');
  assert.equal(lines.at(-1), '', 'ends with CRLF');
  assert.equal(
    lines[0],
    'metric,unit,interface,address,threads,kernel median,kernel min,kernel max,kernel repetitions,kernel failed,kernel state,kernel marks,kernel percentile source,' +
      'Onload · redis-balanced median,Onload · redis-balanced min,Onload · redis-balanced max,Onload · redis-balanced repetitions,Onload · redis-balanced failed,Onload · redis-balanced state,Onload · redis-balanced marks,Onload · redis-balanced percentile source,' +
      'Onload · redis-balanced vs kernel (%),Onload · redis-balanced vs kernel low (%),Onload · redis-balanced vs kernel high (%),Onload · redis-balanced vs kernel significant,Onload · redis-balanced vs kernel p,Onload · redis-balanced vs kernel note',
  );
  // A display name from the plan replaces the label: every column of the stack says it.
  const named = reportTablesToCsv(buildReportTables(run, ['throughput']), { 'redis-balanced': 'Onload balanced' })
    .split('\r\n')[0]
    .split(',');
  assert.deepEqual(named.filter((column) => column.includes('balanced')).slice(0, 2), [
    'Onload balanced median',
    'Onload balanced min',
  ]);
  assert.ok(named.includes('Onload balanced vs kernel (%)'));
  assert.equal(
    lines[1],
    'throughput,ops/s,25G,10.20.128.35,5,10500,10000,11000,2,0,ok,,,12800,12600,13000,2,0,ok,,,21.9,-12.07,90.29,false,0.1,',
  );
  assert.equal(
    lines[3],
    'throughput,ops/s,10G,10.20.129.35,5,8000,8000,8000,2,0,ok,,,9000,9000,9000,2,0,marked,not-accelerated:2,,12.5,,,,,no spread: no interval; a side is marked',
  );
  assert.equal(lines[4], 'throughput,ops/s,10G,10.20.129.35,10,9000,9000,9000,1,0,ok,,,,,,0,2,failed,,,,,,,,');
  assert.equal(
    lines[6],
    'read-latency,µs,25G,10.20.128.35,10,600,600,600,1,1,ok,,,460,450,470,2,0,ok,,,-23.33,,,,,one repetition: no interval',
  );
  assert.equal(lines.length, 10);
});

test('any mark is generic: marked repetitions leave the median, a marked kernel spoils the comparison, every mark is listed', () => {
  const cell = (
    stack: string,
    repetition: number,
    throughput: number,
    marks: CellResult['marks'] = [],
  ): CellResult => ({
    kind: 'cell',
    id: `${stack}-${repetition}`,
    status: 'ok',
    accelerated: stack === 'kernel' ? null : true,
    key: { interface: '25G', address: '127.0.0.1', stack, threads: 5, axes: {}, repetition },
    startedAt: '',
    finishedAt: '',
    attempts: 1,
    logs: [],
    marks,
    run: { runtimeMs: 1, throughputOpsPerSec: throughput, operations: {}, other: {}, warnings: [] },
  });
  const wrongNic = {
    code: 'wrong-interface',
    host: 'server1',
    message: 'The clients reached memcached through 10.0.0.9, not 10.20.128.35.',
  };
  const clientBound = {
    code: 'client-bound',
    host: 'client1',
    message: 'client1 was 97 % busy: the numbers measure the client.',
  };
  // Onload: repetition 2 went through the wrong NIC and would flatter the profile; it is left out.
  // At 10 threads the kernel arm is client-bound in both repetitions: no improvement can be claimed.
  const results = [
    cell('kernel', 1, 100),
    cell('kernel', 2, 102),
    cell('tuned', 1, 110),
    cell('tuned', 2, 400, [wrongNic]),
    cell('tuned', 3, 112),
    { ...cell('kernel', 1, 50, [clientBound]), key: { ...cell('kernel', 1, 0).key, threads: 10 }, id: 'k10-1' },
    { ...cell('kernel', 2, 52, [clientBound]), key: { ...cell('kernel', 2, 0).key, threads: 10 }, id: 'k10-2' },
    { ...cell('tuned', 1, 90), key: { ...cell('tuned', 1, 0).key, threads: 10 }, id: 't10-1' },
  ];
  const table = buildReportTable({ results }, 'throughput')!;
  const [row5, row10] = table.groups[0].rows;
  const tuned5 = row5.cells[1];
  assert.deepEqual(
    [tuned5.state, tuned5.value, tuned5.repetitions, tuned5.marked, tuned5.markedLeftOut],
    ['ok', 111, 2, 1, 1],
  );
  assert.deepEqual(tuned5.marks, [
    { code: 'wrong-interface', messages: [wrongNic.message], repetitions: 1, hosts: ['server1'] },
  ]);
  assert.equal(
    row5.comparisons[0].percent!.toFixed(3),
    '9.901',
    'the clean repetitions still compare (means 111 against 101)',
  );
  assert.equal(row5.comparisons[0].improvement, true, '±1 % spreads: the 9.9 % is significant');
  const kernel10 = row10.cells[0];
  assert.deepEqual([kernel10.state, kernel10.value, kernel10.marked], ['marked', 51, 2]);
  assert.equal(row10.comparisons[0].marked, true);
  assert.equal(row10.comparisons[0].improvement, false);
  assert.equal(row10.comparisons[0].best, false);
  assert.ok(
    table.bestImprovements.every((best) => best.threads !== 10),
    'a marked comparison is never a best improvement',
  );

  const text = renderReport([table], results);
  assert.match(text, /\n {6}5 {2}101 \[100-102\] {2}111 \[110-112\] \(1 marked left out\)/);
  assert.ok(
    text.includes(
      '  25G · tuned · 5 threads, repetition 2: [wrong-interface] server1: The clients reached memcached through 10.0.0.9, not 10.20.128.35.',
    ),
    text,
  );
  assert.ok(
    text.includes(
      '  25G · kernel · 10 threads, repetitions 1, 2: [client-bound] client1: client1 was 97 % busy: the numbers measure the client.',
    ),
    text,
  );
  const csv = reportTablesToCsv([table]).split('\r\n');
  assert.equal(
    csv[1],
    'throughput,ops/s,25G,127.0.0.1,5,101,100,102,2,0,ok,,,111,110,112,2,0,ok,wrong-interface:1,,9.9,3.76,16.44,true,0.0194,best',
  );
  assert.equal(
    csv[2],
    'throughput,ops/s,25G,127.0.0.1,10,51,50,52,2,0,marked,client-bound:2,,90,90,90,1,0,ok,,,76.47,,,,,one repetition: no interval; a side is marked',
  );
});

test('every metric the run measured: throughput, then per operation average, min, max and each printed percentile', async () => {
  const run = await cookbookRun();
  assert.deepEqual(measuredMetrics(run.results), [
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
  ]);
  const csv = reportTablesToCsv(buildReportTables(run, measuredMetrics(run.results))).split('\r\n');
  assert.equal(csv.filter((line) => line.startsWith('update-p99,µs,')).length, 4);
  assert.equal(csv.length, 1 + 11 * 4 + 1);
});
