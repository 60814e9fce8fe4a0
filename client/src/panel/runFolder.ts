// Reads a run folder for the panel. Until the engine's own reader (engine/src/resultsFile.ts)
// exists this is a small tolerant reader of `manifest.json` + `results.jsonl`: a torn last line
// (the engine is still writing it) or a damaged line becomes a warning, never a lost panel.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import { resultsFormatVersion } from '../../../engine/src/model';
import { runDataFromFiles, type RunData } from './runData';

export const manifestFileName = 'manifest.json';
export const resultsFileName = 'results.jsonl';

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isCellResult(value: unknown): value is CellResult {
  const cell = value as CellResult;
  return (
    typeof value === 'object' && value !== null && cell.kind === 'cell' && typeof cell.id === 'string' &&
    typeof cell.key === 'object' && cell.key !== null && typeof cell.key.stack === 'string' &&
    typeof cell.key.threads === 'number' && (cell.status === 'ok' || cell.status === 'failed')
  );
}

/** Parses the text of results.jsonl: good lines become results, others warnings. */
export function parseResultsLines(text: string): { results: CellResult[]; warnings: string[] } {
  const results: CellResult[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const isLast = index === lines.length - 1;
    try {
      const value: unknown = JSON.parse(line);
      if (isCellResult(value)) results.push(value);
      else warnings.push(`${resultsFileName} line ${index + 1} is not a cell result; skipped.`);
    } catch {
      // The engine appends whole lines; an unterminated last line is one being written right now.
      if (!isLast) warnings.push(`${resultsFileName} line ${index + 1} is not valid JSON; skipped.`);
    }
  });
  return { results, warnings };
}

/** Parses manifest.json text; undefined (with a warning) when it is not a manifest. */
export function parseManifest(text: string, warnings: string[]): RunManifest | undefined {
  try {
    const value = JSON.parse(text) as RunManifest;
    if (value?.kind !== 'manifest' || !Array.isArray(value.cells)) {
      warnings.push(`${manifestFileName} is not a run manifest; showing results only.`);
      return undefined;
    }
    if (value.formatVersion > resultsFormatVersion) {
      warnings.push(`${manifestFileName} has format version ${value.formatVersion}, newer than this extension reads (${resultsFormatVersion}); some fields may be missing.`);
    }
    return value;
  } catch {
    warnings.push(`${manifestFileName} is not valid JSON; showing results only.`);
    return undefined;
  }
}

export async function loadRunFolder(runDir: string): Promise<RunData> {
  const warnings: string[] = [];
  const manifestText = await readOptional(join(runDir, manifestFileName));
  const manifest = manifestText === undefined ? undefined : parseManifest(manifestText, warnings);
  if (manifestText === undefined) warnings.push(`No ${manifestFileName} in ${runDir} (yet).`);
  const resultsText = await readOptional(join(runDir, resultsFileName));
  const parsed = parseResultsLines(resultsText ?? '');
  return runDataFromFiles(runDir, manifest, parsed.results, [...warnings, ...parsed.warnings]);
}
