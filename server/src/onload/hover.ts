// Hover: an option's facts and its effective value at that line once imports are counted; on an
// import, where it resolves and what it sets.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { noClientCommands, type HoverOptions } from '../common/languageFeatures';
import { MarkupKind, type Hover } from 'vscode-languageserver-types';
import type { OnloadCatalog } from './catalog';
import type { OptionInfo } from './catalogTypes';
import { assignedValue } from './usedValue';
import type { Assignment, ProfileAnalysis } from './profileAnalysis';
import { describeOrigin } from './effectiveConfiguration';
import { describeImportTarget } from './imports';
import { optionMarkdown } from './optionFacts';
import { contains, directiveAt } from './profileDocument';
import { clip } from './values';

/** The VS Code command the footer names, for clients that have it. */
export const showEffectiveConfigurationCommand = 'onloadBench.showEffectiveConfiguration';

export function hoverAt(
  document: TextDocument,
  offset: number,
  analysis: ProfileAnalysis,
  catalog: OnloadCatalog,
  options: HoverOptions = noClientCommands,
): Hover | null {
  const found = directiveAt(analysis.parsed, offset);
  if (!found) return null;
  const { directive, index } = found;
  const range = (start: number, end: number) => ({ start: document.positionAt(start), end: document.positionAt(end) });

  if (directive.kind === 'import') {
    if (!contains(directive.nameSpan, offset) || directive.name === '') return null;
    const outcome = analysis.imports.get(index);
    const target = outcome?.target;
    const where = target ? describeImportTarget(target) : 'nothing (the launcher would stop with exit code 3)';
    const sets = analysis.assignments.filter((assignment) => assignment.rootIndex === index);
    const lines = [`**onload_import ${clip(directive.name)}** resolves to ${where}.`];
    if (sets.length > 0) {
      lines.push('', `It sets ${sets.length} variable${sets.length > 1 ? 's' : ''}:`, '');
      for (const assignment of sets.slice(0, 30))
        lines.push(
          `- \`${assignment.name}\` = \`${clip(assignment.value)}\`${assignment.conditional ? ' (conditional)' : ''}`,
        );
      if (sets.length > 30) lines.push(`- … and ${sets.length - 30} more`);
    }
    return {
      contents: { kind: MarkupKind.Markdown, value: lines.join('\n') },
      range: range(directive.nameSpan.start, directive.nameSpan.end),
    };
  }

  if (!contains(directive.nameSpan, offset) && !contains(directive.valueSpan, offset)) return null;
  if (directive.name === '') return null;
  if (directive.nameDynamic) {
    const value = [
      `**${clip(directive.name)}** — a name the shell builds at run time: onload_set sees the expanded word, so which variable this sets (and whether it is an Onload option) is not known here.`,
    ];
    return {
      contents: { kind: MarkupKind.Markdown, value: value.join('\n') },
      range: range(directive.nameSpan.start, directive.nameSpan.end),
    };
  }
  const option = catalog.option(directive.name);
  const parts: string[] = [];
  if (option) parts.push(optionMarkdown(option));
  else
    parts.push(
      `**${clip(directive.name)}**${directive.name.startsWith('EF_') ? ' — not an Onload option' : ' — a shell variable (not an Onload option)'}`,
    );
  const earlierDynamic = analysis.dynamicNames.find((assignment) => assignment.rootIndex < index);
  const dynamicNote = earlierDynamic
    ? ` An earlier onload_set with a name built at run time (\`${clip(earlierDynamic.written, 40)}\`, line ${earlierDynamic.line + 1}${earlierDynamic.via.length > 0 ? ` via onload_import ${earlierDynamic.via.join(' → ')}` : ''}) may set it first.`
    : '';
  parts.push('', '---', '', effectiveHere(directive.name, index, analysis, option) + dynamicNote);
  if (options.clientCommands.includes(showEffectiveConfigurationCommand))
    parts.push('', '_The whole profile, imports resolved: command "Show effective Onload configuration"._');
  return {
    contents: { kind: MarkupKind.Markdown, value: parts.join('\n') },
    range: range(directive.nameSpan.start, directive.nameSpan.end),
  };
}

/** What the variable holds once this line has run, counting imports before it, and what libonload makes of it. */
function effectiveHere(name: string, index: number, analysis: ProfileAnalysis, option: OptionInfo | undefined): string {
  const before: Assignment[] = [];
  let own: Assignment | undefined;
  for (const assignment of analysis.assignments) {
    if (assignment.name !== name || assignment.rootIndex > index) continue;
    if (assignment.rootIndex === index && assignment.via.length === 0) own = assignment;
    else before.push(assignment);
  }
  const show = (assignment: Assignment) => {
    if (assignment.dynamic) return `computed at run time (\`${clip(assignment.value)}\`)`;
    const { exported, used } = assignedValue(option, name, assignment.value, false);
    const shown =
      assignment.value === ''
        ? `\`${clip(exported)}\` (an empty value sets the variable to its own name)`
        : `\`${clip(exported)}\``;
    return used ? `${shown}, which libonload reads as \`${clip(used.value)}\` (${used.why})` : shown;
  };
  const certainEarlier = before.find((assignment) => !assignment.conditional);
  if (certainEarlier) {
    return `**Effective value here:** ${show(certainEarlier)} from ${describeOrigin(certainEarlier)}; this line has no effect (the first assignment wins).`;
  }
  const maybe = before.filter((assignment) => assignment.conditional);
  const maybeText =
    maybe.length > 0 ? ` unless ${describeOrigin(maybe[0]!)} (conditional) set it first to ${show(maybe[0]!)}` : '';
  if (own) {
    const ownText = own.conditional ? `${show(own)} if this conditional line runs` : show(own);
    return `**Effective value here:** ${ownText}${maybeText}, unless the environment already sets ${name}.`;
  }
  return `**Effective value here:** not set by this profile${maybeText}.`;
}
