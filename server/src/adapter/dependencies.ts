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

/**
 * A WorkspaceFiles that notes every URI read through it, and every folder listed (a check that
 * found a name missing from a folder depends on the whole folder: 100,000 names looked for are
 * one entry, not 100,000).
 */
export class RecordingFiles implements WorkspaceFiles {
  readonly readUris = new Set<string>();
  readonly askedFolders = new Set<string>();
  readonly entries?: (folderUri: string) => Promise<ReadonlySet<string> | undefined>;

  constructor(private readonly inner: WorkspaceFiles) {
    const entries = inner.entries?.bind(inner);
    if (entries) {
      this.entries = (folderUri) => {
        this.askedFolders.add(folderUri);
        return entries(folderUri);
      };
    }
  }

  read(uri: string): Promise<string | undefined> {
    this.readUris.add(uri);
    return this.inner.read(uri);
  }

  find(match: (uri: string) => boolean): Promise<string[]> {
    return this.inner.find(match);
  }
}

export class Dependencies {
  private readonly readBy = new Map<string, { files: Set<string>; folders: Set<string> }>();

  record(uri: string, recorded: Pick<RecordingFiles, 'readUris' | 'askedFolders'>): void {
    this.readBy.set(uri, {
      files: new Set([...recorded.readUris].map(uriKey)),
      folders: new Set([...recorded.askedFolders].map(uriKey)),
    });
  }

  forget(uri: string): void {
    this.readBy.delete(uri);
  }

  dependentsOf(uri: string): string[] {
    const key = uriKey(uri);
    const folder = key.slice(0, key.lastIndexOf('/'));
    const dependents: string[] = [];
    for (const [document, read] of this.readBy)
      if (read.files.has(key) || read.folders.has(folder)) dependents.push(document);
    return dependents;
  }
}
