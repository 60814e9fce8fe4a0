// Resolves `onload_import NAME` the way the launcher does, adapted to an editor: a profile next to
// the importing file first, then anywhere in the workspace, then the standard profiles Onload ships
// (known by name even when their files are not in the workspace). `.opf` is preferred over
// `.opf-fragment`, as in the launcher's search order. A NAME with a '/' is a literal path.
import { URI, Utils } from 'vscode-uri';
import type { WorkspaceFiles } from '../common/languageFeatures';
import type { OnloadCatalog } from './catalog';
import type { StandardProfile } from './catalogTypes';

export type ImportTarget =
  | { kind: 'file'; uri: string; text: string }
  | { kind: 'standard'; profile: StandardProfile }
  | { kind: 'unresolved' }
  | { kind: 'dynamic' };

export const profileSuffixes = ['.opf', '.opf-fragment'];

export function isProfileUri(uri: string): boolean {
  return profileSuffixes.some((suffix) => uri.endsWith(suffix));
}

/** The name `onload_import` uses for a profile file (its base name without the suffix). */
export function profileNameOf(uri: string): string {
  const base = Utils.basename(URI.parse(uri));
  return base.replace(/\.opf(-fragment)?$/, '');
}

export class ImportResolver {
  /** Results for this analysis run, keyed by importing folder and name. */
  private readonly memo = new Map<string, Promise<ImportTarget>>();

  constructor(private readonly files: WorkspaceFiles, private readonly catalog: OnloadCatalog) {}

  resolve(name: string, fromUri: string, dynamic = false): Promise<ImportTarget> {
    if (dynamic) return Promise.resolve({ kind: 'dynamic' });
    if (name === '') return Promise.resolve({ kind: 'unresolved' });
    const folder = Utils.dirname(URI.parse(fromUri)).toString();
    const key = `${folder}\u0000${name}`;
    let result = this.memo.get(key);
    if (!result) {
      result = this.lookUp(name, folder);
      this.memo.set(key, result);
    }
    return result;
  }

  private async lookUp(name: string, folder: string): Promise<ImportTarget> {
    const folderUri = URI.parse(folder);
    if (name.includes('/')) {
      const uri = name.startsWith('/') ? URI.file(name).toString() : Utils.joinPath(folderUri, name).toString();
      const text = await this.files.read(uri);
      return text === undefined ? { kind: 'unresolved' } : { kind: 'file', uri, text };
    }
    for (const suffix of profileSuffixes) {
      const uri = Utils.joinPath(folderUri, name + suffix).toString();
      const text = await this.files.read(uri);
      if (text !== undefined) return { kind: 'file', uri, text };
    }
    const wanted = profileSuffixes.map((suffix) => `/${name}${suffix}`);
    const found = await this.files.find((uri) => wanted.some((ending) => uri.endsWith(ending)));
    found.sort((a, b) => rank(a) - rank(b) || a.length - b.length || a.localeCompare(b));
    for (const uri of found) {
      const text = await this.files.read(uri);
      if (text !== undefined) return { kind: 'file', uri, text };
    }
    const standard = this.catalog.standardProfile(name);
    return standard ? { kind: 'standard', profile: standard } : { kind: 'unresolved' };
  }
}

function rank(uri: string): number {
  return uri.endsWith('.opf') ? 0 : 1;
}
