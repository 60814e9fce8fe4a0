// How Java reads the numbers YCSB parses: Integer.parseInt / Long.parseLong (no white space, no
// decimal point, bounded) and Double.parseDouble (trims, accepts NaN, Infinity, hex, f/d suffix).

export type JavaNumber = { ok: true; value: number } | { ok: false; reason: string };

const intPattern = /^[+-]?\d+$/;
const doublePattern =
  /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?)$/;

const bounds = {
  int: [-2147483648n, 2147483647n],
  long: [-9223372036854775808n, 9223372036854775807n],
} as const;

/** Integer.parseInt (`int`) or Long.parseLong (`long`). */
export function parseJavaInteger(text: string, kind: 'int' | 'long'): JavaNumber {
  if (text.length === 0) return { ok: false, reason: 'is empty' };
  if (!intPattern.test(text)) {
    if (intPattern.test(text.trim()))
      return { ok: false, reason: 'has white space around the number, which Java does not accept here' };
    if (/^[+-]?\d+\.\d*$/.test(text) || /^[+-]?\d+(\.\d*)?[eE]/.test(text))
      return { ok: false, reason: 'is not a whole number' };
    return { ok: false, reason: 'is not a number' };
  }
  const value = BigInt(text);
  const [min, max] = bounds[kind];
  if (value < min || value > max) return { ok: false, reason: `does not fit a Java ${kind} (${min}..${max})` };
  return { ok: true, value: Number(value) };
}

/** Double.parseDouble: leading and trailing characters up to U+0020 are ignored. */
export function parseJavaDouble(text: string): JavaNumber {
  const trimmed = javaTrim(text);
  if (trimmed.length === 0) return { ok: false, reason: 'is empty' };
  if (!doublePattern.test(trimmed)) return { ok: false, reason: 'is not a number' };
  const unsuffixed = trimmed.replace(/[fFdD]$/, '');
  if (/NaN/.test(unsuffixed)) return { ok: true, value: Number.NaN };
  if (/Infinity/.test(unsuffixed)) return { ok: true, value: unsuffixed.startsWith('-') ? -Infinity : Infinity };
  if (/^[+-]?0[xX]/.test(unsuffixed)) return { ok: true, value: parseHexDouble(unsuffixed) };
  return { ok: true, value: Number(unsuffixed) };
}

/** String.trim: removes every character <= U+0020 at both ends. */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

function parseHexDouble(text: string): number {
  const match = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(text)!;
  const [, sign, whole, fraction, exponent] = match;
  const mantissa = parseInt(`${whole || '0'}${fraction}`, 16) / 16 ** (fraction ?? '').length;
  return (sign === '-' ? -1 : 1) * mantissa * 2 ** Number(exponent);
}
