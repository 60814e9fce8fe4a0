// The files a benchmark plan refers to: the workload, each Onload stack's profile and a client's
// runUnderOnload profile. Found with jsonc-parser so each reference keeps its exact place in the
// text, and resolved the way the engine resolves them (engine/src/plan/plan.ts): relative to the plan's
// folder, or absolute. Pure apart from the default file-existence check; the vscode side
// (planLinks.ts) turns the results into document links and go-to-definition targets.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { findNodeAtLocation, parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';

export type PlanReferenceKind = 'workload' | 'stack-profile' | 'client-profile';

/** 0-based line and UTF-16 character, as in VS Code and LSP. */
export interface TextPosition {
  line: number;
  character: number;
}

export interface PlanFileReference {
  kind: PlanReferenceKind;
  /** Where the value sits in the plan, e.g. `['stacks', 1, 'profile']`. */
  jsonPath: (string | number)[];
  /** The path as written (JSON escapes decoded). */
  value: string;
  /** The absolute path the engine would read. */
  resolvedPath: string;
  /** The string's contents, without the quotes. */
  range: { start: TextPosition; end: TextPosition };
}

/** What a link's tooltip calls each kind of file. */
export const referenceDescriptions: Record<PlanReferenceKind, string> = {
  workload: 'YCSB workload file',
  'stack-profile': 'Onload profile of this stack',
  'client-profile': 'Onload profile YCSB runs under',
};

/**
 * Every file reference in the plan text, whether or not the file exists. Text that is not valid
 * plan JSON (the engine's own parse options: no comments, no trailing commas) gives none, so a
 * half-typed plan never links to a guess.
 */
export function findPlanFileReferences(text: string, planPath: string): PlanFileReference[] {
  const errors: ParseError[] = [];
  let root: JsonNode | undefined;
  try {
    root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  } catch {
    return [];
  }
  if (root === undefined || errors.length > 0 || root.type !== 'object') return [];
  const tree = root;

  // Line breaks as VS Code counts them (LF, CRLF and lone CR), positions in UTF-16 units.
  const lines = TextDocument.create(planPath, 'json', 0, text);
  const baseDir = dirname(planPath);
  const found: PlanFileReference[] = [];
  const add = (kind: PlanReferenceKind, jsonPath: (string | number)[]): void => {
    const node = findNodeAtLocation(tree, jsonPath);
    if (node?.type !== 'string' || typeof node.value !== 'string' || node.value.trim() === '') return;
    const value = node.value;
    found.push({
      kind,
      jsonPath,
      value,
      resolvedPath: isAbsolute(value) ? value : resolve(baseDir, value),
      range: { start: lines.positionAt(node.offset + 1), end: lines.positionAt(node.offset + node.length - 1) },
    });
  };

  add('workload', ['workload', 'path']);
  forEachIndex(findNodeAtLocation(tree, ['stacks']), (index) => add('stack-profile', ['stacks', index, 'profile']));
  forEachIndex(findNodeAtLocation(tree, ['clients']), (index) =>
    add('client-profile', ['clients', index, 'runUnderOnload']),
  );
  return found;
}

/** The references whose file exists: the only ones worth a link. */
export function linkablePlanReferences(
  text: string,
  planPath: string,
  isFile: (path: string) => boolean = isExistingFile,
): PlanFileReference[] {
  return findPlanFileReferences(text, planPath).filter((reference) => isFile(reference.resolvedPath));
}

/** The reference under the cursor; the position just after the last character still counts. */
export function planReferenceAt(
  references: PlanFileReference[],
  position: TextPosition,
): PlanFileReference | undefined {
  const before = (a: TextPosition, b: TextPosition) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return references.find(
    (reference) => before(reference.range.start, position) && before(position, reference.range.end),
  );
}

export function isExistingFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function forEachIndex(array: JsonNode | undefined, visit: (index: number) => void): void {
  if (array?.type !== 'array') return;
  (array.children ?? []).forEach((_child, index) => visit(index));
}

/** Offsets to positions, with the same line breaks VS Code counts: \n, \r\n and a lone \r. */
