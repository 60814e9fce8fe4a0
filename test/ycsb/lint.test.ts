// `onload-bench lint` covers YCSB workload files: `*.ycsb` and `workload*` under `workloads/`,
// printing file:line:col severity code message and exiting 1 on errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../cli/src/lint';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'ycsb-lint-'));
  mkdirSync(join(root, 'workloads'));
  copyFileSync('test/fixtures/ycsb/upstream/workloada', join(root, 'workloads', 'workloada'));
  writeFileSync(join(root, 'broken.ycsb'), 'recordcount=1000\nrequestdistribution=zipfan\n');
  writeFileSync(join(root, 'notes.txt'), 'not a workload\n');
});
after(() => rmSync(root, { recursive: true, force: true }));

async function lint(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...parts: unknown[]) => void out.push(parts.join(' '));
  console.error = (...parts: unknown[]) => void err.push(parts.join(' '));
  try {
    return { code: await run(args), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

test('a clean upstream workload lints clean (exit 0)', async () => {
  const result = await lint([join(root, 'workloads', 'workloada')]);
  assert.equal(result.code, 0);
  assert.deepEqual(result.out, []);
  assert.match(result.err.at(-1)!, /1 file checked: 0 errors, 0 warnings/);
});

test('errors in a .ycsb file are printed with position and code (exit 1)', async () => {
  const path = join(root, 'broken.ycsb');
  const result = await lint([path]);
  assert.equal(result.code, 1);
  assert.deepEqual(
    result.out.map((line) => line.split(' ').slice(0, 3).join(' ')),
    [`${path}:1:1 error missing-workload`, `${path}:2:21 error unknown-value`],
  );
});

test('a folder is searched for workload files by name', async () => {
  const result = await lint([root]);
  assert.equal(result.code, 1);
  assert.match(result.err.at(-1)!, /2 files checked: 2 errors, 0 warnings/);
});
