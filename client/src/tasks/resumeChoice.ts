// Which earlier runs can be resumed. Pure (no `vscode`): works on the engine's run summaries; the
// rule for which run a resume takes by itself is the engine's (results/resumableRuns.ts), shared
// with the CLI's --resume.
import * as path from 'node:path';
import type { RunSummary } from '../../../engine/src/report/index';

export { latestUnfinishedRun, unfinishedRuns } from '../../../engine/src/report/index';

/** `lab-20261202-1405 — 12/40 cells, started 2026-12-02 14:05` */
export function describeRun(run: RunSummary): { label: string; description: string; detail?: string } {
  const started = String(run.manifest.createdAt ?? '')
    .replace('T', ' ')
    .replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  const result: { label: string; description: string; detail?: string } = {
    label: path.basename(run.runDir),
    description: `${run.done}/${run.total} cells${run.finished ? '' : ' (unfinished)'}, started ${started}`,
  };
  if (run.manifest.planPath) result.detail = run.manifest.planPath;
  return result;
}
