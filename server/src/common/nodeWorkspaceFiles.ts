// WorkspaceFiles over open documents and the local disk: used by the LSP server and the CLI.
// Files on disk are read only when they are regular files within the size bound (boundedRead.ts).
// A folder's entries (its listing and the open documents in it) let a caller that tries many
// names skip those that are not there: a profile of 100,000 imports of names that exist nowhere
// asked the disk four times per name, on every check and hover.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { URI } from 'vscode-uri';
import type { WorkspaceFiles } from './languageFeatures';
import { readBoundedText } from './boundedRead';

const skippedFolders = new Set(['node_modules', '.git', 'dist', 'out', '.cache']);
const maxFiles = 20_000;
/** A folder with more entries than this is not answered from its listing: its files are asked about one by one. */
const maxListedEntries = 50_000;

/** A URI as vscode-uri spells it (clients may percent-encode differently); the text itself when it does not parse. */
function normalUri(uri: string): string {
  try {
    return URI.parse(uri).toString();
  } catch {
    return uri;
  }
}

const folderOf = (uri: string) => uri.slice(0, uri.lastIndexOf('/'));

export class NodeWorkspaceFiles implements WorkspaceFiles {
  private listing: Promise<string[]> | undefined;

  constructor(
    private readonly roots: () => string[],
    private readonly openText: (uri: string) => string | undefined = () => undefined,
    private readonly openUris: () => Iterable<string> = () => [],
  ) {}

  async read(uri: string): Promise<string | undefined> {
    const open = this.openText(uri);
    if (open !== undefined) return open;
    let path: string;
    try {
      path = URI.parse(uri).fsPath;
    } catch {
      return undefined;
    }
    const read = await readBoundedText(path).catch(() => undefined);
    return read?.kind === 'text' ? read.text : undefined;
  }

  async entries(folderUri: string): Promise<ReadonlySet<string> | undefined> {
    let folder: URI;
    try {
      folder = URI.parse(folderUri);
    } catch {
      return undefined;
    }
    if (folder.scheme !== 'file') return undefined;
    const names = await readdir(folder.fsPath).then(
      (found) => (found.length <= maxListedEntries ? new Set(found) : undefined),
      // No such folder: nothing in it. A folder that cannot be listed may still hold readable files.
      (error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' || error.code === 'ENOTDIR' ? new Set<string>() : undefined,
    );
    if (!names) return undefined;
    const key = normalUri(folderUri);
    for (const uri of this.openUris()) {
      const normal = normalUri(uri);
      if (folderOf(normal) !== key) continue;
      try {
        names.add(decodeURIComponent(normal.slice(normal.lastIndexOf('/') + 1)));
      } catch {
        // A name that does not decode is nobody's import.
      }
    }
    return names;
  }

  async find(match: (uri: string) => boolean): Promise<string[]> {
    this.listing ??= this.list();
    return (await this.listing).filter(match);
  }

  /** Forget the cached listing (files were created, deleted or renamed). */
  invalidate(): void {
    this.listing = undefined;
  }

  private async list(): Promise<string[]> {
    const found: string[] = [];
    const walk = async (folder: string, depth: number): Promise<void> => {
      if (depth > 12 || found.length >= maxFiles) return;
      let entries;
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (found.length >= maxFiles) return;
        const path = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!skippedFolders.has(entry.name)) await walk(path, depth + 1);
        } else if (entry.isFile()) {
          found.push(URI.file(path).toString());
        }
      }
    };
    for (const root of this.roots()) await walk(URI.parse(root).fsPath, 0);
    return found;
  }
}
