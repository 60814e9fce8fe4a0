// The sweep: the run's story. Once: load the plan (on resume, the recorded one), the run folder and
// its lock, pre-flight, the hosts prepared (hostPreparation.ts). Then for each unfinished cell, in
// the schedule's order (schedule.ts), the cell's own story (cell.ts): put Couchbase on the cell's
// stack (server/), observe what the server really runs (evidence/), re-create the bucket
// (couchbase/), load and let it settle, run YCSB on every client with the run phase's evidence
// around it (ycsb/, evidence/), and append the result (results/). Results are appended (fsynced)
// one cell at a time, so stopping at any point loses nothing that was written; resume skips the
// ids already in results.jsonl. At the end, or on a cancel or a fatal error, the hosts are put
// back: nothing left running, kernel stack.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EngineFailure, formatEngineError, toEngineError } from '../errors';
import type { PreflightCheck, RunOutcome, SweepEvent } from '../events';
import { recordYcsbVersions } from '../evidence/environment';
import type { CellResult, EngineError, RunManifest } from '../model';
import type { RunSweepOptions } from '../options';
import { cellId, expandCells } from '../plan/cells';
import { withDefaults, type ResolvedPlan } from '../plan/planSchema';
import { redactSecrets } from '../remote/redaction';
import type { SessionPool } from '../remote/ssh';
import { ResultsWriter, writeManifest } from '../results/resultsStore';
import type { Cell } from './cellSteps';
import { preflight, type PreflightFindings } from './preflight';
import { loadRunPlan, openRunFolder, type RunFolder, type RunFolderState, type RunPlan } from './runOpening';
import {
  formatEstimate,
  nextRepetitions,
  planEstimate,
  planPoints,
  possibleExtraCells,
  type OrderMode,
} from './schedule';
import { cancelled, openPool, SweepRun } from './sweepRun';
import type { SweepSeams } from './sweepSeams';

export type { SweepSeams } from './sweepSeams';

/** What the run holds, for the cleanup whatever stopped it. */
interface RunHold {
  folder: RunFolderState;
  writer?: ResultsWriter;
  pool?: SessionPool;
  run?: SweepRun;
  anyCellStarted: boolean;
}

/** The cells of the run and what is known of them: appended to as results and extra repetitions come in. */
interface Ledger {
  runDir: string;
  manifest: RunManifest;
  cells: Cell[];
  /** Cells with a result (this session's or an earlier one's), and those that failed. */
  done: Set<string>;
  failedIds: Set<string>;
  /** Every result of the run, earlier sessions' too: run until stable decides from them. */
  results: Map<string, CellResult>;
}

export async function runSweep(options: RunSweepOptions, seams: SweepSeams = {}): Promise<RunOutcome> {
  const emit = (event: SweepEvent): void => {
    try {
      options.onEvent(event);
    } catch {
      // a broken listener must not stop a benchmark
    }
  };
  const finish = (outcome: RunOutcome): RunOutcome => {
    emit({ type: 'run-finished', outcome });
    return outcome;
  };
  const outcome: RunOutcome = {
    runDir: options.resumeRunDir ?? '',
    completed: 0,
    failed: 0,
    total: 0,
    cancelled: false,
  };
  // the plan: on resume, the one recorded in the manifest (the cell list must not change)
  let runPlan: RunPlan;
  try {
    runPlan = await loadRunPlan(options);
  } catch (error) {
    return finish({ ...outcome, error: toEngineError(error, 'load-plan') });
  }
  const plan = withDefaults(runPlan.rawPlan);
  const hold: RunHold = { folder: {}, anyCellStarted: false };
  let ledger: Ledger | undefined;
  try {
    const opened = await openRunFolder(options, runPlan, plan, hold.folder, emit, seams.resultsIo);
    const opening = ledgerOf(opened);
    ledger = opening;
    outcome.runDir = opened.runDir;
    outcome.total = opening.cells.length;
    hold.writer = await ResultsWriter.open(opened.runDir, seams.resultsIo);
    emit({
      type: 'run-started',
      runDir: opened.runDir,
      manifest: opened.manifest,
      resumed: options.resumeRunDir !== undefined,
      alreadyDone: opening.cells.filter((cell) => opening.done.has(cell.id)).length,
    });
    hold.pool = openPool(options, seams);
    const context = { options, plan, planDir: dirname(runPlan.planPath), pool: hold.pool, emit, seams };
    const findings = await preflightOf(context, ledger);
    if (options.signal.aborted) throw cancelled();
    hold.run = new SweepRun({
      ...context,
      runDir: opened.runDir,
      findings,
      profileSettings: ledger.manifest.environment?.profiles ?? {},
      earlier: opened.earlier,
    });
    await hold.run.prepareHosts();
    await runCells(hold.run, hold, ledger, outcome);
  } catch (error) {
    if (options.signal.aborted || (error instanceof EngineFailure && error.error.code === 'cancelled')) {
      outcome.cancelled = true;
    } else {
      const engineError = toEngineError(error, 'sweep');
      outcome.error = hold.pool ? { ...engineError, message: redact(hold, options, engineError.message) } : engineError;
      emit({ type: 'log', level: 'error', message: formatEngineError(outcome.error) });
    }
  } finally {
    await letGo(hold, outcome);
  }
  return finish(ledger ? { ...outcome, ...counts(ledger) } : outcome);
}

/** The cells that failed and those done without failing. */
function counts({ cells, done, failedIds }: Ledger): Pick<RunOutcome, 'completed' | 'failed'> {
  const failed = cells.filter((cell) => failedIds.has(cell.id)).length;
  return { completed: cells.filter((cell) => done.has(cell.id)).length - failed, failed };
}

function ledgerOf(opened: RunFolder): Ledger {
  return {
    runDir: opened.runDir,
    manifest: opened.manifest,
    cells: opened.manifest.cells.map((cell, index) => ({ ...cell, index })),
    done: opened.done,
    failedIds: opened.failedIds,
    results: new Map(opened.earlier.map((result) => [result.id, result] as const)),
  };
}

/** The password, and the current cell's bucket password once there is a run, redacted. */
function redact(hold: RunHold, options: RunSweepOptions, text: string): string {
  return hold.run ? hold.run.redact(text) : redactSecrets(text, [options.password]);
}

/** The cell order recorded in the manifest; older runs (and a damaged field) read as grouped. */
function orderOf(manifest: RunManifest): { mode: OrderMode; seed: number } {
  const recorded = manifest.order;
  return recorded && ['grouped', 'interleaved', 'randomized'].includes(recorded.mode) && Number.isFinite(recorded.seed)
    ? recorded
    : { mode: 'grouped', seed: 0 };
}

interface SweepContext {
  options: RunSweepOptions;
  plan: ResolvedPlan;
  planDir: string;
  pool: SessionPool;
  emit: (event: SweepEvent) => void;
  seams: SweepSeams;
}

/**
 * Pre-flight, each check reported as it completes, then the whole list with the plan's size; a
 * blocking failure stops the run. A new run records the hosts' facts in its manifest.
 */
async function preflightOf(
  { options, plan, planDir, pool, emit, seams }: SweepContext,
  ledger: Ledger,
): Promise<PreflightFindings> {
  const report = await preflight({
    plan,
    planDir,
    pool,
    password: options.password,
    resultsRoot: options.resultsRoot,
    signal: options.signal,
    profilePath: options.profilePath,
    onCheck: (check) => emit({ type: 'preflight-check', check }),
  });
  emit({ type: 'preflight', checks: [...report.checks, planSizeCheck(plan, orderOf(ledger.manifest))] });
  if (report.blockingError) throw new EngineFailure(report.blockingError as EngineError & { code: 'preflight' });
  if (!ledger.manifest.environment) {
    ledger.manifest.environment = report.findings.environment;
    await writeManifest(ledger.runDir, ledger.manifest, seams.resultsIo);
  }
  return report.findings;
}

/** How many cells and restarts the plan takes, in the order it runs them (never blocking). */
function planSizeCheck(plan: ResolvedPlan, order: { mode: OrderMode; seed: number }): PreflightCheck {
  const estimate = planEstimate(
    planPoints(expandCells(plan)),
    plan.stacks.map((stack) => stack.name),
    plan.repetitionPolicy,
    order.mode,
    order.seed,
    plan.restartServer,
  );
  return {
    id: 'plan-size',
    ok: true,
    blocking: false,
    detail: `${formatEstimate(estimate, order.mode)}; order ${order.mode}${order.mode === 'randomized' ? ` (seed ${order.seed})` : ''}`,
  };
}

/** Every cell not done yet, in order, each result appended as it comes; then run until stable's extra cells. */
async function runCells(run: SweepRun, hold: RunHold, ledger: Ledger, outcome: RunOutcome): Promise<void> {
  const { cells, done } = ledger;
  const io = run.seams.resultsIo;
  const durations: number[] = [];
  for (let position = 0; ; position++) {
    if (position >= cells.length && !(await appendRepetitions(run, ledger, outcome))) break;
    const cell = cells[position];
    if (done.has(cell.id)) continue;
    if (run.signal.aborted) throw cancelled();
    hold.anyCellStarted = true;
    const started = performance.now(); // monotonic: a wall-clock jump must not skew the estimate
    const result = await run.attempts(cell, cells.length);
    run.arms.remember(result);
    await hold.writer?.append(result);
    ledger.results.set(result.id, result);
    if (recordYcsbVersions(ledger.manifest, run.ycsbVersions)) await writeManifest(ledger.runDir, ledger.manifest, io);
    done.add(cell.id);
    if (result.status === 'failed') ledger.failedIds.add(cell.id);
    durations.push(performance.now() - started);
    const remaining = cells.filter((candidate) => !done.has(candidate.id)).length;
    // run until stable: up to every point's max repetitions
    const upTo =
      remaining +
      possibleExtraCells(
        ledger.manifest.cells.map((entry) => entry.key),
        ledger.results,
        run.plan.stacks.map((stack) => stack.name),
        run.plan.repetitionPolicy,
      );
    const average = durations.reduce((sum, value) => sum + value, 0) / durations.length;
    run.emit({
      type: 'cell-finished',
      result,
      index: cell.index,
      total: cells.length,
      remainingEstimateMs: Math.round(average * upTo),
      ...(upTo > remaining ? { remainingEstimateUpTo: true } : {}),
    });
  }
}

/**
 * Run until stable: the next round of repetitions for the points whose interval is still too wide,
 * recorded in the manifest before they run. False when there is none.
 */
async function appendRepetitions(run: SweepRun, ledger: Ledger, outcome: RunOutcome): Promise<boolean> {
  const { plan } = run;
  const stackNames = plan.stacks.map((stack) => stack.name);
  const order = orderOf(ledger.manifest);
  const extra = nextRepetitions(
    ledger.manifest.cells.map((entry) => entry.key),
    ledger.results,
    stackNames,
    plan.repetitionPolicy,
    order.mode,
    order.seed,
    run.serverStack ?? ledger.cells.at(-1)?.key.stack,
  );
  if (extra.length === 0) return false;
  for (const key of extra) {
    ledger.manifest.cells.push({ id: cellId(key), key, extra: true });
    ledger.cells.push({ id: cellId(key), key, index: ledger.cells.length });
  }
  await writeManifest(ledger.runDir, ledger.manifest, run.seams.resultsIo);
  outcome.total = ledger.cells.length;
  run.emit({
    type: 'log',
    level: 'info',
    message: `Run until stable: ${extra.length} more cell(s) for ${extra.length / stackNames.length} point(s) whose throughput interval is still wider than ±${plan.repetitionPolicy.targetCi} %.`,
  });
  return true;
}

/** The hosts put back, their locks and sessions released; the results file and the folder's lock too. */
async function letGo(hold: RunHold, outcome: RunOutcome): Promise<void> {
  if (hold.run) {
    const sshCodes = new Set(['ssh-unreachable', 'ssh-auth', 'ssh-host-key']);
    const unreachable = new Set<string>(
      outcome.error?.host && sshCodes.has(outcome.error.code) ? [outcome.error.host] : [],
    );
    await hold.run.restoreHosts(unreachable).catch(() => undefined);
    await hold.run.releaseHostLocks();
  }
  await hold.pool?.closeAll().catch(() => undefined);
  await hold.writer?.close();
  await hold.folder.lock?.release().catch(() => undefined);
  // a new run that stopped before its first cell (pre-flight, uploads, cancel) leaves no folder
  // behind to be offered for resume
  if (hold.folder.createdRunDir && !hold.anyCellStarted) {
    await rm(hold.folder.createdRunDir, { recursive: true, force: true }).catch(() => undefined);
    outcome.runDir = '';
  }
}
