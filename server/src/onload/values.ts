// Checks one literal value against what libonload's readers accept (FORMAT.md "valueSyntax"):
// atoi for per-stack numbers, strict decimal for per-process ones, hex, names only, keyword and
// port lists, the scalable-filters grammar, and ranges (clamped per stack, unchecked per process,
// truncated to narrow bitfields). What libonload then uses is usedValue.ts's answer, which every
// message here states and every issue carries (`used`). Pure: no LSP types.
import type { OptionInfo } from './catalogTypes';
import { closestMatches } from '../common/similarity';
import { describeUsed, legacyNames, minusOneMeansMaximum, usedValue } from './usedValue';

export type IssueSeverity = 'error' | 'warning' | 'info';

export interface ValueIssue {
  code: string;
  severity: IssueSeverity;
  message: string;
  /** Replacement values a quick fix may offer, best first. */
  suggestions?: string[];
  /** What libonload uses instead of the value written (usedValue.ts), when that is known. */
  used?: string;
}

const decimal = /^[+-]?\d+$/;
const maxDigits = 40;
/** Decimal strings this short (sign included) are exact as JavaScript numbers. */
const maxExactDigits = 15;
/** The answer for an accepted value, shared (never mutated): most lines of a profile are fine. */
const noIssues: ValueIssue[] = Object.freeze([]) as unknown as ValueIssue[];

export function checkValue(option: OptionInfo, value: string): ValueIssue[] {
  const issues = valueIssues(option, value);
  if (issues.length === 0) return issues;
  const used = usedValue(option, value);
  return used.why ? issues.map((issue) => ({ ...issue, used: used.value })) : issues;
}

function valueIssues(option: OptionInfo, value: string): ValueIssue[] {
  switch (option.syntax) {
    case 'enum-name':
      return checkEnumName(option, value);
    case 'decimal-atoi':
    case 'decimal-strict':
    case 'strtol':
      return checkDecimal(option, value);
    case 'hex':
    case 'hex-strict':
      return checkHex(option, value);
    case 'keyword-list':
      return checkKeywords(option, value);
    case 'port-list':
    case 'signal-number-list':
      return checkNumberList(option, value);
    case 'scalable-filters-spec': {
      const problem = scalableFiltersProblem(value);
      return problem
        ? [
            {
              code: 'scalable-filters-syntax',
              severity: 'error',
              message: `${option.name}: ${problem}; libonload disables scalable filters with a warning.`,
            },
          ]
        : [];
    }
    case 'ipv4-dotted':
      return /^(\d{1,3})(\.\d{1,3}){3}$/.test(value) && value.split('.').every((part) => Number(part) <= 255)
        ? []
        : [
            {
              code: 'value-not-accepted',
              severity: 'warning',
              message: `${option.name} expects a dotted IPv4 mask such as 255.255.255.0, not '${clip(value)}'.`,
            },
          ];
    case 'string':
      return checkString(option, value);
    default:
      return [];
  }
}

/** The number libonload ends up with for a literal value, when it is a plain number option. */
export function numericValue(option: OptionInfo | undefined, value: string): bigint | undefined {
  const trimmed = value.trim();
  if (trimmed.length > maxDigits) return undefined;
  if (option?.syntax === 'hex' || option?.syntax === 'hex-strict') {
    return /^(0x)?[0-9a-f]+$/i.test(trimmed)
      ? BigInt(trimmed.toLowerCase().startsWith('0x') ? trimmed : `0x${trimmed}`)
      : undefined;
  }
  if (option?.syntax === 'enum-name') return undefined;
  return decimal.test(trimmed) ? BigInt(trimmed) : undefined;
}

function checkEnumName(option: OptionInfo, value: string): ValueIssue[] {
  const accepted = [...(option.acceptedNames ?? []), ...(legacyNames[option.name] ?? [])];
  if (accepted.some((name) => name.toLowerCase() === value.toLowerCase())) return [];
  const fallback = usedValue(option, value).value || 'the default';
  if (decimal.test(value.trim())) {
    const label = option.enumValues?.[value.trim()];
    const suggestion = label && accepted.includes(label) ? [label] : accepted;
    return [
      {
        code: 'value-not-accepted',
        severity: 'error',
        message: `${option.name} takes a name (${accepted.join(', ')}), not a number: '${value}' is not recognised and '${fallback}' is used.`,
        suggestions: suggestion,
      },
    ];
  }
  return [
    {
      code: 'value-not-accepted',
      severity: 'error',
      message: `${option.name} does not accept '${clip(value)}' (accepted: ${accepted.join(', ')}); '${fallback}' is used instead.`,
      suggestions: closestOrAll(value, accepted),
    },
  ];
}

function checkDecimal(option: OptionInfo, value: string): ValueIssue[] {
  const trimmed = value.trim();
  const strict = option.syntax === 'decimal-strict';
  const acceptsHexPrefix = option.syntax === 'strtol';
  if (!decimal.test(trimmed) && !(acceptsHexPrefix && /^0x[0-9a-f]+$/i.test(trimmed))) {
    const labels = Object.entries(option.enumValues ?? {});
    const byLabel = labels.find(([, label]) => label.toLowerCase() === trimmed.toLowerCase());
    const number = byLabel ? byLabel[0] : undefined;
    const suggestions =
      number !== undefined ? [number] : option.default !== undefined ? [String(option.default)] : undefined;
    const named = number !== undefined ? ` ('${trimmed}' is ${number})` : '';
    const becomes = usedValue(option, value).value;
    if (strict) {
      return [
        {
          code: 'value-not-number',
          severity: 'error',
          message: `${option.name} must be a decimal integer${named}: libonload rejects '${clip(value)}' ("bad option") and keeps the default ${becomes === '' ? '(none)' : describeUsed(option, becomes)}.`,
          suggestions,
        },
      ];
    }
    return [
      {
        code: 'value-not-number',
        severity: number !== undefined ? 'error' : 'warning',
        message: `${option.name} is read as a decimal number${named}: '${clip(value)}' silently becomes ${becomes}.`,
        suggestions,
      },
    ];
  }
  // Most values are short and accepted: decide those with plain numbers, exact below 2^53 (the
  // catalog's bounds are integers), and leave every finding to the BigInt path.
  if (trimmed.length <= maxExactDigits && acceptedAsNumber(option, Number(trimmed))) return noIssues;
  const parsed = trimmed.length > maxDigits ? undefined : BigInt(trimmed);
  return checkRange(option, value, parsed);
}

/** True when checkRange would find nothing for this value (an exact integer). */
function acceptedAsNumber(option: OptionInfo, parsed: number): boolean {
  if (parsed === -1 && minusOneMeansMaximum.has(option.name)) return true;
  const storage = option.storage;
  // Bounds past 2^53 round to doubles, which still order exactly against a value below 2^53.
  if (storage && (parsed < Number(storage[0]) || parsed > Number(storage[1]))) return false;
  if (option.min === undefined || option.max === undefined) return true;
  return parsed >= Number(option.min) && parsed <= Number(option.max);
}

function checkHex(option: OptionInfo, value: string): ValueIssue[] {
  const trimmed = value.trim();
  if (!/^(0x)?[0-9a-f]+$/i.test(trimmed)) {
    return [
      {
        code: 'value-not-number',
        severity: option.syntax === 'hex-strict' ? 'error' : 'warning',
        message: `${option.name} is read as a hexadecimal number; '${clip(value)}' is not one.`,
      },
    ];
  }
  const issues: ValueIssue[] = [];
  const parsed = numericValue(option, trimmed);
  if (!/^0x/i.test(trimmed) && /^\d+$/.test(trimmed) && parsed !== undefined && parsed >= 10n) {
    issues.push({
      code: 'hex-value',
      severity: 'info',
      message: `${option.name} is read as hexadecimal: '${trimmed}' means ${parsed}. Write 0x${trimmed} to make that explicit.`,
      suggestions: [`0x${trimmed}`],
    });
  }
  return [...issues, ...checkRange(option, value, parsed)];
}

function checkRange(option: OptionInfo, value: string, parsed: bigint | undefined): ValueIssue[] {
  if (parsed === undefined) {
    return option.max !== undefined
      ? [
          {
            code: 'value-out-of-range',
            severity: 'warning',
            message: `${option.name}: '${clip(value)}' has too many digits for any accepted value (maximum ${option.max}).`,
            suggestions: [String(option.max)],
          },
        ]
      : [];
  }
  if (parsed === -1n && minusOneMeansMaximum.has(option.name)) return [];
  const storage = option.storage;
  if (storage) {
    const low = BigInt(storage[0]);
    const high = BigInt(storage[1]);
    if (parsed < low || parsed > high) {
      const width = option.bits ?? 32;
      const field =
        option.bits !== undefined && option.bits < 32 ? `a ${option.bits}-bit field` : `its ${width}-bit field`;
      return [
        {
          code: 'value-truncated',
          severity: 'error',
          message: `${option.name} is stored in ${field}: ${parsed} silently becomes ${asWritten(option, usedValue(option, value).value)}.`,
          suggestions: option.max !== undefined ? [String(option.max)] : undefined,
        },
      ];
    }
  }
  if (option.min === undefined || option.max === undefined) return [];
  const min = BigInt(option.min);
  const max = BigInt(option.max);
  if (parsed >= min && parsed <= max) return [];
  const bound = option.scope === 'process' ? (parsed < min ? min : max) : BigInt(usedValue(option, value).value);
  const range = `${option.min}..${option.max}${option.unit ? ` ${option.unit}` : ''}`;
  const message =
    option.scope === 'process'
      ? `${option.name} is outside its documented range ${range}; per-process options are not range-checked, so ${parsed} is used as is.`
      : `${option.name} is outside ${range}: libonload clamps ${parsed} to ${bound} and logs a config error.`;
  return [{ code: 'value-out-of-range', severity: 'warning', message, suggestions: [String(bound)] }];
}

function checkKeywords(option: OptionInfo, value: string): ValueIssue[] {
  const keywords = option.keywords ?? [];
  const unknown = value
    .split(',')
    .map((token) => token.trim().replace(/^-/, ''))
    .filter((token) => token.length > 0 && !keywords.some((keyword) => keyword.startsWith(token.toLowerCase())));
  if (unknown.length === 0) return [];
  return [
    {
      code: 'value-not-accepted',
      severity: 'warning',
      message: `${option.name}: unknown keyword${unknown.length > 1 ? 's' : ''} ${unknown.map((token) => `'${clip(token)}'`).join(', ')} (known: ${keywords.join(', ')}); libonload logs "Invalid option" for them.`,
    },
  ];
}

function checkNumberList(option: OptionInfo, value: string): ValueIssue[] {
  if (!/^\d+(,\d+)*$/.test(value.trim())) {
    return [
      {
        code: 'value-not-number',
        severity: 'warning',
        message: `${option.name} expects comma-separated numbers (e.g. 11210,11207), not '${clip(value)}'.`,
      },
    ];
  }
  if (option.syntax === 'port-list' && value.split(',').some((port) => Number(port) > 65535)) {
    return [
      { code: 'value-out-of-range', severity: 'warning', message: `${option.name}: port numbers go up to 65535.` },
    ];
  }
  return [];
}

function checkString(option: OptionInfo, value: string): ValueIssue[] {
  const kept = usedValue(option, value).value;
  if (kept === value) return [];
  if (option.name === 'EF_CLUSTER_NAME') {
    return [
      {
        code: 'cluster-name-length',
        severity: 'warning',
        message: `EF_CLUSTER_NAME keeps only its first ${kept.length} characters ('${clip(kept)}').`,
        suggestions: [kept],
      },
    ];
  }
  if (option.name === 'EF_NAME') {
    return [
      {
        code: 'ef-name-length',
        severity: 'info',
        message: `EF_NAME uses only its first ${kept.length} characters ('${clip(kept)}').`,
        suggestions: [kept],
      },
    ];
  }
  return [
    { code: 'value-too-long', severity: 'warning', message: `${option.name} is cut to ${kept.length} characters.` },
  ];
}

const modeTokens = new Set(['transparent_active', 'passive', 'active', 'rss']);
const acceptedModes = new Set([
  'transparent_active',
  'passive',
  'active',
  'passive+transparent_active',
  'rss+transparent_active',
  'active+rss',
  'passive+rss',
  'active+passive+rss',
]);

/** The EF_SCALABLE_FILTERS grammar: IFNAME[=MODE[:MODE...]][,IFNAME[=MODE...]]. */
export function scalableFiltersProblem(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const entries = value.split(',');
  if (entries.length > 2) return 'at most two interfaces can be given';
  const modes: string[] = [];
  for (const entry of entries) {
    const [interfaceName, modeText, ...rest] = entry.split('=');
    if (!interfaceName) return `'${clip(entry)}' has no interface name (use an interface, 'any' or '.')`;
    if (rest.length > 0) return `'${clip(entry)}' has more than one '='`;
    if (modeText === undefined) continue;
    const tokens = modeText.split(':');
    const unknown = tokens.find((token) => !modeTokens.has(token));
    if (unknown !== undefined)
      return `unknown mode '${clip(unknown)}' (modes: transparent_active, passive, active, rss)`;
    const combination = [...new Set(tokens)].sort().join('+');
    if (!acceptedModes.has(combination)) return `the mode combination '${modeText}' is not supported`;
    modes.push(combination);
  }
  if (entries.length === 2) {
    if (entries.some((entry) => entry.split('=')[0] === 'any'))
      return "'any' cannot be combined with a second interface";
    const plain = modes.map((mode) => mode.replace(/\+?rss\+?/, ''));
    if (!(plain.includes('active') && plain.includes('passive')))
      return 'with two interfaces one must be active-only and the other passive-only';
    if (modes.filter((mode) => mode.includes('rss')).length === 1) return 'with two interfaces both must agree on rss';
  }
  return undefined;
}

/** A hex option's used value in decimal, as the truncation message counts. */
function asWritten(option: OptionInfo, used: string): string {
  return /^0x/i.test(used) && (option.syntax === 'hex' || option.syntax === 'hex-strict') ? String(BigInt(used)) : used;
}

function closestOrAll(value: string, names: string[]): string[] {
  const close = closestMatches(value, names);
  return close.length > 0 ? close : names;
}

/** Long values are shortened in messages so a 1 MB line does not become a 1 MB message. */
export function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
