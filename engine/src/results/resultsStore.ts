// The run folder on disk: `manifest.json` (replaced atomically), `results.jsonl` (one CellResult
// per line, appended and fsynced, so a crash can at worst leave a torn last line, which readers
// skip and the next writer trims), and `logs/`. A failed write (disk full, I/O error) stops the
// sweep with a clear error and leaves everything already written intact.
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, readdir, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative as relativePath, resolve } from 'node:path';
import { EngineFailure } from '../errors';
import { parseManifest, readManifestText } from './manifestReader';
import type { CellResult, RunManifest } from '../model';
import { normaliseCellResult, parseResultLines, readResultLines, type ResultLines } from './resultsReader';

export const manifestFile = 'manifest.json';
export const resultsFile = 'results.jsonl';
export const logsDir = 'logs';

/** Low-level writes, injectable so tests can simulate a full disk. */
export interface ResultsIo {
  open(path: string, flags: string): Promise<Pick<FileHandle, 'write' | 'sync' | 'close' | 'truncate' | 'stat'>>;
}
export const realIo: ResultsIo = { open: (path, flags) => open(path, flags) };

/** Why a write failed and what to do, by cause: each has a different remedy. */
export function writeFailureCause(error: unknown): { reason: string; action: string } {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return { reason: code === 'ENOSPC' ? 'the disk is full' : 'the disk quota is exhausted', action: 'Free space on the results disk (or choose another results folder), then resume the run.' };
    case 'EROFS':
    case 'EACCES':
    case 'EPERM':
      return { reason: code === 'EROFS' ? 'the file system is read-only' : 'permission denied', action: 'Choose a results folder you can write to (onloadBench.resultsFolder, CLI --results), or fix its permissions, then resume the run.' };
    case 'ENAMETOOLONG':
      return { reason: 'a file name is too long for the file system', action: 'Choose a results folder with a shorter path; report the name if it persists (log folders are named by a short hash).' };
    case 'EIO':
      return { reason: 'an I/O error occurred', action: 'Check the results disk (dmesg), then resume the run.' };
    default:
      return { reason: (error as Error)?.message ?? String(error), action: 'Check the results folder, then resume the run.' };
  }
}

export function writeFailure(path: string, error: unknown): EngineFailure {
  const { reason, action } = writeFailureCause(error);
  return new EngineFailure({
    code: 'results-write',
    step: 'write-results',
    message: `Could not write ${path}: ${reason}. Results already written are intact.`,
    action,
  }, { cause: error });
}

/** Writes a file so readers see either the old or the new content: tmp + fsync + rename + dir fsync. */
export async function writeFileAtomic(path: string, content: string, io: ResultsIo = realIo): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    const handle = await io.open(temporary, 'w');
    try {
      await handle.write(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    await syncDirectory(dirname(path));
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw writeFailure(path, error);
  }
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, fsConstants.O_RDONLY).catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // some file systems refuse fsync on directories; the rename is still atomic
  } finally {
    await handle.close();
  }
}

/** `20261202-140512-cookbook`: sortable, readable, unique enough with a suffix on collision. */
export function newRunId(planName: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${planName.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

export async function createRunDir(resultsRoot: string, runId: string): Promise<string> {
  try {
    await mkdir(resultsRoot, { recursive: true });
    for (let suffix = 0; ; suffix++) {
      const runDir = join(resultsRoot, suffix === 0 ? runId : `${runId}-${suffix + 1}`);
      try {
        await mkdir(runDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      await mkdir(join(runDir, logsDir));
      return runDir;
    }
  } catch (error) {
    throw writeFailure(resultsRoot, error);
  }
}

export async function writeManifest(runDir: string, manifest: RunManifest, io: ResultsIo = realIo): Promise<void> {
  await writeFileAtomic(join(runDir, manifestFile), JSON.stringify(manifest, null, 2) + '\n', io);
}

/** The manifest of a run to resume or list; a damaged one is an error naming the reason. */
export async function readManifest(runDir: string, problems: string[] = []): Promise<RunManifest> {
  const path = join(runDir, manifestFile);
  const read = await readManifestText(path);
  if (!read.ok) {
    throw new EngineFailure({ code: 'results-read', step: 'resume', message: `Cannot read ${path}: ${read.reason}.`, action: 'Pick a run folder that contains manifest.json, or start a new run.' });
  }
  const { manifest, reason } = parseManifest(read.text, problems);
  if (!manifest) {
    throw new EngineFailure({ code: 'results-read', step: 'resume', message: `${path} ${reason}.`, action: 'Pick another run folder or start a new run.' });
  }
  return manifest;
}

/** Reads results.jsonl as a stream (see resultsReader.ts for the one-line-per-id rule). */
export async function readResults(runDir: string): Promise<ResultLines> {
  return (await readResultLines(join(runDir, resultsFile))) ?? parseResultLines('');
}

export function parseResultsText(text: string): ResultLines {
  return parseResultLines(text);
}

/** The append-only results file of one run. */
export class ResultsWriter {
  private constructor(
    private readonly path: string,
    private readonly handle: Pick<FileHandle, 'write' | 'sync' | 'close' | 'truncate' | 'stat'>,
    private size: number,
  ) {}

  /**
   * Opens for appending. A last line without its newline is a crash during the write: when it
   * parses as a whole cell result only the newline is missing and is added; otherwise the torn
   * line is trimmed (readers have skipped it, and the cell runs again).
   */
  static async open(runDir: string, io: ResultsIo = realIo): Promise<ResultsWriter> {
    const path = join(runDir, resultsFile);
    try {
      const handle = await io.open(path, 'a+');
      let size = (await handle.stat()).size;
      const tail = size > 0 ? await lastLine(path, size) : undefined;
      if (tail !== undefined && !tail.terminated) {
        if (isWholeResult(tail.text)) {
          await handle.write('\n');
          size += 1;
        } else {
          await handle.truncate(tail.start);
          size = tail.start;
        }
        await handle.sync();
      }
      return new ResultsWriter(path, handle, size);
    } catch (error) {
      throw writeFailure(path, error);
    }
  }

  /** Appends one line and fsyncs; on failure trims back so the file stays whole, then throws. */
  async append(result: CellResult): Promise<void> {
    const line = Buffer.from(JSON.stringify(result) + '\n');
    try {
      await this.handle.write(line);
      await this.handle.sync();
      this.size += line.length;
    } catch (error) {
      await this.handle.truncate(this.size).catch(() => undefined);
      throw writeFailure(this.path, error);
    }
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** The last line of a file (read backwards in chunks, never the whole file). */
async function lastLine(path: string, size: number): Promise<{ text: string; start: number; terminated: boolean }> {
  const handle = await open(path, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    const terminated = last[0] === 0x0a;
    const end = terminated ? size - 1 : size;
    const pieces: Buffer[] = [];
    let position = end;
    const chunkSize = 64 * 1024;
    while (position > 0) {
      const length = Math.min(chunkSize, position);
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position - length);
      const newline = chunk.lastIndexOf(0x0a);
      if (newline >= 0) {
        pieces.unshift(chunk.subarray(newline + 1));
        position = position - length + newline + 1;
        break;
      }
      pieces.unshift(chunk);
      position -= length;
    }
    return { text: Buffer.concat(pieces).toString('utf8'), start: position, terminated };
  } finally {
    await handle.close();
  }
}

function isWholeResult(line: string): boolean {
  try {
    const value = JSON.parse(line) as { kind?: unknown };
    return value?.kind === 'cell' && normaliseCellResult(value);
  } catch {
    return false;
  }
}

export interface RunSummary {
  runDir: string;
  manifest: RunManifest;
  /** Cells with a result line (ok or failed). */
  done: number;
  total: number;
  /** Every cell has a result. */
  finished: boolean;
}

/** A folder under the results root that looks like a run but cannot be used, and why. */
export interface DamagedRun {
  runDir: string;
  problem: string;
}

/** The run folders under resultsRoot, newest first, for "resume?" offers. Folders that are not runs are skipped. */
export async function listRuns(resultsRoot: string): Promise<RunSummary[]> {
  return (await surveyRuns(resultsRoot)).runs;
}

/**
 * listRuns with what it met on the way: a run whose manifest is damaged is skipped (or listed with
 * its problem, when only a field readers can do without is broken) and never stops the listing of
 * the others. A folder with neither manifest.json nor results.jsonl is not a run and is not named.
 */
export async function surveyRuns(resultsRoot: string): Promise<{ runs: RunSummary[]; damaged: DamagedRun[] }> {
  let names: string[];
  try {
    names = await readdir(resultsRoot);
  } catch {
    return { runs: [], damaged: [] };
  }
  const runs: RunSummary[] = [];
  const damaged: DamagedRun[] = [];
  for (const name of names) {
    const runDir = join(resultsRoot, name);
    try {
      if (!(await stat(runDir)).isDirectory()) continue;
    } catch {
      continue;
    }
    const problems: string[] = [];
    let manifest: RunManifest;
    try {
      manifest = await readManifest(runDir, problems);
    } catch (error) {
      const missing = await stat(join(runDir, manifestFile)).then(() => false, () => true);
      const hasResults = await stat(join(runDir, resultsFile)).then(() => true, () => false);
      if (!missing || hasResults) damaged.push({ runDir, problem: error instanceof EngineFailure ? error.error.message : (error as Error).message });
      continue;
    }
    try {
      const { results } = await readResults(runDir);
      const wanted = new Set(manifest.cells.map((cell) => cell.id));
      const done = new Set(results.map((result) => result.id).filter((id) => wanted.has(id))).size;
      runs.push({ runDir, manifest, done, total: manifest.cells.length, finished: done >= manifest.cells.length });
      for (const problem of problems) damaged.push({ runDir, problem: `${manifestFile}: ${problem} (listed anyway)` });
    } catch (error) {
      damaged.push({ runDir, problem: `Cannot read ${join(runDir, resultsFile)}: ${(error as Error).message}` });
    }
  }
  return { runs: runs.sort(newestFirst), damaged };
}

/** Newest first by start time; runs without one go last. */
export function newestFirst(a: RunSummary, b: RunSummary): number {
  return String(b.manifest.createdAt ?? '').localeCompare(String(a.manifest.createdAt ?? ''));
}

/**
 * Writes one raw log file under logs/; returns its path relative to the run folder. The path is
 * resolved and must stay inside logs/ (cell ids come from a manifest anyone can edit).
 */
export async function writeLog(runDir: string, relative: string, content: string, io: ResultsIo = realIo): Promise<string> {
  const logsRoot = resolve(runDir, logsDir);
  const path = resolve(logsRoot, relative);
  const inside = relativePath(logsRoot, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new EngineFailure({ code: 'results-write', step: 'write-results', message: `Refused to write the log ${JSON.stringify(relative)}: it resolves outside ${logsRoot}.`, action: 'Start a new run; this run folder was edited by hand.' });
  }
  try {
    await mkdir(dirname(path), { recursive: true });
    // a symlinked folder planted in logs/ must not carry the write elsewhere; nor a planted file link
    const realFolder = relativePath(await realpath(runDir), await realpath(dirname(path)));
    if (realFolder.startsWith('..') || isAbsolute(realFolder)) throw Object.assign(new Error(`${dirname(path)} leads outside the run folder (symlink)`), { code: 'ELOOP' });
    await rm(path, { force: true });
    const handle = await io.open(path, 'wx');
    try {
      await handle.write(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw writeFailure(path, error);
  }
  return join(logsDir, inside);
}
