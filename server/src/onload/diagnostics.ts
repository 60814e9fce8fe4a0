// Every check on an Onload profile, as LSP diagnostics with a stable code, source `onload-bench`,
// a precise range, and in `data.fixes` the edits a quick fix applies.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type Range } from 'vscode-languageserver-types';
import type { OnloadCatalog } from './catalog';
import { effectiveEntries, type Assignment, type ProfileAnalysis } from './profileAnalysis';
import { describeOrigin } from './effectiveConfiguration';
import type { Directive, ImportDirective, SetDirective, Span } from './parser';
import { positionMapper } from './positions';
import { checkRelations } from './relations';
import { closestMatches } from '../common/similarity';
import { checkValue, clip, type IssueSeverity } from './values';
import { assignedValue, describeUsed } from './usedValue';

export const diagnosticSource = 'onload-bench';

export interface TextEditData {
  range: Range;
  newText: string;
}

export interface FixData {
  title: string;
  edits: TextEditData[];
  /** The fix the editor may apply on its own (one obvious choice). */
  preferred?: boolean;
}

export interface OnloadDiagnosticData {
  fixes: FixData[];
  /** Suggested names or values, best first. */
  suggestions?: string[];
  replacement?: string;
  /** What libonload uses instead of the value written (usedValue.ts): `lint --format json` shows it too. */
  used?: string;
}

const severities: Record<IssueSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

const shellName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Editors grey out unnecessary code and strike deprecated names through (the adapter drops tags a client does not
 * know).
 */
const codeTags: Record<string, DiagnosticTag[] | undefined> = {
  'deprecated-option': [DiagnosticTag.Deprecated],
  'removed-option': [DiagnosticTag.Deprecated],
  'ineffective-assignment': [DiagnosticTag.Unnecessary],
  'not-read-from-env': [DiagnosticTag.Unnecessary],
};

/**
 * Did-you-mean costs about a millisecond per new name; a document full of distinct unknown names
 * (a generated or hostile file) would otherwise keep the server busy for minutes. Past this many
 * per document the diagnostics carry no suggestions; real profiles have a handful.
 */
export const maxSuggestionsPerDocument = 200;

/** Shared by every diagnostic without fixes (never mutated): a large profile has thousands. */
const noFixes: FixData[] = Object.freeze([]) as unknown as FixData[];

export function computeDiagnostics(
  document: TextDocument,
  analysis: ProfileAnalysis,
  catalog: OnloadCatalog,
  workspaceProfileNames: readonly string[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  let suggestionsLeft = maxSuggestionsPerDocument;
  const suggest = (compute: () => string[]): string[] => (suggestionsLeft-- > 0 ? compute() : []);
  const positions = positionMapper(document, analysis.parsed);
  const range = (span: Span): Range => ({
    start: positions.positionAt(span.start),
    end: positions.positionAt(span.end),
  });
  // Positional arguments rather than an options object: this runs once per diagnostic.
  const push = (
    code: string,
    severity: IssueSeverity,
    span: Span,
    message: string,
    fixes: FixData[] = noFixes,
    suggestions?: string[],
    replacement?: string,
    used?: string,
  ) => {
    const payload: OnloadDiagnosticData = { fixes };
    if (suggestions) payload.suggestions = suggestions;
    if (replacement) payload.replacement = replacement;
    if (used !== undefined) payload.used = used;
    const tags = codeTags[code];
    out.push(
      tags
        ? {
            range: range(span),
            severity: severities[severity],
            code,
            source: diagnosticSource,
            message,
            data: payload,
            tags,
          }
        : {
            range: range(span),
            severity: severities[severity],
            code,
            source: diagnosticSource,
            message,
            data: payload,
          },
    );
  };
  const removeLineFix = (directive: Directive, title: string): FixData[] => {
    // Inside if/case/loops/functions the line may be the only command of its block: removing it
    // could leave `then fi`, so no fix is offered there.
    if (!directive.ownsLine || directive.conditional) return noFixes;
    const startLine = positions.lineAt(directive.command.start);
    const endLine = positions.lineAt(directive.command.end);
    return [
      {
        title,
        edits: [
          {
            range: { start: { line: startLine, character: 0 }, end: { line: endLine + 1, character: 0 } },
            newText: '',
          },
        ],
      },
    ];
  };

  let known: string[] | undefined;
  /** Profile names an unresolved import may have meant (built once, for the first one). */
  const knownProfileNames = () =>
    (known ??= [...new Set([...workspaceProfileNames, ...catalog.standardProfiles.map((profile) => profile.name)])]);

  const directives = analysis.parsed.directives;
  directives.forEach((directive, index) => {
    if (directive.kind === 'set') checkSet(directive);
    else checkImport(directive, index);
  });

  function checkSet(directive: SetDirective): void {
    if (directive.name === '') {
      push('empty-value', 'error', directive.keyword, 'onload_set needs a variable name and a value.');
      return;
    }
    const name = directive.name;
    if (directive.nameDynamic) {
      // The shell expands the word before onload_set sees it: unknown here, not wrong.
      push(
        'name-computed-at-run-time',
        'info',
        directive.nameSpan,
        `The variable name '${clip(name)}' is built by the shell at run time, so it is not checked here (nor is its value).`,
      );
      return;
    }
    const option = catalog.option(name);
    const replacement = catalog.removedReplacement(name);
    if (replacement) {
      push(
        'removed-option',
        'error',
        directive.nameSpan,
        `${name} is no longer an option: libonload logs an error and ignores it; use ${replacement}.`,
        [
          {
            title: `Use ${replacement}`,
            edits: [{ range: range(directive.nameSpan), newText: replacement }],
            preferred: true,
          },
        ],
        undefined,
        replacement,
      );
    } else if (!option && name.startsWith('EF_')) {
      const suggestions = suggest(() => catalog.suggestOptions(name));
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : '';
      push(
        'unknown-option',
        'warning',
        directive.nameSpan,
        `Unknown Onload option ${clip(name)}: libonload only logs "Unknown option" and ignores it.${hint}`,
        suggestions.map((suggestion, index) => ({
          title: `Change to ${suggestion}`,
          edits: [{ range: range(directive.nameSpan), newText: suggestion }],
          preferred: index === 0,
        })),
        suggestions,
      );
    } else if (!shellName.test(name) && !directive.valueDynamic) {
      push(
        'invalid-name',
        'error',
        directive.nameSpan,
        `'${clip(name)}' is not a valid shell variable name: the launcher cannot export it.`,
      );
    }
    if (option?.deprecated) {
      const target = option.replacedBy?.[0];
      const fixes: FixData[] = [];
      if (target === 'EF_CLUSTER_SIZE' && !directive.valueDynamic) {
        // EF_CLUSTER_IGNORE=1 means "no clustering", which EF_CLUSTER_SIZE=0 now says.
        if (directive.value.trim() === '1')
          fixes.push({
            title: 'Replace with onload_set EF_CLUSTER_SIZE 0',
            edits: [{ range: range(directive.command), newText: 'onload_set EF_CLUSTER_SIZE 0' }],
            preferred: true,
          });
        else fixes.push(...removeLineFix(directive, 'Remove the deprecated setting'));
      } else if (target === 'EF_MCAST_SEND') {
        // The old switch is inverted: EF_MULTICAST_LOOP_OFF 0 means EF_MCAST_SEND 1 and vice versa.
        const inverted = directive.valueDynamic
          ? undefined
          : ({ '0': '1', '1': '0' } as Record<string, string>)[directive.value.trim()];
        if (inverted !== undefined)
          fixes.push({
            title: `Replace with onload_set EF_MCAST_SEND ${inverted}`,
            edits: [{ range: range(directive.command), newText: `onload_set EF_MCAST_SEND ${inverted}` }],
            preferred: true,
          });
      } else if (target) {
        fixes.push({
          title: `Use ${target}`,
          edits: [{ range: range(directive.nameSpan), newText: target }],
          preferred: true,
        });
      }
      const severity: IssueSeverity = name === 'EF_TCP_LOSS_MIN_CWND' ? 'info' : 'warning';
      const how =
        target === 'EF_CLUSTER_SIZE'
          ? 'use EF_CLUSTER_SIZE (0 disables clustering)'
          : target
            ? `use ${target}`
            : 'remove it';
      push(
        'deprecated-option',
        severity,
        directive.nameSpan,
        `${name} is deprecated: ${how}.`,
        fixes,
        undefined,
        target,
      );
    }
    if (option && !option.compiledInDefaultBuild) {
      const where = option.buildProfiles?.length
        ? `only in the ${option.buildProfiles.join(', ')} build profiles`
        : option.debugOnly
          ? 'only in debug builds'
          : `only when ${option.build ?? 'a build option'} is enabled`;
      push(
        'compiled-out-name',
        'info',
        directive.nameSpan,
        `${name} exists ${where}; a default Onload build reports it as an unknown option.`,
      );
    }
    if (option?.notRead) {
      push(
        'not-read-from-env',
        'warning',
        directive.nameSpan,
        `${name} has no effect: libonload knows the name but never reads it from the environment.`,
        removeLineFix(directive, 'Remove this line'),
      );
    }

    // The launcher's own pitfalls.
    if (directive.valueMissing) {
      const fallback = option?.default !== undefined ? String(option.default) : undefined;
      const { used } = assignedValue(option, name, '', false);
      const reads = used && option ? `; libonload uses ${describeUsed(option, used.value)} (${used.why})` : '';
      push(
        'empty-value',
        'error',
        directive.form === 'equals' ? directive.valueSpan : spanOrAfter(directive),
        `Empty value: onload_set sets ${name} to its own name ('${name}=${name}'), not to an empty value${reads}.`,
        fallback !== undefined
          ? [{ title: `Set the default value ${fallback}`, edits: [valueEdit(directive, fallback)] }]
          : noFixes,
        fallback ? [fallback] : [],
        undefined,
        used?.value,
      );
    }
    if (directive.cutFrom) {
      const kept = directive.value;
      push(
        'value-cut-at-equals',
        'warning',
        directive.cutFrom.span,
        `onload_set ${name}=… keeps only the text up to the next '=': the value becomes '${clip(kept)}', not '${clip(directive.cutFrom.written)}'. Use the two-word form.`,
        [
          {
            title: 'Use the two-word form with a quoted value',
            edits: [
              {
                range: {
                  start: positions.positionAt(directive.nameSpan.start),
                  end: positions.positionAt(directive.cutFrom.span.end),
                },
                newText: `${name} ${shellQuote(directive.cutFrom.written)}`,
              },
            ],
            preferred: true,
          },
        ],
      );
    }
    if (directive.extraWords.length > 0) {
      const last = directive.extraWords.at(-1)!;
      const whole = { start: directive.valueSpan.start, end: last.end };
      const written = positions.textOf(whole);
      const words = written.split(/\s+/).filter((word) => word.length > 0);
      const canQuote = !/["'$`\\]/.test(written);
      push(
        'unquoted-multiword',
        'warning',
        whole,
        `Only the first word '${clip(directive.value)}' is assigned to ${name}; the launcher drops the rest. Quote the whole value.`,
        canQuote
          ? [
              {
                title: 'Quote the value',
                edits: [{ range: range(whole), newText: `"${words.join(' ')}"` }],
                preferred: true,
              },
            ]
          : noFixes,
      );
    }
    if (option && !directive.valueMissing && !directive.valueDynamic) {
      // An indexed loop: for-of here allocated an iterator per directive (checkValue is not inlined).
      const issues = checkValue(option, directive.value);
      for (let index = 0; index < issues.length; index++) {
        const issue = issues[index]!;
        const fixes = (issue.suggestions ?? []).slice(0, 4).map((suggestion, index): FixData => ({
          title: `Change the value to ${clip(suggestion)}`,
          edits: [valueEdit(directive, suggestion)],
          preferred: index === 0 && (issue.suggestions?.length ?? 0) === 1,
        }));
        push(
          issue.code,
          issue.severity,
          directive.valueSpan,
          issue.message,
          fixes,
          issue.suggestions,
          undefined,
          issue.used,
        );
      }
    }
  }

  function valueEdit(directive: SetDirective, value: string): TextEditData {
    const text = shellQuote(value);
    if (directive.form === 'words' && directive.valueSpan.end > directive.valueSpan.start)
      return { range: range(directive.valueSpan), newText: text };
    if (directive.form === 'equals') return { range: range(directive.valueSpan), newText: text };
    const at = positions.positionAt(directive.nameSpan.end);
    return { range: { start: at, end: at }, newText: ` ${text}` };
  }

  function checkImport(directive: ImportDirective, index: number): void {
    if (directive.name === '') {
      push('unresolved-import', 'error', directive.keyword, 'onload_import needs a profile name.');
      return;
    }
    const outcome = analysis.imports.get(index);
    if (outcome?.target.kind === 'unresolved') {
      const suggestions = suggest(() => closestMatches(directive.name, knownProfileNames()));
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : '';
      push(
        'unresolved-import',
        'error',
        directive.nameSpan,
        `Cannot find profile '${clip(directive.name)}' beside this profile, in the onloadBench.profilePath folders or among the profiles Onload ships: the launcher stops with exit code 3.${hint}`,
        suggestions.map((suggestion, position) => ({
          title: `Import ${suggestion}`,
          edits: [{ range: range(directive.nameSpan), newText: suggestion }],
          preferred: position === 0,
        })),
        suggestions,
      );
    }
    if (outcome?.cycle) {
      push(
        'import-cycle',
        'error',
        directive.nameSpan,
        `Import cycle: ${outcome.cycle.join(' → ')}. The launcher has no guard and recurses until the shell gives up.`,
        removeLineFix(directive, 'Remove this import'),
      );
    }
  }

  // First assignment wins: a later onload_set of the same name does nothing. Only an earlier
  // assignment that certainly runs (not conditional) makes a later one certainly ineffective.
  // The message depends only on the blocking assignment and on whether the later one is
  // conditional (both set the same name), so each is built once per blocking assignment.
  const firstCertain = new Map<string, { blocking: Assignment; hasNoEffect?: string; canNeverTakeEffect?: string }>();
  for (const assignment of analysis.assignments) {
    const first = firstCertain.get(assignment.name);
    if (first && assignment.via.length === 0) {
      const directive = directives[assignment.rootIndex];
      if (directive?.kind === 'set') {
        const message = assignment.conditional
          ? (first.canNeverTakeEffect ??= ineffectiveMessage(first.blocking, 'can never take effect'))
          : (first.hasNoEffect ??= ineffectiveMessage(first.blocking, 'has no effect'));
        push(
          'ineffective-assignment',
          assignment.conditional ? 'info' : 'warning',
          directive.nameSpan,
          message,
          removeLineFix(directive, 'Remove the ineffective line'),
        );
      }
    }
    if (!first && !assignment.conditional) firstCertain.set(assignment.name, { blocking: assignment });
  }

  // Relations between options, reported on a line of this document that sets one of them.
  const entries = effectiveEntries(analysis.assignments);
  for (const finding of checkRelations(entries, catalog)) {
    const direct = finding.options
      .map((name) => entries.get(name)?.winner)
      .find((winner) => winner !== undefined && winner.via.length === 0);
    const directive = direct ? directives[direct.rootIndex] : undefined;
    if (directive?.kind !== 'set') continue;
    push(finding.code, finding.severity, directive.nameSpan, finding.message);
  }
  return out;
}

function ineffectiveMessage(blocking: Assignment, certainty: string): string {
  const where = blocking.via.length === 0 ? `line ${blocking.line + 1}` : describeOrigin(blocking);
  const value = blocking.dynamic
    ? 'a computed value'
    : blocking.value === ''
      ? `its own name (an empty value)`
      : `'${clip(blocking.value)}'`;
  return `This onload_set ${certainty}: ${blocking.name} is already set to ${value} by ${where}, and onload_set only sets unset variables (the first assignment wins).`;
}

function spanOrAfter(directive: SetDirective): Span {
  return directive.valueSpan.end > directive.valueSpan.start ? directive.valueSpan : directive.nameSpan;
}

/** Quotes a value for the shell only when it needs quoting. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_.,:/=+-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
