// The YCSB workload language service: the LanguageFeatures the LSP adapter and the lint command
// call. Parses once per document version and shares the result between features.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  Position,
  Range,
} from 'vscode-languageserver-types';
import {
  richCompletion,
  type Cancellation,
  type CompletionOptions,
  type LanguageFeatures,
  type WorkspaceFiles,
} from '../common/languageFeatures';
import { diagnosticsForRange } from '../common/codeActionRange';
import { type YcsbCatalog, ycsbCatalog } from './catalog';
import { ycsbCodeActions } from './codeActions';
import { ycsbCompletion } from './completion';
import { ycsbDefinition } from './definition';
import { ycsbDiagnostics } from './diagnostics';
import { ycsbDocumentSymbols } from './documentSymbols';
import { ycsbHover } from './hover';
import { parseProperties, type PropertiesDocument } from './propertiesParser';
import { withoutDisabled } from '../common/disableComments';

export const ycsbLanguageId = 'ycsb-workload';

export class YcsbLanguageService implements LanguageFeatures {
  readonly languageId = ycsbLanguageId;
  private readonly parsed = new Map<string, { version: number; text: string; document: PropertiesDocument }>();

  constructor(readonly catalog: YcsbCatalog = ycsbCatalog()) {}

  /** The parse of this document version (cached; the text guards against reused version numbers). */
  parse(document: TextDocument): PropertiesDocument {
    const text = document.getText();
    const cached = this.parsed.get(document.uri);
    if (cached && cached.version === document.version && cached.text === text) return cached.document;
    const parsed = parseProperties(text);
    if (this.parsed.size > 200) this.parsed.clear();
    this.parsed.set(document.uri, { version: document.version, text, document: parsed });
    return parsed;
  }

  async diagnostics(document: TextDocument, _files: WorkspaceFiles, token: Cancellation): Promise<Diagnostic[]> {
    if (token.isCancellationRequested) return [];
    return withoutDisabled(document.getText(), ycsbDiagnostics(document, this.parse(document), this.catalog));
  }

  async completion(
    document: TextDocument,
    position: Position,
    _files: WorkspaceFiles,
    token: Cancellation,
    _options: CompletionOptions = richCompletion,
  ): Promise<CompletionItem[]> {
    if (token.isCancellationRequested) return [];
    return ycsbCompletion(document, this.parse(document), this.catalog, position);
  }

  async hover(
    document: TextDocument,
    position: Position,
    _files: WorkspaceFiles,
    token: Cancellation,
  ): Promise<Hover | null> {
    if (token.isCancellationRequested) return null;
    return ycsbHover(document, this.parse(document), this.catalog, position);
  }

  async codeActions(
    document: TextDocument,
    range: Range,
    diagnostics: Diagnostic[],
    token: Cancellation,
  ): Promise<CodeAction[]> {
    if (token.isCancellationRequested) return [];
    return ycsbCodeActions(document, diagnosticsForRange(range, diagnostics));
  }

  async documentSymbols(document: TextDocument, token: Cancellation): Promise<DocumentSymbol[]> {
    if (token.isCancellationRequested) return [];
    return ycsbDocumentSymbols(document, this.parse(document), this.catalog);
  }

  async definition(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    token: Cancellation,
  ): Promise<Location[]> {
    if (token.isCancellationRequested) return [];
    return ycsbDefinition(document, this.parse(document), position, files);
  }
}

export function createYcsbLanguageService(catalog?: YcsbCatalog): YcsbLanguageService {
  return new YcsbLanguageService(catalog);
}
