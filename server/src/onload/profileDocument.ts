// The parsed form of an open profile, cached per document version, and helpers to find the
// directive under the cursor.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Directive, ParsedProfile, Span } from './parser';
import { parseProfile } from './parser';

const cache = new Map<string, { version: number; text: string; parsed: ParsedProfile }>();
const maxCached = 64;

/** The parse of this document version. The text is compared too (cheap for the same string),
 * because callers outside the editor may reuse a URI and version number for new text. */
export function parsedDocument(document: TextDocument): ParsedProfile {
  const text = document.getText();
  const cached = cache.get(document.uri);
  if (cached && cached.version === document.version && cached.text === text) return cached.parsed;
  const parsed = parseProfile(text);
  cache.delete(document.uri);
  if (cache.size >= maxCached) cache.delete(cache.keys().next().value as string);
  cache.set(document.uri, { version: document.version, text, parsed });
  return parsed;
}

export function contains(span: Span, offset: number): boolean {
  return offset >= span.start && offset <= span.end;
}

/** The directive whose command covers `offset`, with its index (binary search: directives are in order). */
export function directiveAt(
  parsed: ParsedProfile,
  offset: number,
): { directive: Directive; index: number } | undefined {
  const directives = parsed.directives;
  let low = 0;
  let high = directives.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const directive = directives[middle]!;
    if (offset < directive.command.start) high = middle - 1;
    else if (offset > directive.command.end) low = middle + 1;
    else return { directive, index: middle };
  }
  return undefined;
}
