// Pre-flight on this workstation: the stacks' profiles and the workload read and pass the language
// services' checks (their effective settings go to the environment, to compare with what memcached
// runs with), and the results folder takes writes.
import { constants as fsConstants } from 'node:fs';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PreflightCheck } from '../../events';
import { resolveLocal } from '../../plan/pathConfinement';
import { effectiveProfileSettings, lintFile } from '../../plan/profileFacts';
import { throwIfCancelled } from '../../server/serverControl';
import type { CheckGroup } from './checkGroup';

interface LintTarget {
  path: string;
  languageId: 'onload-profile' | 'ycsb-workload';
  id: 'profile-lint' | 'workload-lint';
}

/** Each stack's profile and the workload, through the language services; then the profiles' settings. */
export const localFiles: CheckGroup = async ({ plan, planDir, profilePath, signal }, found, report) => {
  throwIfCancelled(signal, undefined, 'preflight');
  const onloadStacks = plan.stacks.filter((stack) => stack.profile !== undefined);
  const targets: LintTarget[] = [
    ...onloadStacks.map((stack) => ({
      path: resolveLocal(planDir, stack.profile as string),
      languageId: 'onload-profile' as const,
      id: 'profile-lint' as const,
    })),
    { path: resolveLocal(planDir, plan.workload.path), languageId: 'ycsb-workload', id: 'workload-lint' },
  ];
  for (const target of targets) report(await lintCheck(target, profilePath ?? []));
  for (const stack of onloadStacks) {
    try {
      found.environment.profiles[stack.name] = await effectiveProfileSettings(
        resolveLocal(planDir, stack.profile as string),
        profilePath ?? [],
      );
    } catch {
      // unreadable: already reported by its check
    }
  }
};

/** One file: readable, then its errors (blocking) and warnings, the first five listed by line. */
async function lintCheck(target: LintTarget, profilePath: string[]): Promise<PreflightCheck> {
  try {
    await access(target.path, fsConstants.R_OK);
  } catch {
    return {
      id: target.id,
      ok: false,
      detail: `${target.path} cannot be read`,
      action: 'Fix the path in the plan (relative paths start at the plan file).',
      blocking: true,
    };
  }
  try {
    const problems = await lintFile(target.path, target.languageId, profilePath);
    if (problems === undefined)
      return {
        id: target.id,
        ok: true,
        detail: `${target.path}: no language service for ${target.languageId}; not checked`,
        blocking: false,
      };
    const errors = problems.filter((problem) => problem.severity === 'error');
    const warnings = problems.filter((problem) => problem.severity === 'warning');
    const listed = [...errors, ...warnings]
      .slice(0, 5)
      .map((problem) => `line ${problem.line}: ${problem.message}`)
      .join('; ');
    return {
      id: target.id,
      ok: errors.length === 0,
      detail:
        errors.length + warnings.length === 0
          ? `${target.path}: no problems`
          : `${target.path}: ${errors.length} error(s), ${warnings.length} warning(s): ${listed}`,
      action: `Open ${target.path} and fix the reported problems.`,
      blocking: errors.length > 0,
    };
  } catch (error) {
    return {
      id: target.id,
      ok: true,
      detail: `${target.path}: the checker failed (${(error as Error).message}); not checked`,
      blocking: false,
    };
  }
}

/** The results folder takes a write (and its removal). */
export const resultsFolder: CheckGroup = async ({ resultsRoot }, _found, report) => {
  try {
    await mkdir(resultsRoot, { recursive: true });
    const probe = join(resultsRoot, `.write-test-${process.pid}`);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    report({ id: 'results-writable', ok: true, detail: `${resultsRoot} is writable`, blocking: true });
  } catch (error) {
    report({
      id: 'results-writable',
      ok: false,
      detail: `${resultsRoot} is not writable: ${(error as Error).message}`,
      action: 'Choose another results folder or free space.',
      blocking: true,
    });
  }
};
