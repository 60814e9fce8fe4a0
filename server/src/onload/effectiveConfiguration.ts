// The effective configuration of a profile (the `onloadBench/effectiveConfiguration` request):
// every variable it sets once its imports are resolved, with the value that wins and where it is
// set. Conditional winners are flagged: they apply only if their branch runs.
import type { EffectiveConfigurationResult } from '../protocol';
import type { OnloadCatalog } from './catalog';
import { effectiveEntries, type Assignment, type ProfileAnalysis } from './effectiveConfig';
import { profileNameOf } from './imports';
import { clip } from './values';

export function describeOrigin(assignment: Assignment): string {
  const file = assignment.uri.startsWith('onload-profile:')
    ? `shipped profile ${assignment.uri.slice('onload-profile:'.length)}`
    : assignment.via.length === 0 ? 'this profile' : profileNameOf(assignment.uri);
  const chain = assignment.via.length > 0 ? ` via onload_import ${assignment.via.join(' → ')}` : '';
  return `${file} line ${assignment.line + 1}${chain}`;
}

export function effectiveConfiguration(analysis: ProfileAnalysis, catalog: OnloadCatalog): EffectiveConfigurationResult {
  const entries = [...effectiveEntries(analysis.assignments).values()];
  const rows = entries.map(({ winner }) => ({
    name: winner.name,
    value: winner.value,
    uri: winner.uri,
    line: winner.line,
    conditional: winner.conditional,
  }));
  const lines = ['| option | value | set in | |', '| --- | --- | --- | --- |'];
  for (const { winner, all } of entries) {
    const notes: string[] = [];
    if (winner.conditional) notes.push('conditional');
    if (winner.dynamic) notes.push('computed at run time');
    if (all.length > 1) notes.push(`${all.length - 1} later assignment${all.length > 2 ? 's' : ''} ignored`);
    if (!catalog.option(winner.name) && winner.name.startsWith('EF_')) notes.push('unknown option');
    lines.push(`| \`${winner.name}\` | \`${clip(winner.value, 60).replace(/\|/g, '\\|')}\` | ${describeOrigin(winner)} | ${notes.join(', ')} |`);
  }
  let markdown = entries.length === 0
    ? 'This profile sets nothing.'
    : `${entries.length} variable${entries.length > 1 ? 's' : ''} set (the first assignment wins; the environment still beats every profile value).\n\n${lines.join('\n')}`;
  const dynamic = analysis.dynamicNames;
  if (dynamic.length > 0) {
    const where = dynamic.slice(0, 5).map((assignment) => `\`${clip(assignment.written, 40)}\` (${assignment.via.length === 0 ? 'this profile' : profileNameOf(assignment.uri)} line ${assignment.line + 1})`).join(', ');
    markdown += `\n\nNot shown: ${dynamic.length} onload_set${dynamic.length > 1 ? 's' : ''} whose variable name the shell builds at run time: ${where}${dynamic.length > 5 ? ', …' : ''}. Any of them may set one of the options above first.`;
  }
  return { markdown, entries: rows };
}
