// The contract between the LSP adapter (server.ts) and each language's pure services.
// Nothing here may import the LSP connection: the same services back the editor, the standalone
// `--stdio` server and the `onload-bench lint` command.
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

/** Cooperative cancellation, structurally compatible with LSP's CancellationToken. */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

export const neverCancelled: Cancellation = { isCancellationRequested: false };

/** The files a language service may look at beyond the document itself (imports, references). */
export interface WorkspaceFiles {
  /**
   * The text of an open document or of a file on disk; undefined when there is no such file, and
   * for anything on disk that is not a regular file or is past the size bound (never read).
   */
  read(uri: string): Promise<string | undefined>;
  /** URIs of the workspace's files whose names end with one of the suffixes or match a predicate. */
  find(match: (uri: string) => boolean): Promise<string[]>;
  /**
   * The names of a folder's files and open documents, as they are now (not cached: a caller keeps
   * them for one analysis); undefined when that cannot be told. Lets a caller that tries many names
   * skip those that are not there without building their URIs or asking the disk about each.
   */
  entries?(folderUri: string): Promise<ReadonlySet<string> | undefined>;
}

/** What the client can take that changes what a service answers (the adapter shapes the rest). */
export interface CompletionOptions {
  /** The client expands snippets (`completionItem.snippetSupport`); without it items are plain text. */
  snippets: boolean;
}

export const richCompletion: CompletionOptions = { snippets: true };

/** What the client has that a hover may point the user to. */
export interface HoverOptions {
  /**
   * Commands of the client's own (VS Code's client sends `initializationOptions.clientCommands`);
   * other editors have none of ours, and a hover must not send their users looking for one.
   */
  clientCommands: readonly string[];
}

export const noClientCommands: HoverOptions = { clientCommands: [] };

/** Settings the services read (the `onloadBench.*` settings the client sends). */
export interface LanguageSettings {
  /** Folders searched for `onload_import NAME` after the importing file's folder (absolute paths). */
  profilePath: readonly string[];
}

/** One language's features; every method is pure with respect to the connection. */
export interface LanguageFeatures {
  readonly languageId: string;
  diagnostics(document: TextDocument, files: WorkspaceFiles, token: Cancellation): Promise<Diagnostic[]>;
  completion(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    token: Cancellation,
    options?: CompletionOptions,
  ): Promise<CompletionItem[]>;
  hover(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    token: Cancellation,
    options?: HoverOptions,
  ): Promise<Hover | null>;
  codeActions(
    document: TextDocument,
    range: Range,
    diagnostics: Diagnostic[],
    token: Cancellation,
  ): Promise<CodeAction[]>;
  documentSymbols(document: TextDocument, token: Cancellation): Promise<DocumentSymbol[]>;
  definition(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    token: Cancellation,
  ): Promise<Location[]>;
  /** New settings; later answers follow them. */
  configure?(settings: LanguageSettings): void;
}
