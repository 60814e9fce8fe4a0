// `onload-bench run PLAN [--resume [RUN_DIR]] [--results DIR] [--ssh-config FILE] [--dry-run]`: runs a sweep
// with a progress display. The Couchbase password comes from CB_PASSWORD or a prompt without echo.
// Ctrl-C cancels cleanly (remote processes stopped, server back on the kernel stack); a second
// Ctrl-C quits at once. Exit codes: 0 every cell ok, 1 failed cells or an error, 2 bad usage or
// plan (also a resume refused because the recorded plan differs, or a file outside the plan's
// folder), 130 cancelled.
import { resolve } from 'node:path';
import { dryRun, loadPlan, runSweep, type SweepEvent, toEngineError } from '../../engine/src/index';
import {
  cellMarks,
  cellName,
  escapeControlCharacters,
  formatDuration,
  formatEngineError,
  latestUnfinishedRun,
  listRuns,
  withControlCharactersEscaped,
} from '../../engine/src/report/index';
import { commandArguments } from './arguments';

const usage = `Usage: onload-bench run PLAN [--resume [RUN_DIR]] [--accept-recorded-plan] [--allow-outside-paths] [--results DIR] [--ssh-config FILE] [--dry-run]
  --dry-run           print every remote command (with its host) and REST/SDK step of the first cell
                      of each stack, in order, without connecting (password shown as ********)
  --resume [RUN_DIR]  continue an interrupted run (default: the newest unfinished run whose
                      manifest names PLAN; a run folder without one must be named)
  --accept-recorded-plan  resume even if the plan recorded in RUN_DIR differs from PLAN in what
                      runs or is uploaded (commands, hosts, paths); the recorded plan is used
  --allow-outside-paths  upload workload/profile files from outside PLAN's folder
  --results DIR       folder for run folders (default: ./bench-results)
  --ssh-config FILE   ssh_config file to use instead of ~/.ssh/config
Password: set CB_PASSWORD, or type it at the prompt (not echoed).`;

/** Errors that stop a run before anything ran because of what the plan or run folder says. */
const refusedPlanCodes = new Set(['plan-invalid', 'plan-changed', 'path-outside']);

export async function run(args: string[]): Promise<number> {
  // `--resume` takes an optional value: take it by hand before parseArgs
  let resume: string | true | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--resume') {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('-') && !next.endsWith('.json')) {
        resume = next;
        i++;
      } else resume = true;
    } else if (args[i].startsWith('--resume=')) resume = args[i].slice('--resume='.length);
    else rest.push(args[i]);
  }
  const parsed = commandArguments('run', usage, rest, {
    results: { type: 'string' },
    'ssh-config': { type: 'string' },
    'accept-recorded-plan': { type: 'boolean' },
    'allow-outside-paths': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  });
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) {
    console.error(`onload-bench run: expected one plan file.\n${usage}`);
    return 2;
  }
  const planPath = resolve(parsed.positionals[0]);
  const resultsRoot = resolve(parsed.values.results ?? 'bench-results');
  const { plan, errors } = await loadPlan(planPath);
  if (errors.length > 0) {
    for (const error of errors)
      console.error(`${planPath}:${error.line}:${error.column}: error ${error.code}: ${error.message}`);
    return 2;
  }
  if (parsed.values['dry-run'] === true) {
    // the run's own checks: a file the run would refuse is refused here too, never printed
    try {
      process.stdout.write(
        await dryRun(plan, planPath, parsed.values['allow-outside-paths'] ? { allowOutsidePaths: true } : {}),
      );
    } catch (error) {
      const engineError = toEngineError(error, 'dry-run');
      console.error(escapeControlCharacters(formatEngineError(engineError)));
      // with no host, an `upload` refusal can only be a file that does not look like what it claims
      return refusedPlanCodes.has(engineError.code) || engineError.code === 'upload' ? 2 : 1;
    }
    return 0;
  }

  let resumeRunDir: string | undefined;
  if (resume === true) {
    // only a run that names this plan is taken by itself; any other must be named (--resume RUN_DIR)
    const latest = latestUnfinishedRun(await listRuns(resultsRoot), planPath);
    if (!latest) {
      console.error(`onload-bench run: no unfinished run of ${planPath} under ${resultsRoot}.`);
      return 2;
    }
    resumeRunDir = latest.runDir;
  } else if (typeof resume === 'string') {
    resumeRunDir = resolve(resume);
  }

  const password =
    process.env.CB_PASSWORD ?? (process.stdin.isTTY ? await promptHidden('Couchbase password: ') : undefined);
  if (password === undefined || password === '') {
    console.error('onload-bench run: no password: set CB_PASSWORD or run in a terminal to be asked.');
    return 2;
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = (): void => {
    interrupts++;
    if (interrupts === 1) {
      console.error(
        '\nCancelling: stopping YCSB and putting Couchbase back on the kernel stack (Ctrl-C again to quit at once)...',
      );
      controller.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onInterrupt);
  const progress = new ProgressDisplay(process.stderr.isTTY === true);
  try {
    const outcome = await runSweep({
      planPath,
      plan,
      resultsRoot,
      password,
      signal: controller.signal,
      // events carry run data (axis values, remote output, messages): shown with control characters escaped
      onEvent: (event) => progress.show(withControlCharactersEscaped(event)),
      ...(resumeRunDir ? { resumeRunDir } : {}),
      ...(parsed.values['accept-recorded-plan'] ? { acceptRecordedPlan: true } : {}),
      ...(parsed.values['allow-outside-paths'] ? { allowOutsidePaths: true } : {}),
      ...(parsed.values['ssh-config'] ? { ssh: { configFile: resolve(parsed.values['ssh-config']) } } : {}),
    });
    progress.clear();
    console.log(
      escapeControlCharacters(
        `${outcome.cancelled ? 'Cancelled' : outcome.error ? 'Stopped' : 'Finished'}: ${outcome.completed} ok, ${outcome.failed} failed, ${outcome.total} cells. Results: ${outcome.runDir || '(none)'}`,
      ),
    );
    if (outcome.error) console.error(escapeControlCharacters(formatEngineError(outcome.error)));
    if (outcome.cancelled) return 130;
    // refused before anything ran because of the plan or its files: like a plan error
    if (outcome.error && refusedPlanCodes.has(outcome.error.code)) return 2;
    return outcome.error || outcome.failed > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** One line per cell on any terminal; a live status line overwritten in place on a TTY. */
class ProgressDisplay {
  private live = false;
  constructor(private readonly tty: boolean) {}

  show(event: SweepEvent): void {
    switch (event.type) {
      case 'run-started':
        this.line(
          `Run folder ${event.runDir}${event.resumed ? ` (resumed, ${event.alreadyDone} cells already done)` : ''}`,
        );
        break;
      case 'preflight':
        for (const check of event.checks) {
          this.line(
            `  ${check.ok ? 'ok  ' : check.blocking ? 'FAIL' : 'warn'} ${check.id}${check.host ? ` ${check.host}` : ''}: ${check.detail}${!check.ok && check.action ? ` -> ${check.action}` : ''}`,
          );
        }
        break;
      case 'cell-started':
        this.line(
          `[${event.index + 1}/${event.total}] ${cellName(event.key)}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`,
        );
        break;
      case 'phase':
        if (this.tty) this.status(`    ${event.phase}...`);
        break;
      case 'status':
        if (this.tty)
          this.status(
            `    ${event.host} ${event.phase}: ${event.status.elapsedSec} s, ${event.status.operations} ops, ${Math.round(event.status.currentOpsPerSec)} ops/s`,
          );
        break;
      case 'cell-finished': {
        const result = event.result;
        const read = result.run?.operations.READ;
        const figures = result.run
          ? `${Math.round(result.run.throughputOpsPerSec)} ops/s${read?.averageUs !== undefined ? `, READ avg ${read.averageUs.toFixed(0)} us` : ''}${read?.percentilesUs['99'] !== undefined ? ` p99 ${read.percentilesUs['99']} us` : ''}`
          : '';
        const marks = cellMarks(result);
        const accelerated = marks.length > 0 ? ` MARKED ${marks.map((mark) => mark.code).join(', ')}` : '';
        const left = event.remainingEstimateMs
          ? ` (${event.remainingEstimateUpTo ? 'up to' : 'about'} ${formatDuration(event.remainingEstimateMs)} left)`
          : '';
        this.line(
          `    ${result.status === 'ok' ? 'ok' : 'FAILED'} ${figures}${accelerated}${result.error ? ` ${formatEngineError(result.error)}` : ''}${left}`,
        );
        break;
      }
      case 'log':
        if (event.level !== 'debug' && event.level !== 'trace') this.line(`    ${event.level}: ${event.message}`);
        break;
      case 'run-finished':
        break;
    }
  }

  clear(): void {
    if (this.live) process.stderr.write('\r\x1b[K');
    this.live = false;
  }

  private line(text: string): void {
    this.clear();
    process.stderr.write(`${text}\n`);
  }

  private status(text: string): void {
    process.stderr.write(`\r\x1b[K${text.slice(0, (process.stderr.columns ?? 100) - 1)}`);
    this.live = true;
  }
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string | undefined> {
  return new Promise((resolvePrompt) => {
    const input = process.stdin;
    process.stderr.write(question);
    let answer = '';
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    const done = (value: string | undefined): void => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      resolvePrompt(value);
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done(answer);
        if (char === '\u0003') return done(undefined);
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    input.on('data', onData);
  });
}
