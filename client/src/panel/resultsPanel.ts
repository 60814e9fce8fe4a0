// The results panel's host side: one webview panel per run folder (or pair of folders when
// comparing). It reads the folder, follows a running sweep through its events (or watches
// results.jsonl when no sweep feeds it), posts a ready-to-draw model to the webview, and handles
// the webview's validated requests (CSV and image export). Pure parts live next to it.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SweepEvent } from '../../../engine/src/index';
import { buildHtmlReport } from '../../../engine/src/report/index';
import { timeSeriesView } from './evidenceModel';
import type { HostMessage, WebviewMessage } from './protocol';
import { imageBytes, restoredRunDirs, validateWebviewMessage } from './messageValidation';
import { buildPanelHtml, createNonce } from './panelHtml';
import { applySweepEvent, emptyRunData, liveText, type RunData } from './runData';
import { loadRunFolder, manifestFileName, resultsFileName } from './runFolder';
import { runTablesCsv } from './tablesCsv';
import { buildViewModel, modelTitle, panelTitle, runIdOf } from './viewModel';
import { offerExportActions, openCellFiles } from './panelActions';

/** The webview panel type; package.json needs `onWebviewPanel:onloadBench.results` for restores. */
export const resultsViewType = 'onloadBench.results';

/** Redraws are coalesced: a sweep can finish several cells in a burst. */
const redrawDelayMs = 150;
/** YCSB status lines arrive every few seconds per client; the live line need not be faster. */
const liveTextDelayMs = 500;
/** A watched results.jsonl is re-read once writes settle. */
const reloadDelayMs = 300;
/**
 * A run counts as fed by events while they keep coming (YCSB status lines arrive every few
 * seconds); if a driver stops without `run-finished`, the file watcher takes over again.
 */
const liveQuietMs = 60_000;

function normalise(runDir: string): string {
  return path.resolve(runDir);
}

function panelKey(runDirs: readonly string[]): string {
  return runDirs.map(normalise).join('\u0000');
}

/**
 * Merges a fresh read of the files with what the panel already knew: the file is the truth for
 * every cell it holds (the engine writes a line before it reports the cell), events add the cells
 * the read did not see yet; the live state only events know.
 */
function mergeRunData(fromFile: RunData, current: RunData): RunData {
  const merged: RunData = { ...fromFile, results: new Map(fromFile.results) };
  for (const [id, result] of current.results) if (!merged.results.has(id)) merged.results.set(id, result);
  // the file's manifest is the newer one: the engine adds the environment and extra cells to it
  merged.manifest = fromFile.manifest ?? current.manifest;
  merged.running = current.running;
  merged.outcome = current.outcome;
  merged.preflight = current.preflight;
  merged.removed = current.removed;
  // A removed folder's "not found" is not news: the panel says pre-flight failed instead.
  if (current.removed) merged.warnings = [];
  return merged;
}

class ResultsPanel implements vscode.Disposable {
  private runs: RunData[];
  private ready = false;
  private redrawTimer: NodeJS.Timeout | undefined;
  private liveTimer: NodeJS.Timeout | undefined;
  private pendingLive: { runDir: string; text: string } | undefined;
  private readonly reloadTimers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  /** The first read of the folders; nothing is posted before it, so no empty panel flashes. */
  private readonly firstLoad: Promise<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly runDirs: string[],
    private readonly extensionUri: vscode.Uri,
    private readonly isLive: (runDir: string) => boolean,
    onDisposed: () => void,
  ) {
    this.runs = runDirs.map(emptyRunData);
    panel.webview.options = ResultsPanel.webviewOptions(extensionUri);
    panel.title = panelTitle(runDirs.map((dir) => path.basename(dir)));
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'results.svg');
    this.render();
    this.disposables.push(
      panel.onDidDispose(() => {
        this.dispose();
        onDisposed();
      }),
      panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
    );
    for (const runDir of runDirs) this.watch(runDir);
    this.firstLoad = this.reloadAll();
  }

  static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist', 'media'),
        vscode.Uri.joinPath(extensionUri, 'media'),
      ],
    };
  }

  /** Sets the HTML with a fresh nonce; the webview then says `ready` and gets the model. */
  private render(): void {
    const webview = this.panel.webview;
    this.ready = false;
    webview.html = buildPanelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'media', 'panel.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'panel.css')).toString(),
      nonce: createNonce(),
      title: this.panel.title,
    });
  }

  private watch(runDir: string): void {
    const pattern = new vscode.RelativePattern(vscode.Uri.file(runDir), `{${resultsFileName},${manifestFileName}}`);
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = () => {
      // While a sweep feeds us events the file only repeats them; re-read once it has finished.
      if (this.isLive(runDir)) return;
      this.scheduleReload(runDir);
    };
    this.disposables.push(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed));
  }

  scheduleReload(runDir: string): void {
    const key = normalise(runDir);
    clearTimeout(this.reloadTimers.get(key));
    this.reloadTimers.set(
      key,
      setTimeout(() => {
        this.reloadTimers.delete(key);
        void this.reload(runDir);
      }, reloadDelayMs),
    );
  }

  private async reloadAll(): Promise<void> {
    await Promise.all(this.runDirs.map((runDir) => this.reload(runDir)));
  }

  private async reload(runDir: string): Promise<void> {
    const index = this.indexOf(runDir);
    if (index < 0) return;
    let fromFile: RunData;
    try {
      fromFile = await loadRunFolder(runDir);
    } catch (error) {
      fromFile = emptyRunData(runDir);
      fromFile.warnings.push(`Could not read ${runDir}: ${(error as Error).message}`);
    }
    if (this.disposed) return;
    this.runs[index] = mergeRunData(fromFile, this.runs[index]);
    this.panel.title = modelTitle(this.runs);
    this.scheduleRedraw();
  }

  private indexOf(runDir: string): number {
    const key = normalise(runDir);
    return this.runDirs.findIndex((dir) => normalise(dir) === key);
  }

  hasRun(runDir: string): boolean {
    return this.indexOf(runDir) >= 0;
  }

  /** It shows only a run that failed pre-flight and left no folder: nothing there to come back to. */
  showsOnlyRemovedRun(): boolean {
    return this.runs.length === 1 && this.runs[0].removed === true;
  }

  applyEvent(runDir: string, event: SweepEvent): void {
    const index = this.indexOf(runDir);
    if (index < 0) return;
    const text = liveText(event);
    if (text !== undefined) this.scheduleLive(runDir, text);
    if (applySweepEvent(this.runs[index], event)) {
      if (event.type === 'run-started' || event.type === 'run-finished') this.panel.title = modelTitle(this.runs);
      this.scheduleRedraw();
    }
    // The file is the truth: once the sweep ends, re-read it so the panel shows exactly that.
    if (event.type === 'run-finished') this.scheduleReload(runDir);
  }

  private scheduleRedraw(): void {
    if (this.redrawTimer || this.disposed) return;
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      this.postModel();
    }, redrawDelayMs);
  }

  private scheduleLive(runDir: string, text: string): void {
    this.pendingLive = { runDir, text };
    if (this.liveTimer || this.disposed) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      if (this.pendingLive && this.ready) this.post({ type: 'live', ...this.pendingLive });
    }, liveTextDelayMs);
  }

  private postModel(): void {
    if (!this.ready || this.disposed) return;
    const model = buildViewModel(this.runs);
    model.exportBackground =
      vscode.workspace.getConfiguration('onloadBench').get<string>('results.exportBackground') === 'theme'
        ? 'theme'
        : 'light';
    this.post({ type: 'model', model });
  }

  private post(message: HostMessage): void {
    void this.panel.webview.postMessage(message);
  }

  /**
   * Every export: ask where (suggesting `suggested`), then write. The contents are made only once
   * a place is chosen, so a cancelled dialog costs nothing.
   */
  private async saveExport(
    suggested: string,
    filters: Record<string, string[]>,
    title: string,
    contents: () => Uint8Array,
  ): Promise<void> {
    const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(suggested), filters, title });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, contents());
    this.post({ type: 'notice', level: 'info', text: `Saved ${target.fsPath}` });
    void offerExportActions(target);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  private onMessage(raw: unknown): void {
    const checked = validateWebviewMessage(raw);
    if (!checked.ok) {
      console.warn(`[onload-bench] ignored a message from the results webview: ${checked.error}`);
      return;
    }
    void this.handle(checked.value).catch((error: unknown) => {
      void vscode.window.showErrorMessage(`Onload Bench: ${(error as Error).message}`);
    });
  }

  private async handle(message: WebviewMessage): Promise<void> {
    await this.firstLoad;
    if (this.disposed) return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.postModel();
        return;
      case 'export-csv': {
        const run = this.runs[message.runIndex];
        if (!run) return;
        await this.saveExport(
          path.join(run.runDir, `${runIdOf(run)}-report.csv`),
          { CSV: ['csv'] },
          'Export the comparison tables as CSV',
          () => Buffer.from(runTablesCsv(run), 'utf8'),
        );
        return;
      }
      case 'export-report': {
        const run = this.runs[message.runIndex];
        if (!run) return;
        await this.saveExport(
          path.join(run.runDir, `${runIdOf(run)}-report.html`),
          { 'HTML report': ['html'] },
          'Export the run as one self-contained HTML report',
          () => {
            const html = buildHtmlReport({
              runDir: run.runDir,
              results: [...run.results.values()],
              manifest: run.manifest,
              warnings: run.warnings,
              generatedAt: new Date().toISOString(),
            });
            return Buffer.from(html, 'utf8');
          },
        );
        return;
      }
      case 'open-timeseries': {
        const run = this.runs[message.runIndex];
        if (!run) return;
        this.post({ type: 'timeseries', view: timeSeriesView(run, message.runIndex, message) });
        return;
      }
      case 'save-image': {
        const folder = this.runs[0]?.runDir ?? this.runDirs[0];
        await this.saveExport(
          path.join(folder, `${path.parse(message.name).name}.${message.format}`),
          message.format === 'png' ? { 'PNG image': ['png'] } : { 'SVG image': ['svg'] },
          `Save the chart as ${message.format.toUpperCase()}`,
          () => imageBytes(message),
        );
        return;
      }
      case 'open-cell': {
        const run = this.runs[message.runIndex];
        if (run) await openCellFiles(run, message.cellIds);
        return;
      }
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.redrawTimer);
    clearTimeout(this.liveTimer);
    for (const timer of this.reloadTimers.values()) clearTimeout(timer);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

export class ResultsPanelManager {
  private readonly panels = new Map<string, ResultsPanel>();
  /** Run folders a sweep is feeding right now, with the time of their last event. */
  private readonly liveRuns = new Map<string, number>();
  /** Live runs whose folder was re-read once their first cell started. */
  private readonly reReadAfterStart = new Set<string>();

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** Registers the serializer that brings panels back after a window reload. */
  register(): vscode.Disposable {
    const serializer = vscode.window.registerWebviewPanelSerializer(resultsViewType, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        const runDirs = restoredRunDirs(state);
        // Never bring back a panel of a run that no longer exists (a removed pre-flight failure).
        if (!runDirs || !runDirs.every((runDir) => existsSync(runDir))) {
          panel.dispose();
          return;
        }
        this.adopt(panel, runDirs);
      },
    });
    return vscode.Disposable.from(serializer, {
      dispose: () => {
        for (const panel of [...this.panels.values()]) panel.panel.dispose();
        this.panels.clear();
      },
    });
  }

  /** Opens (or reveals) the panel of one run folder. */
  showRun(runDir: string): void {
    this.open([runDir], false);
  }

  /** Feeds a running sweep's events; `run-started` opens the panel beside the terminal. */
  onSweepEvent(runDir: string, event: SweepEvent): void {
    const key = normalise(runDir);
    this.liveRuns.set(key, Date.now());
    if (event.type === 'run-started' && !this.panels.has(panelKey([runDir]))) {
      // The next attempt replaces the tabs of earlier pre-flight failures instead of adding one more.
      for (const panel of [...this.panels.values()]) if (panel.showsOnlyRemovedRun()) panel.panel.dispose();
      this.open([runDir], true);
    }
    for (const panel of this.panels.values()) if (panel.hasRun(runDir)) panel.applyEvent(runDir, event);
    if (event.type === 'run-finished') this.liveRuns.delete(key);
    // The manifest gains what events do not carry (the environment after pre-flight, extra cells):
    // re-read the folder when the first cell starts and when the run ends, if it was kept.
    const firstCell = event.type === 'cell-started' && !this.reReadAfterStart.has(key);
    const finished = event.type === 'run-finished' && event.outcome.runDir !== '';
    if (firstCell) this.reReadAfterStart.add(key);
    if (event.type === 'run-finished') this.reReadAfterStart.delete(key);
    if (firstCell || finished)
      for (const panel of this.panels.values()) if (panel.hasRun(runDir)) panel.scheduleReload(runDir);
  }

  /** Closes every panel that shows `runDir` (its folder was deleted). */
  closeRun(runDir: string): void {
    for (const panel of [...this.panels.values()]) if (panel.hasRun(runDir)) panel.panel.dispose();
  }

  /** Run B against run A. */
  compare(runDirA: string, runDirB: string): void {
    if (normalise(runDirA) === normalise(runDirB)) {
      this.showRun(runDirA);
      return;
    }
    this.open([runDirA, runDirB], false);
  }

  /** Opens the run folder a `results.jsonl` or `manifest.json` belongs to. */
  openResultsFile(uri: vscode.Uri): void {
    const name = path.basename(uri.fsPath);
    if (name !== resultsFileName && name !== manifestFileName) {
      void vscode.window.showErrorMessage(
        `Onload Bench: ${name} is not a results file; open the ${resultsFileName} or ${manifestFileName} of a run folder.`,
      );
      return;
    }
    this.showRun(path.dirname(uri.fsPath));
  }

  private open(runDirs: string[], preserveFocus: boolean): void {
    const existing = this.panels.get(panelKey(runDirs));
    if (existing) {
      if (!preserveFocus) existing.reveal();
      return;
    }
    // New results open where results already are: one group for them, not a new split per run.
    const resultsColumn = [...this.panels.values()]
      .map((open) => open.panel.viewColumn)
      .find((column) => column !== undefined);
    const viewColumn = resultsColumn ?? (preserveFocus ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active);
    const panel = vscode.window.createWebviewPanel(
      resultsViewType,
      panelTitle(runDirs.map((dir) => path.basename(dir))),
      { viewColumn, preserveFocus },
      { ...ResultsPanel.webviewOptions(this.context.extensionUri), enableFindWidget: true },
    );
    this.adopt(panel, runDirs);
  }

  private adopt(panel: vscode.WebviewPanel, runDirs: string[]): void {
    const key = panelKey(runDirs);
    const results = new ResultsPanel(
      panel,
      runDirs.map(normalise),
      this.context.extensionUri,
      (runDir) => Date.now() - (this.liveRuns.get(normalise(runDir)) ?? -Infinity) < liveQuietMs,
      () => {
        if (this.panels.get(key) === results) this.panels.delete(key);
      },
    );
    this.panels.get(key)?.panel.dispose();
    this.panels.set(key, results);
  }
}
