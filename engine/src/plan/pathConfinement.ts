// A plan names local files that are uploaded to the hosts (the workload, stack profiles, a
// client's runUnderOnload profile, the profiles they import). A plan from a shared repository must
// not be able to upload ~/.ssh/id_ed25519: every such file must lie, after following symlinks,
// under the plan's folder or a folder the user trusts (the editor's workspace folders and
// onloadBench.profilePath). Anything else needs the user's explicit opt-in: the CLI's
// --allow-outside-paths or the editor's onloadBench.allowOutsidePaths (application scope, so a
// workspace cannot grant it to itself). The plan itself cannot opt in.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { EngineFailure } from '../errors';
import type { ResolvedPlan } from './planSchema';

export interface PathPolicy {
  /** Folders files may come from besides the plan's own folder. */
  roots: string[];
  /** The user's explicit opt-in: no confinement. */
  allowOutside: boolean;
}

/** A plan's local path: absolute as written, or relative to the plan's folder. */
export function resolveLocal(planDir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(planDir, path);
}

/** The path with symlinks followed (as far as it exists), so a link cannot point outside unseen. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(real(root), real(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The local files of a plan that are uploaded, with the plan field naming each. */
export function uploadedLocalPaths(plan: ResolvedPlan, planDir: string): { field: string; path: string }[] {
  const local = (path: string): string => resolveLocal(planDir, path);
  const out = [{ field: 'workload.path', path: local(plan.workload.path) }];
  plan.stacks.forEach((stack, index) => {
    if (stack.profile !== undefined) out.push({ field: `stacks[${index}].profile`, path: local(stack.profile) });
  });
  plan.clients.forEach((client, index) => {
    if (typeof client.runUnderOnload === 'string')
      out.push({ field: `clients[${index}].runUnderOnload`, path: local(client.runUnderOnload) });
  });
  return out;
}

/** Throws `path-outside` for the first file that is not under the plan's folder or a trusted root. */
export function checkLocalPath(path: string, field: string, planDir: string, policy: PathPolicy): void {
  if (policy.allowOutside) return;
  const roots = [planDir, ...policy.roots];
  if (roots.some((root) => isInside(path, root))) return;
  throw new EngineFailure({
    code: 'path-outside',
    step: 'check-paths',
    message: `${field} names ${path}${real(path) !== resolve(path) ? ` (a link to ${real(path)})` : ''}, outside the plan's folder ${planDir}${policy.roots.length > 0 ? ` and the trusted folders (${policy.roots.join(', ')})` : ''}; it would be uploaded to the hosts. Nothing was run.`,
    action:
      'Move the file next to the plan, or if you trust this plan allow files outside (CLI: --allow-outside-paths; editor: the onloadBench.allowOutsidePaths setting).',
  });
}

export function checkPlanPaths(plan: ResolvedPlan, planDir: string, policy: PathPolicy): void {
  for (const entry of uploadedLocalPaths(plan, planDir)) checkLocalPath(entry.path, entry.field, planDir, policy);
}
