// `onload-bench lint FILE|DIR...`: runs the language server's checks on files and prints
//   file:line:col severity code message            (--format text, the default)
// or one JSON array (--format json) or a SARIF 2.1.0 log (--format sarif, for code-scanning tools).
// The language comes from the file name (the same rules as package.json); the checks come from
// the server's language registry, so a language added there is linted here without changes.
// Benchmark plans (*.benchplan.json) are checked by the engine's plan checker against
// schemas/benchplan.schema.json, as `run` would check them.
// Exit code: 0 clean or warnings only, 1 when any error is found, 2 for bad usage or unreadable files.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { neverCancelled } from '../../server/src/common/languageFeatures';
import { NodeWorkspaceFiles } from '../../server/src/common/nodeWorkspaceFiles';
import { describeFileKind, describeUnreadable, readBoundedText } from '../../server/src/common/boundedRead';
import { analysedPart, truncationNotice } from '../../server/src/common/documentLimits';
import { languageOfFileName } from '../../server/src/common/fileLanguages';
import { expandFolders } from '../../server/src/common/profileFolders';
import { createLanguages } from '../../server/src/languages';
import { loadPlan } from '../../engine/src/index';
import { commandArguments } from './arguments';
import { version } from '../../package.json';

const planLanguageId = 'benchplan';

/** The language of a file by its name: ours, or a benchmark plan. */
export function languageOf(path: string): string | undefined {
  if (path.endsWith('.benchplan.json')) return planLanguageId;
  return languageOfFileName(path);
}

const severityNames: Record<number, string> = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'info',
  [DiagnosticSeverity.Hint]: 'hint',
};

const usage = `usage: onload-bench lint [--root DIR] [--profile-path DIR]... [--format text|json|sarif] FILE|DIR...
Checks Onload profiles (*.opf, *.opf-fragment), YCSB workloads (*.ycsb, workloads/workload*) and
benchmark plans (*.benchplan.json).
  --root DIR          the workspace: relative --profile-path folders and SARIF file names are taken from it (default: the current folder)
  --profile-path DIR  a folder searched for onload_import NAME after the importing file's folder, like the
                      onloadBench.profilePath setting (repeatable; searched in order, then the profiles Onload ships)
  --format FORMAT     text (file:line:col severity code message), json, or sarif (SARIF 2.1.0)`;

/** One finding, whatever checked it. */
export interface LintFinding {
  file: string;
  /** 1-based, as editors and compilers print them. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  code: string;
  message: string;
  /**
   * What libonload uses instead of the value written, for a diagnostic about a value (the hover and the effective
   * configuration say the same).
   */
  uses?: string;
}

export async function run(args: string[]): Promise<number> {
  const parsed = commandArguments('lint', usage, args, {
    root: { type: 'string' },
    'profile-path': { type: 'string', multiple: true },
    format: { type: 'string', default: 'text' },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals: paths } = parsed;
  const format = values.format;
  if (format !== 'text' && format !== 'json' && format !== 'sarif') {
    console.error(`onload-bench lint: --format must be text, json or sarif, not '${format}'\n${usage}`);
    return 2;
  }
  if (paths.length === 0) {
    console.error(usage);
    return 2;
  }
  const root = resolve(values.root ?? process.cwd());
  const rootUri = pathToFileURL(root).toString();
  const profilePath = expandFolders(values['profile-path'] ?? [], [rootUri]);

  const languages = new Map(createLanguages().map((language) => [language.languageId, language]));
  for (const language of languages.values()) language.configure?.({ profilePath });
  const files = new NodeWorkspaceFiles(() => [rootUri]);
  const findings: LintFinding[] = [];
  const problems: string[] = [];
  let checked = 0;

  for (const path of await expand(paths)) {
    const languageId = languageOf(path);
    if (languageId === planLanguageId) {
      const info = await stat(path).catch(() => undefined);
      if (info && !info.isFile()) {
        problems.push(`${path}: cannot read: ${describeFileKind(info)}, not a regular file`);
        continue;
      }
      const { errors } = await loadPlan(path);
      if (errors.length === 1 && errors[0]!.code === 'read') {
        problems.push(`${path}: ${errors[0]!.message}`);
        continue;
      }
      checked++;
      const planText = errors.length > 0 ? await readFile(path, 'utf8').catch(() => '') : '';
      for (const error of errors) {
        const end = endOf(error.line, error.column, error.length, planText, error.offset);
        findings.push({
          file: path,
          line: error.line,
          column: error.column,
          endLine: end.line,
          endColumn: end.column,
          severity: 'error',
          code: `plan-${error.code}`,
          message: error.message,
        });
      }
      continue;
    }
    const features = languageId ? languages.get(languageId) : undefined;
    if (!features) {
      console.error(
        `${path}: skipped (not an Onload profile, YCSB workload or benchmark plan${languageId ? `; no checker for ${languageId}` : ''})`,
      );
      continue;
    }
    // Only a regular file within the bound is read: a FIFO or a device would hang or never end.
    const read = await readBoundedText(path).catch((error: unknown) => ({
      kind: 'failed' as const,
      why: error instanceof Error ? error.message : String(error),
    }));
    if (read.kind !== 'text') {
      problems.push(`${path}: cannot read: ${read.kind === 'failed' ? read.why : describeUnreadable(read)}`);
      continue;
    }
    const text = read.text;
    checked++;
    const whole = TextDocument.create(pathToFileURL(resolve(path)).toString(), languageId!, 1, text);
    const part = analysedPart(whole);
    const diagnostics = await features.diagnostics(part.document, files, neverCancelled);
    if (part.cutAtLine !== undefined) diagnostics.push(truncationNotice(whole, part.cutAtLine));
    for (const diagnostic of diagnostics) findings.push(toFinding(path, diagnostic));
  }
  findings.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : 0));
  for (const problem of problems) console.error(problem);

  if (format === 'text') for (const finding of findings) console.log(formatFinding(finding));
  else if (format === 'json') console.log(JSON.stringify(findings, null, 2));
  else console.log(JSON.stringify(sarifLog(findings, problems, root), null, 2));

  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const warnings = findings.filter((finding) => finding.severity === 'warning').length;
  console.error(
    `${checked} file${checked === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  );
  if (problems.length > 0) return 2;
  return errors > 0 ? 1 : 0;
}

function toFinding(file: string, diagnostic: Diagnostic): LintFinding {
  const text = typeof diagnostic.message === 'string' ? diagnostic.message : String(diagnostic.message);
  const used = (diagnostic.data as { used?: unknown } | undefined)?.used;
  return {
    file,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    endLine: diagnostic.range.end.line + 1,
    endColumn: diagnostic.range.end.character + 1,
    severity: (severityNames[diagnostic.severity ?? DiagnosticSeverity.Error] ?? 'error') as LintFinding['severity'],
    code: String(diagnostic.code ?? '-'),
    message: text.replace(/\s*\n\s*/g, ' '),
    ...(typeof used === 'string' && { uses: used }),
  };
}

/** `file:line:col severity code message`, 1-based line and column. */
export function formatFinding(finding: LintFinding): string {
  return `${finding.file}:${finding.line}:${finding.column} ${finding.severity} ${finding.code} ${finding.message}`;
}

/** `file:line:col severity code message` of one diagnostic (kept for callers that format diagnostics). */
export function formatDiagnostic(path: string, diagnostic: Diagnostic): string {
  return formatFinding(toFinding(path, diagnostic));
}

function endOf(
  line: number,
  column: number,
  length: number,
  text: string,
  offset: number,
): { line: number; column: number } {
  if (length <= 0 || text === '') return { line, column };
  const document = TextDocument.create('plan', 'json', 0, text);
  const end = document.positionAt(offset + length);
  return { line: end.line + 1, column: end.character + 1 };
}

const sarifLevels: Record<LintFinding['severity'], 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
  hint: 'note',
};

/** A SARIF 2.1.0 log: one run, one rule per code, file names relative to the root when inside it. */
export function sarifLog(findings: LintFinding[], problems: string[], root: string): object {
  const codes = [...new Set(findings.map((finding) => finding.code))].sort();
  const uriOf = (file: string) => {
    const absolute = resolve(file);
    const inside = absolute === root || absolute.startsWith(root + sep);
    return inside
      ? { uri: relative(root, absolute).split(sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' }
      : { uri: pathToFileURL(absolute).toString() };
  };
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'onload-bench',
            semanticVersion: version,
            rules: codes.map((code) => ({
              id: code,
              name: code.replace(/(^|-)([a-z0-9])/g, (_m, _dash, letter: string) => letter.toUpperCase()),
              shortDescription: { text: code.replace(/-/g, ' ') },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(root + sep).toString() } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: problems.length === 0,
            toolExecutionNotifications: problems.map((problem) => ({ level: 'error', message: { text: problem } })),
          },
        ],
        results: findings.map((finding) => ({
          ruleId: finding.code,
          ruleIndex: codes.indexOf(finding.code),
          level: sarifLevels[finding.severity],
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: uriOf(finding.file),
                region: {
                  startLine: finding.line,
                  startColumn: finding.column,
                  endLine: finding.endLine,
                  endColumn: finding.endColumn,
                },
              },
            },
          ],
        })),
      },
    ],
  };
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
