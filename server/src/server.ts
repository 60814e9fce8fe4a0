// The LSP adapter: translates between a connection and the pure language services. It holds no
// language knowledge of its own; it shapes answers for what the client declared it can take
// (adapter/clientManners.ts) and keeps cross-file results fresh (adapter/dependencies.ts).
import {
  type ClientCapabilities,
  type CodeAction,
  type Connection,
  type Diagnostic,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  type InitializeResult,
  TextDocumentSyncKind,
  TextDocuments,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import {
  noClientCommands,
  type HoverOptions,
  type LanguageFeatures,
  type LanguageSettings,
} from './common/languageFeatures';
import { NodeWorkspaceFiles } from './common/nodeWorkspaceFiles';
import { analysedPart, capDiagnostics, forgetAnalysedPart, truncationNotice } from './common/documentLimits';
import { languageOfFileName } from './common/fileLanguages';
import { createLanguages } from './languages';
import { diagnosticsForRange } from './common/codeActionRange';
import { fileWideActions } from './common/fileWideActions';
import { registerCustomRequests } from './customRequests';
import { DeferredDocumentation } from './deferredDocumentation';
import { compactCompletionList } from './completionList';
import {
  applyFixCommand,
  type ClientManners,
  clientManners,
  shapeCodeActions,
  shapeCompletionItem,
  shapeDiagnostics,
  shapeHover,
  shapeSymbols,
} from './adapter/clientManners';
import { Dependencies, RecordingFiles, uriKey } from './adapter/dependencies';
import { clientCommandsOf, readSettings } from './adapter/settings';
import { requestDiagnostics } from './adapter/diagnosticData';

/** Delay between the last keystroke and re-validation, so typing is never blocked by diagnostics. */
const validationDelayMs = 150;
/** Delay before re-checking documents that depend on one that changed (they wait for typing to pause too). */
const dependentsDelayMs = 300;

export interface ServerOptions {
  /** The URI of docs/diagnostics.md, for the link each diagnostic code gets (codeDescription). */
  diagnosticDocs?: string;
}

export function startServer(
  connection: Connection,
  languages: LanguageFeatures[] = createLanguages(),
  options: ServerOptions = {},
): void {
  const documents = new TextDocuments(TextDocument);
  const byLanguage = new Map(languages.map((language) => [language.languageId, language]));
  let roots: string[] = [];
  /** Open documents by uriKey: an import's URI is spelled by vscode-uri, the client's may differ. */
  const openByKey = new Map<string, string>();
  const openDocument = (uri: string) => documents.get(uri) ?? documents.get(openByKey.get(uriKey(uri)) ?? '');
  const files = new NodeWorkspaceFiles(
    () => roots,
    (uri) => openDocument(uri)?.getText(),
    () => documents.keys(),
  );
  const dependencies = new Dependencies();
  const pending = new Map<string, NodeJS.Timeout>();
  let manners: ClientManners = clientManners({});
  let hoverOptions: HoverOptions = noClientCommands;
  let deferred: DeferredDocumentation | undefined;
  /** The last diagnostics published per document, to give fixes to diagnostics sent back without `data`. */
  const published = new Map<string, Diagnostic[]>();

  /** The services for a document: by its language id, or by its file name when the client used an id of its own. */
  const featuresOf = (uri: string) => {
    const document = documents.get(uri);
    if (!document) return undefined;
    const features =
      byLanguage.get(document.languageId) ?? byLanguage.get(languageOfFileName(URI.parse(uri).path) ?? '');
    if (!features) return undefined;
    const part = analysedPart(document);
    return { document: part.document, whole: document, cutAtLine: part.cutAtLine, features };
  };
  /** Positions past the analysed part of a huge document get no answers. */
  const analysed = (target: { document: TextDocument; cutAtLine?: number }, line: number) =>
    target.cutAtLine === undefined || line < target.cutAtLine;

  const configure = (settings: LanguageSettings | undefined) => {
    if (!settings) return;
    for (const language of languages) language.configure?.(settings);
    for (const document of documents.all()) schedule(document.uri, dependentsDelayMs);
  };

  connection.onInitialize((params): InitializeResult => {
    roots = (params.workspaceFolders ?? []).map((folder) => folder.uri);
    if (roots.length === 0 && params.rootUri) roots = [params.rootUri];
    // Sent by a client without any (the LSP requires the object; a client without it has none).
    manners = clientManners(params.capabilities as ClientCapabilities | undefined);
    hoverOptions = { clientCommands: clientCommandsOf(params.initializationOptions) };
    if (manners.resolvesDocumentation) deferred = new DeferredDocumentation();
    configure(readSettings(params.initializationOptions, roots));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: ['_', '=', ' ', '.', '-'], resolveProvider: deferred !== undefined },
        hoverProvider: true,
        codeActionProvider: manners.codeActionLiterals ? { codeActionKinds: ['quickfix'] } : true,
        ...(!manners.codeActionLiterals && { executeCommandProvider: { commands: [applyFixCommand] } }),
        documentSymbolProvider: true,
        definitionProvider: true,
      },
      serverInfo: { name: 'onload-bench-language-server' },
    };
  });

  const pullSettings = async () => {
    if (!manners.pullsConfiguration) return;
    try {
      const [section] = await connection.workspace.getConfiguration([{ section: 'onloadBench' }]);
      configure(readSettings(section, roots));
    } catch {
      // A client that declared configuration but cannot answer: keep what we have.
    }
  };

  /** The client registered our file watcher: it will tell us about files changed on disk. */
  let watched = false;

  connection.onInitialized(() => {
    if (manners.watchesFiles) {
      connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*' }] }).then(
        () => {
          watched = true;
        },
        // A client may declare watchers and still refuse them: then we look again on open, save and change.
        (error: unknown) =>
          connection.console.warn(
            `file watcher not registered (${String(error)}): the workspace is read again on open, save and change`,
          ),
      );
    }
    // Only a client that declared it may be asked to register (eglot warns about anything else);
    // the others notify changes of their own accord.
    if (manners.pullsConfiguration && manners.registersConfigurationChanges)
      void connection.client
        .register(DidChangeConfigurationNotification.type, { section: 'onloadBench' })
        .catch(() => undefined);
    void pullSettings();
  });

  connection.onDidChangeConfiguration((params) => {
    // Pushed settings (Neovim's `settings`, eglot's workspace configuration) or a hint to pull.
    const pushed = readSettings(params.settings, roots);
    if (pushed) configure(pushed);
    else void pullSettings();
  });

  const validate = async (uri: string): Promise<void> => {
    const target = featuresOf(uri);
    if (!target) return;
    const version = target.whole.version;
    const recording = new RecordingFiles(files);
    let diagnostics: Diagnostic[];
    try {
      diagnostics = await target.features.diagnostics(target.document, recording, { isCancellationRequested: false });
    } catch (error) {
      connection.console.error(`diagnostics failed for ${uri}: ${String(error)}`);
      return;
    }
    // A newer version is already queued: its own validation will publish.
    if (documents.get(uri)?.version !== version) return;
    dependencies.record(uri, recording);
    diagnostics = capDiagnostics(diagnostics);
    // Always shown, whatever the cap left out.
    if (target.cutAtLine !== undefined)
      diagnostics = [...diagnostics, truncationNotice(target.whole, target.cutAtLine)];
    published.set(uri, diagnostics);
    void connection.sendDiagnostics({
      uri,
      version,
      diagnostics: shapeDiagnostics(diagnostics, manners, options.diagnosticDocs),
    });
  };

  const schedule = (uri: string, delay = validationDelayMs): void => {
    clearTimeout(pending.get(uri));
    pending.set(
      uri,
      setTimeout(() => {
        pending.delete(uri);
        // Nothing a document holds may end the server: an unexpected failure is logged, not thrown.
        validate(uri).catch((error: unknown) => connection.console.error(`checking ${uri} failed: ${String(error)}`));
      }, delay),
    );
  };

  /** Open documents that read `uri` in their last check (imported it, or looked for it and found nothing). */
  const recheckDependents = (uri: string) => {
    for (const dependent of dependencies.dependentsOf(uri))
      if (dependent !== uri && documents.get(dependent)) schedule(dependent, dependentsDelayMs);
  };
  /**
   * Without file watchers nothing tells us about files changed on disk (created by a terminal, a
   * `git checkout`, another editor): an open or a save is the moment to look again, for every open
   * document (`except` is checked at once by its own open).
   */
  const refreshWithoutWatcher = (except?: string) => {
    if (watched) return;
    files.invalidate();
    for (const document of documents.all()) if (document.uri !== except) schedule(document.uri, dependentsDelayMs);
  };

  // TextDocuments fires didChangeContent right after didOpen: check a just-opened document at
  // once and debounce only the edits that follow.
  const justOpened = new Set<string>();
  documents.onDidOpen((event) => {
    openByKey.set(uriKey(event.document.uri), event.document.uri);
    justOpened.add(event.document.uri);
    refreshWithoutWatcher(event.document.uri);
  });
  documents.onDidChangeContent((event) => {
    const uri = event.document.uri;
    // An edit re-checks this document, which reads imported files from the disk afresh; without
    // watchers the cached file listing (import-name completion, definitions) is dropped too.
    if (!watched) files.invalidate();
    schedule(uri, justOpened.delete(uri) ? 0 : validationDelayMs);
    recheckDependents(uri);
  });
  documents.onDidSave((event) => {
    // The saved document too: `:w` is how a Neovim user asks to see the disk as it is now.
    refreshWithoutWatcher();
    recheckDependents(event.document.uri);
  });
  documents.onDidClose((event) => {
    const uri = event.document.uri;
    if (openByKey.get(uriKey(uri)) === uri) openByKey.delete(uriKey(uri));
    clearTimeout(pending.get(uri));
    pending.delete(uri);
    justOpened.delete(uri);
    published.delete(uri);
    dependencies.forget(uri);
    forgetAnalysedPart(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
    // Its importers now read the file on disk, without the closed buffer's unsaved edits.
    recheckDependents(uri);
  });

  // Another file changed (an imported profile, a new workload): re-check every open document.
  connection.onDidChangeWatchedFiles(() => {
    files.invalidate();
    for (const document of documents.all()) schedule(document.uri);
  });

  connection.onCompletion(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    if (!target || !analysed(target, params.position.line)) return [];
    const items = (
      await target.features.completion(target.document, params.position, files, token, { snippets: manners.snippets })
    ).map((item) => shapeCompletionItem(item, manners));
    return compactCompletionList(deferred ? deferred.defer(items) : items, {
      editRange: manners.completionEditRangeDefault,
      insertTextModeAsIs: manners.insertTextModeAsIs && manners.insertTextModeDefault,
    });
  });

  connection.onCompletionResolve((item) => (deferred ? shapeCompletionItem(deferred.resolve(item), manners) : item));

  connection.onHover(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    if (!target || !analysed(target, params.position.line)) return null;
    return shapeHover(
      await target.features.hover(target.document, params.position, files, token, hoverOptions),
      manners,
    );
  });

  connection.onCodeAction(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    if (!target) return [];
    const current = published.get(params.textDocument.uri) ?? [];
    const context = requestDiagnostics(params.context.diagnostics, params.range, current);
    const actions: CodeAction[] = await target.features.codeActions(target.document, params.range, context, token);
    // Fix all of a code, disable for this line: for the diagnostics this request is about.
    actions.push(
      ...(await fileWideActions(
        target.features,
        target.document,
        diagnosticsForRange(params.range, context),
        current,
        token,
      )),
    );
    return shapeCodeActions(actions, manners);
  });

  connection.onExecuteCommand(async (params) => {
    if (params.command !== applyFixCommand) return null;
    const edit = params.arguments?.[0] as WorkspaceEdit | undefined;
    if (edit) await connection.workspace.applyEdit({ label: 'Onload Bench quick fix', edit });
    return null;
  });

  connection.onDocumentSymbol(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    if (!target) return [];
    return shapeSymbols(
      params.textDocument.uri,
      await target.features.documentSymbols(target.document, token),
      manners,
    );
  });

  connection.onDefinition(async (params, token) => {
    const target = featuresOf(params.textDocument.uri);
    if (!target || !analysed(target, params.position.line)) return [];
    return target.features.definition(target.document, params.position, files, token);
  });

  registerCustomRequests(connection, files, (uri) => documents.get(uri), languages);

  documents.listen(connection);
  connection.listen();
}
