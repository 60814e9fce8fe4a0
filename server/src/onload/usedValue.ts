// What libonload ends up using for a value a profile sets, decided in one place. The diagnostics
// (values.ts), the hover, the effective configuration and `lint` all show this answer: they once
// disagreed, the diagnostic saying 'sf-np' is used for `onload_set EF_CTPIO_MODE 2` while the hover
// and the effective configuration said 2. The rules are libonload's readers as FORMAT.md gives them
// ("valueSyntax"): names only for enum options (anything else leaves the default), atoi for
// per-stack numbers (a leading number, else 0), strict decimal for per-process ones (rejected: the
// default stays), narrow fields keep the low bits, per-stack values are clamped to their range,
// and a few strings are cut. Where no fact says what happens, nothing is claimed.
import type { OptionInfo } from './catalogTypes';

export interface UsedValue {
  /** What libonload uses ('sf-np', '0', '1073741823'). */
  value: string;
  /** Why that is not what the profile exported, in a few words; absent when it is the same. */
  why?: string;
}

/** -1 is a documented idiom for these unsigned options ("for ever" / "never delay"). */
export const minusOneMeansMaximum = new Set([
  'EF_SPIN_USEC',
  'EF_BUZZ_USEC',
  'EF_POLL_USEC',
  'EF_NONAGLE_INFLIGHT_MAX',
]);
/** Legacy synonyms the enum parsers also accept. */
export const legacyNames: Record<string, string[]> = { EF_RX_TIMESTAMPING_ORDERING: ['cpacket'] };

const decimal = /^[+-]?\d+$/;
const maxDigits = 40;

/** What `onload_set NAME VALUE` exports: the value, or for an empty or missing one the variable's own name. */
export function exportedValue(name: string, value: string): string {
  return value === '' ? name : value;
}

/** How libonload reads each value syntax it has a rule for; the others are taken as written. */
const readers: Record<string, (option: OptionInfo, exported: string) => UsedValue> = {
  'enum-name': enumName,
  'decimal-atoi': decimalNumber,
  'decimal-strict': decimalNumber,
  strtol: decimalNumber,
  hex: hexNumber,
  'hex-strict': hexNumber,
  string: cutString,
};

/** What libonload uses when the environment holds `exported` for `option`. */
export function usedValue(option: OptionInfo, exported: string): UsedValue {
  const read = option.syntax ? readers[option.syntax] : undefined;
  return read ? read(option, exported) : { value: exported };
}

/**
 * An assignment's value as the views show it: what onload_set exports and, when libonload makes
 * something else of it, what it uses and why. Values computed at run time are exported as written.
 */
export function assignedValue(
  option: OptionInfo | undefined,
  name: string,
  value: string,
  dynamic: boolean,
): { exported: string; used?: Required<UsedValue> } {
  if (dynamic) return { exported: value };
  const exported = exportedValue(name, value);
  const used = option ? usedValue(option, exported) : undefined;
  return used?.why !== undefined ? { exported, used: { value: used.value, why: used.why } } : { exported };
}

/** A used value as people read it: the default's name beside its number ("1 (sf-np)"). */
export function describeUsed(option: OptionInfo, used: string): string {
  const label = option.enumValues?.[used];
  return label && label !== used ? `${used} (${label})` : used;
}

function enumName(option: OptionInfo, exported: string): UsedValue {
  const accepted = [...(option.acceptedNames ?? []), ...(legacyNames[option.name] ?? [])];
  const match = accepted.find((name) => name.toLowerCase() === exported.toLowerCase());
  if (match !== undefined) return { value: exported };
  const fallback = option.defaultLabel ?? option.acceptedNames?.[0] ?? String(option.default ?? '');
  return {
    value: fallback,
    why: decimal.test(exported.trim())
      ? 'it takes a name, not a number: the default'
      : 'not an accepted name: the default',
  };
}

function decimalNumber(option: OptionInfo, exported: string): UsedValue {
  const trimmed = exported.trim();
  if (!decimal.test(trimmed) && !(option.syntax === 'strtol' && /^0x[0-9a-f]+$/i.test(trimmed))) {
    if (option.syntax === 'decimal-strict')
      return { value: String(option.default ?? ''), why: 'not a decimal integer: rejected, the default stays' };
    const leading = /^\s*[+-]?\d*/.exec(exported)?.[0]?.trim() ?? '';
    const number = decimal.test(leading) ? BigInt(leading) : 0n;
    const ranged = inRange(option, number);
    return {
      value: String(ranged.value),
      why: `read as a number: ${decimal.test(leading) ? 'its leading digits' : '0'}${ranged.why ? `, ${ranged.why}` : ''}`,
    };
  }
  if (trimmed.length > maxDigits) return { value: exported };
  const ranged = inRange(option, BigInt(trimmed));
  return ranged.why ? { value: String(ranged.value), why: ranged.why } : { value: exported };
}

function hexNumber(option: OptionInfo, exported: string): UsedValue {
  const trimmed = exported.trim();
  // What libonload makes of text that is not hexadecimal is not in the facts: nothing is claimed.
  if (!/^(0x)?[0-9a-f]+$/i.test(trimmed) || trimmed.length > maxDigits) return { value: exported };
  const prefixed = /^0x/i.test(trimmed);
  const number = BigInt(prefixed ? trimmed : `0x${trimmed}`);
  const ranged = inRange(option, number);
  const asHex = `0x${ranged.value.toString(16)}`;
  if (ranged.why) return { value: asHex, why: ranged.why };
  // `10` without 0x is sixteen: say so in the form libonload reads it.
  return !prefixed && number >= 10n ? { value: asHex, why: 'read as hexadecimal' } : { value: exported };
}

/** The number a field holds once stored: the low bits of a narrow field, then the per-stack clamp. */
function inRange(option: OptionInfo, parsed: bigint): { value: bigint; why?: string } {
  if (parsed === -1n && minusOneMeansMaximum.has(option.name)) return { value: parsed };
  const storage = option.storage;
  if (storage && (parsed < BigInt(storage[0]) || parsed > BigInt(storage[1]))) {
    const width = option.bits ?? 32;
    const modulus = 1n << BigInt(width);
    let stored = ((parsed % modulus) + modulus) % modulus;
    if (option.signed && stored >= modulus >> 1n) stored -= modulus;
    return { value: stored, why: `stored in ${width < 32 ? `a ${width}-bit` : `its ${width}-bit`} field` };
  }
  if (option.min === undefined || option.max === undefined || option.scope === 'process') return { value: parsed };
  const min = BigInt(option.min);
  const max = BigInt(option.max);
  if (parsed < min) return { value: min, why: 'clamped to its range' };
  if (parsed > max) return { value: max, why: 'clamped to its range' };
  return { value: parsed };
}

function cutString(option: OptionInfo, exported: string): UsedValue {
  const keep = option.name === 'EF_CLUSTER_NAME' ? 13 : option.name === 'EF_NAME' ? 16 : option.maxLength;
  if (keep === undefined || exported.length <= keep) return { value: exported };
  return { value: exported.slice(0, keep), why: `only its first ${keep} characters` };
}
