// The facts about one catalog property as Markdown, shared by hover and completion.
import { type CatalogProperty, componentLabel } from './catalog';

export function propertyMarkdown(property: CatalogProperty): string {
  const lines: string[] = [];
  lines.push(`**${property.key}** · ${componentLabel(property)}${property.forkOnly ? ' · *Couchbase fork only*' : ''}`);
  if (property.description) lines.push('', property.description);
  const facts: string[] = [`Type: \`${property.type}\``];
  if (property.default !== null && property.default !== undefined) facts.push(`Default: \`${property.default === '' ? '(empty)' : property.default}\``);
  else if (property.computedDefault) facts.push(`Default: ${property.computedDefault}`);
  else facts.push('Default: none');
  const range = rangeText(property);
  if (range) facts.push(`Range: ${range}${property.unit ? ` ${property.unit}` : ''}`);
  else if (property.unit) facts.push(`Unit: ${property.unit}`);
  if (property.since) facts.push(`Since: ${property.since}`);
  if (property.cliFlag) facts.push(`Flag: \`${property.cliFlag}\``);
  lines.push('', facts.join(' · '));
  if (property.values && property.values.length > 0) {
    lines.push('', `Values: ${property.values.map((value) => `\`${value}\``).join(', ')}${property.valuesEnforced ? '' : ' (not checked by YCSB)'}`);
  }
  if (property.boolean === 'exact-true') lines.push('', 'Only the exact lower-case `true` counts as true.');
  if (property.unknownValueBehaviour) lines.push('', `Other values: ${property.unknownValueBehaviour}.`);
  if (property.availability) lines.push('', `Availability: ${property.availability}.`);
  for (const constraint of property.constraints ?? []) lines.push('', `Rule: ${constraint.rule} (YCSB: ${constraint.enforcement}).`);
  return lines.join('\n');
}

function rangeText(property: CatalogProperty): string | undefined {
  const { min, max } = property;
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  if (min !== undefined) return `≥ ${min}`;
  if (max !== undefined) return `≤ ${max}`;
  return undefined;
}
