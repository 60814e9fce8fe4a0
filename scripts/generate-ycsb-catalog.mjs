// Generates server/src/ycsb/data/properties.json, the YCSB workload property catalog, from the
// facts in ../shared/ycsb/properties.json (override with YCSB_FACTS=path) merged with the
// project's own descriptions in scripts/generate-ycsb-catalog.descriptions.json.
//   node scripts/generate-ycsb-catalog.mjs [--out path] [--check]
// --check exits 1 when the checked-in catalog differs from what would be generated.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const factsPath = process.env.YCSB_FACTS ?? resolve(root, '../shared/ycsb/properties.json');
const descriptionsPath = join(root, 'scripts/generate-ycsb-catalog.descriptions.json');
const outIndex = process.argv.indexOf('--out');
const outPath = outIndex > 0 ? resolve(process.argv[outIndex + 1]) : join(root, 'server/src/ycsb/data/properties.json');

const facts = JSON.parse(readFileSync(factsPath, 'utf8'));
const { descriptions, since: sinceVersions, extraProperties } = JSON.parse(readFileSync(descriptionsPath, 'utf8'));

/** Booleans compared with equals("true") treat True/TRUE as false; Boolean.parseBoolean ignores case. */
const booleanParse = (parse) =>
  parse === undefined ? undefined : parse.startsWith('equals(') ? 'exact-true' : 'any-case-true';

/** Version a key appeared in: the facts' own `since`, else the hand-kept list (VALIDATION.md rule 39). */
const since = (fact) => fact.since ?? sinceVersions[fact.key];

const missing = [];
function describe(fact) {
  const text = descriptions[`${fact.key}@${fact.binding}`] ?? descriptions[fact.key];
  if (!text) missing.push(fact.key);
  return text ?? '';
}

const properties = facts.map((fact) => {
  const forkOnly = fact.repo !== 'brianfrankcooper/YCSB';
  const entry = {
    key: fact.key,
    description: describe(fact),
    type: fact.type,
    default: fact.default ?? null,
    computedDefault: fact.computedDefault,
    values: fact.values,
    valuesByWorkload: fact.valuesByWorkload,
    valuesEnforced: fact.valuesEnforced === true,
    valuesAreOpen: fact.valuesAreOpen === true || undefined,
    caseInsensitive: fact.caseInsensitive === true || undefined,
    unknownValueBehaviour: fact.unknownValueBehaviour,
    min: fact.min,
    max: fact.max,
    rangeEnforced: fact.rangeEnforced,
    unit: fact.unit,
    separator: fact.separator,
    boolean: booleanParse(fact.parse),
    component: fact.component,
    binding: fact.binding,
    since: since(fact),
    forkOnly,
    availability: fact.availability,
    required: fact.required === true || undefined,
    isPrefix: fact.isPrefix === true || undefined,
    isRuleOnly: fact.isRuleOnly === true || undefined,
    cliFlag: fact.cliFlag,
    constraints: fact.constraints?.map((c) => ({ rule: c.rule, enforcement: c.enforcement })),
    source: `${fact.repo}@${fact.ref.slice(0, 8)}:${fact.sourceFile}`,
  };
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
});

for (const extra of extraProperties) {
  properties.push({
    key: extra.key,
    description: extra.description,
    type: extra.type,
    default: extra.default,
    valuesEnforced: false,
    ...(extra.min !== undefined ? { min: extra.min, rangeEnforced: false } : {}),
    ...(extra.max !== undefined ? { max: extra.max } : {}),
    ...(extra.type === 'bool' ? { boolean: 'any-case-true' } : {}),
    component: extra.component,
    forkOnly: true,
    availability: extra.availability,
    source: `${extra.repo}@${extra.ref}:workloads`,
  });
}

if (missing.length > 0) {
  console.error(`no description for: ${missing.join(', ')}`);
  process.exit(1);
}

const output = JSON.stringify({ generatedBy: 'scripts/generate-ycsb-catalog.mjs', properties }, null, 1) + '\n';
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(outPath, 'utf8');
  } catch {
    // no catalog yet: it is written below
  }
  if (current !== output) {
    console.error(`${outPath} is out of date: run node scripts/generate-ycsb-catalog.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(outPath, output);
  console.log(`wrote ${properties.length} properties to ${outPath}`);
}
