// Which files a window opens by itself at start: the workspace-relative paths listed in
// ONLOAD_BENCH_OPEN_AT_START (separated like PATH). `npm start` sets it to the simulated lab's
// plan, so a newcomer sees the plan beside the Welcome page's walkthrough. Pure: the vscode side
// (openAtStart.ts) passes the workspace folders and a way to ask whether a file exists.
import * as path from 'node:path';

export const openAtStartVariable = 'ONLOAD_BENCH_OPEN_AT_START';

/**
 * The files to open, absolute, in the order listed. A path resolves against the first workspace
 * folder that holds it; paths that leave every folder or name nothing are skipped, so the
 * variable can only show what the workspace already has.
 */
export function filesToOpenAtStart(
  value: string | undefined,
  workspaceFolders: readonly string[],
  isFile: (file: string) => boolean,
): string[] {
  if (!value) return [];
  const files: string[] = [];
  for (const entry of value
    .split(path.delimiter)
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    for (const folder of workspaceFolders) {
      const file = path.resolve(folder, entry);
      const relative = path.relative(folder, file);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
      if (!isFile(file)) continue;
      if (!files.includes(file)) files.push(file);
      break;
    }
  }
  return files;
}
