// Resolves `onload_import NAME` in one order shared by the editor, `lint`, the effective
// configuration, pre-flight and the engine's upload (engine/src/plan/profileBundle.ts):
//   1. the importing file's folder (where a profile and the fragments written for it live);
//   2. each folder of the `onloadBench.profilePath` setting, in order (the launcher's own first
//      stop is `~/.openonload/profiles`);
//   3. the profiles Onload ships (`/usr/libexec/onload/profiles`), known by name from the catalog.
// In each folder `NAME.opf` comes before `NAME.opf-fragment`, as in the launcher (Xilinx-CNS/onload
// scripts/onload, onload_import: ~/.openonload/profiles, then the installed profiles, `.opf`
// before `.opf-fragment` for imports from a profile, then NAME as a path). A NAME with a '/' is a
// path, relative to the importing file. Never "any file of that name anywhere in the workspace":
// the launcher cannot see the workspace, so such a match would show settings it never applies.
import { URI, Utils } from 'vscode-uri';
import type { WorkspaceFiles } from '../common/languageFeatures';
import type { OnloadCatalog } from './catalog';
import type { StandardProfile } from './catalogTypes';

/** Why an import resolved to a file. */
export type ImportReason = { how: 'beside' } | { how: 'profile-path'; folder: string } | { how: 'path' };

export type ImportTarget =
  | { kind: 'file'; uri: string; text: string; reason: ImportReason }
  | { kind: 'standard'; profile: StandardProfile }
  /** `searchedFolders`: folder URIs looked in (empty for a path or a name no file can have). */
  | { kind: 'unresolved'; searchedFolders: readonly string[] }
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

/** A file URI's path for people (no `file://`, no percent escapes). */
export function displayPath(uri: string): string {
  return uri.startsWith('file:') ? URI.parse(uri).fsPath : uri;
}

interface SearchOrder {
  folders: { uri: string; parsed: URI; reason: ImportReason }[];
  uris: readonly string[];
}

export class ImportResolver {
  /** Results for this analysis run, keyed by importing folder and name. */
  private readonly memo = new Map<string, Promise<ImportTarget>>();
  private readonly profileFolders: string[];
  /** The folders searched from each importing folder, in order (built once per folder, not per name). */
  private readonly searchOrders = new Map<string, SearchOrder>();
  /** The folder of each importing file (one parse per file, not per import). */
  private readonly folderOf = new Map<string, string>();
  /** Each searched folder's entries, listed once per analysis. */
  private readonly listings = new Map<string, Promise<ReadonlySet<string> | undefined>>();

  /** `profilePath`: absolute folders (file system paths or file URIs), searched after the importer's folder. */
  constructor(
    private readonly files: WorkspaceFiles,
    private readonly catalog: OnloadCatalog,
    profilePath: readonly string[] = [],
  ) {
    this.profileFolders = profilePath.map((folder) =>
      folder.startsWith('file:') ? folder : URI.file(folder).toString(),
    );
  }

  resolve(name: string, fromUri: string, dynamic = false): Promise<ImportTarget> {
    if (dynamic) return Promise.resolve({ kind: 'dynamic' });
    // A lone surrogate cannot come from a file (UTF-8 has none) nor name one, and no URI can spell it.
    if (name === '' || hasLoneSurrogate(name)) return Promise.resolve({ kind: 'unresolved', searchedFolders: [] });
    let folder = this.folderOf.get(fromUri);
    if (folder === undefined) this.folderOf.set(fromUri, (folder = Utils.dirname(URI.parse(fromUri)).toString()));
    const key = `${folder}\u0000${name}`;
    let result = this.memo.get(key);
    if (!result) {
      result = this.lookUp(name, folder);
      this.memo.set(key, result);
    }
    return result;
  }

  private async lookUp(name: string, folder: string): Promise<ImportTarget> {
    if (name.includes('/')) {
      const uri = name.startsWith('/') ? URI.file(name).toString() : Utils.joinPath(URI.parse(folder), name).toString();
      const text = await this.files.read(uri);
      return text === undefined
        ? { kind: 'unresolved', searchedFolders: [] }
        : { kind: 'file', uri, text, reason: { how: 'path' } };
    }
    const order = this.searchOrder(folder);
    for (const candidate of order.folders) {
      for (const suffix of profileSuffixes) {
        // Most names looked for are not there: the folder's listing says so without a URI or a read.
        const entries = await this.entriesOf(candidate.uri);
        if (entries && !entries.has(name + suffix)) continue;
        const uri = Utils.joinPath(candidate.parsed, name + suffix).toString();
        const text = await this.files.read(uri);
        if (text !== undefined) return { kind: 'file', uri, text, reason: candidate.reason };
      }
    }
    const standard = this.catalog.standardProfile(name);
    return standard ? { kind: 'standard', profile: standard } : { kind: 'unresolved', searchedFolders: order.uris };
  }

  private entriesOf(folderUri: string): Promise<ReadonlySet<string> | undefined> {
    let entries = this.listings.get(folderUri);
    if (!entries)
      this.listings.set(folderUri, (entries = this.files.entries?.(folderUri) ?? Promise.resolve(undefined)));
    return entries;
  }

  private searchOrder(folder: string): SearchOrder {
    let order = this.searchOrders.get(folder);
    if (!order) {
      const folders = [
        { uri: folder, parsed: URI.parse(folder), reason: { how: 'beside' } as ImportReason },
        ...this.profileFolders
          .filter((candidate) => candidate !== folder)
          .map((candidate) => ({
            uri: candidate,
            parsed: URI.parse(candidate),
            reason: { how: 'profile-path', folder: displayPath(candidate) } as ImportReason,
          })),
      ];
      order = { folders, uris: folders.map((candidate) => candidate.uri) };
      this.searchOrders.set(folder, order);
    }
    return order;
  }
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasLoneSurrogate(text: string): boolean {
  return loneSurrogate.test(text);
}

/** One sentence: where an import resolves and why (hover, effective configuration). */
export function describeImportTarget(target: ImportTarget): string {
  switch (target.kind) {
    case 'file': {
      const where = `\`${displayPath(target.uri)}\``;
      if (target.reason.how === 'beside')
        return `${where}, found beside this profile (the importing file's folder is searched first)`;
      if (target.reason.how === 'profile-path')
        return `${where}, found in \`${target.reason.folder}\` (setting \`onloadBench.profilePath\`; nothing of that name beside this profile)`;
      return `${where} (a name with a '/' is a path, relative to this profile)`;
    }
    case 'standard':
      return `the profile Onload ships (\`${target.profile.file}\`), because no file of that name is beside this profile or in \`onloadBench.profilePath\``;
    case 'dynamic':
      return 'a name computed at run time';
    case 'unresolved':
      return 'nothing: no such file beside this profile or in `onloadBench.profilePath`, and Onload ships no profile of that name (the launcher would stop with exit code 3)';
  }
}
