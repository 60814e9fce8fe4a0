// Issue 26 B2: one malformed record must not take every view down. An axis value `{"toString":1}`,
// a 5,000-deep axis value, a 5,000-deep unknown field and a 5,000-deep manifest.plan: `report`
// (text, --csv, --html), the panel's view model, its run comparison and its "Cell record" action
// (the record as JSON) all work on what the reader gives them, and the bad line is named as
// invalid (line number, cell id, why) while every good cell is shown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runDifferences } from '../../../client/src/panel/comparison';
import { runDataFromFiles } from '../../../client/src/panel/runData';
import { buildViewModel } from '../../../client/src/panel/viewModel';
import type { CellResult } from '../../../engine/src/model';
import { readRunFolder } from '../../../engine/src/results/resultsFile';

const root = mkdtempSync(join(tmpdir(), 'malformed-cells-'));
after(() => rmSync(root, { recursive: true, force: true }));

function cell(id: string, stack: string, threads: number): CellResult {
  return {
    kind: 'cell',
    id,
    key: { interface: '25G', address: '10.0.0.1', stack, threads, axes: { fieldlength: 100 }, repetition: 1 },
    status: 'ok',
    accelerated: stack === 'kernel' ? null : true,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z',
    attempts: 1,
    logs: [],
    run: {
      runtimeMs: 1000,
      throughputOpsPerSec: 1000 + threads,
      operations: {
        READ: {
          operation: 'READ',
          operations: 100,
          averageUs: 250,
          percentilesUs: { '99': 900 },
          returnCodes: { OK: 100 },
        },
      },
      other: {},
      warnings: [],
    },
  };
}

const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** Good cells of both stacks, then the bad line as raw JSON text. */
function runFolder(name: string, badLine: string, manifestPlan = '{}'): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const good = [cell('k1', 'kernel', 1), cell('t1', 'tuned', 1)];
  const cells = good.map((result) => ({ id: result.id, key: result.key }));
  writeFileSync(
    join(dir, 'manifest.json'),
    `{"kind":"manifest","formatVersion":1,"runId":"${name}","createdAt":"2026-01-01T00:00:00Z","planPath":"/p.json","plan":${manifestPlan},"cells":${JSON.stringify(cells)}}`,
  );
  writeFileSync(join(dir, 'results.jsonl'), `${good.map((result) => JSON.stringify(result)).join('\n')}\n${badLine}\n`);
  return dir;
}

function report(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('cli', 'src', 'main.ts'), 'report', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const badCell = (axisValue: string, extra = ''): string =>
  `{"kind":"cell","id":"bad","key":{"interface":"25G","address":"10.0.0.1","stack":"kernel","threads":2,"axes":{"fieldlength":${axisValue}},"repetition":1},"status":"ok","accelerated":null,"startedAt":"","finishedAt":"","attempts":1,"logs":[]${extra}}`;

describe('a malformed cell is shown as invalid; every view still works', () => {
  const cases = [
    {
      name: 'an axis value {"toString":1}',
      line: badCell('{"toString":1}'),
      why: /key\.axes\.fieldlength must be a string or a number/,
    },
    {
      name: 'a 5,000-deep axis value',
      line: badCell(deep(5000)),
      why: /key\.axes\.fieldlength must be a string or a number/,
    },
    {
      name: 'a 5,000-deep unknown field',
      line: badCell('100', `,"future":${deep(5000)}`),
      why: /nested deeper than 64 levels/,
    },
  ];
  for (const { name, line, why } of cases) {
    it(`${name}: report, --csv, --html, the view model and the cell record all work`, async () => {
      const dir = runFolder(`bad-${cases.findIndex((entry) => entry.name === name)}`, line);
      for (const format of [[], ['--csv'], ['--html'], ['--json']]) {
        const out = report([dir, ...format]);
        assert.equal(out.status, 0, `${format.join(' ')}: ${out.stderr}`);
        assert.doesNotMatch(out.stderr, /Cannot convert|Maximum call stack/);
        assert.match(out.stderr, /Line 3 of results\.jsonl \(cell bad\) is not a valid cell record: /);
        assert.match(out.stderr, why);
      }
      const read = await readRunFolder(dir);
      assert.ok(read.ok);
      assert.deepEqual(
        read.results.map((result) => result.id),
        ['k1', 't1'],
      );
      const data = runDataFromFiles(dir, read.manifest, read.results, read.warnings);
      const model = buildViewModel([data]);
      assert.match(JSON.stringify(model), /is not a valid cell record/, 'the panel names the invalid line');
      for (const result of read.results)
        assert.doesNotThrow(() => JSON.stringify(result, null, 2), 'the Cell record action');
    });
  }

  it('a 5,000-deep manifest.plan: the manifest is named as unreadable, the results shown, and compare works', async () => {
    const dir = runFolder('deep-plan', JSON.stringify(cell('k2', 'kernel', 2)), `{"x":${deep(5000)}}`);
    const other = runFolder('plain-plan', JSON.stringify(cell('k2', 'kernel', 2)));
    const out = report([dir]);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stderr, /manifest\.json is nested deeper than 64 levels/);
    const [a, b] = await Promise.all([readRunFolder(dir), readRunFolder(other)]);
    assert.ok(a.ok && b.ok);
    assert.equal(a.results.length, 3);
    const runs = [
      runDataFromFiles(dir, a.manifest, a.results, a.warnings),
      runDataFromFiles(other, b.manifest, b.results, b.warnings),
    ];
    assert.doesNotThrow(() => runDifferences(runs[0], runs[1]));
    assert.doesNotThrow(() => buildViewModel(runs));
  });
});
