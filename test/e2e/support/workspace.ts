// A throw-away copy of examples/ plus the e2e fixtures (under e2e/), so tests may edit files,
// apply quick fixes and write results without touching the repository.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..', '..');

export function prepareWorkspace(runDir: string): string {
  const workspace = join(runDir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const examples = join(repoRoot, 'examples');
  if (existsSync(examples)) {
    // The generated lab plan of a running `npm start` is not part of the examples.
    cpSync(examples, workspace, {
      recursive: true,
      filter: (source) => !source.startsWith(join(examples, 'lab')) && !source.includes('bench-results'),
    });
  }
  cpSync(join(repoRoot, 'test', 'e2e', 'fixtures'), join(workspace, 'e2e'), { recursive: true });
  return workspace;
}
