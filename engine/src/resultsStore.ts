// The run folder on disk: `manifest.json` (replaced atomically), `results.jsonl` (one CellResult
// per line, appended and fsynced, so a crash can at worst leave a torn last line, which readers
// skip and the next writer trims), and `logs/`. A failed write (disk full, I/O error) stops the
// sweep with a clear error and leaves everything already written intact.
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EngineFailure } from './errors';
import type { CellResult, RunManifest } from './model';

export const manifestFile = 'manifest.json';
export const resultsFile = 'results.jsonl';
export const logsDir = 'logs';

/** Low-level writes, injectable so tests can simulate a full disk. */
export interface ResultsIo {
  open(path: string, flags: string): Promise<Pick<FileHandle, 'write' | 'sync' | 'close' | 'truncate' | 'stat'>>;
}
export const realIo: ResultsIo = { open: (path, flags) => open(path, flags) };

export function writeFailure(path: string, error: unknown): EngineFailure {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'ENOSPC' ? 'the disk is full' : code === 'EDQUOT' ? 'the disk quota is exhausted' : code === 'EIO' ? 'an I/O error occurred' : code === 'EROFS' ? 'the file system is read-only' : (error as Error)?.message ?? String(error);
  return new EngineFailure({
    code: 'results-write',
    step: 'write-results',
    message: `Could not write ${path}: ${reason}. Results already written are intact.`,
    action: 'Free space on the results disk (or choose another results folder), then resume the run.',
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

export async function readManifest(runDir: string): Promise<RunManifest> {
  const path = join(runDir, manifestFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EngineFailure({ code: 'results-read', step: 'resume', message: `Cannot read ${path}: ${(error as Error).message}.`, action: 'Pick a run folder that contains manifest.json, or start a new run.' });
  }
  try {
    const manifest = JSON.parse(text) as RunManifest;
    if (manifest.kind !== 'manifest' || !Array.isArray(manifest.cells)) throw new Error('not a run manifest');
    return manifest;
  } catch (error) {
    throw new EngineFailure({ code: 'results-read', step: 'resume', message: `${path} is not a valid run manifest (${(error as Error).message}).`, action: 'Pick another run folder or start a new run.' });
  }
}

/** Reads results.jsonl; a torn (unterminated or unparsable) last line is reported, not fatal. */
export async function readResults(runDir: string): Promise<{ results: CellResult[]; tornTail: boolean; skippedLines: number }> {
  let text: string;
  try {
    text = await readFile(join(runDir, resultsFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { results: [], tornTail: false, skippedLines: 0 };
    throw error;
  }
  return parseResultsText(text);
}

export function parseResultsText(text: string): { results: CellResult[]; tornTail: boolean; skippedLines: number } {
  const results: CellResult[] = [];
  const lines = text.split('\n');
  const tornTail = lines[lines.length - 1] !== '';
  const complete = lines.slice(0, -1);
  let skippedLines = 0;
  for (const line of complete) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as CellResult;
      if (parsed.kind === 'cell' && typeof parsed.id === 'string') results.push(parsed);
      else skippedLines++;
    } catch {
      skippedLines++;
    }
  }
  return { results, tornTail, skippedLines };
}

/** The append-only results file of one run. */
export class ResultsWriter {
  private constructor(
    private readonly path: string,
    private readonly handle: Pick<FileHandle, 'write' | 'sync' | 'close' | 'truncate' | 'stat'>,
    private size: number,
  ) {}

  /** Opens for appending, first trimming a torn last line left by a crash. */
  static async open(runDir: string, io: ResultsIo = realIo): Promise<ResultsWriter> {
    const path = join(runDir, resultsFile);
    try {
      const handle = await io.open(path, 'a+');
      let size = (await handle.stat()).size;
      if (size > 0) {
        const text = await readFile(path, 'utf8');
        if (!text.endsWith('\n')) {
          const keep = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
          await handle.truncate(keep);
          await handle.sync();
          size = keep;
        }
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

export interface RunSummary {
  runDir: string;
  manifest: RunManifest;
  /** Cells with a result line (ok or failed). */
  done: number;
  total: number;
  /** Every cell has a result. */
  finished: boolean;
}

/** The run folders under resultsRoot, newest first, for "resume?" offers. Unreadable folders are skipped. */
export async function listRuns(resultsRoot: string): Promise<RunSummary[]> {
  let names: string[];
  try {
    names = await readdir(resultsRoot);
  } catch {
    return [];
  }
  const runs: RunSummary[] = [];
  for (const name of names) {
    const runDir = join(resultsRoot, name);
    try {
      if (!(await stat(runDir)).isDirectory()) continue;
      const manifest = await readManifest(runDir);
      const { results } = await readResults(runDir);
      const wanted = new Set(manifest.cells.map((cell) => cell.id));
      const done = new Set(results.map((result) => result.id).filter((id) => wanted.has(id))).size;
      runs.push({ runDir, manifest, done, total: manifest.cells.length, finished: done >= manifest.cells.length });
    } catch {
      continue;
    }
  }
  return runs.sort((a, b) => b.manifest.createdAt.localeCompare(a.manifest.createdAt));
}

/** Writes one raw log file under logs/; returns its path relative to the run folder. */
export async function writeLog(runDir: string, relative: string, content: string, io: ResultsIo = realIo): Promise<string> {
  const path = join(runDir, logsDir, relative);
  try {
    await mkdir(dirname(path), { recursive: true });
    const handle = await io.open(path, 'w');
    try {
      await handle.write(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw writeFailure(path, error);
  }
  return join(logsDir, relative);
}
