// The run folder on disk: `manifest.json` (replaced atomically), `results.jsonl` (one CellResult
// per line, appended and fsynced, so a crash can at worst leave a torn last line, which readers
// skip and the next writer trims), and `logs/`. A failed write (disk full, I/O error) stops the
// sweep with a clear error and leaves everything already written intact: an append that the disk
// took only in part (a short write) or not at all is cut back to the last whole line before the
// failure is reported, so a cell counts as done only once its whole line is on disk. A run folder
// can come from anyone: every file is opened without following a link (runFolderFiles.ts), so a
// planted symlink never carries a write, a truncation or a log outside the folder.
import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { EngineFailure } from '../errors';
import { parseManifest, readManifestText } from './manifestReader';
import type { CellResult, RunManifest } from '../model';
import {
  maxLineBytes,
  normaliseCellResult,
  parseResultLines,
  readResultLines,
  type ResultLines,
} from './resultsReader';
import {
  appendFlags,
  checkRunFolder,
  createFlags,
  insideFolder,
  makeFoldersWithoutLinks,
  openRegular,
  readFailureAction,
} from './runFolderFiles';

export const manifestFile = 'manifest.json';
export const resultsFile = 'results.jsonl';
const logsDir = 'logs';

/** What the writers use of an open file. */
export type ResultsHandle = Pick<FileHandle, 'write' | 'sync' | 'close' | 'truncate' | 'stat' | 'read'>;

/** Low-level writes, injectable so tests can simulate a full disk. Flags are runFolderFiles.ts' numbers. */
export interface ResultsIo {
  open(path: string, flags: number): Promise<ResultsHandle>;
}
export const realIo: ResultsIo = { open: (path, flags) => open(path, flags, 0o644) };

/** Why a write failed and what to do, by cause: each has a different remedy. */
function writeFailureCause(error: unknown): { reason: string; action: string } {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return {
        reason: code === 'ENOSPC' ? 'the disk is full' : 'the disk quota is exhausted',
        action: 'Free space on the results disk (or choose another results folder), then resume the run.',
      };
    case 'EROFS':
    case 'EACCES':
    case 'EPERM':
      return {
        reason: code === 'EROFS' ? 'the file system is read-only' : 'permission denied',
        action:
          'Choose a results folder you can write to (onloadBench.resultsFolder, CLI --results), or fix its permissions, then resume the run.',
      };
    case 'ENAMETOOLONG':
      return {
        reason: 'a file name is too long for the file system',
        action:
          'Choose a results folder with a shorter path; report the name if it persists (log folders are named by a short hash).',
      };
    case 'EIO':
      return { reason: 'an I/O error occurred', action: 'Check the results disk (dmesg), then resume the run.' };
    case 'ELOOP':
    case 'ENOTREG':
    case 'ENOTDIR':
      return {
        reason: (error as Error).message,
        action:
          'Start a new run (or restore the run folder): a run folder holds only its own regular files and folders, never links or special files.',
      };
    default:
      return {
        reason: (error as Error)?.message ?? String(error),
        action: 'Check the results folder, then resume the run.',
      };
  }
}

function writeFailure(path: string, error: unknown): EngineFailure {
  const { reason, action } = writeFailureCause(error);
  return new EngineFailure(
    {
      code: 'results-write',
      step: 'write-results',
      message: `Could not write ${path}: ${reason}. Results already written are intact.`,
      action,
    },
    { cause: error },
  );
}

/**
 * Writes a file so readers see either the old or the new content: tmp + fsync + rename + dir fsync.
 * The temporary has a random name and is created new (O_EXCL, no link followed); the rename
 * replaces whatever is at `path`, a planted link included, without writing through it.
 */
async function writeFileAtomic(path: string, content: string, io: ResultsIo = realIo): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    const handle = await io.open(temporary, createFlags);
    try {
      await writeWhole(handle, Buffer.from(content));
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

/**
 * The manifest of a run to resume or list; a damaged one (or a run folder that is a link) is an error naming the
 * reason.
 */
export async function readManifest(runDir: string, problems: string[] = []): Promise<RunManifest> {
  const path = join(runDir, manifestFile);
  try {
    await checkRunFolder(runDir);
  } catch (error) {
    throw new EngineFailure({
      code: 'results-read',
      step: 'resume',
      message: `Cannot use ${runDir}: ${(error as Error).message}.`,
      action: 'Pick the run folder itself (not a link to it), or start a new run.',
    });
  }
  const read = await readManifestText(path);
  if (!read.ok) {
    throw new EngineFailure({
      code: 'results-read',
      step: 'resume',
      message: `Cannot read ${path}: ${read.reason}.`,
      action: 'Pick a run folder that contains manifest.json, or start a new run.',
    });
  }
  const { manifest, reason } = parseManifest(read.text, problems);
  if (!manifest) {
    throw new EngineFailure({
      code: 'results-read',
      step: 'resume',
      message: `${path} ${reason}.`,
      action: 'Pick another run folder or start a new run.',
    });
  }
  return manifest;
}

/**
 * Reads results.jsonl as a stream (see resultsReader.ts for the one-line-per-id rule); an unreadable one is a
 * `results-read` failure.
 */
export async function readResults(runDir: string): Promise<ResultLines> {
  const path = join(runDir, resultsFile);
  try {
    return (await readResultLines(path)) ?? parseResultLines('');
  } catch (error) {
    throw new EngineFailure(
      {
        code: 'results-read',
        step: 'read-results',
        message: `Cannot read ${path}: ${(error as Error).message}.`,
        action: readFailureAction(error),
      },
      { cause: error },
    );
  }
}

export function parseResultsText(text: string): ResultLines {
  return parseResultLines(text);
}

/**
 * Writes all of `data` at the end of the file: a write the disk takes only in part (a nearly full
 * disk) is continued, and one that takes nothing is the disk being full, never a success.
 */
async function writeWhole(handle: Pick<ResultsHandle, 'write'>, data: Buffer): Promise<void> {
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await handle.write(data, written, data.length - written);
    if (!(bytesWritten > 0))
      throw Object.assign(new Error(`only ${written} of ${data.length} bytes could be written`), { code: 'ENOSPC' });
    written += bytesWritten;
  }
}

/** The append-only results file of one run. */
export class ResultsWriter {
  private constructor(
    private readonly path: string,
    private readonly handle: ResultsHandle,
    /** Bytes of whole lines: where the file is cut back to when an append fails. */
    private size: number,
  ) {}

  /**
   * Opens for appending: a regular file, never through a link. A last line without its newline is
   * a crash during the write: when it parses as a whole cell result only the newline is missing
   * and is added; otherwise the torn line is trimmed (readers have skipped it, and the cell runs again).
   */
  static async open(runDir: string, io: ResultsIo = realIo): Promise<ResultsWriter> {
    const path = join(runDir, resultsFile);
    try {
      const handle = await openRegular(path, appendFlags, io.open);
      let size = (await handle.stat()).size;
      const tail = size > 0 ? await lastLine(handle, size) : undefined;
      if (tail !== undefined && !tail.terminated) {
        if (tail.text !== undefined && isWholeResult(tail.text)) {
          await writeWhole(handle, Buffer.from('\n'));
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

  /**
   * Appends one line and fsyncs. On any failure, a short write included, the file is cut back to
   * its last whole line (and synced) before the failure is thrown: the caller reports the cell
   * done only when this returns.
   */
  async append(result: CellResult): Promise<void> {
    const line = Buffer.from(JSON.stringify(result) + '\n');
    try {
      await writeWhole(this.handle, line);
      await this.handle.sync();
      this.size += line.length;
    } catch (error) {
      await this.handle
        .truncate(this.size)
        .then(() => this.handle.sync())
        .catch(() => undefined);
      throw writeFailure(this.path, error);
    }
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/**
 * The last line of a file, read backwards in chunks through the open handle, never the whole
 * file: a last line longer than maxLineBytes is not kept (`text` undefined), only where it starts.
 */
async function lastLine(
  handle: Pick<ResultsHandle, 'read'>,
  size: number,
): Promise<{ text?: string; start: number; terminated: boolean }> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  const terminated = last[0] === 0x0a;
  const end = terminated ? size - 1 : size;
  const pieces: Buffer[] = [];
  let kept = 0;
  let position = end;
  const chunkSize = 64 * 1024;
  while (position > 0) {
    const length = Math.min(chunkSize, position);
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, position - length);
    const newline = chunk.lastIndexOf(0x0a);
    const piece = newline >= 0 ? chunk.subarray(newline + 1) : chunk;
    if (kept + piece.length <= maxLineBytes) pieces.unshift(piece);
    kept += piece.length;
    if (newline >= 0) {
      position = position - length + newline + 1;
      break;
    }
    position -= length;
  }
  return {
    ...(kept <= maxLineBytes ? { text: Buffer.concat(pieces).toString('utf8') } : {}),
    start: position,
    terminated,
  };
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
      // a link is never followed: a folder shipped elsewhere must not be offered (or resumed) as this run
      if (!(await lstat(runDir)).isDirectory()) continue;
    } catch {
      continue;
    }
    const problems: string[] = [];
    let manifest: RunManifest;
    try {
      manifest = await readManifest(runDir, problems);
    } catch (error) {
      const missing = await lstat(join(runDir, manifestFile)).then(
        () => false,
        () => true,
      );
      const hasResults = await lstat(join(runDir, resultsFile)).then(
        () => true,
        () => false,
      );
      if (!missing || hasResults)
        damaged.push({
          runDir,
          problem: error instanceof EngineFailure ? error.error.message : (error as Error).message,
        });
      continue;
    }
    try {
      const { results } = await readResults(runDir);
      const wanted = new Set(manifest.cells.map((cell) => cell.id));
      const done = new Set(results.map((result) => result.id).filter((id) => wanted.has(id))).size;
      runs.push({ runDir, manifest, done, total: manifest.cells.length, finished: done >= manifest.cells.length });
      for (const problem of problems) damaged.push({ runDir, problem: `${manifestFile}: ${problem} (listed anyway)` });
    } catch (error) {
      damaged.push({
        runDir,
        problem:
          error instanceof EngineFailure
            ? error.error.message
            : `Cannot read ${join(runDir, resultsFile)}: ${(error as Error).message}`,
      });
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
 * resolved and must stay inside logs/ (cell ids come from a manifest anyone can edit); logs/ and
 * every folder below it must be real folders (a link planted anywhere on the way is refused before
 * anything is made through it), and the file is created new, never written through a link.
 */
export async function writeLog(
  runDir: string,
  relative: string,
  content: string,
  io: ResultsIo = realIo,
): Promise<string> {
  const logsRoot = resolve(runDir, logsDir);
  const inside = insideFolder(logsRoot, relative);
  if (!inside) {
    throw new EngineFailure({
      code: 'results-write',
      step: 'write-results',
      message: `Refused to write the log ${JSON.stringify(relative)}: it resolves outside ${logsRoot}.`,
      action: 'Start a new run; this run folder was edited by hand.',
    });
  }
  const { path, parts } = inside;
  try {
    await makeFoldersWithoutLinks(logsRoot, parts);
    await rm(path, { force: true }); // a file (or link) of that name goes; nothing is written through it
    const handle = await io.open(path, createFlags);
    try {
      await writeWhole(handle, Buffer.from(content));
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw writeFailure(path, error);
  }
  return join(logsDir, ...parts);
}
