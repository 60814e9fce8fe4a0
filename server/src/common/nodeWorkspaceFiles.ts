// WorkspaceFiles over open documents and the local disk: used by the LSP server and the CLI.
// Files on disk are read only when they are regular files within the size bound (boundedRead.ts).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { URI } from 'vscode-uri';
import type { WorkspaceFiles } from './languageFeatures';
import { readBoundedText } from './boundedRead';

const skippedFolders = new Set(['node_modules', '.git', 'dist', 'out', '.cache']);
const maxFiles = 20_000;

export class NodeWorkspaceFiles implements WorkspaceFiles {
  private listing: Promise<string[]> | undefined;

  constructor(
    private readonly roots: () => string[],
    private readonly openText: (uri: string) => string | undefined = () => undefined,
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
