// Short human renderings of an option's facts, shared by completion and hover.
import type { OptionInfo } from './catalogTypes';

const scopeNames: Record<string, string> = {
  stack: 'per-stack',
  process: 'per-process',
  both: 'per-stack and per-process',
  ef_vi: 'ef_vi',
};

export function scopeName(option: OptionInfo): string {
  return scopeNames[option.scope] ?? option.scope;
}

export function defaultText(option: OptionInfo): string | undefined {
  if (option.default === undefined || option.default === '') return undefined;
  return option.defaultLabel && option.defaultLabel !== String(option.default)
    ? `${option.default} (${option.defaultLabel})`
    : String(option.default);
}

export function rangeText(option: OptionInfo): string | undefined {
  if (option.min === undefined || option.max === undefined) return undefined;
  return `${option.min}..${option.max}`;
}

/** One line: type, unit, default, range, scope. */
export function optionDetail(option: OptionInfo): string {
  const parts = [option.unit ? `${option.type} (${option.unit})` : option.type];
  const fallback = defaultText(option);
  if (fallback !== undefined) parts.push(`default ${fallback}`);
  const range = rangeText(option);
  if (range && option.type !== 'bool') parts.push(`range ${range}`);
  parts.push(scopeName(option));
  if (option.deprecated) parts.push('deprecated');
  return parts.join(' · ');
}

/** Markdown: the description and the facts a tuner needs. */
export function optionMarkdown(option: OptionInfo): string {
  const lines = [
    `**${option.name}** — ${scopeName(option)} ${option.type}${option.unit ? ` in ${option.unit}` : ''}`,
    '',
    option.description,
    '',
  ];
  const facts: string[] = [];
  const fallback = defaultText(option);
  if (fallback !== undefined)
    facts.push(
      `default: \`${fallback}\`${option.sysctl ? ` (taken from ${option.sysctl.join(', ')} at run time)` : ''}`,
    );
  const range = rangeText(option);
  if (range && option.type !== 'bool')
    facts.push(`range: ${range}${option.scope === 'process' ? ' (not checked by libonload)' : ' (clamped)'}`);
  if (option.bits !== undefined && option.bits < 32)
    facts.push(`stored in ${option.bits} bit${option.bits > 1 ? 's' : ''}`);
  if (option.acceptedNames) facts.push(`names only: ${option.acceptedNames.map((name) => `\`${name}\``).join(', ')}`);
  else if (option.enumValues && option.type !== 'bool')
    facts.push(
      `values: ${Object.entries(option.enumValues)
        .map(([value, label]) => `\`${value}\` ${label}`)
        .join(', ')}`,
    );
  if (option.keywords) facts.push(`keywords: ${option.keywords.map((keyword) => `\`${keyword}\``).join(', ')}`);
  if (option.syntax === 'hex' || option.syntax === 'hex-strict') facts.push('read as hexadecimal');
  if (option.deprecated) facts.push(`deprecated${option.replacedBy ? `: use ${option.replacedBy.join(', ')}` : ''}`);
  if (option.experimental) facts.push('experimental');
  if (option.build)
    facts.push(
      `build condition: \`${option.build}\`${option.compiledInDefaultBuild ? '' : ' (not in the default build)'}`,
    );
  if (option.notRead) facts.push('never read from the environment');
  for (const fact of facts) lines.push(`- ${fact}`);
  return lines.join('\n').trimEnd();
}
