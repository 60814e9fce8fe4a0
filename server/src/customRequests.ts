// Requests beyond standard LSP (see protocol.ts), answered by the pure services.
import type { Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { WorkspaceFiles } from './common/languageFeatures';

export function registerCustomRequests(
  _connection: Connection,
  _files: WorkspaceFiles,
  _documentOf: (uri: string) => TextDocument | undefined,
): void {
  // The effective-configuration request is registered here once the Onload services provide it.
}
