// The verdict lines (engine/src/report/verdict.ts) as a reader sees them: the best significant
// difference with its interval, threads and metric, better/worse said by sign and by a word with a
// symbol, and the honest "no significant difference" / "no interval" when that is all there is.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CellResult } from '../../../engine/src/model';
import { buildReportTables } from '../../../engine/src/report/report';
import { stackLabel } from '../../../engine/src/report/stackLabels';
import { buildVerdict, renderVerdict } from '../../../engine/src/report/verdict';
import { readRunFolder } from '../../../engine/src/results/resultsFile';

/** One ok cell of interface 25G with the given throughput and read average latency. */
function cell(stack: string, threads: number, repetition: number, throughput: number, readUs: number): CellResult {
  const id = `25G-${stack}-t${threads}-r${repetition}`;
  return {
    kind: 'cell',
    id,
    key: { interface: '25G', address: '10.0.0.1', stack, threads, axes: {}, repetition },
    status: 'ok',
    accelerated: stack === 'kernel' ? null : true,
    startedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: '2026-01-01T10:01:00.000Z',
    attempts: 1,
    logs: [],
    run: {
      runtimeMs: 10000,
      throughputOpsPerSec: throughput,
      other: {},
      warnings: [],
      operations: {
        READ: {
          operation: 'READ',
          operations: 1000,
          averageUs: readUs,
          minUs: 1,
          maxUs: readUs * 3,
          percentilesUs: {},
          returnCodes: { OK: 1000 },
        },
      },
    },
  };
}

/** Kernel and `latency` at 1 and 10 threads; `onload(threads, repetition)` gives the profile's figures. */
function run(onload: (threads: number, repetition: number) => [number, number], repetitions = 3): CellResult[] {
  const results: CellResult[] = [];
  for (const threads of [1, 10]) {
    for (let repetition = 1; repetition <= repetitions; repetition += 1) {
      results.push(cell('kernel', threads, repetition, 10000 + repetition * 100, 500 + repetition * 5));
      results.push(cell('latency', threads, repetition, ...onload(threads, repetition)));
    }
  }
  return results;
}

const verdictOf = (results: CellResult[], names?: Record<string, string>) =>
  buildVerdict(buildReportTables({ results }), names).map((line) => line.text);

test('the cookbook run: better by the sign and the word, with interval, threads and metric; a marked interface says so', async () => {
  const folder = await readRunFolder(join('test', 'fixtures', 'ycsb-output', 'run-cookbook'));
  assert.ok(folder.ok);
  const lines = buildVerdict(buildReportTables({ results: folder.results, manifest: folder.manifest }));
  assert.deepEqual(
    lines.map((line) => line.text),
    [
      '25G (10.20.128.35) · Onload · redis-balanced vs kernel: ▲ better: read average latency −16.3 % (95 % CI −27.2 % to −4.2 %) at 5 threads',
      '10G (10.20.129.35) · Onload · redis-balanced vs kernel: ? no interval: every point has a marked side',
    ],
  );
  assert.deepEqual(
    lines.map((line) => line.kind),
    ['better', 'no-interval'],
  );
  assert.match(
    renderVerdict(lines),
    /^Verdict \(best significant difference from the kernel, 95 % interval\):\n {2}25G/,
  );
});

test('a significant loss reads as worse, by its sign and its word, never as the best', () => {
  const lines = verdictOf(run((_, repetition) => [7000 + repetition * 100, 500 + repetition * 5]));
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    /^25G \(10\.0\.0\.1\) · Onload · latency vs kernel: ▼ worse: throughput −\d+\.\d % \(95 % CI −\d+\.\d % to −\d+\.\d %\) at 1 thread$/,
  );
});

test('a gain somewhere and a loss elsewhere: the gain is shown, the loss counted', () => {
  // 10 threads: much better read latency; 1 thread: lower throughput.
  const lines = verdictOf(
    run((threads, repetition) =>
      threads === 10
        ? [10000 + repetition * 100, 300 + repetition * 5]
        : [8000 + repetition * 100, 500 + repetition * 5],
    ),
  );
  assert.match(
    lines[0],
    /: ▲ better: read average latency −\d+\.\d % \(95 % CI [^)]+\) at 10 threads; also ▼ worse at 1 point$/,
  );
});

test('noise is "no significant difference", a single repetition "no interval", a display name replaces the label', () => {
  const noise = verdictOf(
    run((_, repetition) => [10000 + ((repetition * 7) % 3) * 100, 500 + ((repetition * 7) % 3) * 5]),
  );
  assert.deepEqual(noise, [
    '25G (10.0.0.1) · Onload · latency vs kernel: = no significant difference (4 points tested at 95 %)',
  ]);
  const single = verdictOf(run(() => [20000, 200], 1));
  assert.deepEqual(single, [
    '25G (10.0.0.1) · Onload · latency vs kernel: ? no interval: each point needs 2+ repetitions of both stacks (plan: repetitions)',
  ]);
  const named = verdictOf(
    run(() => [20000, 200], 1),
    { latency: 'Onload low latency' },
  );
  assert.match(named[0], /^25G \(10\.0\.0\.1\) · Onload low latency vs kernel: /);
});

test("stacks are named as stacks: kernel, Onload · profile, or the plan's display name", () => {
  assert.equal(stackLabel('kernel'), 'kernel');
  assert.equal(stackLabel('latency'), 'Onload · latency');
  assert.equal(stackLabel('latency', { latency: 'Onload (spin)' }), 'Onload (spin)');
  assert.equal(stackLabel('toString', {}), 'Onload · toString');
});
