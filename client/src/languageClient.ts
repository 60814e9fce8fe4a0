// Starts the bundled language server (dist/server.js) over IPC for Onload profiles and YCSB
// workloads, and mirrors the server's custom requests (server/src/protocol.ts) for the commands.
import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import {
  EffectiveConfigurationRequest,
  type EffectiveConfigurationParams,
  type EffectiveConfigurationResult,
} from '../../server/src/protocol';
import { commands } from './commandIds';

/** Languages the server serves; the ids are declared in package.json `contributes.languages`. */
export const serverLanguageIds = ['onload-profile', 'ycsb-workload'] as const;

/** Files whose changes can alter diagnostics elsewhere (an imported profile, a workload). */
const watchedFilesGlob = '**/{*.opf,*.opf-fragment,*.ycsb,workloads/workload*}';

export async function startLanguageClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
  const serverModule = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath;
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', '--inspect=6019'] },
    },
  };
  const watcher = vscode.workspace.createFileSystemWatcher(watchedFilesGlob);
  context.subscriptions.push(watcher);
  const clientOptions: LanguageClientOptions = {
    documentSelector: serverLanguageIds.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    synchronize: { fileEvents: watcher },
    // The server names these commands (in hovers) only to a client that says it has them.
    initializationOptions: { clientCommands: [commands.showEffectiveConfiguration.id] },
  };
  const client = new LanguageClient('onloadBench', 'Onload Bench Language Server', serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
  return client;
}

/** Asks the server for a profile's options after its imports are resolved. */
export function requestEffectiveConfiguration(
  client: LanguageClient,
  uri: vscode.Uri,
): Promise<EffectiveConfigurationResult> {
  const params: EffectiveConfigurationParams = { uri: client.code2ProtocolConverter.asUri(uri) };
  return client.sendRequest<EffectiveConfigurationResult>(EffectiveConfigurationRequest.method, params);
}
