// The effective configuration of a profile (the `onloadBench/effectiveConfiguration` request):
// every variable it sets once its imports are resolved, with the value that wins, where it is set
// and, when libonload makes something else of it, what it uses (usedValue.ts, the answer the
// diagnostics give). Conditional winners are flagged: they apply only if their branch runs.
import type { EffectiveConfigurationResult } from '../protocol';
import type { OnloadCatalog } from './catalog';
import { effectiveEntries, type Assignment, type ProfileAnalysis } from './profileAnalysis';
import { profileNameOf } from './imports';
import { clip } from './values';
import { assignedValue } from './usedValue';

export function describeOrigin(assignment: Assignment): string {
  const file = assignment.uri.startsWith('onload-profile:')
    ? `shipped profile ${assignment.uri.slice('onload-profile:'.length)}`
    : assignment.via.length === 0
      ? 'this profile'
      : profileNameOf(assignment.uri);
  const chain = assignment.via.length > 0 ? ` via onload_import ${assignment.via.join(' → ')}` : '';
  return `${file} line ${assignment.line + 1}${chain}`;
}

export function effectiveConfiguration(
  analysis: ProfileAnalysis,
  catalog: OnloadCatalog,
): EffectiveConfigurationResult {
  const entries = [...effectiveEntries(analysis.assignments).values()].map((entry) => ({
    ...entry,
    shown: assignedValue(
      catalog.option(entry.winner.name),
      entry.winner.name,
      entry.winner.value,
      entry.winner.dynamic,
    ),
  }));
  const rows = entries.map(({ winner, shown }) => ({
    name: winner.name,
    value: shown.exported,
    ...(shown.used && { used: shown.used.value }),
    uri: winner.uri,
    line: winner.line,
    conditional: winner.conditional,
  }));
  const cell = (text: string) => `\`${clip(text, 60).replace(/\|/g, '\\|')}\``;
  const lines = ['| option | value | set in | |', '| --- | --- | --- | --- |'];
  for (const { winner, all, shown } of entries) {
    const notes: string[] = [];
    if (shown.used) notes.push(`libonload uses ${cell(shown.used.value)}: ${shown.used.why}`);
    if (winner.value === '' && !winner.dynamic) notes.push('an empty value sets the variable to its own name');
    if (winner.conditional) notes.push('conditional');
    if (winner.dynamic) notes.push('computed at run time');
    if (all.length > 1) notes.push(`${all.length - 1} later assignment${all.length > 2 ? 's' : ''} ignored`);
    if (!catalog.option(winner.name) && winner.name.startsWith('EF_')) notes.push('unknown option');
    lines.push(
      `| \`${winner.name}\` | ${shown.used ? `${cell(shown.exported)} → ${cell(shown.used.value)}` : cell(shown.exported)} | ${describeOrigin(winner)} | ${notes.join(', ')} |`,
    );
  }
  let markdown =
    entries.length === 0
      ? 'This profile sets nothing.'
      : `${entries.length} variable${entries.length > 1 ? 's' : ''} set (the first assignment wins; the environment still beats every profile value).\n\n${lines.join('\n')}`;
  const dynamic = analysis.dynamicNames;
  if (dynamic.length > 0) {
    const where = dynamic
      .slice(0, 5)
      .map(
        (assignment) =>
          `\`${clip(assignment.written, 40)}\` (${assignment.via.length === 0 ? 'this profile' : profileNameOf(assignment.uri)} line ${assignment.line + 1})`,
      )
      .join(', ');
    markdown += `\n\nNot shown: ${dynamic.length} onload_set${dynamic.length > 1 ? 's' : ''} whose variable name the shell builds at run time: ${where}${dynamic.length > 5 ? ', …' : ''}. Any of them may set one of the options above first.`;
  }
  return { markdown, entries: rows };
}
