// Issue 26 B1 and B14: what `onload-bench report` writes reaches a terminal or a spreadsheet.
// Run data carrying terminal control sequences (OSC 0 sets the window title, OSC 52 writes the
// clipboard, CR and ESC[2K fake a line, C1 CSI) is printed escaped, visible and inert, in every
// format; a CSV field starting with `-` is neutralised like `=`, `+`, `@`, tab and CR.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CellResult } from '../../engine/src/model';
import { csvField } from '../../engine/src/report/csv';

const root = mkdtempSync(join(tmpdir(), 'report-terminal-'));
after(() => rmSync(root, { recursive: true, force: true }));

const title = '\x1b]0;owned\x07';
const clipboard = '\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07';
const fakeLine = '\r\x1b[2Kall cells ok';
const c1 = '\u009b31mred';

function cell(id: string, stack: string, threads: number, extra: Partial<CellResult> = {}): CellResult {
  return {
    kind: 'cell',
    id,
    key: {
      interface: `25G${title}`,
      address: '10.0.0.1',
      stack,
      threads,
      axes: { fieldlength: `100${clipboard}` },
      repetition: 1,
    },
    status: 'ok',
    accelerated: null,
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
    ...extra,
  };
}

function runFolder(): string {
  const dir = join(root, 'run');
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const results = [
    cell('k', 'kernel', 1),
    cell('t', `tuned${c1}`, 1, { marks: [{ code: 'client-bound', message: `busy${fakeLine}` }] }),
    cell('f', 'kernel', 2, {
      status: 'failed',
      run: undefined,
      error: {
        code: 'ycsb-exit',
        host: `cli${title}`,
        step: 'ycsb-run',
        message: `YCSB said ${fakeLine}`,
        action: `retry${clipboard}`,
      },
    }),
    cell('m', "-1+cmd|' /C calc'!A0", 1),
  ];
  writeFileSync(join(dir, 'results.jsonl'), results.map((result) => JSON.stringify(result)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      kind: 'manifest',
      formatVersion: 1,
      runId: 'run',
      createdAt: '2026-01-01T00:00:00Z',
      plan: {},
      cells: results.map((result) => ({ id: result.id, key: result.key })),
      environment: { hosts: { srv: { role: 'server', kernel: `6.1${c1}`, couchbase: `7.6${title}` } }, profiles: {} },
    }),
  );
  return dir;
}

function report(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('cli', 'src', 'main.ts'), 'report', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** C0 but tab and newline, DEL and C1; CR only as the CSV's own line end. */
// eslint-disable-next-line no-control-regex -- the control characters are what this test looks for
const controls = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/;

describe('report output carries no terminal control sequence from run data', () => {
  for (const format of [[], ['--csv'], ['--json'], ['--html'], ['--metric', 'throughput,read-p99']]) {
    it(`report ${format.join(' ') || '(text)'}: no control character reaches stdout or stderr; the sequences are shown escaped`, () => {
      const dir = runFolder();
      const out = report([dir, ...format]);
      assert.equal(out.status, 0, out.stderr);
      const bad = controls.exec(out.stdout) ?? controls.exec(out.stderr);
      assert.equal(
        bad,
        null,
        `control character U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${JSON.stringify((out.stdout + out.stderr).slice(Math.max(0, (bad?.index ?? 0) - 20), (bad?.index ?? 0) + 20))}`,
      );
      if (format[0] === '--json') {
        assert.doesNotThrow(() => JSON.parse(out.stdout), 'the JSON stays valid');
        assert.match(out.stdout, /\\u009b31mred/);
      } else assert.match(out.stdout, /\\u001b\]52;c;/, 'shown escaped, so a reader sees it was there');
    });
  }
});

describe('CSV formula prefixes', () => {
  it('a leading - is neutralised like =, +, @, tab and CR; numbers stay numbers', () => {
    for (const text of ["-1+cmd|' /C calc'!A0", '=1+1', '+1', '@SUM(A1)', '\tx', '\rx'])
      assert.ok(csvField(text).replace(/^"/, '').startsWith("'"), `${JSON.stringify(text)} -> ${csvField(text)}`);
    assert.equal(csvField(-5), '-5');
    assert.equal(csvField('5'), '5');
    const out = report([runFolder(), '--csv']);
    assert.equal(out.status, 0, out.stderr);
    // The stack's columns name it as a stack, so its name never starts a field.
    assert.match(out.stdout, /,Onload · -1\+cmd\|' \/C calc'!A0 median,/);
    assert.doesNotMatch(out.stdout, /(^|,)-1\+cmd/m);
  });
});
