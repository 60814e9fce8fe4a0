// A stack profile and every local profile it imports, ready to upload. `onload_import NAME`
// resolves in the one order the editor, `lint` and the effective configuration use
// (server/src/onload/imports.ts: beside the importer, then the `onloadBench.profilePath` folders,
// then Onload's own profiles); the real launcher never looks beside a profile (it searches
// ~/.openonload/profiles, its own profile folder, then NAME as a path from the working folder).
// So each imported local file is uploaded into `<stack>.imports/` beside the stack's profile,
// and the import's NAME word is replaced by that absolute remote path, which the launcher takes
// literally: on the server the same files are sourced in the same order as the editor showed.
// Imports of Onload's standard profiles that are not workspace files, dynamic names and
// unresolved names are left as written for the server's Onload (pre-flight lint reports the
// unresolved ones).
import { dirname } from 'node:path';
import { URI } from 'vscode-uri';
import { readBoundedTextOrThrow } from '../../../server/src/common/boundedRead';
import { NodeWorkspaceFiles } from '../../../server/src/common/nodeWorkspaceFiles';
import { onloadCatalog } from '../../../server/src/onload/catalog';
import { ImportResolver } from '../../../server/src/onload/imports';
import { parseProfile } from '../../../server/src/onload/parser';
import { shellQuote } from '../remote/shellQuote';

export interface ProfileUpload {
  /** Absolute path on the host. */
  remotePath: string;
  /** The local file it comes from. */
  localPath: string;
  content: string;
}

export interface ProfileBundle {
  /** The stack's profile first, then each imported workspace profile once. */
  files: ProfileUpload[];
  /** Import names left to the server's Onload (its standard profiles), for the log. */
  standardImports: string[];
}

/** Most local files one bundle follows (the launcher itself has no limit, but cycles exist). */
const maxFiles = 64;

/**
 * Builds the uploads for `localPath` whose remote copy will be `remotePath`; imported files go to
 * `<remotePath without .opf>.imports/<file name>`. `profilePath` are the local folders searched
 * for imports by name after the importing file's own folder. Imports are rewritten only where they
 * resolve to a local file; everything else is kept byte for byte.
 */
export async function bundleProfile(
  localPath: string,
  remotePath: string,
  profilePath: string[] = [],
): Promise<ProfileBundle> {
  const catalog = onloadCatalog();
  const resolver = new ImportResolver(new NodeWorkspaceFiles(() => [dirname(localPath)]), catalog, profilePath);
  const importsDir = `${remotePath.replace(/\.opf(-fragment)?$/, '')}.imports`;
  const rootUri = URI.file(localPath).toString();
  const remoteByUri = new Map<string, string>([[rootUri, remotePath]]);
  const usedNames = new Set<string>();
  // Only regular files within the bound, the profile and (through NodeWorkspaceFiles) its imports:
  // an import of a FIFO or /dev/zero is unresolved, never read.
  const queue: { uri: string; text: string }[] = [{ uri: rootUri, text: await readBoundedTextOrThrow(localPath) }];
  const files: ProfileUpload[] = [];
  const standardImports = new Set<string>();

  const remoteFor = (uri: string): string => {
    const base = URI.parse(uri).path.replace(/^.*\//, '');
    let name = base;
    for (let counter = 2; usedNames.has(name); counter++)
      name = base.replace(/(\.opf(-fragment)?)?$/, (suffix) => `-${counter}${suffix}`);
    usedNames.add(name);
    return `${importsDir}/${name}`;
  };

  while (queue.length > 0) {
    const { uri, text } = queue.shift() as { uri: string; text: string };
    const edits: { start: number; end: number; text: string }[] = [];
    for (const directive of parseProfile(text).directives) {
      if (directive.kind !== 'import' || directive.name === '' || directive.nameDynamic) continue;
      const target = await resolver.resolve(directive.name, uri);
      if (target.kind === 'standard') standardImports.add(directive.name);
      if (target.kind !== 'file') continue;
      let remote = remoteByUri.get(target.uri);
      if (remote === undefined) {
        if (remoteByUri.size >= maxFiles) throw new Error(`${localPath} imports more than ${maxFiles} profile files`);
        remote = remoteFor(target.uri);
        remoteByUri.set(target.uri, remote);
        queue.push({ uri: target.uri, text: target.text });
      }
      edits.push({ start: directive.nameSpan.start, end: directive.nameSpan.end, text: shellQuote(remote) });
    }
    let content = text;
    for (const edit of edits.sort((a, b) => b.start - a.start))
      content = content.slice(0, edit.start) + edit.text + content.slice(edit.end);
    files.push({ remotePath: remoteByUri.get(uri) as string, localPath: URI.parse(uri).fsPath, content });
  }
  return { files, standardImports: [...standardImports] };
}
