// Reads a run folder for the panel through the engine's own reader (engine/src/resultsStore.ts).
// Nothing here is fatal: a missing or damaged manifest, a torn last line (the engine is writing
// it right now) or a damaged line becomes a warning shown in the panel, never a lost panel.
import { resultsFormatVersion, type CellResult, type RunManifest } from '../../../engine/src/model';
import { EngineFailure } from '../../../engine/src/errors';
import { manifestFile, parseResultsText, readManifest, readResults, resultsFile } from '../../../engine/src/resultsStore';
import { runDataFromFiles, type RunData } from './runData';

export { manifestFile as manifestFileName, resultsFile as resultsFileName };

/** The engine keeps any line with `kind: 'cell'` and an id; the panel also needs a usable key. */
function hasUsableKey(result: CellResult): boolean {
  const key = result.key as Partial<CellResult['key']> | undefined;
  return (
    typeof key === 'object' && key !== null && typeof key.stack === 'string' && typeof key.interface === 'string' &&
    typeof key.threads === 'number' && (result.status === 'ok' || result.status === 'failed')
  );
}

/** Results and warnings from the text of results.jsonl. */
export function resultsFromText(parsed: ReturnType<typeof parseResultsText>): { results: CellResult[]; warnings: string[] } {
  const results = parsed.results.filter(hasUsableKey);
  const skipped = parsed.skippedLines + (parsed.results.length - results.length);
  const warnings = skipped > 0 ? [`${skipped} damaged line${skipped === 1 ? '' : 's'} of ${resultsFile} skipped.`] : [];
  return { results, warnings };
}

/** Warnings about a manifest the panel can still show. */
export function manifestWarnings(manifest: RunManifest): string[] {
  if (manifest.formatVersion > resultsFormatVersion) {
    return [`${manifestFile} has format version ${manifest.formatVersion}, newer than this extension reads (${resultsFormatVersion}); some fields may be missing.`];
  }
  return [];
}

export async function loadRunFolder(runDir: string): Promise<RunData> {
  const warnings: string[] = [];
  let manifest: RunManifest | undefined;
  try {
    manifest = await readManifest(runDir);
    warnings.push(...manifestWarnings(manifest));
  } catch (error) {
    if (!(error instanceof EngineFailure)) throw error;
    warnings.push(`${error.error.message} Showing the results without it.`);
  }
  const parsed = resultsFromText(await readResults(runDir));
  return runDataFromFiles(runDir, manifest, parsed.results, [...warnings, ...parsed.warnings]);
}
