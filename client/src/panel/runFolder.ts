// Reads a run folder for the panel through the engine's tolerant reader (engine/src/results/resultsFile.ts).
// Nothing is fatal here: a missing or damaged manifest, a torn last line (the engine is writing it
// right now) or an unreadable folder becomes a warning in the panel, never a lost panel.
import { manifestFile, readRunFolder, resultsFile } from '../../../engine/src/report/index';
import { emptyRunData, runDataFromFiles, type RunData } from './runData';

export { manifestFile as manifestFileName, resultsFile as resultsFileName };

export async function loadRunFolder(runDir: string): Promise<RunData> {
  const read = await readRunFolder(runDir);
  if (!read.ok) {
    const data = emptyRunData(runDir);
    data.warnings.push(`${read.error.message} ${read.error.action}`);
    return data;
  }
  return runDataFromFiles(runDir, read.manifest, read.results, read.warnings);
}
