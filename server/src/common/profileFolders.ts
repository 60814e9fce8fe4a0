// `onloadBench.profilePath` entries as absolute folders, the same for every edge that takes them
// (the language server's settings, `lint --profile-path`, the extension's run): `~` and `~/x`
// from the home folder, relative entries from the first workspace folder.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { URI } from 'vscode-uri';

/** `~` / `~/x` from `home`, relative entries from `base`; surrounding blanks are ignored. */
export function expandProfileFolders(entries: readonly string[], base: string, home: string): string[] {
  return entries.map((entry) => {
    const trimmed = entry.trim();
    const expanded = trimmed === '~' ? home : trimmed.startsWith('~/') ? join(home, trimmed.slice(2)) : trimmed;
    return isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
  });
}

/** The same, relative to the first of the workspace folder URIs (or the current folder) and this user's home. */
export function expandFolders(folders: readonly string[], roots: readonly string[]): string[] {
  return expandProfileFolders(folders, roots[0] ? URI.parse(roots[0]).fsPath : process.cwd(), homedir());
}
