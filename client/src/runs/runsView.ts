// The Runs view in the side bar, like Test Explorer's history: the
// workspace's runs with their state and verdict, failed pre-flights in one group instead of a tab
// each. A thin edge over runHistory.ts (what is listed, in which state, what may be deleted): it
// reads the results folders and draws the tree; its items' actions are the commands Open results,
// Compare two runs, Resume interrupted run, Reveal run folder and Delete run, given the item.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { readRunFolder } from '../../../engine/src/report/index';
import { commands } from '../commandIds';
import type { CoreServices } from '../services';
import { workspaceResultsRoots, workspaceRuns } from '../commands/pickRun';
import { runsFingerprint, runsTree, verdictOfRun, type RunEntry } from './runHistory';
import { keptPreflightFailures } from './preflightFailures';

export const runsViewId = 'onloadBench.runs';

/** An item of the tree; menus hand it to the commands, which read `runDir` or `planPath` from it. */
export type RunsNode =
  | { kind: 'run'; entry: RunEntry; runDir: string; planPath?: string }
  | { kind: 'verdict'; text: string; parent: string }
  | { kind: 'failures'; entries: RunEntry[] };

const stateIcons: Record<RunEntry['state'], vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin'),
  complete: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  stopped: new vscode.ThemeIcon('debug-pause'),
  'failed-preflight': new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
};

/** Redraws once changes settle: a sweep writes results.jsonl once per cell, often in bursts. */
const refreshDelayMs = 300;
/**
 * While the view is shown it also looks again this often: file events do not always come (code-
 * server 4.139 sent none for a run folder copied into an excluded bench-results, the examples'
 * `files.watcherExclude`, even to these explicit watchers). It redraws only when what it found
 * differs from what is drawn: a redraw re-renders every row, also the one under the pointer.
 */
const lookAgainMs = 10_000;

export class RunsView implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Verdict lines by resolved run folder, kept while its count of finished cells stays the same. */
  private readonly verdicts = new Map<string, { done: number; lines: string[] }>();
  private timer: NodeJS.Timeout | undefined;
  /** runsFingerprint of the rows last drawn. */
  private drawn: string | undefined;

  /**
   * Watchers: each results folder (a run folder made or removed) and each run folder's two files.
   * Explicit, non-recursive ones: a workspace's `files.watcherExclude` (the examples exclude
   * bench-results) silences the workspace watcher there, not these.
   */
  private readonly watchers = new Map<string, vscode.Disposable>();

  constructor(private readonly services: CoreServices) {
    this.disposables.push(
      this.changed,
      { dispose: () => this.watchOnly([]) },
      services.runs.onDidChangeRuns(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('onloadBench.resultsFolder')) this.refresh();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
    );
  }

  /** Watches exactly these folders (their run files, or their run folders for a results folder). */
  private watchOnly(folders: readonly { folder: string; pattern: string }[]): void {
    const wanted = new Map(folders.map((entry) => [`${path.resolve(entry.folder)}\u0000${entry.pattern}`, entry]));
    for (const [key, watcher] of this.watchers) {
      if (wanted.has(key)) continue;
      watcher.dispose();
      this.watchers.delete(key);
    }
    for (const [key, entry] of wanted) {
      if (this.watchers.has(key)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(entry.folder), entry.pattern),
      );
      const changed = () => this.refresh();
      this.watchers.set(
        key,
        vscode.Disposable.from(
          watcher,
          watcher.onDidCreate(changed),
          watcher.onDidChange(changed),
          watcher.onDidDelete(changed),
        ),
      );
    }
  }

  /** Looks again every lookAgainMs while `view` is visible. */
  follow(view: vscode.TreeView<RunsNode>): void {
    let timer: NodeJS.Timeout | undefined;
    const update = () => {
      clearInterval(timer);
      timer = view.visible ? setInterval(() => void this.lookAgain(), lookAgainMs) : undefined;
      if (view.visible) this.refresh();
    };
    this.disposables.push(view.onDidChangeVisibility(update), { dispose: () => clearInterval(timer) });
    update();
  }

  /** The timed look: redraws when the runs on disk, the running ones or the failures differ from the rows drawn. */
  private async lookAgain(): Promise<void> {
    const runs = await workspaceRuns(this.services).catch(() => undefined);
    if (
      runs &&
      this.drawn === runsFingerprint(runs, this.services.runs.activeRunDirs(), this.services.runs.preflightFailures())
    )
      return;
    this.refresh();
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed.fire(undefined), refreshDelayMs);
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    if (node.kind === 'failures') {
      const item = new vscode.TreeItem(
        `Failed pre-flights (${node.entries.length})`,
        vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = 'onloadBench.failedPreflights';
      item.iconPath = stateIcons['failed-preflight'];
      item.tooltip = `New runs that stopped in pre-flight in this workspace (the last ${keptPreflightFailures}, kept across reloads); the engine kept no folder of theirs.`;
      return item;
    }
    if (node.kind === 'verdict') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.id = `${node.parent}\u0000${node.text}`;
      item.tooltip = node.text;
      return item;
    }
    const { entry } = node;
    const hasVerdict = entry.verdict.length > 0;
    const item = new vscode.TreeItem(
      entry.label,
      hasVerdict ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    // A run that gains its verdict opens with it shown: VS Code would keep the state it had without one.
    item.id = hasVerdict ? `${entry.id}\u0000verdict` : entry.id;
    item.description = entry.description;
    item.tooltip = entry.tooltip;
    item.contextValue = entry.contextValue;
    item.iconPath = stateIcons[entry.state];
    item.accessibilityInformation = {
      label: `${entry.label}, ${entry.description}${hasVerdict ? `. ${entry.verdict.join('. ')}` : ''}`,
    };
    item.command =
      entry.state === 'failed-preflight'
        ? entry.planPath
          ? { title: 'Open the plan', command: 'vscode.open', arguments: [vscode.Uri.file(entry.planPath)] }
          : undefined
        : { title: commands.openResults.title, command: commands.openResults.id, arguments: [entry.runDir] };
    return item;
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    if (node?.kind === 'failures') return node.entries.map((entry) => runNode(entry));
    if (node?.kind === 'run')
      return node.entry.verdict.map((text) => ({ kind: 'verdict', text, parent: node.entry.id }));
    if (node) return [];
    const runs = await workspaceRuns(this.services);
    this.watchOnly([
      ...workspaceResultsRoots(this.services).map((folder) => ({ folder, pattern: '*' })),
      ...runs.map((run) => ({ folder: run.runDir, pattern: '{manifest.json,results.jsonl}' })),
    ]);
    await this.updateVerdicts(runs);
    const active = this.services.runs.activeRunDirs();
    const failures = this.services.runs.preflightFailures();
    this.drawn = runsFingerprint(runs, active, failures);
    const tree = runsTree(
      runs,
      active,
      failures,
      new Map([...this.verdicts].map(([dir, verdict]) => [dir, verdict.lines])),
    );
    return [
      ...tree.runs.map(runNode),
      ...(tree.failedPreflights.length > 0 ? [{ kind: 'failures', entries: tree.failedPreflights } as const] : []),
    ];
  }

  private async updateVerdicts(runs: Awaited<ReturnType<typeof workspaceRuns>>): Promise<void> {
    for (const run of runs) {
      const key = path.resolve(run.runDir);
      if (this.verdicts.get(key)?.done === run.done) continue;
      const read = await readRunFolder(run.runDir).catch(() => undefined);
      this.verdicts.set(key, { done: run.done, lines: read?.ok ? verdictOfRun(read.manifest, read.results) : [] });
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

function runNode(entry: RunEntry): RunsNode {
  return { kind: 'run', entry, runDir: entry.runDir, ...(entry.planPath ? { planPath: entry.planPath } : {}) };
}
