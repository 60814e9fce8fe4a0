// What the task machinery and the panel share, made once at activation (the commands get these
// plus the task provider: extensionServices.ts). Heavy parts (the engine, the Couchbase SDK) are
// not here: commands import them lazily when they run.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { PasswordStore } from './passwords';
import type { RunTracker } from './tasks/runTracker';
import type { ResultsPanelManager } from './panel/resultsPanel';

/** Services the task machinery needs (everything but the task provider itself). */
export interface CoreServices {
  context: vscode.ExtensionContext;
  /** `Onload Bench` log channel: remote commands (without secrets), engine logs, failures. */
  log: vscode.LogOutputChannel;
  passwords: PasswordStore;
  /** Resolves once the language server is up; undefined if it failed to start. */
  languageClient: Promise<LanguageClient | undefined>;
  runs: RunTracker;
  results: ResultsPanelManager;
}
