// Walks a profile and everything it imports, in the order the launcher sources them, and lists
// every assignment. `onload_set` only sets an unset variable, so the first assignment of a name
// wins; assignments reached through a conditional directive or import are marked conditional
// (they may not run), and never make a later assignment "certainly ineffective". Diagnostics,
// hover, the effective configuration request (effectiveConfiguration.ts, which shapes its answer)
// and the engine's profile facts all read this one analysis.
import type { Cancellation } from '../common/languageFeatures';
import type { OnloadCatalog } from './catalog';
import type { StandardProfile } from './catalogTypes';
import type { ImportResolver, ImportTarget } from './imports';
import { parseProfile, type ParsedProfile } from './parser';

export interface Assignment {
  name: string;
  value: string;
  dynamic: boolean;
  /** Where it is written: a file URI, or `onload-profile:NAME` for a shipped profile not in the workspace. */
  uri: string;
  line: number;
  conditional: boolean;
  /** Index (in the root's directives) of the root's own set, or of the root import that led here. */
  rootIndex: number;
  /** Import names from the root down to the file that sets it (empty when the root sets it). */
  via: string[];
}

/** An `onload_set` whose variable name the shell computes (`onload_set "$knob" 0`). */
export interface DynamicNameAssignment {
  uri: string;
  line: number;
  /** The name as written, expansions included. */
  written: string;
  conditional: boolean;
  rootIndex: number;
  via: string[];
}

export interface ImportOutcome {
  target: ImportTarget;
  /** Profile names forming an import cycle reached through this import (first = last). */
  cycle?: string[];
}

export interface ProfileAnalysis {
  parsed: ParsedProfile;
  assignments: Assignment[];
  /** Resolution of each root `onload_import`, by directive index. */
  imports: Map<number, ImportOutcome>;
  /** Assignments whose names are known only at run time, in order. */
  dynamicNames: DynamicNameAssignment[];
}

export interface EffectiveEntry {
  /** The first assignment, the one that takes effect if it runs. */
  winner: Assignment;
  /** Every assignment of the name, in order. */
  all: Assignment[];
  /** The winner certainly runs (not conditional): its value is the effective one. */
  certain: boolean;
}

const maxDepth = 24;
const maxFiles = 256;

/** Parsed imported files, reused while their text is unchanged. */
const parsedFiles = new Map<string, { text: string; parsed: ParsedProfile }>();

export function parseCached(uri: string, text: string): ParsedProfile {
  const cached = parsedFiles.get(uri);
  if (cached && cached.text === text) return cached.parsed;
  const parsed = parseProfile(text);
  if (parsedFiles.size > 200) parsedFiles.clear();
  parsedFiles.set(uri, { text, parsed });
  return parsed;
}

export function standardProfileUri(name: string): string {
  return `onload-profile:${name}`;
}

export async function analyseProfile(
  uri: string,
  parsed: ParsedProfile,
  resolver: ImportResolver,
  catalog: OnloadCatalog,
  token: Cancellation,
): Promise<ProfileAnalysis> {
  const assignments: Assignment[] = [];
  const dynamicNames: DynamicNameAssignment[] = [];
  const imports = new Map<number, ImportOutcome>();
  let visitedFiles = 0;

  const walkStandard = async (
    profile: StandardProfile,
    chain: string[],
    names: string[],
    conditional: boolean,
    rootIndex: number,
    via: string[],
  ): Promise<void> => {
    for (const step of profile.steps) {
      if (step.kind === 'set') {
        assignments.push({
          name: step.name,
          value: step.value ?? '',
          dynamic: step.dynamic ?? false,
          uri: standardProfileUri(profile.name),
          line: step.line,
          conditional: conditional || step.conditional,
          rootIndex,
          via,
        });
        continue;
      }
      const next = catalog.standardProfile(step.name);
      if (!next) continue;
      await follow(
        { kind: 'standard', profile: next },
        step.name,
        chain,
        names,
        conditional || step.conditional,
        rootIndex,
        via,
      );
    }
  };

  const walkFile = async (
    fileUri: string,
    profile: ParsedProfile,
    chain: string[],
    names: string[],
    conditional: boolean,
    rootIndex: number | undefined,
    via: string[],
  ): Promise<void> => {
    const directives = profile.directives;
    for (let index = 0; index < directives.length; index++) {
      if (token.isCancellationRequested) return;
      const directive = directives[index]!;
      const owner = rootIndex ?? index;
      if (directive.kind === 'set') {
        if (directive.name === '') continue;
        if (directive.nameDynamic) {
          // Which variable it sets is known only at run time: never attribute it to a name.
          dynamicNames.push({
            uri: fileUri,
            line: directive.line,
            written: directive.name,
            conditional: conditional || directive.conditional,
            rootIndex: owner,
            via,
          });
          continue;
        }
        assignments.push({
          name: directive.name,
          value: directive.value,
          dynamic: directive.valueDynamic,
          uri: fileUri,
          line: directive.line,
          conditional: conditional || directive.conditional,
          rootIndex: owner,
          via,
        });
        continue;
      }
      const target = await resolver.resolve(directive.name, fileUri, directive.nameDynamic);
      if (rootIndex === undefined) imports.set(index, { target });
      await follow(target, directive.name, chain, names, conditional || directive.conditional, owner, via);
    }
  };

  const follow = async (
    target: ImportTarget,
    name: string,
    chain: string[],
    names: string[],
    conditional: boolean,
    rootIndex: number,
    via: string[],
  ): Promise<void> => {
    if (target.kind === 'unresolved' || target.kind === 'dynamic') return;
    const key = target.kind === 'file' ? target.uri : standardProfileUri(target.profile.name);
    const seenAt = chain.indexOf(key);
    if (seenAt !== -1) {
      const outcome = imports.get(rootIndex);
      if (outcome && !outcome.cycle) outcome.cycle = [...names.slice(seenAt), name];
      return;
    }
    if (chain.length >= maxDepth || ++visitedFiles > maxFiles) return;
    const nextVia = [...via, name];
    if (target.kind === 'standard') {
      await walkStandard(target.profile, [...chain, key], [...names, name], conditional, rootIndex, nextVia);
    } else {
      await walkFile(
        target.uri,
        parseCached(target.uri, target.text),
        [...chain, key],
        [...names, name],
        conditional,
        rootIndex,
        nextVia,
      );
    }
  };

  const rootName = uri.replace(/^.*\//, '').replace(/\.opf(-fragment)?$/, '');
  await walkFile(uri, parsed, [uri], [rootName], false, undefined, []);
  return { parsed, assignments, imports, dynamicNames };
}

/** The first assignment of each name (and whether it certainly runs). */
export function effectiveEntries(assignments: readonly Assignment[]): Map<string, EffectiveEntry> {
  const entries = new Map<string, EffectiveEntry>();
  for (const assignment of assignments) {
    const entry = entries.get(assignment.name);
    if (entry) entry.all.push(assignment);
    else entries.set(assignment.name, { winner: assignment, all: [assignment], certain: !assignment.conditional });
  }
  return entries;
}
