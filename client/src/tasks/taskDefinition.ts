// The `couchbase-benchmark` task definition: what tasks.json entries may say and how they turn
// into a plan path and a resume choice. Pure (no `vscode`).
import * as path from 'node:path';
import { planDisplayName } from '../planFiles';

export const benchmarkTaskType = 'couchbase-benchmark';

/** As written in tasks.json (and in package.json `contributes.taskDefinitions`). */
export interface BenchmarkTaskDefinition {
  type: typeof benchmarkTaskType;
  /** The plan file, relative to the workspace folder or absolute; `${workspaceFolder}` is expanded. */
  plan: string;
  /** `true`: resume the newest unfinished run of this plan; a path: resume that run folder. */
  resume?: boolean | string;
}

export type ResumeChoice = { kind: 'new' } | { kind: 'latest' } | { kind: 'runDir'; runDir: string };

export type ResolvedBenchmarkTask =
  { ok: true; planPath: string; resume: ResumeChoice; name: string } | { ok: false; message: string };

function expandVariables(value: string, folderPath: string | undefined): string | { error: string } {
  let unknownVariable: string | undefined;
  const expanded = value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder' && folderPath !== undefined) return folderPath;
    if (name === 'workspaceFolderBasename' && folderPath !== undefined) return path.basename(folderPath);
    if (name === 'userHome') return process.env['HOME'] ?? whole;
    unknownVariable ??= whole;
    return whole;
  });
  return unknownVariable
    ? {
        error: `${unknownVariable} is not supported in a couchbase-benchmark task; use a path relative to the workspace folder.`,
      }
    : expanded;
}

function absolute(value: string, folderPath: string | undefined): string | { error: string } {
  const expanded = expandVariables(value.trim(), folderPath);
  if (typeof expanded !== 'string') return expanded;
  if (path.isAbsolute(expanded)) return path.normalize(expanded);
  if (folderPath === undefined)
    return { error: `"${value}" is relative but the task has no workspace folder; give an absolute path.` };
  return path.join(folderPath, expanded);
}

/** Checks a definition (from tasks.json or our own provider) against the workspace folder it belongs to. */
export function resolveTaskDefinition(
  definition: Record<string, unknown>,
  folderPath: string | undefined,
): ResolvedBenchmarkTask {
  const plan = definition['plan'];
  if (typeof plan !== 'string' || plan.trim() === '') {
    return { ok: false, message: 'A couchbase-benchmark task needs "plan": the path of a .benchplan.json file.' };
  }
  const planPath = absolute(plan, folderPath);
  if (typeof planPath !== 'string') return { ok: false, message: planPath.error };

  const resumeValue = definition['resume'];
  let resume: ResumeChoice;
  if (resumeValue === undefined || resumeValue === false) resume = { kind: 'new' };
  else if (resumeValue === true) resume = { kind: 'latest' };
  else if (typeof resumeValue === 'string' && resumeValue.trim() !== '') {
    const runDir = absolute(resumeValue, folderPath);
    if (typeof runDir !== 'string') return { ok: false, message: runDir.error };
    resume = { kind: 'runDir', runDir };
  } else {
    return { ok: false, message: '"resume" must be true or the path of a run folder.' };
  }
  return { ok: true, planPath, resume, name: taskName(planPath, resume) };
}

export function taskName(planPath: string, resume: ResumeChoice = { kind: 'new' }): string {
  const plan = planDisplayName(planPath);
  if (resume.kind === 'latest') return `Resume ${plan}`;
  if (resume.kind === 'runDir') return `Resume ${plan} (${path.basename(resume.runDir)})`;
  return `Run ${plan}`;
}

/** The definition the provider offers for a plan: the path relative to its folder, in `/` form. */
export function definitionForPlan(planPath: string, folderPath: string | undefined): BenchmarkTaskDefinition {
  const relative = folderPath !== undefined ? path.relative(folderPath, planPath) : planPath;
  const inside = folderPath !== undefined && !relative.startsWith('..') && !path.isAbsolute(relative);
  return { type: benchmarkTaskType, plan: inside ? relative.split(path.sep).join('/') : planPath };
}
