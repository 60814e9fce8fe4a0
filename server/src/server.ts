// The LSP adapter: translates between a connection and the pure language services. It holds no
// language knowledge of its own.
import {
  type Connection,
  type Diagnostic,
  DidChangeWatchedFilesNotification,
  type InitializeResult,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageFeatures } from './common/languageFeatures';
import { NodeWorkspaceFiles } from './common/nodeWorkspaceFiles';
import { createLanguages } from './languages';
import { registerCustomRequests } from './customRequests';
import { DeferredDocumentation } from './deferredDocumentation';
import { compactCompletionList } from './completionList';

/** Delay between the last keystroke and re-validation, so typing is never blocked by diagnostics. */
const validationDelayMs = 150;

export function startServer(connection: Connection, languages: LanguageFeatures[] = createLanguages()): void {
  const documents = new TextDocuments(TextDocument);
  const byLanguage = new Map(languages.map((language) => [language.languageId, language]));
  let roots: string[] = [];
  const files = new NodeWorkspaceFiles(() => roots, (uri) => documents.get(uri)?.getText());
  const pending = new Map<string, NodeJS.Timeout>();
  let canWatchFiles = false;
  let deferred: DeferredDocumentation | undefined;
  let clientKnowsEditRange = false;

  const featuresOf = (uri: string) => {
    const document = documents.get(uri);
    const features = document && byLanguage.get(document.languageId);
    return document && features ? { document, features } : undefined;
  };

  connection.onInitialize((params): InitializeResult => {
    roots = (params.workspaceFolders ?? []).map((folder) => folder.uri);
    if (roots.length === 0 && params.rootUri) roots = [params.rootUri];
    canWatchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    const lazy = params.capabilities.textDocument?.completion?.completionItem?.resolveSupport?.properties ?? [];
    if (lazy.includes('documentation')) deferred = new DeferredDocumentation();
    clientKnowsEditRange = params.capabilities.textDocument?.completion?.completionList?.itemDefaults?.includes('editRange') === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['_', '=', ' ', '.', '-'], resolveProvider: deferred !== undefined },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        documentSymbolProvider: true,
        definitionProvider: true,
      },
      serverInfo: { name: 'onload-bench-language-server' },
    };
  });

  connection.onInitialized(() => {
    if (canWatchFiles) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*' }],
      });
    }
  });

  const validate = async (uri: string): Promise<void> => {
    const target = featuresOf(uri);
    if (!target) return;
    const version = target.document.version;
    let diagnostics: Diagnostic[];
    try {
      diagnostics = await target.features.diagnostics(target.document, files, { isCancellationRequested: false });
    } catch (error) {
      connection.console.error(`diagnostics failed for ${uri}: ${String(error)}`);
      return;
    }
    // A newer version is already queued: its own validation will publish.
    if (documents.get(uri)?.version !== version) return;
    void connection.sendDiagnostics({ uri, version, diagnostics });
  };

  const schedule = (uri: string, delay = validationDelayMs): void => {
    clearTimeout(pending.get(uri));
    pending.set(uri, setTimeout(() => {
      pending.delete(uri);
      void validate(uri);
    }, delay));
  };

  // TextDocuments fires didChangeContent right after didOpen: check a just-opened document at
  // once and debounce only the edits that follow.
  const justOpened = new Set<string>();
  documents.onDidOpen((event) => justOpened.add(event.document.uri));
  documents.onDidChangeContent((event) => {
    const uri = event.document.uri;
    schedule(uri, justOpened.delete(uri) ? 0 : validationDelayMs);
  });
  documents.onDidClose((event) => {
    clearTimeout(pending.get(event.document.uri));
    pending.delete(event.document.uri);
    justOpened.delete(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  // Another file changed (an imported profile, a new workload): re-check every open document.
  connection.onDidChangeWatchedFiles(() => {
    files.invalidate();
    for (const document of documents.all()) schedule(document.uri);
  });

  connection.onCompletion(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    if (!target) return [];
    const items = await target.features.completion(target.document, params.position, files, token);
    return compactCompletionList(deferred ? deferred.defer(items) : items, clientKnowsEditRange);
  });

  connection.onCompletionResolve((item) => (deferred ? deferred.resolve(item) : item));

  connection.onHover(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    return target ? target.features.hover(target.document, params.position, files, token) : null;
  });

  connection.onCodeAction(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    return target ? target.features.codeActions(target.document, params.range, params.context.diagnostics, token) : [];
  });

  connection.onDocumentSymbol(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    return target ? target.features.documentSymbols(target.document, token) : [];
  });

  connection.onDefinition(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    return target ? target.features.definition(target.document, params.position, files, token) : [];
  });

  registerCustomRequests(connection, files, (uri) => documents.get(uri));

  documents.listen(connection);
  connection.listen();
}
