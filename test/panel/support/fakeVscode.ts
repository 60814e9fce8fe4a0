// Just enough of the `vscode` module for the results panel's host code to run in Node: webview
// panels that record what the host sets and posts, a serializer registry, save dialogs answered by
// the test, file writes recorded. Installed with installFakeVscode() before the host is imported.
import Module from 'node:module';
import * as path from 'node:path';

type Listener<T> = (value: T) => void;

class Emitter<T> {
  private listeners: Listener<T>[] = [];
  event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((candidate) => candidate !== listener)) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
}

export class FakeUri {
  private constructor(readonly fsPath: string) {}
  static file(fsPath: string): FakeUri {
    return new FakeUri(path.resolve(fsPath));
  }
  static joinPath(base: FakeUri, ...parts: string[]): FakeUri {
    return new FakeUri(path.join(base.fsPath, ...parts));
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
}

export class FakeWebviewPanel {
  readonly posted: unknown[] = [];
  readonly disposeEmitter = new Emitter<void>();
  readonly messageEmitter = new Emitter<unknown>();
  disposed = false;
  revealed = 0;
  title: string;
  iconPath: unknown;
  readonly webview = {
    options: {} as { enableScripts?: boolean; localResourceRoots?: FakeUri[] },
    html: '',
    cspSource: 'https://fake.vscode-resource.test',
    asWebviewUri: (uri: FakeUri) => `https://fake.vscode-resource.test${uri.fsPath}`,
    postMessage: async (message: unknown) => {
      this.posted.push(message);
      return true;
    },
    onDidReceiveMessage: this.messageEmitter.event,
  };
  onDidDispose = this.disposeEmitter.event;
  constructor(
    readonly viewType: string,
    title: string,
    readonly showOptions: unknown,
    options: { enableScripts?: boolean; localResourceRoots?: FakeUri[] } = {},
  ) {
    this.title = title;
    this.webview.options = options;
  }
  get viewColumn(): number | undefined {
    // VS Code resolves Beside/Active to a real column; here Active is 1 and Beside 2.
    const column = (this.showOptions as { viewColumn?: number } | undefined)?.viewColumn;
    return column === -2 ? 2 : column === -1 ? 1 : column;
  }
  reveal(): void {
    this.revealed += 1;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
  }
  /** What the webview script would post. */
  fromWebview(message: unknown): void {
    this.messageEmitter.fire(message);
  }
  models(): { title: string; runs: unknown[] }[] {
    return this.posted
      .filter((message) => (message as { type: string }).type === 'model')
      .map((message) => (message as { model: { title: string; runs: unknown[] } }).model);
  }
}

export interface FakeVscodeState {
  panels: FakeWebviewPanel[];
  serializers: Map<string, { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> }>;
  saveDialogAnswer: FakeUri | undefined;
  saveDialogs: unknown[];
  writes: { path: string; bytes: Uint8Array }[];
  errors: string[];
  watchers: { pattern: unknown; change: Emitter<FakeUri>; create: Emitter<FakeUri> }[];
  infos: { message: string; items: string[] }[];
  /** What the next information message answers (a button's title, or undefined for dismissed). */
  infoAnswer: string | undefined;
  quickPicks: { items: { label: string; kind?: number }[]; options: unknown }[];
  quickPickAnswer: ((items: { label: string; kind?: number }[]) => unknown) | undefined;
  commands: { command: string; args: unknown[] }[];
  opened: unknown[];
  settings: Record<string, unknown>;
}

export const fake: FakeVscodeState = {
  panels: [],
  serializers: new Map(),
  saveDialogAnswer: undefined,
  saveDialogs: [],
  writes: [],
  errors: [],
  watchers: [],
  infos: [],
  infoAnswer: undefined,
  quickPicks: [],
  quickPickAnswer: undefined,
  commands: [],
  opened: [],
  settings: {},
};

const disposable = (dispose: () => void = () => undefined) => ({ dispose });

const vscodeModule = {
  Uri: FakeUri,
  QuickPickItemKind: { Separator: -1, Default: 0 },
  commands: {
    executeCommand: async (command: string, ...args: unknown[]) => {
      fake.commands.push({ command, args });
      return undefined;
    },
  },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  Disposable: { from: (...items: { dispose(): void }[]) => disposable(() => items.forEach((item) => item.dispose())) },
  RelativePattern: class {
    constructor(
      readonly base: FakeUri,
      readonly pattern: string,
    ) {}
  },
  window: {
    createWebviewPanel: (
      viewType: string,
      title: string,
      showOptions: unknown,
      options: { enableScripts?: boolean; localResourceRoots?: FakeUri[] },
    ) => {
      const panel = new FakeWebviewPanel(viewType, title, showOptions, options);
      fake.panels.push(panel);
      return panel;
    },
    registerWebviewPanelSerializer: (
      viewType: string,
      serializer: FakeVscodeState['serializers'] extends Map<string, infer S> ? S : never,
    ) => {
      fake.serializers.set(viewType, serializer);
      return disposable(() => fake.serializers.delete(viewType));
    },
    showSaveDialog: async (options: unknown) => {
      fake.saveDialogs.push(options);
      return fake.saveDialogAnswer;
    },
    showErrorMessage: async (message: string) => {
      fake.errors.push(message);
      return undefined;
    },
    showInformationMessage: async (message: string, ...items: string[]) => {
      fake.infos.push({ message, items });
      return fake.infoAnswer;
    },
    showQuickPick: async (items: { label: string; kind?: number }[], options: unknown) => {
      fake.quickPicks.push({ items, options });
      return fake.quickPickAnswer?.(items);
    },
    showTextDocument: async (document: unknown, options: unknown) => {
      fake.opened.push({ document, options });
      return {};
    },
  },
  workspace: {
    getConfiguration: () => ({ get: (key: string) => fake.settings[key] }),
    openTextDocument: async (options: { language?: string; content?: string }) => {
      fake.opened.push({ untitled: options });
      return { uri: FakeUri.file('/untitled'), options };
    },
    createFileSystemWatcher: (pattern: unknown) => {
      const watcher = { pattern, change: new Emitter<FakeUri>(), create: new Emitter<FakeUri>() };
      fake.watchers.push(watcher);
      return {
        onDidChange: watcher.change.event,
        onDidCreate: watcher.create.event,
        onDidDelete: () => disposable(),
        dispose: () => undefined,
      };
    },
    fs: {
      writeFile: async (uri: FakeUri, bytes: Uint8Array) => {
        fake.writes.push({ path: uri.fsPath, bytes });
      },
    },
  },
};

let installed = false;

/** Makes `require('vscode')` return the fake (the host bundle keeps `vscode` external too). */
export function installFakeVscode(): void {
  if (installed) return;
  installed = true;
  const moduleWithLoad = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const originalLoad = moduleWithLoad._load;
  moduleWithLoad._load = function load(request: string, parent: unknown, isMain: boolean) {
    if (request === 'vscode') return vscodeModule;
    return originalLoad.call(this, request, parent, isMain);
  };
}

export function resetFake(): void {
  fake.panels.length = 0;
  fake.saveDialogs.length = 0;
  fake.writes.length = 0;
  fake.errors.length = 0;
  fake.watchers.length = 0;
  fake.saveDialogAnswer = undefined;
  fake.infos.length = 0;
  fake.infoAnswer = undefined;
  fake.quickPicks.length = 0;
  fake.quickPickAnswer = undefined;
  fake.commands.length = 0;
  fake.opened.length = 0;
  fake.settings = {};
}

/** Waits (bounded) until a condition holds; the host coalesces redraws on a short timer. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
