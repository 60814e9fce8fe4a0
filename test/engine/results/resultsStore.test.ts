import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineFailure } from '../../../engine/src/errors';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import { faultyResultsIo } from '../../support/faultyResultsIo';
import {
  createRunDir,
  listRuns,
  parseResultsText,
  readResults,
  ResultsWriter,
  surveyRuns,
  writeManifest,
  type ResultsIo,
} from '../../../engine/src/results/resultsStore';

const root = mkdtempSync(join(tmpdir(), 'results-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

function cell(id: string, status: 'ok' | 'failed' = 'ok'): CellResult {
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
  };
}

function manifest(runId: string, ids: string[]): RunManifest {
  return {
    kind: 'manifest',
    formatVersion: 1,
    runId,
    createdAt: new Date().toISOString(),
    plan: {},
    cells: ids.map((id) => ({ id, key: cell(id).key })),
  };
}

/** Real files, but writes fail with ENOSPC after `budget` successful appends. */
function diskFullAfter(budget: number): ResultsIo {
  return faultyResultsIo(
    (_path, handle) =>
      (async (data: Buffer | string) => {
        if (budget-- <= 0) {
          // a torn write: half the line reaches the disk, then the disk is full
          if (typeof data === 'string') await handle.write(data.slice(0, 10));
          else await handle.write(data.subarray(0, 10));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }
        return handle.write(data as Buffer);
      }) as typeof handle.write,
  );
}

describe('results store', () => {
  it('appends one synced line per cell and reads them back', async () => {
    const runDir = await createRunDir(root, 'append');
    const writer = await ResultsWriter.open(runDir);
    await writer.append(cell('a'));
    await writer.append(cell('b', 'failed'));
    await writer.close();
    const lines = readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n');
    assert.equal(lines.length, 3);
    assert.equal(JSON.parse(lines[1]).status, 'failed');
    const read = await readResults(runDir);
    assert.deepEqual(
      read.results.map((result) => result.id),
      ['a', 'b'],
    );
    assert.equal(read.tornTail, false);
  });

  it('skips a torn last line when reading and trims it before appending again', async () => {
    const runDir = await createRunDir(root, 'torn');
    writeFileSync(join(runDir, 'results.jsonl'), JSON.stringify(cell('a')) + '\n' + '{"kind":"cell","id":"b","ke');
    const read = await readResults(runDir);
    assert.deepEqual(
      read.results.map((result) => result.id),
      ['a'],
    );
    assert.equal(read.tornTail, true);
    const writer = await ResultsWriter.open(runDir);
    await writer.append(cell('b'));
    await writer.close();
    const again = parseResultsText(readFileSync(join(runDir, 'results.jsonl'), 'utf8'));
    assert.deepEqual(
      again.results.map((result) => result.id),
      ['a', 'b'],
    );
    assert.equal(again.skippedLines, 0);
  });

  it('a full disk gives a results-write error and leaves earlier lines intact', async () => {
    const runDir = await createRunDir(root, 'full');
    const writer = await ResultsWriter.open(runDir, diskFullAfter(1));
    await writer.append(cell('a'));
    await assert.rejects(writer.append(cell('b')), (error: unknown) => {
      assert.ok(error instanceof EngineFailure);
      assert.equal(error.error.code, 'results-write');
      assert.match(error.error.message, /disk is full/);
      assert.match(error.error.action, /Free space.*resume/);
      return true;
    });
    await writer.close();
    const text = readFileSync(join(runDir, 'results.jsonl'), 'utf8');
    assert.equal(text, JSON.stringify(cell('a')) + '\n', 'the torn half line was trimmed');
  });

  it('replaces the manifest atomically and leaves no temporary file', async () => {
    const runDir = await createRunDir(root, 'manifest');
    await writeManifest(runDir, manifest('m', ['a']));
    await writeManifest(runDir, manifest('m', ['a', 'b']));
    assert.equal(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).cells.length, 2);
    await assert.rejects(writeManifest(runDir, manifest('m', ['x']), diskFullAfter(0)), /disk is full/);
    assert.equal(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).cells.length, 2, 'old manifest kept');
    assert.deepEqual(
      readdirSync(runDir).filter((name) => name.includes('.tmp')),
      [],
    );
  });

  it('lists runs with their progress, newest first, ignoring stray folders', async () => {
    const listRoot = join(root, 'list');
    const first = await createRunDir(listRoot, 'one');
    await writeManifest(first, { ...manifest('one', ['a', 'b']), createdAt: '2026-01-01T00:00:00Z' });
    appendFileSync(join(first, 'results.jsonl'), JSON.stringify(cell('a')) + '\n');
    const second = await createRunDir(listRoot, 'two');
    await writeManifest(second, { ...manifest('two', ['a']), createdAt: '2026-02-01T00:00:00Z' });
    appendFileSync(join(second, 'results.jsonl'), JSON.stringify(cell('a', 'failed')) + '\n');
    await createRunDir(listRoot, 'empty');
    const runs = await listRuns(listRoot);
    assert.deepEqual(
      runs.map((run) => [run.manifest.runId, run.done, run.total, run.finished]),
      [
        ['two', 1, 1, true],
        ['one', 1, 2, false],
      ],
    );
  });

  it('a damaged manifest (no createdAt, not JSON, not a manifest) never breaks the listing of the others', async () => {
    const listRoot = join(root, 'damaged');
    const good = await createRunDir(listRoot, 'good');
    await writeManifest(good, { ...manifest('good', ['a', 'b']), createdAt: '2026-01-01T00:00:00Z' });
    const noDate = await createRunDir(listRoot, 'no-date');
    const { createdAt: _dropped, ...withoutDate } = manifest('no-date', ['a']);
    writeFileSync(join(noDate, 'manifest.json'), JSON.stringify(withoutDate));
    const notJson = await createRunDir(listRoot, 'not-json');
    writeFileSync(join(notJson, 'manifest.json'), '{"kind": "manif');
    const notManifest = await createRunDir(listRoot, 'not-manifest');
    writeFileSync(join(notManifest, 'manifest.json'), '{"kind": "manifest", "cells": null}');
    const runs = await listRuns(listRoot);
    assert.deepEqual(
      runs.map((run) => [run.manifest.runId, run.manifest.createdAt]),
      [
        ['good', '2026-01-01T00:00:00Z'],
        ['no-date', ''],
      ],
    );
    const survey = await surveyRuns(listRoot);
    const problems = survey.damaged.map((entry) => `${entry.runDir.split('/').pop()}: ${entry.problem}`).sort();
    assert.equal(problems.length, 3);
    assert.match(
      problems[0]!,
      /^no-date-?\d*: manifest\.json: The manifest has no start time \(createdAt\)\. \(listed anyway\)$/,
    );
    assert.match(problems[1]!, /^not-json: .*manifest\.json is not valid JSON/);
    assert.match(problems[2]!, /^not-manifest: .*manifest\.json is not a run manifest \(no "cells" list\)/);
  });

  it('never reuses a run folder', async () => {
    const a = await createRunDir(root, 'same');
    const b = await createRunDir(root, 'same');
    assert.notEqual(a, b);
  });
});
