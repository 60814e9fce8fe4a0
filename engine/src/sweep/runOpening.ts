// Where a run starts: the plan it runs and its folder. On resume the plan is the one recorded in
// the run folder, which is not trusted input: what runs or is uploaded must match the plan file
// the user opened unless they accept the recorded one (plan/recordedPlan.ts), and its cell list
// must be the recorded plan's. A new run gets a folder, the cell order and its seed in the
// manifest; a resumed one reads the results already there, once. Either way the folder is locked
// for this engine (results/runLock.ts) before anything is written.
import { dirname, join } from 'node:path';
import { EngineFailure } from '../errors';
import type { SweepEvent } from '../events';
import { resultsFormatVersion, type CellResult, type RunManifest } from '../model';
import type { RunSweepOptions } from '../options';
import { cellId, expandCells } from '../plan/cells';
import { checkPlanPaths, type PathPolicy } from '../plan/pathConfinement';
import { checkPlanText } from '../plan/plan';
import { withDefaults, type Plan, type ResolvedPlan } from '../plan/planSchema';
import { checkManifestCells, recordedPlanDifferences, recordedPlanRefusal } from '../plan/recordedPlan';
import {
  createRunDir,
  newRunId,
  readManifest,
  readResults,
  writeManifest,
  type ResultsIo,
} from '../results/resultsStore';
import { acquireRunLock, describeHolder, type RunLock } from '../results/runLock';
import { initialCells } from './schedule';

export interface RunPlan {
  /** The plan as written (the manifest records it). */
  rawPlan: Plan;
  planPath: string;
  /** The resumed run's manifest. */
  manifest?: RunManifest;
}

/**
 * Where uploaded local files may come from (pathConfinement.ts): the plan's folder, the workspace
 * folders and the profile folders the user set; never a folder a workspace named in its own settings.
 */
export function pathPolicyOf(
  options: Pick<RunSweepOptions, 'allowedRoots' | 'trustedProfilePath' | 'allowOutsidePaths'>,
): PathPolicy {
  return {
    roots: [...(options.allowedRoots ?? []), ...(options.trustedProfilePath ?? [])],
    allowOutside: options.allowOutsidePaths === true,
  };
}

/** The plan to run, checked: valid, its local files in trusted folders, and on resume the recorded one accepted. */
export async function loadRunPlan(options: RunSweepOptions): Promise<RunPlan> {
  let rawPlan: Plan = options.plan;
  let planPath = options.planPath;
  let manifest: RunManifest | undefined;
  if (options.resumeRunDir) {
    manifest = await readManifest(options.resumeRunDir);
    rawPlan = manifest.plan as Plan;
    planPath = manifest.planPath ?? options.planPath;
  }
  const check = checkPlanText(JSON.stringify(rawPlan), dirname(planPath));
  if (check.errors.length > 0) {
    throw new EngineFailure({
      code: 'plan-invalid',
      step: 'load-plan',
      message: `The plan has ${check.errors.length} problem(s): ${check.errors
        .slice(0, 3)
        .map((error) => error.message)
        .join('; ')}.`,
      action: `Fix ${planPath} (the editor underlines the problems) and start again.`,
    });
  }
  if (manifest && options.resumeRunDir && !options.acceptRecordedPlan) {
    const differences = recordedPlanDifferences(
      { plan: rawPlan, planPath },
      { plan: options.plan, planPath: options.planPath },
    );
    if (differences.length > 0) throw recordedPlanRefusal(differences, options.resumeRunDir);
  }
  checkPlanPaths(withDefaults(rawPlan), dirname(planPath), pathPolicyOf(options));
  return { rawPlan, planPath, ...(manifest ? { manifest } : {}) };
}

export interface RunFolder {
  runDir: string;
  manifest: RunManifest;
  /** Cells with a line in results.jsonl already, and those of them that failed. */
  done: Set<string>;
  failedIds: Set<string>;
  /** The results already in results.jsonl (read once, on resume; none for a new run). */
  earlier: CellResult[];
}

/** What the caller must undo when the run stops, filled in as soon as it exists. */
export interface RunFolderState {
  lock?: RunLock;
  /** A folder this run created (removed again when no cell started). */
  createdRunDir?: string;
}

/** Opens the resumed run's folder or creates a new one, locked, with its manifest written. */
export async function openRunFolder(
  options: RunSweepOptions,
  run: RunPlan,
  plan: ResolvedPlan,
  state: RunFolderState,
  emit: (event: SweepEvent) => void,
  io?: ResultsIo,
): Promise<RunFolder> {
  const takeLock = async (dir: string): Promise<void> => {
    state.lock = await acquireRunLock(dir);
    if (state.lock.replaced)
      emit({
        type: 'log',
        level: 'warn',
        message: `Took over the lock of ${describeHolder(state.lock.replaced)}, which no longer runs.`,
      });
  };
  const done = new Set<string>();
  const failedIds = new Set<string>();
  if (run.manifest && options.resumeRunDir) {
    const runDir = options.resumeRunDir;
    checkManifestCells(run.manifest, plan, join(runDir, 'manifest.json'));
    await takeLock(runDir);
    const previous = await readResults(runDir);
    for (const result of previous.results) {
      done.add(result.id);
      if (result.status === 'failed') failedIds.add(result.id);
      else failedIds.delete(result.id);
    }
    if (previous.tornTail)
      emit({
        type: 'log',
        level: 'warn',
        message:
          'The last line of results.jsonl was incomplete (the run stopped while writing it); that cell will run again.',
      });
    if (JSON.stringify(options.plan) !== JSON.stringify(run.manifest.plan))
      emit({
        type: 'log',
        level: 'warn',
        message: 'The plan changed since this run started; resuming with the plan recorded in the run folder.',
      });
    return { runDir, manifest: run.manifest, done, failedIds, earlier: previous.results };
  }
  const runDir = await createRunDir(options.resultsRoot, newRunId(plan.name));
  state.createdRunDir = runDir;
  // the order and its seed are recorded, so a resume (and a reader) sees the same sequence
  const order = { mode: plan.order, seed: plan.seed ?? Math.floor(Math.random() * 2 ** 32) };
  const keys = initialCells(
    expandCells(plan),
    plan.stacks.map((stack) => stack.name),
    plan.repetitionPolicy,
    order.mode,
    order.seed,
  );
  await takeLock(runDir);
  const manifest: RunManifest = {
    kind: 'manifest',
    formatVersion: resultsFormatVersion,
    runId: runDir.split(/[\\/]/).pop() as string,
    createdAt: new Date().toISOString(),
    plan: run.rawPlan,
    planPath: run.planPath,
    cells: keys.map((key) => ({ id: cellId(key), key })),
    order,
  };
  await writeManifest(runDir, manifest, io);
  return { runDir, manifest, done, failedIds, earlier: [] };
}
