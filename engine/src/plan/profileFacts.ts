// Local files of a plan seen through the language services: pre-flight lint of profiles and the
// workload, and a profile's effective Onload settings for the run's environment record. Guarded:
// the engine still runs if a language service is missing or throws. Files, and the profiles they
// import, are read only when they are regular files within the bound (boundedRead.ts).
import { dirname } from 'node:path';
import { URI } from 'vscode-uri';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createLanguages } from '../../../server/src/languages';
import { NodeWorkspaceFiles } from '../../../server/src/common/nodeWorkspaceFiles';
import { readBoundedTextOrThrow } from '../../../server/src/common/boundedRead';
import { parseProfile } from '../../../server/src/onload/parser';
import { analyseProfile, effectiveEntries } from '../../../server/src/onload/profileAnalysis';
import { ImportResolver } from '../../../server/src/onload/imports';
import { onloadCatalog } from '../../../server/src/onload/catalog';

export interface LintProblem {
  severity: 'error' | 'warning';
  line: number;
  message: string;
  code?: string;
}

/** Diagnostics of the language service for `languageId`, or undefined when there is none. */
export async function lintFile(
  path: string,
  languageId: 'onload-profile' | 'ycsb-workload',
  profilePath: string[] = [],
): Promise<LintProblem[] | undefined> {
  const service = createLanguages().find((language) => language.languageId === languageId);
  if (!service) return undefined;
  service.configure?.({ profilePath });
  const text = await readBoundedTextOrThrow(path);
  const uri = URI.file(path).toString();
  const document = TextDocument.create(uri, languageId, 1, text);
  const files = new NodeWorkspaceFiles(() => [dirname(path)]);
  const diagnostics = await service.diagnostics(document, files, { isCancellationRequested: false });
  return diagnostics
    .filter((diagnostic) => diagnostic.severity === 1 || diagnostic.severity === 2 || diagnostic.severity === undefined)
    .map((diagnostic) => ({
      severity: diagnostic.severity === 2 ? 'warning' : 'error',
      line: diagnostic.range.start.line + 1,
      message: typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value,
      ...(diagnostic.code !== undefined ? { code: String(diagnostic.code) } : {}),
    }));
}

/** Effective `onload_set` values of a profile and its imports (first assignment wins). */
export async function effectiveProfileSettings(
  path: string,
  profilePath: string[] = [],
): Promise<Record<string, string>> {
  const text = await readBoundedTextOrThrow(path);
  try {
    const catalog = onloadCatalog();
    const uri = URI.file(path).toString();
    const files = new NodeWorkspaceFiles(() => [dirname(path)]);
    const analysis = await analyseProfile(
      uri,
      parseProfile(text),
      new ImportResolver(files, catalog, profilePath),
      catalog,
      { isCancellationRequested: false },
    );
    const settings: Record<string, string> = {};
    for (const [name, entry] of effectiveEntries(analysis.assignments)) {
      settings[name] = entry.certain ? entry.winner.value : `${entry.winner.value} (conditional)`;
    }
    return settings;
  } catch {
    // language service unavailable: plain `onload_set NAME VALUE` lines, first one wins
    const settings: Record<string, string> = {};
    for (const line of text.split('\n')) {
      const match = /^\s*onload_set\s+([A-Za-z0-9_]+)\s+(.*?)\s*$/.exec(line);
      if (match && !(match[1] in settings)) settings[match[1]] = match[2].replace(/^["']|["']$/g, '');
    }
    return settings;
  }
}
