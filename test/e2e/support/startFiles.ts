// What `npm start` wrote into examples/lab/, so Ctrl+C (or the next start, after a crash) removes
// exactly that and never a plan a user saved there. The record is a dotfile in the same folder
// (ignored by examples/lab/.gitignore); only top-level names the start created are listed.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const startRecordName = '.npm-start-created.json';

/** Names in `folder` now (top level). */
export function entriesOf(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

/** Writes the record: the names present after the start wrote its files that were not there before. */
export function recordCreated(folder: string, before: readonly string[]): string[] {
  const existed = new Set(before);
  const created = entriesOf(folder).filter((name) => !existed.has(name) && name !== startRecordName);
  writeFileSync(join(folder, startRecordName), JSON.stringify({ created }, null, 2) + '\n');
  return created;
}

/** Removes what the record lists, then the record; anything else in the folder stays. */
export function removeRecorded(folder: string): string[] {
  const record = join(folder, startRecordName);
  if (!existsSync(record)) return [];
  let created: string[];
  try {
    const parsed = JSON.parse(readFileSync(record, 'utf8')) as { created?: unknown };
    created = Array.isArray(parsed.created)
      ? parsed.created.filter(
          (name): name is string =>
            typeof name === 'string' && name !== '' && !name.includes('/') && name !== '..' && name !== '.',
        )
      : [];
  } catch {
    created = [];
  }
  for (const name of created) rmSync(join(folder, name), { recursive: true, force: true });
  rmSync(record, { force: true });
  return created;
}
