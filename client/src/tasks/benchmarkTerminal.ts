// The task's pseudoterminal: runs one benchmark and prints its live log and YCSB status lines.
// Closing the terminal (or Ctrl+C in it) aborts the run; results already written stay on disk.
import * as vscode from 'vscode';
import type { RunOutcome } from '../../../engine/src/index';
import type { CoreServices } from '../services';
import { runBenchmark, type RunRequest } from './benchmarkRun';
import { toTerminalText } from './eventText';

export class BenchmarkTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  private readonly abort = new AbortController();
  private started = false;

  constructor(
    private readonly services: CoreServices,
    private readonly request: RunRequest,
    private readonly onOutcome?: (outcome: RunOutcome) => void,
  ) {}

  open(): void {
    if (this.started) return;
    this.started = true;
    // Cancelling from the notification, Ctrl+C or closing the terminal all end up here.
    this.abort.signal.addEventListener(
      'abort',
      () => {
        this.writeEmitter.fire(
          toTerminalText([
            'Cancelling: the run stops after the current step; finished cells are kept and the run can be resumed.',
          ]),
        );
      },
      { once: true },
    );
    void this.run();
  }

  close(): void {
    this.abort.abort();
  }

  handleInput(data: string): void {
    if (data === '\x03') this.abort.abort();
  }

  private async run(): Promise<void> {
    let outcome: RunOutcome;
    try {
      outcome = await runBenchmark(this.services, this.request, {
        print: (lines) => this.writeEmitter.fire(toTerminalText(lines)),
        signal: this.abort.signal,
        abort: this.abort,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.services.log.error(`Benchmark run failed: ${message}`);
      this.writeEmitter.fire(toTerminalText([`The run failed: ${message}`]));
      outcome = {
        runDir: '',
        completed: 0,
        failed: 0,
        total: 0,
        cancelled: false,
        error: { code: 'internal', step: 'run', message, action: 'See the "Onload Bench" output.' },
      };
    }
    this.onOutcome?.(outcome);
    const clean = !outcome.cancelled && !outcome.error && outcome.failed === 0;
    this.closeEmitter.fire(clean ? 0 : 1);
  }
}
