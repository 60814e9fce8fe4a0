// An independent reading of java.util.Properties.load, written from its Javadoc rather than from
// the JDK's LineReader: first split into natural lines, drop comment and blank lines, join lines
// whose end has an odd number of backslashes (stripping the next line's leading white space),
// then split key from value and unescape. Used only as the oracle of the property tests.

export function referenceLoad(input: string): Map<string, string> {
  const result = new Map<string, string>();
  const naturalLines = input.split(/\r\n|\r|\n/);
  // A final line break does not start another (empty) line.
  if (naturalLines.length > 0 && naturalLines[naturalLines.length - 1] === '') naturalLines.pop();
  let index = 0;
  const isWhite = (c: string) => c === ' ' || c === '\t' || c === '\f';
  const stripLeading = (line: string) => {
    let i = 0;
    while (i < line.length && isWhite(line[i]!)) i++;
    return line.slice(i);
  };
  const endsWithOddBackslashes = (line: string) => {
    let count = 0;
    for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) count++;
    return count % 2 === 1;
  };
  while (index < naturalLines.length) {
    let line = stripLeading(naturalLines[index++]!);
    if (line.length === 0) continue; // blank line
    if (line[0] === '#' || line[0] === '!') continue; // comment line
    let logical = '';
    let endedByEndOfInput = false;
    for (;;) {
      if (!endsWithOddBackslashes(line)) {
        logical += line;
        break;
      }
      logical += line.slice(0, -1);
      if (index >= naturalLines.length) {
        // A continuation into the end of the input still yields the (possibly empty) line, except
        // after a final CR LF: the JDK swallows the LF and then finds nothing (a JDK quirk).
        endedByEndOfInput = !input.endsWith('\r\n');
        break;
      }
      line = stripLeading(naturalLines[index++]!);
      // The Javadoc: a continuation line that is itself empty ends the logical line... unless the
      // logical line is still empty, in which case Java keeps looking (JDK behaviour).
      if (line.length === 0) {
        if (logical.length === 0) {
          // Back to looking for a new logical line, where comments are recognised again.
          while (index < naturalLines.length) {
            line = stripLeading(naturalLines[index++]!);
            if (line.length > 0) break;
          }
          if (line.length === 0) break;
          if (line[0] === '#' || line[0] === '!') break;
          continue;
        }
        break;
      }
      if (logical.length === 0 && (line[0] === '#' || line[0] === '!')) break;
    }
    if (logical.length === 0 && !endedByEndOfInput) continue;
    const [key, value] = splitKeyValue(logical);
    result.set(unescape(key), unescape(value));
  }
  return result;
}

function splitKeyValue(line: string): [string, string] {
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '=' || c === ':' || c === ' ' || c === '\t' || c === '\f') break;
    i++;
  }
  const key = line.slice(0, Math.min(i, line.length));
  let j = i;
  while (j < line.length && (line[j] === ' ' || line[j] === '\t' || line[j] === '\f')) j++;
  if (j < line.length && (line[j] === '=' || line[j] === ':')) {
    j++;
    while (j < line.length && (line[j] === ' ' || line[j] === '\t' || line[j] === '\f')) j++;
  } else if (i < line.length && (line[i] === '=' || line[i] === ':')) {
    j = i + 1;
    while (j < line.length && (line[j] === ' ' || line[j] === '\t' || line[j] === '\f')) j++;
  }
  return [key, line.slice(j)];
}

function unescape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = text[++i];
    if (next === undefined) break;
    if (next === 'u') {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else {
      out += ({ t: '\t', r: '\r', n: '\n', f: '\f' } as Record<string, string>)[next] ?? next;
    }
  }
  return out;
}
