// What this client can take, read once from its `initialize` capabilities, and the shaping of
// answers for it. The services always produce the richest form (Markdown, snippets, code-action
// literals, hierarchical symbols, tags, label details); a client that did not declare a feature
// gets the plain form the LSP specification prescribes instead, and is sent nothing it did not
// declare (eglot warns about every dynamic registration it did not ask for).
import {
  type ClientCapabilities,
  type CodeAction,
  type Command,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  InsertTextFormat,
  InsertTextMode,
  type MarkupContent,
  MarkupKind,
  type SymbolInformation,
} from 'vscode-languageserver';
import { markdownToPlainText } from './plainText';

export interface ClientManners {
  snippets: boolean;
  hoverMarkdown: boolean;
  completionDocumentationMarkdown: boolean;
  codeActionLiterals: boolean;
  hierarchicalSymbols: boolean;
  /** Diagnostic tags the client understands (empty: send none). */
  diagnosticTags: ReadonlySet<number>;
  completionTags: ReadonlySet<number>;
  completionDeprecatedField: boolean;
  /** The client can register `workspace/didChangeWatchedFiles` watchers for us. */
  watchesFiles: boolean;
  /** The client answers `workspace/configuration`. */
  pullsConfiguration: boolean;
  /** Completion documentation may be sent on `completionItem/resolve`. */
  resolvesDocumentation: boolean;
  /** LSP 3.17 `itemDefaults.editRange`. */
  completionEditRangeDefault: boolean;
  /** `workspace/didChangeConfiguration` may be registered dynamically (declared `dynamicRegistration: true`). */
  registersConfigurationChanges: boolean;
  /**
   * The client re-indents an inserted completion unless told `insertTextMode: 1` (as is): lsp-mode
   * declares the modes and otherwise runs the buffer's indent function, a TAB after a value.
   */
  insertTextModeAsIs: boolean;
  /** ... and takes it once in the list's `itemDefaults` (LSP 3.17). */
  insertTextModeDefault: boolean;
  completionLabelDetails: boolean;
  /** Diagnostics may carry `codeDescription.href`. */
  codeDescriptions: boolean;
}

/** A format list allows Markdown when it names it; an absent list means plain text (the LSP default). */
const allowsMarkdown = (formats: readonly string[] | undefined) => formats?.includes(MarkupKind.Markdown) === true;

/** `capabilities` may be missing altogether (a client with none): every feature is then undeclared. */
export function clientManners(capabilities: ClientCapabilities | undefined): ClientManners {
  const text = capabilities?.textDocument;
  const item = text?.completion?.completionItem;
  const itemDefaults = text?.completion?.completionList?.itemDefaults;
  return {
    snippets: item?.snippetSupport === true,
    hoverMarkdown: allowsMarkdown(text?.hover?.contentFormat),
    completionDocumentationMarkdown: allowsMarkdown(item?.documentationFormat),
    codeActionLiterals: text?.codeAction?.codeActionLiteralSupport !== undefined,
    hierarchicalSymbols: text?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
    diagnosticTags: new Set(text?.publishDiagnostics?.tagSupport?.valueSet ?? []),
    completionTags: new Set(item?.tagSupport?.valueSet ?? []),
    completionDeprecatedField: item?.deprecatedSupport === true,
    watchesFiles: capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    pullsConfiguration: capabilities?.workspace?.configuration === true,
    resolvesDocumentation: item?.resolveSupport?.properties?.includes('documentation') === true,
    completionEditRangeDefault: itemDefaults?.includes('editRange') === true,
    registersConfigurationChanges: capabilities?.workspace?.didChangeConfiguration?.dynamicRegistration === true,
    insertTextModeAsIs: item?.insertTextModeSupport?.valueSet?.includes(InsertTextMode.asIs) === true,
    insertTextModeDefault: itemDefaults?.includes('insertTextMode') === true,
    completionLabelDetails: item?.labelDetailsSupport === true,
    codeDescriptions: text?.publishDiagnostics?.codeDescriptionSupport === true,
  };
}

/** The command a client without code-action literals runs to apply a fix (workspace/executeCommand). */
export const applyFixCommand = 'onloadBench.applyFix';

export function shapeHover(hover: Hover | null, manners: ClientManners): Hover | null {
  if (!hover || manners.hoverMarkdown) return hover;
  const contents = hover.contents;
  if (typeof contents === 'object' && 'kind' in contents && contents.kind === MarkupKind.Markdown) {
    return { ...hover, contents: { kind: MarkupKind.PlainText, value: markdownToPlainText(contents.value) } };
  }
  return hover;
}

export function shapeCompletionItem(item: CompletionItem, manners: ClientManners): CompletionItem {
  let shaped = item;
  const documentation = item.documentation;
  if (
    !manners.completionDocumentationMarkdown &&
    typeof documentation === 'object' &&
    documentation.kind === MarkupKind.Markdown
  ) {
    shaped = {
      ...shaped,
      documentation: {
        kind: MarkupKind.PlainText,
        value: markdownToPlainText(documentation.value),
      } satisfies MarkupContent,
    };
  }
  if (item.tags && item.tags.some((tag) => !manners.completionTags.has(tag))) {
    const tags = item.tags.filter((tag) => manners.completionTags.has(tag));
    const { tags: _tags, ...rest } = shaped;
    shaped = {
      ...rest,
      ...(tags.length > 0 && { tags }),
      ...(manners.completionDeprecatedField && item.tags.includes(1) && { deprecated: true }),
    };
  }
  if (item.labelDetails && !manners.completionLabelDetails) {
    const { labelDetails: _labelDetails, ...rest } = shaped;
    shaped = rest;
  }
  // Per item unless the list says it once (completionList.ts).
  if (manners.insertTextModeAsIs && !manners.insertTextModeDefault)
    shaped = { ...shaped, insertTextMode: InsertTextMode.asIs };
  if (!manners.snippets && item.insertTextFormat === InsertTextFormat.Snippet) {
    // The services send plain items to such clients; this is the safety net for any other.
    shaped = { ...shaped, insertTextFormat: InsertTextFormat.PlainText };
    if (shaped.textEdit) shaped.textEdit = { ...shaped.textEdit, newText: snippetToPlainText(shaped.textEdit.newText) };
    if (shaped.insertText !== undefined) shaped.insertText = snippetToPlainText(shaped.insertText);
  }
  return shaped;
}

/** `log "${1}"` -> `log ""`: placeholders keep their default text, tab stops vanish, escapes resolve. */
export function snippetToPlainText(snippet: string): string {
  let previous;
  let text = snippet;
  do {
    previous = text;
    text = text.replace(/\$\{\d+:([^{}$]*)\}/g, '$1').replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1');
  } while (text !== previous);
  return text.replace(/\$\{\d+\}|\$\d+/g, '').replace(/\\([$}\\])/g, '$1');
}

/**
 * Tags the client knows, and for a client that takes them, a link per code to the page that
 * explains it (`docs`: the URI of docs/diagnostics.md, whose headings are the codes).
 */
export function shapeDiagnostics(diagnostics: Diagnostic[], manners: ClientManners, docs?: string): Diagnostic[] {
  return diagnostics.map((diagnostic) => {
    let shaped = diagnostic;
    if (docs !== undefined && manners.codeDescriptions && typeof diagnostic.code === 'string') {
      shaped = { ...shaped, codeDescription: { href: `${docs}#${diagnostic.code}` } };
    }
    if (!diagnostic.tags) return shaped;
    const tags = diagnostic.tags.filter((tag) => manners.diagnosticTags.has(tag));
    if (tags.length === diagnostic.tags.length) return shaped;
    const { tags: _tags, ...rest } = shaped;
    return tags.length > 0 ? { ...rest, tags } : rest;
  });
}

/** Code actions as literals, or as commands the server runs itself (applying the edit through workspace/applyEdit). */
export function shapeCodeActions(actions: CodeAction[], manners: ClientManners): (CodeAction | Command)[] {
  if (manners.codeActionLiterals) return actions;
  return actions.map((action): Command => ({
    title: action.title,
    command: applyFixCommand,
    arguments: [action.edit],
  }));
}

/** Hierarchical symbols, or the flat SymbolInformation list with container names. */
export function shapeSymbols(
  uri: string,
  symbols: DocumentSymbol[],
  manners: ClientManners,
): DocumentSymbol[] | SymbolInformation[] {
  if (manners.hierarchicalSymbols) return symbols;
  const flat: SymbolInformation[] = [];
  const walk = (list: DocumentSymbol[], container: string | undefined) => {
    for (const symbol of list) {
      flat.push({
        name: symbol.name,
        kind: symbol.kind,
        location: { uri, range: symbol.range },
        ...(container !== undefined && { containerName: container }),
      });
      if (symbol.children) walk(symbol.children, symbol.name);
    }
  };
  walk(symbols, undefined);
  return flat;
}
