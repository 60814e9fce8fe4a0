// Reads a run folder back for reports: `manifest.json` + `results.jsonl`. Tolerant by design: a
// torn last line (the sweep is writing it, or crashed while writing it), a damaged line or a
// missing manifest each become a warning, and every whole line is still read.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CellResult, EngineError, RunManifest } from './model';
import { resultsFormatVersion } from './model';
import { manifestFile, resultsFile } from './resultsStore';

export interface RunContents {
  /** The run folder. */
  runDir: string;
  manifest?: RunManifest;
  /** One result per cell id, in file order; a later line for the same id replaces an earlier one. */
  results: CellResult[];
  /** What was skipped or odd, worded for a user. */
  warnings: string[];
}

export type ReadRunResult = ({ ok: true } & RunContents) | { ok: false; error: EngineError };

/** Reads a run folder, or a `results.jsonl` / `manifest.json` path inside one. */
export async function readRunFolder(path: string): Promise<ReadRunResult> {
  let runDir = path;
  try {
    if (!(await stat(path)).isDirectory()) runDir = dirname(path);
  } catch (error) {
    return { ok: false, error: readError(`Cannot open ${path}: ${(error as Error).message}.`, 'Give the path of a run folder (it holds manifest.json and results.jsonl) or of its results.jsonl.') };
  }
  const resultsPath = runDir !== path && basename(path) !== manifestFile ? path : join(runDir, resultsFile);
  const manifestText = await readOptional(join(runDir, manifestFile));
  const resultsText = await readOptional(resultsPath);
  if (manifestText instanceof Error || resultsText instanceof Error) {
    const failure = (manifestText instanceof Error ? manifestText : resultsText) as Error;
    return { ok: false, error: readError(`Cannot read ${runDir}: ${failure.message}.`, 'Check the permissions of the run folder.') };
  }
  if (manifestText === undefined && resultsText === undefined) {
    return { ok: false, error: readError(`${runDir} holds neither ${manifestFile} nor ${resultsFile}.`, 'Give the path of a run folder written by `onload-bench run` or the extension.') };
  }
  return { ok: true, ...parseRunFiles(runDir, manifestText, resultsText ?? '', basename(resultsPath)) };
}

/** The pure part of readRunFolder: both files' texts in, the run's contents out. */
export function parseRunFiles(runDir: string, manifestText: string | undefined, resultsText: string, resultsName = resultsFile): RunContents {
  const warnings: string[] = [];
  const manifest = manifestText === undefined ? undefined : parseManifestText(manifestText, warnings);
  if (manifestText === undefined) warnings.push(`No ${manifestFile} in ${runDir}: cells that have not run yet cannot be shown.`);
  const results = parseResultsJsonl(resultsText, warnings, resultsName);
  if (manifest) {
    const planned = new Set(manifest.cells.map((cell) => cell.id));
    const unplanned = results.filter((result) => !planned.has(result.id)).length;
    if (unplanned > 0) warnings.push(`${unplanned} result(s) belong to cells that are not in the manifest; they are shown anyway.`);
  }
  return { runDir, manifest, results, warnings };
}

export function parseManifestText(text: string, warnings: string[]): RunManifest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    warnings.push(`${manifestFile} is not valid JSON (${(error as Error).message}); results are shown without it.`);
    return undefined;
  }
  const manifest = value as RunManifest;
  if (typeof value !== 'object' || value === null || manifest.kind !== 'manifest' || !Array.isArray(manifest.cells)) {
    warnings.push(`${manifestFile} is not a run manifest; results are shown without it.`);
    return undefined;
  }
  if (typeof manifest.formatVersion === 'number' && manifest.formatVersion > resultsFormatVersion) {
    warnings.push(`${manifestFile} has format version ${manifest.formatVersion}, newer than this tool reads (${resultsFormatVersion}); some fields may be missing.`);
  }
  manifest.cells = manifest.cells.filter((cell) => typeof cell?.id === 'string' && isCellKey(cell.key));
  return manifest;
}

/** One CellResult per line; bad lines are skipped with a warning naming the line. */
export function parseResultsJsonl(text: string, warnings: string[], name = resultsFile): CellResult[] {
  const byId = new Map<string, CellResult>();
  const lines = text.split('\n');
  let replaced = 0;
  lines.forEach((rawLine, index) => {
    const line = rawLine.replace(/\r$/, '');
    if (line.trim() === '') return;
    const isLast = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warnings.push(
        isLast
          ? `The last line of ${name} is incomplete (the run was still writing it or was interrupted); it was ignored and every earlier line was read.`
          : `Line ${index + 1} of ${name} is not valid JSON; skipped.`,
      );
      return;
    }
    if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== 'cell') return; // other record kinds: not for reports
    if (!isCellResult(value)) {
      warnings.push(`Line ${index + 1} of ${name} is not a complete cell result; skipped.`);
      return;
    }
    if (byId.has(value.id)) {
      replaced += 1;
      byId.delete(value.id); // keep file order of the latest line
    }
    byId.set(value.id, value);
  });
  if (replaced > 0) warnings.push(`${replaced} cell(s) appear more than once in ${name}; the last line of each was used.`);
  return [...byId.values()];
}

function isCellKey(value: unknown): value is CellResult['key'] {
  const key = value as CellResult['key'];
  return (
    typeof value === 'object' && value !== null && typeof key.interface === 'string' && typeof key.stack === 'string' &&
    typeof key.threads === 'number' && typeof key.repetition === 'number'
  );
}

function isCellResult(value: unknown): value is CellResult {
  const cell = value as CellResult;
  if (typeof cell.id !== 'string' || !isCellKey(cell.key)) return false;
  if (cell.status !== 'ok' && cell.status !== 'failed') return false;
  if (typeof cell.key.axes !== 'object' || cell.key.axes === null) cell.key.axes = {};
  if (!Array.isArray(cell.logs)) cell.logs = [];
  return cell.run === undefined || (typeof cell.run === 'object' && cell.run !== null && typeof cell.run.operations === 'object');
}

async function readOptional(path: string): Promise<string | undefined | Error> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : (error as Error);
  }
}

function readError(message: string, action: string): EngineError {
  return { code: 'results-read', step: 'read-results', message, action };
}
