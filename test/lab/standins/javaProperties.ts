// java.util.Properties text format, as far as YCSB workload and property files use it:
// `key=value`, `key: value`, `key value`, `#`/`!` comments, `\` line continuations and escapes.

export function parseJavaProperties(text: string): Map<string, string> {
  const properties = new Map<string, string>();
  const physical = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < physical.length; i++) {
    let line = physical[i].replace(/^[ \t\f]+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    // a line ending in an odd number of backslashes continues on the next one
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < physical.length) {
      line = line.slice(0, -1) + physical[++i].replace(/^[ \t\f]+/, '');
    }
    let keyEnd = 0;
    while (keyEnd < line.length && !'=: \t\f'.includes(line[keyEnd])) keyEnd += line[keyEnd] === '\\' ? 2 : 1;
    const key = unescape(line.slice(0, keyEnd));
    let rest = line.slice(keyEnd).replace(/^[ \t\f]*/, '');
    if (rest.startsWith('=') || rest.startsWith(':')) rest = rest.slice(1).replace(/^[ \t\f]*/, '');
    properties.set(key, unescape(rest));
  }
  return properties;
}

function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped: string) => {
    if (escaped.length === 5) return String.fromCharCode(parseInt(escaped.slice(1), 16));
    return ({ t: '\t', n: '\n', r: '\r', f: '\f' } as Record<string, string>)[escaped] ?? escaped;
  });
}
