// `onload-bench lint FILE|DIR...`: runs the language server's checks on files and prints
//   file:line:col severity code message
// The language comes from the file name (the same rules as package.json); the checks come from
// the server's language registry, so a language added there is linted here without changes.
// Exit code: 0 clean or warnings only, 1 when any error is found, 2 for bad usage or unreadable files.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { neverCancelled } from '../../server/src/common/languageFeatures';
import { NodeWorkspaceFiles } from '../../server/src/common/nodeWorkspaceFiles';
import { createLanguages } from '../../server/src/languages';

/** File-name rules, mirroring `contributes.languages` in package.json. */
export const fileTypes: { languageId: string; matches(path: string): boolean }[] = [
  { languageId: 'onload-profile', matches: (path) => /\.opf(-fragment)?$/.test(path) },
  {
    languageId: 'ycsb-workload',
    matches: (path) => path.endsWith('.ycsb') || (basename(path).startsWith('workload') && basename(dirname(path)) === 'workloads'),
  },
];

export function languageOf(path: string): string | undefined {
  return fileTypes.find((type) => type.matches(path))?.languageId;
}

const severityNames: Record<number, string> = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'info',
  [DiagnosticSeverity.Hint]: 'hint',
};

const usage = 'usage: onload-bench lint [--root DIR] FILE|DIR...';

export async function run(args: string[]): Promise<number> {
  const paths: string[] = [];
  let root = process.cwd();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--root') {
      const value = args[++index];
      if (!value) {
        console.error(usage);
        return 2;
      }
      root = resolve(value);
    } else if (arg === '--help' || arg === '-h') {
      console.log(`${usage}\nChecks Onload profiles (*.opf, *.opf-fragment) and YCSB workloads; --root is the workspace searched for imported profiles (default: the current folder).`);
      return 0;
    } else {
      paths.push(arg);
    }
  }
  if (paths.length === 0) {
    console.error(usage);
    return 2;
  }

  const languages = new Map(createLanguages().map((language) => [language.languageId, language]));
  const files = new NodeWorkspaceFiles(() => [pathToFileURL(root).toString()]);
  let errors = 0;
  let warnings = 0;
  let unreadable = 0;
  let checked = 0;

  for (const path of await expand(paths)) {
    const languageId = languageOf(path);
    const features = languageId ? languages.get(languageId) : undefined;
    if (!features) {
      console.error(`${path}: skipped (not an Onload profile or YCSB workload file${languageId ? `; no checker for ${languageId}` : ''})`);
      continue;
    }
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      console.error(`${path}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
      unreadable++;
      continue;
    }
    checked++;
    const document = TextDocument.create(pathToFileURL(resolve(path)).toString(), languageId!, 1, text);
    const diagnostics = await features.diagnostics(document, files, neverCancelled);
    for (const diagnostic of sortDiagnostics(diagnostics)) {
      if (diagnostic.severity === DiagnosticSeverity.Error) errors++;
      else if (diagnostic.severity === DiagnosticSeverity.Warning) warnings++;
      console.log(formatDiagnostic(path, diagnostic));
    }
  }
  console.error(`${checked} file${checked === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (unreadable > 0) return 2;
  return errors > 0 ? 1 : 0;
}

/** `file:line:col severity code message`, 1-based line and column. */
export function formatDiagnostic(path: string, diagnostic: Diagnostic): string {
  const { line, character } = diagnostic.range.start;
  const severity = severityNames[diagnostic.severity ?? DiagnosticSeverity.Error] ?? 'error';
  const text = typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
  const message = text.replace(/\s*\n\s*/g, ' ');
  return `${path}:${line + 1}:${character + 1} ${severity} ${diagnostic.code ?? '-'} ${message}`;
}

function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** Files as given; folders are searched (recursively) for files of a known type. */
async function expand(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string, depth: number): Promise<void> => {
    if (depth > 8) return;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !['node_modules', '.git', 'dist'].includes(entry.name)) await walk(path, depth + 1);
      else if (entry.isFile() && languageOf(path)) out.push(path);
    }
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) await walk(path, 0);
    else out.push(path);
  }
  return out;
}
