// Entry point of dist/server.js. With `--stdio` it serves any LSP client; started by the VS Code
// client it talks over IPC (vscode-languageserver picks the transport from the arguments).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all));
