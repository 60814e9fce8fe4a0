// How a sweep's events read in the task terminal, the progress notification and the status bar.
// Pure (no `vscode`): the pseudoterminal and the tracker only print what these functions return.
import type { LogLevel, PreflightCheck, SweepEvent } from '../../../engine/src/index';
import {
  cellMarks,
  cellName,
  type CellResult,
  formatDuration,
  formatEngineError,
  markLabel,
  redactSecrets,
  withControlCharactersEscaped,
} from '../../../engine/src/report/index';

/** What the edges show about a run so far; `reduceProgress` folds events into it. */
export interface RunProgress {
  runDir?: string;
  total: number;
  /** Cells finished in this run (ok or failed), including those a resume found already done. */
  done: number;
  failed: number;
  currentCell?: string;
  /**
   * The running cell's place in the sweep (0-based, the engine's index): the counter says this cell, never the next.
   */
  currentIndex?: number;
  /** A cell has started: before that the run is in its pre-flight checks. */
  started?: boolean;
  /** The engine's estimate of the time left, from its last `cell-finished`. */
  remainingEstimateMs?: number;
  /** The estimate counts repetitions run-until-stable may add: "up to". */
  remainingEstimateUpTo?: boolean;
  finished: boolean;
}

export const initialProgress: RunProgress = { total: 0, done: 0, failed: 0, finished: false };

export function reduceProgress(state: RunProgress, event: SweepEvent): RunProgress {
  switch (event.type) {
    case 'run-started':
      return { ...state, runDir: event.runDir, total: event.manifest.cells.length, done: event.alreadyDone };
    case 'cell-started':
      return {
        ...state,
        total: event.total,
        currentCell: cellName(event.key),
        currentIndex: event.index,
        started: true,
      };
    case 'cell-finished': {
      const next: RunProgress = {
        ...state,
        total: event.total,
        done: state.done + 1,
        failed: state.failed + (event.result.status === 'failed' ? 1 : 0),
        started: true,
      };
      // Between cells nothing runs: no label that the counter would contradict.
      delete next.currentCell;
      delete next.currentIndex;
      if (event.remainingEstimateMs !== undefined) next.remainingEstimateMs = event.remainingEstimateMs;
      if (event.remainingEstimateUpTo) next.remainingEstimateUpTo = true;
      else delete next.remainingEstimateUpTo;
      return next;
    }
    case 'run-finished': {
      const next: RunProgress = { ...state, runDir: event.outcome.runDir, finished: true };
      delete next.currentCell;
      delete next.currentIndex;
      delete next.remainingEstimateMs;
      delete next.remainingEstimateUpTo;
      return next;
    }
    default:
      return state;
  }
}

/** The progress notification's message: the current cell, the count and the time left. */
export function progressMessage(state: RunProgress): string {
  const parts: string[] = [];
  if (state.currentCell !== undefined && state.total > 0)
    parts.push(
      `cell ${Math.min((state.currentIndex ?? state.done) + 1, state.total)}/${state.total}`,
      state.currentCell,
    );
  else if (state.total > 0 && !state.started && !state.finished)
    parts.push(`pre-flight checks (${state.total} cells planned)`);
  else if (state.total > 0) parts.push(`${state.done}/${state.total} cells done`);
  if (state.remainingEstimateMs !== undefined)
    parts.push(`${state.remainingEstimateUpTo ? 'up to' : 'about'} ${formatDuration(state.remainingEstimateMs)} left`);
  if (state.failed > 0) parts.push(`${state.failed} failed`);
  return parts.join(' — ');
}

/** The status bar item while a run is in progress. */
export function statusBarText(state: RunProgress): string {
  const count = state.total > 0 ? ` ${state.done}/${state.total}` : '';
  const failed = state.failed > 0 ? ` (${state.failed} failed)` : '';
  return `$(pulse) Couchbase benchmark${count}${failed}`;
}

/** Percent of the sweep done, for the progress bar's increments. */
export function percentDone(state: RunProgress): number {
  return state.total > 0 ? Math.min(100, (100 * state.done) / state.total) : 0;
}

const ansi = {
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
};
type Colour = keyof typeof ansi;

function paint(text: string, colour: Colour, useColour: boolean): string {
  return useColour ? `${ansi[colour]}${text}${ansi.reset}` : text;
}

/** Lines (without line ends) the task terminal prints for one event. */
export function terminalLines(raw: SweepEvent, useColour = true): string[] {
  // run data (axis values, remote output, messages) must not drive the terminal: only paint() does
  const event = withControlCharactersEscaped(raw);
  const c = (text: string, colour: Colour) => paint(text, colour, useColour);
  switch (event.type) {
    case 'run-started':
      return [
        c(
          `${event.resumed ? 'Resuming' : 'Starting'} run ${event.manifest.runId}: ${event.manifest.cells.length} cells${event.resumed ? `, ${event.alreadyDone} already done` : ''}`,
          'bold',
        ),
        c(`Results folder: ${event.runDir}`, 'dim'),
        'Running pre-flight checks on every host…',
      ];
    case 'preflight-check':
      // The terminal prints the whole list once, when pre-flight ends.
      return [];
    case 'preflight':
      return [
        'Pre-flight checks:',
        ...event.checks.map((check) => preflightLine(check, useColour)),
        c(
          '  Show commands: "Onload Bench: Show commands (dry run)" lists every command and REST step a run takes, without connecting.',
          'dim',
        ),
      ];
    case 'cell-started':
      return [
        c(
          `[${event.index + 1}/${event.total}] ${cellName(event.key)}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`,
          'cyan',
        ),
      ];
    case 'phase':
      return [c(`  ${event.phase}`, 'dim')];
    case 'status':
      return [`  ${event.host} ${event.phase}: ${event.line.trim()}`];
    case 'cell-finished':
      return cellFinishedLines(
        event.result,
        event.remainingEstimateMs,
        useColour,
        event.remainingEstimateUpTo === true,
      );
    case 'log':
      return logLines(event.level, event.message, useColour);
    case 'run-finished': {
      const { outcome } = event;
      const summary = `${outcome.completed} of ${outcome.total} cells done, ${outcome.failed} failed`;
      if (outcome.cancelled)
        return [c(`Run cancelled: ${summary}. Resume it with "Resume interrupted run".`, 'yellow')];
      if (outcome.error) return [c(`Run stopped: ${summary}.`, 'red'), c(formatEngineError(outcome.error), 'red')];
      return [
        c(`Run finished: ${summary}.`, outcome.failed > 0 ? 'yellow' : 'green'),
        c(`Results: ${outcome.runDir}`, 'dim'),
      ];
    }
  }
}

/**
 * terminalLines, saying each error once: the engine logs a run's fatal error and then ends with it
 * in run-finished; the second time only the summary line is printed. `printed` is per run.
 */
export function terminalLinesOnce(event: SweepEvent, printed: Set<string>, useColour = true): string[] {
  if (event.type === 'log' && event.level === 'error') {
    if (printed.has(event.message)) return [];
    printed.add(event.message);
  }
  const lines = terminalLines(event, useColour);
  if (
    event.type === 'run-finished' &&
    event.outcome.error &&
    !event.outcome.cancelled &&
    printed.has(formatEngineError(event.outcome.error))
  )
    return lines.slice(0, 1);
  return lines;
}

function preflightLine(check: PreflightCheck, useColour: boolean): string {
  const mark = check.ok
    ? paint('ok  ', 'green', useColour)
    : paint(check.blocking ? 'FAIL' : 'warn', check.blocking ? 'red' : 'yellow', useColour);
  const where = check.host ? ` ${check.host}` : '';
  const action = !check.ok && check.action ? ` Next: ${check.action}` : '';
  return `  ${mark} ${check.id}${where}: ${check.detail}${action}`;
}

function cellFinishedLines(
  result: CellResult,
  remainingEstimateMs: number | undefined,
  useColour: boolean,
  upTo = false,
): string[] {
  const left =
    remainingEstimateMs !== undefined
      ? paint(` (${upTo ? 'up to' : 'about'} ${formatDuration(remainingEstimateMs)} left)`, 'dim', useColour)
      : '';
  if (result.status === 'failed') {
    return [paint(`  failed${result.error ? `: ${formatEngineError(result.error)}` : ''}`, 'red', useColour) + left];
  }
  const parts: string[] = [];
  if (result.run) {
    parts.push(`${Math.round(result.run.throughputOpsPerSec).toLocaleString('en-US')} ops/s`);
    const read = result.run.operations['READ'];
    if (read?.averageUs !== undefined) parts.push(`read avg ${formatMicros(read.averageUs)}`);
    const p99 = read?.percentilesUs['99'];
    if (p99 !== undefined) parts.push(`p99 ${formatMicros(p99)}`);
  }
  for (const mark of cellMarks(result))
    parts.push(paint(mark.code === 'not-accelerated' ? 'NOT accelerated' : markLabel(mark.code), 'yellow', useColour));
  return [paint('  done', 'green', useColour) + (parts.length > 0 ? `: ${parts.join(', ')}` : '') + left];
}

function formatMicros(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`;
}

function logLines(level: LogLevel, message: string, useColour: boolean): string[] {
  // Trace and debug (remote commands, raw output) go to the output channel only.
  if (level === 'trace' || level === 'debug') return [];
  const lines = message.split(/\r?\n/);
  if (level === 'error') return lines.map((line) => paint(line, 'red', useColour));
  if (level === 'warn') return lines.map((line) => paint(line, 'yellow', useColour));
  return lines;
}

/** A terminal needs CRLF; event text may carry bare LFs. */
export function toTerminalText(lines: string[]): string {
  return lines.map((line) => line.replace(/\r?\n/g, '\r\n') + '\r\n').join('');
}

/**
 * Replaces every occurrence of a secret with `***`. The engine never logs the password; this is
 * the last line of defence before text reaches a terminal or the log.
 */
export function redact(text: string, secrets: readonly string[]): string {
  // every written form (properties-escaped, JSON, URL), then the raw one even when short
  let out = redactSecrets(text, secrets, '***');
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    out = out.split(secret).join('***');
  }
  return out;
}
