// Generates the Onload option catalog the language services load:
//   npx tsx scripts/generate-onload-catalog.ts   (ONLOAD_CATALOG_OUT=FILE writes elsewhere)
// Reads the facts in ../shared/onload (override with ONLOAD_FACTS_DIR), merges the project's own
// descriptions from scripts/onload-descriptions.json, and writes server/src/onload/data/catalog.json
// (compact: only the fields the services need). Standard profile names and what they set are
// extracted with the project's own profile parser so that `onload_import latency` has meaning even
// when the profile file is not in the workspace.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseProfile } from '../server/src/onload/parser';
import type { CatalogData, OptionInfo, StandardProfile } from '../server/src/onload/catalogTypes';

const repo = resolve(__dirname, '..');
const factsDir = resolve(process.env.ONLOAD_FACTS_DIR ?? join(repo, '..', 'shared', 'onload'));
const out = process.env.ONLOAD_CATALOG_OUT ?? join(repo, 'server', 'src', 'onload', 'data', 'catalog.json');

// the facts' JSON, whose fields this script reads one by one and writes out checked by the catalog's types
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Raw = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (name: string): any => JSON.parse(readFileSync(join(factsDir, name), 'utf8'));
const options: Raw[] = readJson('options.json');
const meta: Raw = readJson('options_meta.json');
const relations: Raw = readJson('relations.json');
const descriptions: Record<string, string> = JSON.parse(
  readFileSync(join(repo, 'scripts', 'onload-descriptions.json'), 'utf8'),
);

const scopeWords: Record<string, string> = {
  stack: 'Per-stack option (read when a process creates an Onload stack)',
  process: 'Per-process option (read when libonload starts in a process)',
  both: 'Read both per stack and per process',
};

function describeFacts(option: Raw): string {
  const parts = [`${scopeWords[option.scope] ?? 'Option'}, ${option.type}`];
  if (option.unit) parts[0] += ` in ${option.unit}`;
  if (option.enumValues && option.type !== 'bool') {
    parts.push(
      `values: ${Object.entries(option.enumValues)
        .map(([value, label]) => `${value} = ${label}`)
        .join(', ')}`,
    );
  }
  if (option.acceptedNames) parts.push(`accepts the names ${option.acceptedNames.join(', ')} (not numbers)`);
  if (option.keywords) parts.push(`keywords: ${option.keywords.join(', ')}`);
  return `${parts.join('; ')}. Category: ${option.keywordCategory ?? 'general'}.`;
}

const removedRule = relations.rules.find((rule: Raw) => rule.id === 'removed-fast-loops');
const catalogOptions: OptionInfo[] = options.map((option) => {
  const flags = option.flags ?? {};
  const info: OptionInfo = {
    name: option.name,
    scope: option.scope,
    type: option.type,
    syntax: option.valueSyntax ?? null,
    signed: typeof option.cType === 'string' && option.cType.startsWith('ci_int'),
    category: option.keywordCategory ?? 'general',
    compiledInDefaultBuild: option.compiledInDefaultBuild !== false,
    description: descriptions[option.name] ?? describeFacts(option),
    described: option.name in descriptions,
  };
  if (option.default !== undefined && option.default !== null) info.default = option.default;
  if (option.defaultLabel !== undefined) info.defaultLabel = option.defaultLabel;
  if (option.min !== null && option.min !== undefined) info.min = option.min;
  if (option.max !== null && option.max !== undefined) info.max = option.max;
  if (option.storageRange) info.storage = option.storageRange;
  if (typeof option.bits === 'number') info.bits = option.bits;
  if (option.unit) info.unit = option.unit;
  if (option.enumValues) info.enumValues = option.enumValues;
  if (option.acceptedNames) info.acceptedNames = option.acceptedNames;
  if (option.keywords) info.keywords = option.keywords;
  if (option.bitNames) info.bitNames = option.bitNames;
  if (option.maxLength) info.maxLength = option.maxLength;
  if (flags.deprecated) info.deprecated = true;
  if (flags.replacedBy) info.replacedBy = flags.replacedBy;
  if (flags.experimental) info.experimental = true;
  if (flags.debugOrTestOnly) info.debugOnly = true;
  if (option.buildCondition) info.build = option.buildCondition;
  if (option.compiledInProfiles_x86_64_release) info.buildProfiles = option.compiledInProfiles_x86_64_release;
  if (option.readFromEnvironment === false) info.notRead = true;
  if (option.defaultFromSysctl) info.sysctl = option.defaultFromSysctl;
  return info;
});

// Deprecated options the facts mark but whose replacement lives only in relations.json.
for (const rule of relations.rules as Raw[]) {
  if (rule.kind !== 'deprecated') continue;
  const [deprecated, replacement] = rule.options as string[];
  const option = catalogOptions.find((candidate) => candidate.name === deprecated);
  if (option && replacement) {
    option.deprecated = true;
    option.replacedBy ??= [replacement];
  }
}

const extraNames: OptionInfo[] = (meta.extraKnownNames as Raw[]).map((extra) => ({
  name: extra.name,
  scope: extra.scope ?? 'process',
  type: 'string',
  syntax: extra.valueSyntax ?? 'string',
  signed: false,
  category: extra.scope === 'ef_vi' ? 'ef_vi' : 'general',
  compiledInDefaultBuild: true,
  description:
    descriptions[extra.name] ??
    (extra.scope === 'ef_vi'
      ? 'Read by the ef_vi layer, outside the option tables; libonload accepts the name without warning.'
      : 'Accepted by libonload outside the option tables (no range or type checks apply).'),
  described: extra.name in descriptions,
  extra: true,
}));

const removed = [
  { name: 'EF_POLL_FAST_LOOPS', replacement: 'EF_POLL_FAST_USEC' },
  { name: 'EF_POLL_NONBLOCK_FAST_LOOPS', replacement: 'EF_POLL_NONBLOCK_FAST_USEC' },
].filter(() => removedRule !== undefined);

const profileDir = join(factsDir, 'profiles');
const standardProfiles: StandardProfile[] = readdirSync(profileDir)
  .sort()
  .map((file) => {
    const parsed = parseProfile(readFileSync(join(profileDir, file), 'utf8'));
    const fragment = file.endsWith('.opf-fragment');
    return {
      name: file.replace(/\.opf(-fragment)?$/, ''),
      file,
      fragment,
      steps: parsed.directives.map((directive) =>
        directive.kind === 'set'
          ? {
              kind: 'set' as const,
              name: directive.name,
              value: directive.value,
              dynamic: directive.valueDynamic,
              line: directive.line,
              conditional: directive.conditional,
            }
          : { kind: 'import' as const, name: directive.name, line: directive.line, conditional: directive.conditional },
      ),
    };
  });

const data: CatalogData = {
  source: { repo: meta.source.repo, commit: meta.source.commit, onloadVersion: meta.onloadVersionFile },
  options: [...catalogOptions, ...extraNames].sort((a, b) => a.name.localeCompare(b.name)),
  removed,
  standardProfiles,
};
writeFileSync(out, JSON.stringify(data) + '\n');
const described = catalogOptions.filter((option) => option.described).length;
console.log(
  `wrote ${out}: ${catalogOptions.length} options (+${extraNames.length} extra names), ${described} hand-described, ${standardProfiles.length} standard profiles`,
);
