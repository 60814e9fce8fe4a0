// The one results reader (engine/src/results/resultsReader.ts): one line per cell id by the documented rule,
// streaming so that a results file past V8's string limit (~512 MiB) still reads, and the writer's
// rule for a last line without its newline (trim it only when it does not parse).
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import type { CellResult } from '../../../engine/src/model';
import { readRunFolder } from '../../../engine/src/results/resultsFile';
import { parseResultLines, readResultLines } from '../../../engine/src/results/resultsReader';
import { createRunDir, readResults, ResultsWriter } from '../../../engine/src/results/resultsStore';

const root = mkdtempSync(join(tmpdir(), 'results-reader-'));
after(() => rmSync(root, { recursive: true, force: true }));

function cell(id: string, status: 'ok' | 'failed', extra: Partial<CellResult> = {}): CellResult {
  return {
    kind: 'cell',
    id,
    key: { interface: '25G', address: '10.0.0.1', stack: 'kernel', threads: 5, axes: {}, repetition: 1 },
    status,
    accelerated: null,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z',
    attempts: 1,
    logs: [],
    ...extra,
  };
}

const line = (result: CellResult): string => JSON.stringify(result) + '\n';

describe('one line per cell id', () => {
  it('a later failed line never hides an earlier ok one (two resumes of one run, before the lock)', () => {
    const read = parseResultLines(
      line(cell('a', 'ok', { attempts: 1 })) + line(cell('b', 'ok')) + line(cell('a', 'failed', { attempts: 2 })),
    );
    assert.deepEqual(
      read.results.map((result) => [result.id, result.status, result.attempts]),
      [
        ['a', 'ok', 1],
        ['b', 'ok', 1],
      ],
    );
    assert.equal(read.duplicates, 1);
    assert.match(
      read.warnings[0] ?? '',
      /1 cell\(s\) appear more than once in results\.jsonl; for each, the first ok line was used/,
    );
  });

  it('an ok line after a failed one wins; of two lines with the same status the first wins', () => {
    const read = parseResultLines(
      line(cell('a', 'failed', { attempts: 2 })) +
        line(cell('b', 'ok', { attempts: 1 })) +
        line(cell('a', 'ok', { attempts: 1 })) +
        line(cell('b', 'ok', { attempts: 2 })),
    );
    assert.deepEqual(
      read.results.map((result) => [result.id, result.status, result.attempts]),
      [
        ['b', 'ok', 1],
        ['a', 'ok', 1],
      ],
    );
  });

  it('the same rule applies to the report/panel reader and to resume', async () => {
    const runDir = await createRunDir(root, 'rule');
    writeFileSync(join(runDir, 'results.jsonl'), line(cell('a', 'ok')) + line(cell('a', 'failed')));
    const forResume = await readResults(runDir);
    const forReaders = await readRunFolder(runDir);
    assert.ok(forReaders.ok);
    assert.deepEqual(
      forResume.results.map((result) => result.status),
      ['ok'],
    );
    assert.deepEqual(
      forReaders.results.map((result) => result.status),
      ['ok'],
    );
  });
});

describe('a last line without its newline', () => {
  it('is a result when it parses: readers keep it and the writer only adds the newline', async () => {
    const runDir = await createRunDir(root, 'unterminated');
    const whole = JSON.stringify(cell('b', 'ok'));
    writeFileSync(join(runDir, 'results.jsonl'), line(cell('a', 'ok')) + whole);
    const before = await readResults(runDir);
    assert.deepEqual(
      [before.results.map((result) => result.id), before.tornTail, before.unterminated],
      [['a', 'b'], false, true],
    );
    const writer = await ResultsWriter.open(runDir);
    await writer.append(cell('c', 'ok'));
    await writer.close();
    assert.equal(
      readFileSync(join(runDir, 'results.jsonl'), 'utf8'),
      line(cell('a', 'ok')) + whole + '\n' + line(cell('c', 'ok')),
    );
  });

  it('is trimmed when it does not parse, and only that line', async () => {
    const runDir = await createRunDir(root, 'torn');
    writeFileSync(join(runDir, 'results.jsonl'), line(cell('a', 'ok')) + '{"kind":"cell","id":"b","ke');
    const writer = await ResultsWriter.open(runDir);
    await writer.close();
    assert.equal(readFileSync(join(runDir, 'results.jsonl'), 'utf8'), line(cell('a', 'ok')));
  });

  it('is trimmed when it parses but is not a whole cell result', async () => {
    const runDir = await createRunDir(root, 'partial');
    writeFileSync(join(runDir, 'results.jsonl'), line(cell('a', 'ok')) + '{"kind":"cell","id":"b"}');
    const writer = await ResultsWriter.open(runDir);
    await writer.close();
    assert.equal(readFileSync(join(runDir, 'results.jsonl'), 'utf8'), line(cell('a', 'ok')));
  });
});

describe('a results file larger than one JavaScript string', () => {
  it('streams a 520 MiB results file: every cell is read, in bounded time', { timeout: 180_000 }, async () => {
    // Few distinct cells, many big lines (a long timeseries note): the file is past V8's string
    // limit (readFile + split failed with "Invalid string length"), while what is kept stays small.
    const runDir = await createRunDir(root, 'big');
    const path = join(runDir, 'results.jsonl');
    const padding = 'x'.repeat(1024 * 1024);
    const out = createWriteStream(path);
    const lines = 520;
    for (let index = 0; index < lines; index++) {
      const result = cell(`c${index % 8}`, index < 8 ? 'ok' : 'failed', {
        evidence: {
          timeseries: { status: { note: [{ tSec: 0, operations: 0, opsPerSec: 0, latencyUs: { [padding]: 0 } }] } },
        },
      });
      if (!out.write(line(result))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    assert.ok(statSync(path).size > 520 * 1024 * 1024);
    const read = await readResultLines(path);
    assert.ok(read);
    assert.deepEqual(
      read.results.map((result) => [result.id, result.status]),
      Array.from({ length: 8 }, (_, index) => [`c${index}`, 'ok']),
    );
    assert.equal(read.duplicates, 8);
    const folder = await readRunFolder(runDir);
    assert.ok(folder.ok);
    assert.equal(folder.results.length, 8);
    rmSync(path);
  });
});
