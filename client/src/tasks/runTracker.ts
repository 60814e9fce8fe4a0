// Everything around a running sweep besides its terminal: the cancellable progress
// notification (current cell, time left), the status bar item, the log channel and the results
// panel. One run per plan at a time; disposing the tracker aborts every run.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { RunOutcome, SweepEvent } from '../../../engine/src/index';
import type { ResultsPanelManager } from '../panel/resultsPanel';
import { commands } from '../commandIds';
import type { PasswordSource } from '../passwordSource';
import { endNotice } from './endNotice';
import { failureActionTitles, failureNotice } from './failureNotice';
import { markWalkthrough, walkthroughKeys } from '../walkthroughProgress';
import { showRunFailure } from './failureActions';
import {
  initialProgress,
  percentDone,
  progressMessage,
  redact,
  reduceProgress,
  type RunProgress,
  statusBarText,
  terminalLines,
} from './eventText';
import type { PreflightFailure } from '../runs/runHistory';
import { PreflightFailures, type FailureStorage } from '../runs/preflightFailures';

export interface RunHandle {
  onEvent(event: SweepEvent): void;
  end(outcome: RunOutcome): void;
}

interface ActiveRun {
  planPath: string;
  abort: AbortController;
  progress: RunProgress;
}

export class RunTracker implements vscode.Disposable {
  private readonly active = new Map<string, ActiveRun>();
  private readonly statusBar = vscode.window.createStatusBarItem('onloadBench.run', vscode.StatusBarAlignment.Left, 10);
  /**
   * New runs that stopped in pre-flight (their folders are gone), kept in the workspace's storage: the Runs view groups
   * them.
   */
  private readonly failures: PreflightFailures;
  private readonly changed = new vscode.EventEmitter<void>();
  /** A run started or ended, or one failed pre-flight: the Runs view redraws. */
  readonly onDidChangeRuns = this.changed.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly results: ResultsPanelManager,
    failureStorage: FailureStorage,
  ) {
    this.statusBar.name = 'Onload Bench run';
    this.failures = new PreflightFailures(failureStorage);
  }

  isRunning(planPath: string): boolean {
    return this.active.has(path.resolve(planPath));
  }

  activeRunDirs(): string[] {
    return [...this.active.values()].flatMap((run) => (run.progress.runDir ? [run.progress.runDir] : []));
  }

  preflightFailures(): readonly PreflightFailure[] {
    return this.failures.list();
  }

  /** Starts tracking a run; undefined when the plan already runs. `secrets` are redacted from the log. */
  begin(
    planPath: string,
    abort: AbortController,
    secrets: readonly string[],
    passwordSource?: PasswordSource,
  ): RunHandle | undefined {
    const key = path.resolve(planPath);
    if (this.active.has(key)) return undefined;
    const run: ActiveRun = { planPath: key, abort, progress: initialProgress };
    markWalkthrough(walkthroughKeys.ranBenchmark);
    this.active.set(key, run);
    this.refreshStatusBar();

    let report: ((message: string, percent: number) => void) | undefined;
    let finish: (() => void) | undefined;
    let reportedPercent = 0;
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Couchbase benchmark ${path.basename(planPath)}`,
        cancellable: true,
      },
      (progress, token) => {
        token.onCancellationRequested(() => {
          this.log.info(`Cancel requested for ${planPath}`);
          abort.abort();
        });
        report = (message, percent) => {
          progress.report({ message, increment: Math.max(0, percent - reportedPercent) });
          reportedPercent = Math.max(reportedPercent, percent);
        };
        return new Promise<void>((resolve) => {
          finish = resolve;
          if (!this.active.has(key)) resolve();
        });
      },
    );

    // The folder run-started named keeps feeding the panel even when the outcome names none (a
    // new run that failed pre-flight is removed): the panel then shows why, not a stale run.
    let panelRunDir: string | undefined;
    return {
      onEvent: (event) => {
        run.progress = reduceProgress(run.progress, event);
        this.logEvent(event, secrets);
        report?.(progressMessage(run.progress), percentDone(run.progress));
        this.refreshStatusBar();
        if (event.type === 'run-started') {
          panelRunDir = event.runDir;
          this.changed.fire();
        }
        const runDir = panelRunDir ?? run.progress.runDir;
        if (runDir) this.results.onSweepEvent(runDir, event);
      },
      end: (outcome) => {
        this.active.delete(key);
        finish?.();
        this.refreshStatusBar();
        // A new run that stopped before its first cell left no folder: only this list remembers it.
        if (outcome.runDir === '' && outcome.error) {
          const notice = failureNotice(outcome, { planName: path.basename(planPath) });
          const failure = {
            planPath: key,
            runDir: panelRunDir ?? '',
            at: new Date().toISOString(),
            message: notice?.message ?? outcome.error.message,
          };
          void Promise.resolve(this.failures.add(failure)).catch((error: unknown) =>
            this.log.warn(`The failed pre-flight of ${planPath} was not stored: ${error}`),
          );
        }
        this.changed.fire();
        void this.announce(outcome, key, passwordSource);
      },
    };
  }

  private logEvent(event: SweepEvent, secrets: readonly string[]): void {
    if (event.type === 'log') {
      this.log[event.level](redact(event.message, secrets));
      return;
    }
    if (event.type === 'status') {
      this.log.trace(redact(`${event.host} ${event.phase}: ${event.line.trim()}`, secrets));
      return;
    }
    for (const line of terminalLines(event, false)) this.log.info(redact(line, secrets));
  }

  private refreshStatusBar(): void {
    const runs = [...this.active.values()];
    if (runs.length === 0) {
      this.statusBar.hide();
      return;
    }
    const first = runs[0]!;
    this.statusBar.text = statusBarText(first.progress) + (runs.length > 1 ? ` +${runs.length - 1}` : '');
    this.statusBar.tooltip = `${progressMessage(first.progress) || 'Starting'}\nClick to show the results panel.`;
    this.statusBar.command = first.progress.runDir
      ? { title: 'Show results', command: commands.openResults.id, arguments: [first.progress.runDir] }
      : undefined;
    this.statusBar.show();
  }

  private async announce(
    outcome: RunOutcome,
    planPath: string,
    passwordSource: PasswordSource | undefined,
  ): Promise<void> {
    // A failed run (also one stopped in pre-flight, whose folder is gone) says what failed and offers next steps as
    // buttons.
    const notice = failureNotice(outcome, {
      planName: path.basename(planPath),
      ...(passwordSource ? { passwordSource } : {}),
    });
    if (notice) {
      await showRunFailure(notice, planPath, outcome, this.log);
      return;
    }
    const ended = endNotice(outcome);
    if (!ended || !outcome.runDir) return;
    const show = ended.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(ended.text, ...ended.actions);
    if (choice === failureActionTitles['open-results']) this.results.showRun(outcome.runDir);
    else if (choice === failureActionTitles.resume)
      await vscode.commands.executeCommand(commands.resumeRun.id, outcome.runDir);
  }

  dispose(): void {
    for (const run of this.active.values()) run.abort.abort();
    this.active.clear();
    this.statusBar.dispose();
    this.changed.dispose();
  }
}
