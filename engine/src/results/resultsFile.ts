// Reads a run folder back for reports and the results panel: `manifest.json` + `results.jsonl`.
// Tolerant by design: a torn last line (the sweep is writing it, or crashed while writing it), a
// damaged line or a missing or damaged manifest each become a warning, and every whole line is
// still read. Results are streamed (resultsReader.ts), so a file of any size is read. Both files
// are opened without following links and only as regular files (runFolderFiles.ts): a FIFO or a
// device in a run folder is named, never waited on or read without end.
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseManifest, readManifestText } from './manifestReader';
import type { CellResult, EngineError, RunManifest } from '../model';
import { resultsFormatVersion } from '../model';
import { parseResultLines, readResultLines, type ResultLines } from './resultsReader';
import { manifestFile, resultsFile } from './resultsStore';
import { readFailureAction } from './runFolderFiles';

export interface RunContents {
  /** The run folder. */
  runDir: string;
  manifest?: RunManifest;
  /** One result per cell id (an ok line wins over a failed one, else the first: resultsReader.ts), in file order. */
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
    return {
      ok: false,
      error: readError(
        `Cannot open ${path}: ${(error as Error).message}.`,
        'Give the path of a run folder (it holds manifest.json and results.jsonl) or of its results.jsonl.',
      ),
    };
  }
  const resultsPath = runDir !== path && basename(path) !== manifestFile ? path : join(runDir, resultsFile);
  const manifestRead = await readManifestText(join(runDir, manifestFile));
  let lines: ResultLines | undefined;
  try {
    lines = await readResultLines(resultsPath, basename(resultsPath));
  } catch (error) {
    return {
      ok: false,
      error: readError(`Cannot read ${resultsPath}: ${(error as Error).message}.`, readFailureAction(error)),
    };
  }
  if (!manifestRead.ok && manifestRead.missing && lines === undefined) {
    return {
      ok: false,
      error: readError(
        `${runDir} holds neither ${manifestFile} nor ${resultsFile}.`,
        'Give the path of a run folder written by `onload-bench run` or the extension.',
      ),
    };
  }
  const warnings: string[] = [];
  let manifest: RunManifest | undefined;
  if (manifestRead.ok) manifest = parseManifestText(manifestRead.text, warnings);
  else if (manifestRead.missing)
    warnings.push(`No ${manifestFile} in ${runDir}: cells that have not run yet cannot be shown.`);
  else warnings.push(`${manifestFile} cannot be read (${manifestRead.reason}); results are shown without it.`);
  return { ok: true, ...combine(runDir, manifest, lines ?? parseResultLines(''), warnings) };
}

/** The pure part of readRunFolder: both files' texts in, the run's contents out. */
export function parseRunFiles(
  runDir: string,
  manifestText: string | undefined,
  resultsText: string,
  resultsName = resultsFile,
): RunContents {
  const warnings: string[] = [];
  const manifest = manifestText === undefined ? undefined : parseManifestText(manifestText, warnings);
  if (manifestText === undefined)
    warnings.push(`No ${manifestFile} in ${runDir}: cells that have not run yet cannot be shown.`);
  return combine(runDir, manifest, parseResultLines(resultsText, resultsName), warnings);
}

function combine(
  runDir: string,
  manifest: RunManifest | undefined,
  lines: ResultLines,
  warnings: string[],
): RunContents {
  warnings.push(...lines.warnings);
  if (manifest) {
    const planned = new Set(manifest.cells.map((cell) => cell.id));
    const unplanned = lines.results.filter((result) => !planned.has(result.id)).length;
    if (unplanned > 0)
      warnings.push(`${unplanned} result(s) belong to cells that are not in the manifest; they are shown anyway.`);
  }
  return { runDir, manifest, results: lines.results, warnings };
}

function parseManifestText(text: string, warnings: string[]): RunManifest | undefined {
  const problems: string[] = [];
  const { manifest, reason } = parseManifest(text, problems);
  if (!manifest) {
    warnings.push(`${manifestFile} ${reason}; results are shown without it.`);
    return undefined;
  }
  warnings.push(...problems.map((problem) => `${manifestFile}: ${problem}`));
  if (manifest.formatVersion > resultsFormatVersion) {
    warnings.push(
      `${manifestFile} has format version ${manifest.formatVersion}, newer than this tool reads (${resultsFormatVersion}); some fields may be missing.`,
    );
  }
  return manifest;
}

/** One CellResult per id (the rule is in resultsReader.ts); bad lines are skipped with a warning naming the line. */
export function parseResultsJsonl(text: string, warnings: string[], name = resultsFile): CellResult[] {
  const lines = parseResultLines(text, name);
  warnings.push(...lines.warnings);
  return lines.results;
}

function readError(message: string, action: string): EngineError {
  return { code: 'results-read', step: 'read-results', message, action };
}
