// Whether an offset of a profile is shell code, a comment or inside quotes: completion offers
// directives and names only in code (typing prose in `# note; ` or `log "hello; ` must not pop up
// every directive). A small POSIX-shell lexer over the text before the offset: `#` starts a
// comment at the start of a word, a backslash escapes the next character outside single quotes,
// '...' has no escapes, "..." ends at an unescaped quote.

export type LexicalContext = 'code' | 'comment' | 'single-quoted' | 'double-quoted';

/** How far back the scan starts (from a line start): a quote open for longer than this is not tracked. */
const maxScan = 1 << 20;

const wordBreaks = new Set([' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>']);

export function lexicalContextAt(text: string, offset: number): LexicalContext {
  let at = 0;
  if (offset > maxScan) {
    const lineStart = text.lastIndexOf('\n', offset - maxScan);
    at = lineStart === -1 ? 0 : lineStart + 1;
  }
  let state: LexicalContext = 'code';
  for (; at < offset; at++) {
    const ch = text[at]!;
    switch (state) {
      case 'code':
        if (ch === '\\') at++;
        else if (ch === "'") state = 'single-quoted';
        else if (ch === '"') state = 'double-quoted';
        else if (ch === '#' && (at === 0 || wordBreaks.has(text[at - 1]!))) state = 'comment';
        break;
      case 'comment':
        if (ch === '\n') state = 'code';
        break;
      case 'single-quoted':
        if (ch === "'") state = 'code';
        break;
      case 'double-quoted':
        if (ch === '\\') at++;
        else if (ch === '"') state = 'code';
        break;
    }
  }
  return state;
}
