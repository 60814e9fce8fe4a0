// Issue 26 B3 and the 700 MB line: special files in a run folder (a FIFO manifest, results.jsonl
// linked to /dev/zero or /dev/urandom, a device node) never hang a reader nor feed it without
// end, in `report`, the panel's reader (the same readRunFolder) and the resume listing; a results
// file of one 700 MB line is read in bounded memory and said to be what it is. Each reader runs in
// a child process with a time limit, so a reader that hangs fails the test instead of the runner.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  ftruncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CellResult } from '../../../engine/src/model';

const root = mkdtempSync(join(tmpdir(), 'special-files-'));
after(() => rmSync(root, { recursive: true, force: true }));

const limitMs = 20_000;

function cell(id: string, threads: number, stack = 'kernel'): CellResult {
  return {
    kind: 'cell',
    id,
    key: { interface: '25G', address: '10.0.0.1', stack, threads, axes: {}, repetition: 1 },
    status: 'ok',
    accelerated: null,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z',
    attempts: 1,
    logs: [],
    run: {
      runtimeMs: 1000,
      throughputOpsPerSec: 1000 * threads,
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

const goodResults = [cell('a', 1), cell('b', 1, 'tuned')].map((result) => JSON.stringify(result)).join('\n') + '\n';

function runFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  return dir;
}

function report(args: string[]) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('cli', 'src', 'main.ts'), 'report', ...args], {
    encoding: 'utf8',
    timeout: limitMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    status: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    ms: Date.now() - started,
  };
}

/** Runs `body` (an async function body with `engine(path)` to import an engine module) in a child; its JSON answer. */
function inChild(body: string): { answer: any; maxRssMb: number } {
  const script = `const engine = async (path) => { const m = await import(${JSON.stringify(resolve('engine', 'src'))} + '/' + path); return m.default ?? m; };
const answer = await (async () => { ${body} })();
process.stdout.write(JSON.stringify({ answer, maxRssMb: process.resourceUsage().maxRSS / 1024 }));`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: limitMs * 3,
  });
  assert.equal(result.signal, null, `the reader did not finish within ${limitMs * 3} ms`);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  assert.equal(made.status, 0, String(made.stderr));
}

describe('special files in a run folder', () => {
  it('report on a folder whose manifest.json is a FIFO ends at once, shows the results and says why the manifest was not read', () => {
    const dir = runFolder('fifo-manifest');
    mkfifo(join(dir, 'manifest.json'));
    writeFileSync(join(dir, 'results.jsonl'), goodResults);
    const out = report([dir]);
    assert.equal(out.signal, null, `report hung (${out.ms} ms)`);
    assert.equal(out.status, 0, out.stderr);
    assert.match(
      out.stderr,
      /manifest\.json cannot be read \(.*manifest\.json is a FIFO \(named pipe\), not a regular file/,
    );
    assert.match(out.stdout, /kernel/);
  });

  for (const device of ['/dev/zero', '/dev/urandom']) {
    it(`report on results.jsonl linked to ${device} refuses the link at once (exit 1, the reason, no endless read)`, () => {
      const dir = runFolder(`results-${device.slice(5)}`);
      symlinkSync(device, join(dir, 'results.jsonl'));
      const out = report([dir]);
      assert.equal(out.signal, null, `report ran until killed (${out.ms} ms)`);
      assert.equal(out.status, 1, out.stderr);
      assert.match(out.stderr, /results\.jsonl is a symbolic link; files of a run folder are never followed\./);
      assert.doesNotMatch(out.stderr, /permissions/);
      assert.ok(out.ms < limitMs);
    });
  }

  it('a device node named results.jsonl (mknod c 1 5, /dev/zero) is refused as a character device', (t) => {
    const dir = runFolder('results-device');
    const made = spawnSync('mknod', [join(dir, 'results.jsonl'), 'c', '1', '5']);
    if (made.status !== 0) {
      t.skip('mknod is not allowed here');
      return;
    }
    const out = report([join(dir, 'results.jsonl')]);
    assert.equal(out.signal, null, `report ran until killed (${out.ms} ms)`);
    assert.equal(out.status, 1);
    assert.match(out.stderr, /results\.jsonl is a character device, not a regular file/);
  });

  it('the resume listing and the panel reader pass a FIFO manifest by, naming it, and list the other runs', () => {
    const resultsRoot = join(root, 'listing');
    mkdirSync(join(resultsRoot, 'good'), { recursive: true });
    mkdirSync(join(resultsRoot, 'fifo'), { recursive: true });
    writeFileSync(
      join(resultsRoot, 'good', 'manifest.json'),
      JSON.stringify({
        kind: 'manifest',
        formatVersion: 1,
        runId: 'good',
        createdAt: '2026-01-01T00:00:00Z',
        plan: {},
        planPath: '/p.json',
        cells: [{ id: 'a', key: cell('a', 1).key }],
      }),
    );
    mkfifo(join(resultsRoot, 'fifo', 'manifest.json'));
    writeFileSync(join(resultsRoot, 'fifo', 'results.jsonl'), goodResults);
    const { answer } = inChild(`
      const store = await engine('results/resultsStore.ts');
      const file = await engine('results/resultsFile.ts');
      const survey = await store.surveyRuns(${JSON.stringify(resultsRoot)});
      const panel = await file.readRunFolder(${JSON.stringify(join(resultsRoot, 'fifo'))});
      return { runs: survey.runs.map((run) => run.runDir), damaged: survey.damaged, panelOk: panel.ok, panelResults: panel.ok ? panel.results.length : 0, panelWarnings: panel.ok ? panel.warnings : [] };
    `);
    assert.deepEqual(answer.runs, [join(resultsRoot, 'good')]);
    assert.equal(answer.damaged.length, 1);
    assert.match(answer.damaged[0].problem, /manifest\.json is a FIFO \(named pipe\), not a regular file/);
    assert.equal(answer.panelOk, true);
    assert.equal(answer.panelResults, 2);
    assert.match(answer.panelWarnings.join('\n'), /is a FIFO/);
  });
});

describe('a results file of one 700 MB line', () => {
  it(
    'is read in bounded memory, its other lines kept, and named for what it is (not "check permissions")',
    { timeout: 120_000 },
    (t) => {
      const dir = runFolder('huge-line');
      const path = join(dir, 'results.jsonl');
      // a good line, then 700 MB without a newline (sparse: no disk used), then another good line
      writeFileSync(path, `${JSON.stringify(cell('a', 1))}\n`);
      const fd = openSync(path, 'r+');
      const hugeEnd = 700 * 1024 * 1024;
      ftruncateSync(fd, hugeEnd);
      closeSync(fd);
      writeFileSync(path, `\n${JSON.stringify(cell('b', 1, 'tuned'))}\n`, { flag: 'a' });
      const started = Date.now();
      const { answer, maxRssMb } = inChild(`
      const file = await engine('results/resultsFile.ts');
      const read = await file.readRunFolder(${JSON.stringify(dir)});
      return read.ok ? { ok: true, ids: read.results.map((result) => result.id), warnings: read.warnings } : { ok: false, error: read.error };
    `);
      const ms = Date.now() - started;
      t.diagnostic(`700 MB line: ${ms} ms, peak RSS ${Math.round(maxRssMb)} MB`);
      assert.equal(answer.ok, true, JSON.stringify(answer.error));
      assert.deepEqual(answer.ids, ['a', 'b'], 'the lines around the huge one are read');
      assert.match(
        answer.warnings.join('\n'),
        /Line 2 of results\.jsonl is longer than 64 MiB \(700 MiB\); it was skipped without being read into memory/,
      );
      assert.doesNotMatch(answer.warnings.join('\n'), /permission/);
      assert.ok(maxRssMb < 400, `peak memory ${Math.round(maxRssMb)} MB`);
      assert.ok(ms < 60_000, `${ms} ms`);
    },
  );
});
