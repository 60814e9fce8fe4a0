// A second run for the compare tests and screenshots: a copy of a finished run folder with every
// cell's throughput 10 % higher and its manifest a minute later, so that "run B against run A"
// has a known difference to show. One place for the three UI files that need it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunManifestCopy {
  runId: string;
  createdAt: string;
  environment?: { hosts: Record<string, { role: string; kernel?: string }> };
}

/**
 * Writes the copy of `runDir` into `resultsFolder` as run `runId` (default: the run's id with
 * `-b`), letting `tweak` change its manifest first; returns the copy's run id.
 */
export function changedRunCopy(
  runDir: string,
  resultsFolder: string,
  options: { runId?: string; tweak?: (manifest: RunManifestCopy) => void } = {},
): string {
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as RunManifestCopy;
  manifest.runId = options.runId ?? `${manifest.runId}-b`;
  manifest.createdAt = new Date(Date.parse(manifest.createdAt) + 60_000).toISOString();
  options.tweak?.(manifest);
  const copy = join(resultsFolder, manifest.runId);
  mkdirSync(copy, { recursive: true });
  writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const lines = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const cell = JSON.parse(line) as { run?: { throughputOpsPerSec: number } };
      if (cell.run) cell.run.throughputOpsPerSec *= 1.1;
      return JSON.stringify(cell);
    });
  writeFileSync(join(copy, 'results.jsonl'), lines.join('\n') + '\n');
  return manifest.runId;
}
