// A `.properties` reader with the exact semantics of java.util.Properties.load(Reader), which is
// how YCSB reads `-P` workload files, plus the source offsets of every key and value.
// Linear in the input, never throws: malformed `\uXXXX` escapes (which make Java's load throw)
// are reported as issues and decoded leniently.

export interface PropertyEntry {
  /** The key after escape processing, as YCSB sees it. */
  readonly key: string;
  /** The value after escape processing; trailing white space is kept, as in Java. */
  readonly value: string;
  /** Source offsets [start, end) of the raw key text. */
  readonly keyStart: number;
  readonly keyEnd: number;
  /** Source offsets [start, end) of the raw value text (may span continuation lines). */
  readonly valueStart: number;
  readonly valueEnd: number;
  /** Offsets of the whole logical line (first key character to the last character before the line break). */
  readonly lineStart: number;
  readonly lineEnd: number;
  /** True when an `=` or `:` separates key and value (white space alone also separates). */
  readonly hasSeparator: boolean;
}

export interface ParseIssue {
  readonly code: 'malformed-unicode-escape';
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

export interface CommentRange {
  readonly start: number;
  readonly end: number;
}

export interface PropertiesDocument {
  readonly entries: readonly PropertyEntry[];
  readonly comments: readonly CommentRange[];
  readonly issues: readonly ParseIssue[];
  /** The entry YCSB uses for each key: the last one in the file. */
  readonly effective: ReadonlyMap<string, PropertyEntry>;
}

const SPACE = 0x20;
const TAB = 0x09;
const FORM_FEED = 0x0c;
const LF = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const BANG = 0x21;
const EQUALS = 0x3d;
const COLON = 0x3a;

const isBlank = (c: number) => c === SPACE || c === TAB || c === FORM_FEED;

export function parseProperties(text: string): PropertiesDocument {
  const entries: PropertyEntry[] = [];
  const comments: CommentRange[] = [];
  const issues: ParseIssue[] = [];
  const length = text.length;
  // One logical line at a time: its characters and, for each, its offset in the source (typed
  // arrays, doubled when a line outgrows them).
  let chars = new Uint16Array(256);
  let offsets = new Int32Array(256);
  let lineHasBackslash = false;
  let offset = 0;
  const grow = () => {
    const biggerChars = new Uint16Array(chars.length * 2);
    biggerChars.set(chars);
    chars = biggerChars;
    const biggerOffsets = new Int32Array(offsets.length * 2);
    biggerOffsets.set(offsets);
    offsets = biggerOffsets;
  };

  // Mirrors Properties.LineReader.readLine: returns the logical line's length, or -1 at the end.
  const readLine = (): number => {
    let len = 0;
    let skipWhiteSpace = true;
    let appendedLineBegin = false;
    let precedingBackslash = false;
    lineHasBackslash = false;
    for (;;) {
      if (offset >= length) {
        if (len === 0) return -1;
        return precedingBackslash ? len - 1 : len;
      }
      const c = text.charCodeAt(offset++);
      if (skipWhiteSpace) {
        if (isBlank(c)) continue;
        if (!appendedLineBegin && (c === CR || c === LF)) continue;
        skipWhiteSpace = false;
        appendedLineBegin = false;
      }
      if (len === 0 && (c === HASH || c === BANG)) {
        const start = offset - 1;
        while (offset < length) {
          const d = text.charCodeAt(offset);
          if (d === LF || d === CR) break;
          offset++;
        }
        comments.push({ start, end: offset });
        skipWhiteSpace = true;
        continue;
      }
      if (c !== LF && c !== CR) {
        if (len === chars.length) grow();
        chars[len] = c;
        offsets[len] = offset - 1;
        len++;
        if (c === BACKSLASH) {
          precedingBackslash = !precedingBackslash;
          lineHasBackslash = true;
        } else {
          precedingBackslash = false;
        }
        continue;
      }
      if (len === 0) {
        skipWhiteSpace = true;
        continue;
      }
      if (offset >= length) return precedingBackslash ? len - 1 : len;
      if (!precedingBackslash) return len;
      // A backslash before the line break continues the logical line on the next one.
      len -= 1;
      skipWhiteSpace = true;
      appendedLineBegin = true;
      precedingBackslash = false;
      if (c === CR && offset < length && text.charCodeAt(offset) === LF) offset++;
    }
  };

  // Mirrors Properties.loadConvert over chars[from, to).
  const convert = (from: number, to: number): string => {
    // Without backslashes there are no escapes and no continuations: the source text is the value.
    if (!lineHasBackslash) return from < to ? text.slice(offsets[from]!, offsets[to - 1]! + 1) : '';
    let out = '';
    let runStart = from;
    let i = from;
    const flush = (end: number) => {
      // Chunked: spreading a huge line into one call would overflow the stack.
      for (let start = runStart; start < end; start += 8192) {
        out += String.fromCharCode(...chars.subarray(start, Math.min(end, start + 8192)));
      }
    };
    while (i < to) {
      if (chars[i] !== BACKSLASH) {
        i++;
        continue;
      }
      flush(i);
      const escapeStart = i;
      i++;
      const c = chars[i++] ?? BACKSLASH;
      if (c === 0x75 /* u */) {
        let value = 0;
        let valid = i + 4 <= to;
        for (let k = 0; valid && k < 4; k++) {
          const digit = hexDigit(chars[i + k]!);
          if (digit < 0) valid = false;
          else value = (value << 4) + digit;
        }
        if (valid) {
          out += String.fromCharCode(value);
          i += 4;
        } else {
          const end = Math.min(to, i + 4);
          issues.push({
            code: 'malformed-unicode-escape',
            start: offsets[escapeStart]!,
            end: offsets[end - 1]! + 1,
            message:
              'Malformed \\uXXXX escape: Java stops reading the whole file here (IllegalArgumentException), so YCSB does not start.',
          });
          out += 'u';
        }
      } else {
        out += c === 0x74 ? '\t' : c === 0x72 ? '\r' : c === 0x6e ? '\n' : c === 0x66 ? '\f' : String.fromCharCode(c);
      }
      runStart = i;
    }
    flush(to);
    return out;
  };

  for (;;) {
    const limit = readLine();
    if (limit < 0) break;
    // Split key and value exactly as Properties.load0 does.
    let keyLen = 0;
    let valueStart = limit;
    let hasSeparator = false;
    let precedingBackslash = false;
    while (keyLen < limit) {
      const c = chars[keyLen]!;
      if ((c === EQUALS || c === COLON) && !precedingBackslash) {
        valueStart = keyLen + 1;
        hasSeparator = true;
        break;
      } else if (isBlank(c) && !precedingBackslash) {
        valueStart = keyLen + 1;
        break;
      }
      precedingBackslash = c === BACKSLASH ? !precedingBackslash : false;
      keyLen++;
    }
    while (valueStart < limit) {
      const c = chars[valueStart]!;
      if (!isBlank(c)) {
        if (!hasSeparator && (c === EQUALS || c === COLON)) hasSeparator = true;
        else break;
      }
      valueStart++;
    }
    const lineStart = offsets[0]!;
    // limit 0: a lone backslash at the very end of the file, which Java loads as an empty key.
    const lineEnd = limit > 0 ? offsets[limit - 1]! + 1 : lineStart;
    const keyStart = lineStart;
    const keyEnd = keyLen > 0 ? offsets[keyLen - 1]! + 1 : lineStart;
    const valueOffset = valueStart < limit ? offsets[valueStart]! : lineEnd;
    entries.push({
      key: convert(0, keyLen),
      value: convert(valueStart, limit),
      keyStart,
      keyEnd,
      valueStart: valueOffset,
      valueEnd: lineEnd,
      lineStart,
      lineEnd,
      hasSeparator,
    });
    // Give back the memory of one huge line.
    if (chars.length > 65_536) {
      chars = new Uint16Array(256);
      offsets = new Int32Array(256);
    }
  }

  const effective = new Map<string, PropertyEntry>();
  for (const entry of entries) effective.set(entry.key, entry);
  return { entries, comments, issues, effective };
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The entry whose logical line contains `offset` (binary search; entries are in source order). */
export function entryAt(document: PropertiesDocument, offset: number): PropertyEntry | undefined {
  const { entries } = document;
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const entry = entries[middle]!;
    if (offset < entry.lineStart) high = middle - 1;
    else if (offset > entry.lineEnd) low = middle + 1;
    else return entry;
  }
  return undefined;
}
