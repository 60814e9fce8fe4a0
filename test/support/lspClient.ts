// A real LSP client for tests: spawns the bundled server (`node dist/server.js --stdio`) and speaks
// JSON-RPC to it over stdio, exactly as any editor would.
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-languageserver-protocol/node';
import type {
  CodeAction,
  CompletionItem,
  CompletionList,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  Position,
  Range,
} from 'vscode-languageserver-types';
import type { ClientCapabilities, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

export interface TestClient {
  connection: MessageConnection;
  /** The server's answer to initialize. */
  initialized: InitializeResult;
  /** The server process, for memory figures. */
  pid: number | undefined;
  open(uri: string, languageId: string, text: string): Promise<void>;
  change(uri: string, text: string): Promise<void>;
  close(uri: string): Promise<void>;
  /** Resolves with the next diagnostics published for `uri` after this call (a re-check keeps the version). */
  nextDiagnostics(uri: string): Promise<Diagnostic[]>;
  save(uri: string): Promise<void>;
  /** Every diagnostics notification published for `uri` so far, oldest first. */
  publishedFor(uri: string): PublishDiagnosticsParams[];
  /** Resolves with the first diagnostics published for `uri` at the given version (or any, when omitted). */
  diagnostics(uri: string, version?: number, timeoutMs?: number): Promise<Diagnostic[]>;
  completion(uri: string, position: Position): Promise<CompletionItem[]>;
  /** The completion answer as sent: an array or a CompletionList. */
  completionAnswer(uri: string, position: Position): Promise<CompletionItem[] | CompletionList | null>;
  resolveCompletion(item: CompletionItem): Promise<CompletionItem>;
  hover(uri: string, position: Position): Promise<Hover | null>;
  codeActions(uri: string, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]>;
  documentSymbols(uri: string): Promise<DocumentSymbol[]>;
  definition(uri: string, position: Position): Promise<Location[]>;
  stop(): Promise<void>;
}

/**
 * A code action offered beside every problem's own fixes: fix all of its code, disable it for the line
 * (server/src/common/fileWideActions.ts).
 */
export function isFileWideAction(action: { title: string }): boolean {
  return /^(Fix all|Disable) '[a-z0-9-]+' /.test(action.title);
}

export function fileUri(path: string): string {
  return pathToFileURL(path).toString();
}

export interface TestClientOptions {
  /** Advertise lazy resolution of completion documentation, as VS Code does. */
  resolveDocumentation?: boolean;
  /** Advertise LSP 3.17 completion list item defaults (a shared edit range), as VS Code does. */
  itemDefaults?: boolean;
  /** Send exactly these capabilities instead of the VS Code-like default (another client's). */
  capabilities?: ClientCapabilities;
  /**
   * A real client's `initialize` params as it sent them (test/fixtures/clients): its capabilities,
   * processId and clientInfo are sent as they are; the workspace fields are this test's.
   */
  clientParams?: Record<string, unknown>;
  initializationOptions?: unknown;
  /** Answers to server-to-client requests (workspace/configuration, workspace/applyEdit...). */
  onRequest?: Record<string, (params: unknown) => unknown>;
}

/** Starts the server with the given workspace folders (absolute paths). */
export async function startTestClient(
  workspaceFolders: string[] = [],
  options: TestClientOptions = {},
): Promise<TestClient> {
  const child: ChildProcess = spawn(process.execPath, ['dist/server.js', '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const published = new Map<string, PublishDiagnosticsParams[]>();
  const waiters: { uri: string; version?: number; resolve: (d: Diagnostic[]) => void }[] = [];
  const nextWaiters: { uri: string; resolve: (d: Diagnostic[]) => void }[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.set(params.uri, [...(published.get(params.uri) ?? []), params]);
    for (const waiter of nextWaiters.filter((candidate) => candidate.uri === params.uri)) {
      nextWaiters.splice(nextWaiters.indexOf(waiter), 1);
      waiter.resolve(params.diagnostics);
    }
    for (const waiter of [...waiters]) {
      if (waiter.uri === params.uri && (waiter.version === undefined || waiter.version === params.version)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params.diagnostics);
      }
    }
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('workspace/configuration', () => []);
  for (const [method, handler] of Object.entries(options.onRequest ?? {})) connection.onRequest(method, handler);
  connection.listen();

  const {
    rootPath: _rootPath,
    rootUri: _rootUri,
    workspaceFolders: _folders,
    initializationOptions: _options,
    ...clientParams
  } = options.clientParams ?? {};
  const initialized: InitializeResult = await connection.sendRequest('initialize', {
    ...clientParams,
    // A client that sends its process id sends a live one: this process's.
    processId: clientParams.processId === null ? null : process.pid,
    rootUri: workspaceFolders[0] ? fileUri(workspaceFolders[0]) : null,
    workspaceFolders: workspaceFolders.map((folder) => ({ uri: fileUri(folder), name: folder })),
    ...(options.initializationOptions !== undefined && { initializationOptions: options.initializationOptions }),
    capabilities: (clientParams.capabilities as ClientCapabilities | undefined) ??
      options.capabilities ?? {
        textDocument: {
          completion: {
            completionItem: {
              snippetSupport: true,
              tagSupport: { valueSet: [1] },
              labelDetailsSupport: true,
              documentationFormat: ['markdown', 'plaintext'],
              ...(options.resolveDocumentation && { resolveSupport: { properties: ['documentation'] } }),
            },
            ...(options.itemDefaults && { completionList: { itemDefaults: ['editRange'] } }),
          },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: {
            relatedInformation: true,
            codeDescriptionSupport: true,
            dataSupport: true,
            tagSupport: { valueSet: [1, 2] },
          },
          codeAction: { dataSupport: true, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
        workspace: { workspaceFolders: true },
      },
  });
  await connection.sendNotification('initialized', {});

  const versions = new Map<string, number>();
  const textDocument = (uri: string) => ({ uri });

  return {
    connection,
    initialized,
    pid: child.pid,
    async open(uri, languageId, text) {
      versions.set(uri, 1);
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      });
    },
    async change(uri, text) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    },
    async close(uri) {
      await connection.sendNotification('textDocument/didClose', { textDocument: textDocument(uri) });
    },
    nextDiagnostics(uri) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no new diagnostics for ${uri} within 10 s`)), 10_000);
        nextWaiters.push({
          uri,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        });
      });
    },
    async save(uri) {
      await connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
    },
    publishedFor: (uri) => [...(published.get(uri) ?? [])],
    diagnostics(uri, version = versions.get(uri), timeoutMs = 10_000) {
      const already = published.get(uri)?.find((p) => version === undefined || p.version === version);
      if (already) return Promise.resolve(already.diagnostics);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        waiters.push({
          uri,
          version,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        });
      });
    },
    async completion(uri, position) {
      const result = await connection.sendRequest<CompletionItem[] | CompletionList | null>('textDocument/completion', {
        textDocument: textDocument(uri),
        position,
      });
      return Array.isArray(result) ? result : (result?.items ?? []);
    },
    completionAnswer: (uri, position) =>
      connection.sendRequest('textDocument/completion', { textDocument: textDocument(uri), position }),
    resolveCompletion: (item) => connection.sendRequest('completionItem/resolve', item),
    hover: (uri, position) =>
      connection.sendRequest('textDocument/hover', { textDocument: textDocument(uri), position }),
    codeActions: (uri, range, diagnostics) =>
      connection.sendRequest('textDocument/codeAction', {
        textDocument: textDocument(uri),
        range,
        context: { diagnostics },
      }),
    documentSymbols: (uri) =>
      connection.sendRequest('textDocument/documentSymbol', { textDocument: textDocument(uri) }),
    async definition(uri, position) {
      const result = await connection.sendRequest<Location | Location[] | null>('textDocument/definition', {
        textDocument: textDocument(uri),
        position,
      });
      return result === null ? [] : Array.isArray(result) ? result : [result];
    },
    async stop() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      connection.dispose();
      child.kill();
    },
  };
}
