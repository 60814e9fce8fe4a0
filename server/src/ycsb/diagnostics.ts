// Validation of YCSB workload files, following ../shared/ycsb/VALIDATION.md:
//   error       - YCSB exits or throws with this file;
//   warning     - YCSB silently ignores or changes something (the message says what it really does);
//   information - harmless but worth knowing (proportions are normalised, fork-only keys).
// Every diagnostic has a stable kebab-case code and, where fixable, its quick fixes in `data`.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type Diagnostic,
  DiagnosticSeverity,
  DiagnosticTag,
  type Range,
  type TextEdit,
} from 'vscode-languageserver-types';
import { type CatalogProperty, type YcsbCatalog } from './catalog';
import { javaTrim, parseJavaDouble, parseJavaInteger } from './javaValues';
import { formatMix, operationMix, proportionKeys } from './operationMix';
import type { PropertiesDocument, PropertyEntry } from './propertiesParser';
import { closest } from '../common/similarity';
import { type WorkloadShape, workloadShape } from './workloadShape';

export const diagnosticSource = 'onload-bench';

export type YcsbDiagnosticCode =
  | 'malformed-unicode-escape'
  | 'missing-workload'
  | 'insert-range-exceeds-recordcount'
  | 'unknown-value'
  | 'zipfian-needs-operationcount'
  | 'dataintegrity-needs-constant-fieldlength'
  | 'invalid-integer'
  | 'invalid-number'
  | 'invalid-list-entry'
  | 'value-out-of-range'
  | 'kv-off-needs-sync-mutation'
  | 'no-operations'
  | 'hotspot-fraction-reset'
  | 'insertorder-means-ordered'
  | 'boolean-case-false'
  | 'not-a-boolean'
  | 'invalid-percentiles'
  | 'unknown-key'
  | 'key-for-other-binding'
  | 'duplicate-key'
  | 'negative-proportion'
  | 'min-above-max'
  | 'proportions-not-normalised'
  | 'fork-only-key'
  | 'key-not-in-release'
  | 'class-name-typo'
  | 'threads-above-operations'
  | 'missing-companion-key'
  | 'timeseries-fields-below-threads'
  | 'non-ascii-text';

/** One quick fix: a title and the edits that apply it. */
export interface QuickFix {
  readonly title: string;
  readonly edits: TextEdit[];
}

/** What `Diagnostic.data` holds for this language. */
export interface YcsbDiagnosticData {
  readonly fixes: QuickFix[];
}

const { Error, Warning, Information } = DiagnosticSeverity;

export function ycsbDiagnostics(text: TextDocument, document: PropertiesDocument, catalog: YcsbCatalog): Diagnostic[] {
  const shape = workloadShape(document, catalog);
  const context = new Context(text, document, catalog, shape);
  for (const issue of document.issues) {
    context.add(issue.code, Error, context.range(issue.start, issue.end), issue.message);
  }
  checkDuplicates(context);
  for (const entry of document.effective.values()) checkEntry(context, entry);
  for (const entry of document.entries) checkEncoding(context, entry);
  checkWholeFile(context);
  return context.diagnostics;
}

/** Did-you-mean costs an edit distance per catalog key: past this many unknown keys, skip it. */
const maxSuggestions = 500;

/** Keys and values quoted in messages, shortened so a huge line does not make a huge message. */
const shown = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

class Context {
  readonly diagnostics: Diagnostic[] = [];
  suggestionsLeft = maxSuggestions;
  constructor(
    readonly text: TextDocument,
    readonly document: PropertiesDocument,
    readonly catalog: YcsbCatalog,
    readonly shape: WorkloadShape,
  ) {}

  range(start: number, end: number): Range {
    return { start: this.text.positionAt(start), end: this.text.positionAt(end) };
  }

  keyRange(entry: PropertyEntry): Range {
    return this.range(entry.keyStart, Math.max(entry.keyEnd, entry.keyStart));
  }

  /** The value, or the key when the value is empty (a zero-width squiggle is easy to miss). */
  valueRange(entry: PropertyEntry): Range {
    return entry.valueEnd > entry.valueStart ? this.range(entry.valueStart, entry.valueEnd) : this.keyRange(entry);
  }

  replaceValue(entry: PropertyEntry, newValue: string, title = `Change to '${newValue}'`): QuickFix {
    return { title, edits: [{ range: this.range(entry.valueStart, entry.valueEnd), newText: newValue }] };
  }

  /** Removes the whole logical line of an entry, including its line break. */
  deleteLine(entry: PropertyEntry, title: string): QuickFix {
    const start = this.text.positionAt(entry.lineStart);
    const end = this.text.positionAt(entry.lineEnd);
    return {
      title,
      edits: [
        {
          range: { start: { line: start.line, character: 0 }, end: { line: end.line + 1, character: 0 } },
          newText: '',
        },
      ],
    };
  }

  /** Inserts a new line right after an entry, or at the top of the file. */
  insertLineAfter(entry: PropertyEntry | undefined, line: string, title: string): QuickFix {
    const at = entry ? { line: this.text.positionAt(entry.lineEnd).line + 1, character: 0 } : { line: 0, character: 0 };
    const needsBreak = entry !== undefined && at.line >= this.text.lineCount;
    return { title, edits: [{ range: { start: at, end: at }, newText: needsBreak ? `\n${line}` : `${line}\n` }] };
  }

  add(
    code: YcsbDiagnosticCode,
    severity: DiagnosticSeverity,
    range: Range,
    message: string,
    fixes: QuickFix[] = [],
  ): void {
    const diagnostic: Diagnostic = { range, severity, code, source: diagnosticSource, message };
    // An overridden or ignored line does nothing: editors grey it out.
    if (code === 'duplicate-key') diagnostic.tags = [DiagnosticTag.Unnecessary];
    if (fixes.length > 0) diagnostic.data = { fixes } satisfies YcsbDiagnosticData;
    this.diagnostics.push(diagnostic);
  }

  value(key: string): string | undefined {
    return this.document.effective.get(key)?.value;
  }
}

function checkDuplicates(context: Context): void {
  for (const entry of context.document.entries) {
    const last = context.document.effective.get(entry.key)!;
    if (last === entry) continue;
    const line = context.text.positionAt(last.lineStart).line + 1;
    context.add(
      'duplicate-key',
      Warning,
      context.keyRange(entry),
      `'${shown(entry.key)}' is set again on line ${line}; YCSB uses only the last value ('${shown(last.value)}') and ignores this one.`,
      [context.deleteLine(entry, `Remove this overridden '${shown(entry.key)}' line`)],
    );
  }
}

function checkEntry(context: Context, entry: PropertyEntry): void {
  const { catalog, shape } = context;
  const entries = catalog.entries(entry.key);
  if (entries.length === 0) {
    checkUnknownKey(context, entry);
    return;
  }
  const forBinding = shape.binding
    ? entries.filter((e) => e.binding === undefined || e.binding === shape.binding)
    : entries;
  if (forBinding.length === 0) {
    const readers = [...new Set(entries.map((e) => e.binding))].join(', ');
    context.add(
      'key-for-other-binding',
      Warning,
      context.keyRange(entry),
      `'${entry.key}' is read by the ${readers} binding, not by ${shape.binding} which this file is for; YCSB ignores it.`,
    );
    return;
  }
  const property = catalog.lookup(entry.key, shape.binding)!;
  if (forBinding.every((e) => e.forkOnly)) {
    context.add(
      'fork-only-key',
      Information,
      context.keyRange(entry),
      `'${entry.key}' is read only by Couchbase's YCSB fork (${property.availability ?? 'couchbaselabs/YCSB'}); upstream YCSB ignores it.`,
    );
  }
  if (property.since?.startsWith('master')) {
    context.add(
      'key-not-in-release',
      Information,
      context.keyRange(entry),
      `'${entry.key}' exists only in YCSB's master branch (${property.since}); the 0.17.0 release ignores it.`,
    );
  }
  checkValue(context, entry, property);
}

/**
 * YCSB loads -P files through an InputStream, which Java decodes as ISO-8859-1: a UTF-8 'é' is
 * read as two characters. Only \uXXXX escapes say the same thing to both.
 */
function checkEncoding(context: Context, entry: PropertyEntry): void {
  const raw = context.text.getText().slice(entry.lineStart, entry.lineEnd);
  if (!/[\u0080-\uffff]/.test(raw)) return;
  const escaped = (start: number, end: number) =>
    context.text
      .getText()
      .slice(start, end)
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const edits: TextEdit[] = [];
  for (const [start, end] of [
    [entry.keyStart, entry.keyEnd],
    [entry.valueStart, entry.valueEnd],
  ] as const) {
    if (end > start && /[\u0080-\uffff]/.test(context.text.getText().slice(start, end))) {
      edits.push({ range: context.range(start, end), newText: escaped(start, end) });
    }
  }
  context.add(
    'non-ascii-text',
    Warning,
    context.range(entry.lineStart, entry.lineEnd),
    'YCSB reads workload files as ISO-8859-1, so non-ASCII characters saved as UTF-8 arrive changed; write them as \\uXXXX escapes.',
    edits.length > 0 ? [{ title: 'Write non-ASCII characters as \\uXXXX escapes', edits }] : [],
  );
}

function checkUnknownKey(context: Context, entry: PropertyEntry): void {
  if (entry.key === 'zipfianconstant') {
    context.add(
      'unknown-key',
      Warning,
      context.keyRange(entry),
      "YCSB has no 'zipfianconstant' key: CoreWorkload's zipfian constant is fixed at 0.99 (only RestWorkload has per-operation *zipfconstant keys). This line is ignored.",
      [context.deleteLine(entry, "Remove the ignored 'zipfianconstant' line")],
    );
    return;
  }
  const suggestion =
    context.suggestionsLeft-- > 0 ? closest(entry.key, context.catalog.keys(), (candidate) => candidate) : undefined;
  const fixes = suggestion
    ? [{ title: `Change to '${suggestion}'`, edits: [{ range: context.keyRange(entry), newText: suggestion }] }]
    : [];
  context.add(
    'unknown-key',
    Warning,
    context.keyRange(entry),
    `YCSB does not read '${shown(entry.key)}' and ignores it.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
    fixes,
  );
}

function checkValue(context: Context, entry: PropertyEntry, property: CatalogProperty): void {
  const value = entry.value;
  switch (property.type) {
    case 'int':
    case 'long': {
      const parsed = parseJavaInteger(value, property.type);
      if (!parsed.ok) {
        const trimmed = javaTrim(value);
        const fixes =
          trimmed !== value && parseJavaInteger(trimmed, property.type).ok
            ? [context.replaceValue(entry, trimmed, 'Remove the white space around the number')]
            : [];
        context.add(
          'invalid-integer',
          Error,
          context.valueRange(entry),
          `'${entry.key}' must be a whole number: '${shown(value)}' ${parsed.reason}. YCSB stops with a NumberFormatException.`,
          fixes,
        );
        return;
      }
      checkRange(context, entry, property, parsed.value);
      return;
    }
    case 'double': {
      const parsed = parseJavaDouble(value);
      if (!parsed.ok) {
        context.add(
          'invalid-number',
          Error,
          context.valueRange(entry),
          `'${entry.key}' must be a number: '${shown(value)}' ${parsed.reason}. YCSB stops with a NumberFormatException.`,
        );
        return;
      }
      checkRange(context, entry, property, parsed.value);
      return;
    }
    case 'bool':
      checkBoolean(context, entry, property);
      return;
    case 'enum':
      checkEnum(context, entry, property);
      return;
    case 'list<int>':
      checkIntegerList(context, entry);
      return;
    case 'class': {
      // Any class on the class path is accepted, but one edit away from a YCSB class is a typo
      // that ends in ClassNotFoundException.
      const known = property.values ?? [];
      const name = javaTrim(value);
      if (name.length === 0 || known.includes(value)) return;
      const suggestion = closest(name, known, (candidate) => candidate);
      if (suggestion) {
        context.add(
          'class-name-typo',
          Warning,
          context.valueRange(entry),
          `'${shown(value)}' is not a YCSB class; did you mean '${suggestion}'? An unknown class stops YCSB at start (ClassNotFoundException).`,
          [context.replaceValue(entry, suggestion)],
        );
      }
      return;
    }
    case 'list<double>':
      if (value.split(',').some((part) => !parseJavaDouble(part).ok)) {
        context.add(
          'invalid-percentiles',
          Warning,
          context.valueRange(entry),
          `'${shown(value)}' is not a comma list of numbers: YCSB prints a warning and uses its default percentiles instead.`,
        );
      }
      return;
    default:
      return;
  }
}

function checkRange(context: Context, entry: PropertyEntry, property: CatalogProperty, value: number): void {
  const key = entry.key;
  if (key === 'hotspotdatafraction' || key === 'hotspotopnfraction') {
    if (value < 0 || value > 1) {
      context.add(
        'hotspot-fraction-reset',
        Warning,
        context.valueRange(entry),
        `'${key}' must be between 0 and 1: YCSB prints a warning and uses 0.0 instead of ${shown(entry.value)}.`,
      );
    }
    return;
  }
  if (key.endsWith('proportion')) {
    if (value < 0) {
      context.add(
        'negative-proportion',
        Warning,
        context.valueRange(entry),
        `A negative proportion is silently ignored: YCSB treats '${key}' as 0.`,
        [context.replaceValue(entry, '0')],
      );
    }
    return; // Above 1 is fine: weights are normalised (see proportions-not-normalised).
  }
  if (key === 'exponential.percentile' && !(value > 0 && value < 100)) {
    context.add(
      'value-out-of-range',
      Warning,
      context.valueRange(entry),
      "'exponential.percentile' must be strictly between 0 and 100, or the exponential distribution's rate is meaningless.",
    );
    return;
  }
  const { min, max } = property;
  const below = min !== undefined && value < min;
  const above = max !== undefined && value > max;
  if (!below && !above) return;
  const bounds =
    max === undefined ? `at least ${min}` : min === undefined ? `at most ${max}` : `between ${min} and ${max}`;
  if (property.rangeEnforced) {
    context.add(
      'value-out-of-range',
      Error,
      context.valueRange(entry),
      `'${key}' must be ${bounds}; YCSB refuses ${shown(entry.value)} and stops.`,
      [context.replaceValue(entry, String(below ? min : max))],
    );
  } else {
    context.add(
      'value-out-of-range',
      Warning,
      context.valueRange(entry),
      `'${key}' should be ${bounds}; YCSB does not check it and ${shown(entry.value)} gives wrong or no results.`,
      [context.replaceValue(entry, String(below ? min : max))],
    );
  }
}

function checkBoolean(context: Context, entry: PropertyEntry, property: CatalogProperty): void {
  const value = entry.value;
  if (value === 'true' || value === 'false') return;
  const lower = value.toLowerCase();
  if (property.boolean === 'exact-true' && lower === 'true') {
    context.add(
      'boolean-case-false',
      Warning,
      context.valueRange(entry),
      `'${entry.key}' is compared with exactly 'true': '${shown(value)}' counts as false.`,
      [context.replaceValue(entry, 'true'), context.replaceValue(entry, 'false')],
    );
    return;
  }
  if (property.boolean === 'any-case-true' && (lower === 'true' || lower === 'false')) return;
  const trimmed = javaTrim(value);
  const fixes =
    trimmed === 'true' || trimmed === 'false'
      ? [context.replaceValue(entry, trimmed, 'Remove the white space around the value')]
      : [context.replaceValue(entry, 'true'), context.replaceValue(entry, 'false')];
  context.add(
    'not-a-boolean',
    Warning,
    context.valueRange(entry),
    `'${shown(value)}' is not 'true' or 'false'${trimmed !== value ? ' (YCSB keeps the white space)' : ''}: YCSB reads '${entry.key}' as false.`,
    fixes,
  );
}

function allowedValues(context: Context, property: CatalogProperty): readonly string[] {
  const byWorkload = property.valuesByWorkload;
  const workload = context.shape.workload;
  if (byWorkload && workload && byWorkload[workload]) return byWorkload[workload];
  return property.values ?? [];
}

function checkEnum(context: Context, entry: PropertyEntry, property: CatalogProperty): void {
  const value = entry.value;
  if (entry.key === 'insertorder') {
    if (value !== 'hashed' && value !== 'ordered') {
      const fixes = [context.replaceValue(entry, 'ordered'), context.replaceValue(entry, 'hashed')];
      if (closest(value, ['hashed'], (v) => v)) fixes.reverse();
      context.add(
        'insertorder-means-ordered',
        Warning,
        context.valueRange(entry),
        `Only exactly 'hashed' selects hashed keys: YCSB treats '${shown(value)}' as 'ordered'.`,
        fixes,
      );
    }
    return;
  }
  if (!property.valuesEnforced) return;
  const allowed = allowedValues(context, property);
  const matches = property.caseInsensitive
    ? allowed.some((candidate) => candidate.toUpperCase() === value.toUpperCase())
    : allowed.includes(value);
  if (matches || allowed.length === 0) return;
  if (entry.key === 'couchbase.sdklogging' && /^-?\d+$/.test(value)) return; // Level.parse takes numbers too.
  const suggestion = closest(javaTrim(value), allowed, (candidate) => candidate);
  const workloadNote = property.valuesByWorkload && context.shape.workload ? ` with ${context.shape.workload}` : '';
  const spaceNote = javaTrim(value) !== value ? ' (YCSB keeps the white space around it)' : '';
  context.add(
    'unknown-value',
    Error,
    context.valueRange(entry),
    `'${shown(value)}'${spaceNote} is not a valid '${entry.key}'${workloadNote}: YCSB stops. Allowed: ${allowed.join(', ')}.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
    suggestion ? [context.replaceValue(entry, suggestion)] : [],
  );
}

function checkIntegerList(context: Context, entry: PropertyEntry): void {
  if (entry.key !== 'tagcardinality') return;
  const bad = entry.value.split(',').find((part) => {
    const parsed = parseJavaInteger(part.trim(), 'int');
    return !parsed.ok || parsed.value < 1;
  });
  if (bad !== undefined) {
    context.add(
      'invalid-list-entry',
      Error,
      context.valueRange(entry),
      `Every 'tagcardinality' entry must be a whole number of at least 1; '${bad.trim()}' makes TimeSeriesWorkload stop.`,
    );
  }
}

function checkWholeFile(context: Context): void {
  const { document, shape, catalog } = context;
  const effective = document.effective;

  if (!effective.has('workload')) {
    const className = `${shape.classPackage ?? 'site.ycsb'}.workloads.CoreWorkload`;
    const first = document.entries[0];
    context.add(
      'missing-workload',
      Error,
      first ? context.keyRange(first) : context.range(0, 0),
      "No 'workload' key: YCSB prints 'Missing property: workload' and exits.",
      [context.insertLineAfter(undefined, `workload=${className}`, `Add 'workload=${className}'`)],
    );
  }

  checkInsertRange(context);

  const distribution = effective.get('requestdistribution');
  const coreLike =
    shape.workload !== 'RestWorkload' && shape.workload !== 'TimeSeriesWorkload' && shape.workload !== 'other';
  if (distribution?.value === 'zipfian' && coreLike && !effective.has('operationcount')) {
    const count = parseJavaInteger(context.value('recordcount') ?? '', 'long');
    const suggested = count.ok && count.value > 0 ? String(count.value) : '1000';
    context.add(
      'zipfian-needs-operationcount',
      Error,
      context.valueRange(distribution),
      "requestdistribution=zipfian needs 'operationcount' to be set: CoreWorkload reads it without a default and stops with a NumberFormatException (in the load phase too).",
      [context.insertLineAfter(distribution, `operationcount=${suggested}`, `Add 'operationcount=${suggested}'`)],
    );
  }

  const integrity = context.value('dataintegrity');
  const lengthDistribution = effective.get('fieldlengthdistribution');
  if (integrity?.toLowerCase() === 'true' && lengthDistribution && lengthDistribution.value !== 'constant') {
    context.add(
      'dataintegrity-needs-constant-fieldlength',
      Error,
      context.valueRange(lengthDistribution),
      "dataintegrity=true needs fieldlengthdistribution=constant: YCSB prints 'Must have constant field size to check data integrity.' and exits.",
      [context.replaceValue(lengthDistribution, 'constant')],
    );
  }

  const kv = effective.get('couchbase.kv');
  const sync = effective.get('couchbase.syncMutationResponse');
  const couchbase2 = shape.binding === undefined || shape.binding === 'couchbase2';
  if (couchbase2 && kv && sync && kv.value !== 'true' && sync.value !== 'true') {
    context.add(
      'kv-off-needs-sync-mutation',
      Error,
      context.valueRange(sync),
      'couchbase2 cannot skip mutation responses over N1QL: with couchbase.kv=false, couchbase.syncMutationResponse=false makes the binding fail at start.',
      [context.replaceValue(sync, 'true')],
    );
  }

  checkThreads(context);
  checkCompanions(context);
  checkMinMax(context, 'minscanlength', 'maxscanlength');
  checkMinMax(context, 'minfieldlength', 'fieldlength');

  if (shape.workload !== 'other') {
    const mix = operationMix(document, catalog, shape.workload);
    const explicit = proportionKeys(shape.workload)
      .map(([, key]) => effective.get(key))
      .filter((e) => e !== undefined);
    const anchor = explicit[0] ?? effective.get('workload');
    const anchorRange = anchor ? context.keyRange(anchor) : context.range(0, 0);
    if (mix.total === 0) {
      context.add(
        'no-operations',
        Error,
        anchorRange,
        'Every operation proportion is 0: the run phase fails on its first operation (YCSB needs at least one proportion above 0).',
      );
    } else if (explicit.length > 0 && Math.abs(mix.total - 1) > 1e-9) {
      context.add(
        'proportions-not-normalised',
        Information,
        anchorRange,
        `The proportions add up to ${Number(mix.total.toFixed(6))}, not 1; YCSB divides by the sum, so the mix is ${formatMix(mix)}.`,
      );
    }
  }
}

function checkInsertRange(context: Context): void {
  const insertCountEntry = context.document.effective.get('insertcount');
  if (!insertCountEntry) return;
  const read = (key: string, fallback: number) => {
    const text = context.value(key);
    if (text === undefined) return fallback;
    const parsed = parseJavaInteger(text, 'long');
    return parsed.ok ? parsed.value : undefined;
  };
  const recordCount = read('recordcount', 0);
  const insertStart = read('insertstart', 0);
  const insertCount = read('insertcount', 0);
  if (recordCount === undefined || insertStart === undefined || insertCount === undefined) return;
  const effectiveRecords = recordCount === 0 ? 2147483647 : recordCount;
  if (insertStart + insertCount > effectiveRecords) {
    context.add(
      'insert-range-exceeds-recordcount',
      Error,
      context.valueRange(insertCountEntry),
      `insertstart + insertcount (${insertStart} + ${insertCount}) is more than recordcount (${effectiveRecords}): YCSB prints an error and exits.`,
      effectiveRecords - insertStart >= 0
        ? [context.replaceValue(insertCountEntry, String(effectiveRecords - insertStart))]
        : [],
    );
  }
}

const integerOf = (context: Context, key: string): number | undefined => {
  const text = context.value(key);
  if (text === undefined) return undefined;
  const parsed = parseJavaInteger(text, 'long');
  return parsed.ok ? parsed.value : undefined;
};

/** More threads than operations: YCSB quietly runs fewer threads (rule 27); TimeSeriesWorkload refuses (rule 19). */
function checkThreads(context: Context): void {
  const threadEntry = context.document.effective.get('threadcount');
  const threads = integerOf(context, 'threadcount');
  if (!threadEntry || threads === undefined) return;
  const operations = integerOf(context, 'operationcount');
  if (operations !== undefined && operations > 0 && threads > operations) {
    context.add(
      'threads-above-operations',
      Warning,
      context.valueRange(threadEntry),
      `threadcount ${threads} is above operationcount ${operations}: YCSB lowers the thread count to ${operations} for the run phase.`,
      [context.replaceValue(threadEntry, String(operations))],
    );
  }
  const fields = integerOf(context, 'fieldcount');
  if (context.shape.workload === 'TimeSeriesWorkload' && fields !== undefined && fields < threads) {
    context.add(
      'timeseries-fields-below-threads',
      Error,
      context.valueRange(threadEntry),
      `TimeSeriesWorkload needs fieldcount (${fields}) to be at least threadcount (${threads}); it stops at start.`,
    );
  }
}

/** Keys that make YCSB stop unless another key is set too. */
function checkCompanions(context: Context): void {
  const { document, shape } = context;
  const needs = (key: string, companion: string, why: string) => {
    const entry = document.effective.get(key);
    if (entry && javaTrim(entry.value).length > 0 && !document.effective.has(companion)) {
      context.add('missing-companion-key', Error, context.keyRange(entry), `'${key}' needs '${companion}': ${why}`, [
        context.insertLineAfter(entry, `${companion}=`, `Add '${companion}='`),
      ]);
    }
  };
  if (shape.workload === 'TimeSeriesWorkload') {
    needs('groupbyfunction', 'groupbykeys', 'TimeSeriesWorkload stops without one 0/1 flag per tag key.');
    needs('downsamplingfunction', 'downsamplinginterval', 'TimeSeriesWorkload stops without the interval.');
  }
  const scans = parseJavaDouble(context.value('scanproportion') ?? '0');
  if (shape.binding === 'couchbase' && scans.ok && scans.value > 0) {
    const scanEntry = document.effective.get('scanproportion')!;
    for (const key of ['couchbase.ddoc', 'couchbase.view']) {
      if (!document.effective.has(key)) {
        context.add(
          'missing-companion-key',
          Error,
          context.keyRange(scanEntry),
          `Scans with the couchbase binding go through a view: '${key}' must name an existing one, or the binding fails at start.`,
          [context.insertLineAfter(scanEntry, `${key}=`, `Add '${key}='`)],
        );
      }
    }
  }
}

function checkMinMax(context: Context, minKey: string, maxKey: string): void {
  const minEntry = context.document.effective.get(minKey);
  if (!minEntry) return;
  const min = parseJavaInteger(minEntry.value, 'int');
  const maxText = context.value(maxKey) ?? context.catalog.lookup(maxKey)?.default ?? undefined;
  const max = maxText === undefined ? undefined : parseJavaInteger(maxText, 'int');
  if (min.ok && max?.ok && min.value > max.value) {
    context.add(
      'min-above-max',
      Warning,
      context.valueRange(minEntry),
      `'${minKey}' (${min.value}) is above '${maxKey}' (${max.value}): YCSB does not check this and fails or draws wrong lengths at run time.`,
      [context.replaceValue(minEntry, String(max.value))],
    );
  }
}
