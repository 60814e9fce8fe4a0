// Go to definition from a value that names another file: a workload (`workloada`,
// `workloads/workloadb`, `mix.ycsb`) or a file a key points at (fieldlengthhistogram, trace files).
// resolveWorkloadReference is shared with other languages (plans) that refer to workload files.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Location, Position } from 'vscode-languageserver-types';
import { Utils, URI } from 'vscode-uri';
import type { WorkspaceFiles } from '../common/languageFeatures';
import { javaTrim } from './javaValues';
import { entryAt, type PropertiesDocument } from './propertiesParser';

const looksLikeWorkload = (name: string) => /^workload[\w.-]*$/.test(name) || name.endsWith('.ycsb');

/**
 * The URI of the file a reference names, if it exists: first relative to the referring file,
 * then as an absolute path, then (for workload-like names) any workspace file ending in that path,
 * preferring files under a `workloads/` folder.
 */
export async function resolveWorkloadReference(
  reference: string,
  fromUri: string,
  files: WorkspaceFiles,
): Promise<string | undefined> {
  const cleaned = reference.trim();
  if (cleaned.length === 0 || cleaned.length > 1024 || /[\s\0]/.test(cleaned)) return undefined;
  const candidates: string[] = [];
  if (cleaned.startsWith('/')) candidates.push(URI.file(cleaned).toString());
  else candidates.push(Utils.joinPath(Utils.dirname(URI.parse(fromUri)), cleaned).toString());
  for (const candidate of candidates) {
    if (candidate !== fromUri && (await files.read(candidate)) !== undefined) return candidate;
  }
  const base = cleaned.split('/').pop() ?? cleaned;
  if (!looksLikeWorkload(base)) return undefined;
  const suffix = `/${cleaned.replace(/^\.\//, '')}`;
  const found = (await files.find((uri) => uri !== fromUri && decodeURIComponent(uri).endsWith(suffix))).sort(
    (a, b) => Number(!a.includes('/workloads/')) - Number(!b.includes('/workloads/')) || a.length - b.length,
  );
  return found[0];
}

export async function ycsbDefinition(
  text: TextDocument,
  document: PropertiesDocument,
  position: Position,
  files: WorkspaceFiles,
): Promise<Location[]> {
  const offset = text.offsetAt(position);
  const entry = entryAt(document, offset);
  if (!entry || offset < entry.valueStart || entry.valueStart >= entry.valueEnd) return [];
  const reference = javaTrim(entry.value);
  const target = await resolveWorkloadReference(reference, text.uri, files);
  if (!target) return [];
  const start = { line: 0, character: 0 };
  return [{ uri: target, range: { start, end: start } }];
}
