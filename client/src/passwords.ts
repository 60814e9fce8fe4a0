// The Couchbase admin password: from the environment variable named in the settings, else from
// SecretStorage, else asked once and kept in SecretStorage. Never written to settings or logs.
import * as vscode from 'vscode';
import { type ClusterIdentity, describeSecretKey, passwordSecretKey } from './secretKeys';
import type { BenchSettings } from './settings';
import { type PasswordSource, passwordSourceOf } from './passwordSource';
import { markWalkthrough, walkthroughKeys } from './walkthroughProgress';

/** Keys (never values) of stored passwords, so "Clear Couchbase password" can list them. */
const knownKeysState = 'onloadBench.passwordKeys';

export class PasswordStore {
  constructor(private readonly context: vscode.ExtensionContext) {}

  /** The password for a plan's cluster, asking (and storing) it if none is known; undefined if the user cancelled. */
  async passwordFor(plan: ClusterIdentity, settings: BenchSettings): Promise<string | undefined> {
    const envVar = settings.couchbase.passwordEnvVar;
    const fromEnv = envVar ? process.env[envVar] : undefined;
    if (fromEnv) {
      markWalkthrough(walkthroughKeys.passwordReady);
      return fromEnv;
    }
    const key = passwordSecretKey(plan);
    const stored = await this.context.secrets.get(key);
    if (stored) {
      markWalkthrough(walkthroughKeys.passwordReady);
      return stored;
    }
    return this.ask(plan);
  }

  /** Where the password of a plan's cluster comes from now (environment variable, SecretStorage, or nowhere yet). */
  async sourceFor(plan: ClusterIdentity, settings: BenchSettings): Promise<PasswordSource> {
    const key = passwordSecretKey(plan);
    const stored = (await this.context.secrets.get(key)) !== undefined;
    return passwordSourceOf({
      variable: settings.couchbase.passwordEnvVar,
      env: process.env,
      stored,
      cluster: describeSecretKey(key),
    });
  }

  /** Asks for the password and stores it; undefined if the user cancelled. */
  async ask(plan: ClusterIdentity): Promise<string | undefined> {
    const key = passwordSecretKey(plan);
    const password = await vscode.window.showInputBox({
      title: 'Couchbase password',
      prompt: `Password of ${describeSecretKey(key)} (kept in VS Code's secret storage)`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.length === 0 ? 'The password cannot be empty.' : undefined),
    });
    if (password === undefined) return undefined;
    await this.store(plan, password);
    return password;
  }

  async store(plan: ClusterIdentity, password: string): Promise<void> {
    const key = passwordSecretKey(plan);
    await this.context.secrets.store(key, password);
    markWalkthrough(walkthroughKeys.passwordReady);
    const keys = this.knownKeys();
    if (!keys.includes(key)) await this.context.globalState.update(knownKeysState, [...keys, key]);
  }

  async clear(key: string): Promise<void> {
    await this.context.secrets.delete(key);
    await this.context.globalState.update(
      knownKeysState,
      this.knownKeys().filter((known) => known !== key),
    );
  }

  knownKeys(): string[] {
    const keys = this.context.globalState.get<unknown>(knownKeysState);
    return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
  }
}
