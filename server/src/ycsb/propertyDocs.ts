// The facts about one catalog property as Markdown, shared by hover and completion, in plain words:
// what kind of value it takes, its default and range, what YCSB does with a wrong value. Catalog
// field names (`long`, `exact-true`, `exception`...) are translated, not shown.
import { type CatalogProperty, componentLabel } from './catalog';

export function propertyMarkdown(property: CatalogProperty): string {
  const lines: string[] = [];
  lines.push(
    `**${property.key}** · ${componentPhrase(property)}${property.forkOnly ? ' · *Couchbase fork only*' : ''}`,
  );
  if (property.description) lines.push('', property.description);
  const facts: string[] = [`Takes ${valueKind(property)}${rangePhrase(property)}.`];
  if (property.default !== null && property.default !== undefined)
    facts.push(`Default: \`${property.default === '' ? '(empty)' : property.default}\`.`);
  else if (property.computedDefault) facts.push(`Default: ${property.computedDefault}.`);
  else facts.push('No default: unset unless given.');
  if (property.since) facts.push(`Since YCSB ${property.since}.`);
  if (property.cliFlag) facts.push(`Also set by the command-line flag \`${property.cliFlag}\`.`);
  lines.push('', facts.join(' '));
  if (property.values && property.values.length > 0) {
    lines.push(
      '',
      `Values: ${property.values.map((value) => `\`${value}\``).join(', ')}${property.valuesEnforced ? '' : ' (YCSB does not check this list)'}`,
    );
  }
  if (property.boolean === 'exact-true')
    lines.push('', 'Only the exact lower-case `true` counts as true; `True` or `1` mean false.');
  if (property.unknownValueBehaviour) lines.push('', `Any other value: ${property.unknownValueBehaviour}.`);
  if (property.availability) lines.push('', `Where it exists: ${property.availability}.`);
  for (const constraint of property.constraints ?? [])
    lines.push('', `${capitalise(constraint.rule)}: ${enforcementPhrase(constraint.enforcement)}.`);
  return lines.join('\n');
}

function componentPhrase(property: CatalogProperty): string {
  if (property.component === 'binding') return `setting of the ${property.binding ?? ''} binding`.replace('  ', ' ');
  if (property.component.startsWith('workload:')) return `workload setting (${componentLabel(property)})`;
  const names: Record<string, string> = {
    client: 'YCSB client setting',
    measurements: 'latency measurement setting',
    dbwrapper: 'setting of the DB wrapper (every binding)',
  };
  return names[property.component] ?? componentLabel(property);
}

function valueKind(property: CatalogProperty): string {
  switch (property.type) {
    case 'int':
    case 'long':
      return 'a whole number';
    case 'double':
      return 'a number';
    case 'bool':
      return '`true` or `false`';
    case 'enum':
      return 'one of the values below';
    case 'string':
      return 'text';
    case 'class':
      return 'a Java class name';
    case 'list<int>':
      return 'whole numbers separated by commas';
    case 'list<double>':
      return 'numbers separated by commas';
    case 'list<enum>':
      return 'values from the list below, separated by commas';
    case 'prefix':
      return 'keys that start with this name';
    default:
      return 'a value';
  }
}

function rangePhrase(property: CatalogProperty): string {
  const { min, max, unit } = property;
  const inUnit = unit ? ` ${unit}` : '';
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}${inUnit}`;
  if (min !== undefined) return `, ${min} or more${inUnit}`;
  if (max !== undefined) return `, at most ${max}${inUnit}`;
  return unit ? ` in ${unit}` : '';
}

/** What YCSB does when the rule is broken, from the catalog's enforcement note. */
export function enforcementPhrase(enforcement: string): string {
  const detail = /\((.*)\)\s*$/.exec(enforcement)?.[1];
  const quoted = /'([^']+)'/.exec(enforcement)?.[1];
  if (/^none\b/.test(enforcement)) return 'YCSB does not check this';
  if (/^exception at run time/.test(enforcement)) return 'otherwise YCSB fails during the run';
  if (/^exception\b/.test(enforcement)) return `otherwise YCSB stops with an error${detail ? ` (${detail})` : ''}`;
  if (/^exit\b/.test(enforcement)) return `otherwise YCSB exits${detail ? ` (${detail})` : ''}`;
  if (/^DBException/.test(enforcement))
    return `otherwise the database binding refuses to start${quoted ? ` ("${quoted}")` : ''}`;
  if (/^warning-reset to (.*)$/.test(enforcement))
    return `otherwise YCSB warns and uses ${/^warning-reset to (.*)$/.exec(enforcement)![1]} instead`;
  if (/^warning-adjust/.test(enforcement)) return 'otherwise YCSB warns and adjusts the value';
  if (/^warning-default/.test(enforcement)) return 'otherwise YCSB warns and uses the default';
  if (/^fallback/.test(enforcement)) return 'otherwise YCSB quietly uses its default';
  return `YCSB: ${enforcement}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
