// Which files each open document read in its last check: the profiles it imports, and the paths
// it looked for and did not find (an import that will resolve once that file exists). When one
// of those changes, is created, opened or closed, the document is checked again.
import { URI } from 'vscode-uri';
import type { WorkspaceFiles } from '../common/languageFeatures';

/**
 * One spelling per file URI. Clients escape differently: Neovim leaves `@`, `+`, `:` as they are
 * (vim.uri_from_fname), vscode-uri (which builds the import URIs) writes `%40`, `%2B`, `%3A`.
 */
export function uriKey(uri: string): string {
  try {
    return URI.parse(uri).toString();
  } catch {
    return uri;
  }
}

/** A WorkspaceFiles that notes every URI read through it. */
export class RecordingFiles implements WorkspaceFiles {
  readonly readUris = new Set<string>();

  constructor(private readonly inner: WorkspaceFiles) {}

  read(uri: string): Promise<string | undefined> {
    this.readUris.add(uri);
    return this.inner.read(uri);
  }

  find(match: (uri: string) => boolean): Promise<string[]> {
    return this.inner.find(match);
  }
}

export class Dependencies {
  private readonly readBy = new Map<string, Set<string>>();

  record(uri: string, read: Iterable<string>): void {
    this.readBy.set(uri, new Set([...read].map(uriKey)));
  }

  forget(uri: string): void {
    this.readBy.delete(uri);
  }

  dependentsOf(uri: string): string[] {
    const key = uriKey(uri);
    const dependents: string[] = [];
    for (const [document, read] of this.readBy) if (read.has(key)) dependents.push(document);
    return dependents;
  }
}
