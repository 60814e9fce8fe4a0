// Finding and naming plan files. Pure: the vscode side passes in the paths it found.
import * as path from 'node:path';

export const planFileSuffix = '.benchplan.json';
export const planFileGlob = '**/*.benchplan.json';
/** Folders never searched for plans (dependencies, build output, past runs). */
export const planSearchExclude = '{**/node_modules/**,**/dist/**,**/.git/**}';

export function isPlanFile(filePath: string): boolean {
  return filePath.toLowerCase().endsWith(planFileSuffix);
}

/** The plan's name as a user thinks of it: the file name without `.benchplan.json`. */
export function planDisplayName(filePath: string): string {
  const base = path.basename(filePath);
  return isPlanFile(base) ? base.slice(0, base.length - planFileSuffix.length) : base;
}

export interface PlanChoice {
  planPath: string;
  label: string;
  /** The folder, relative to its workspace folder (or absolute outside the workspace). */
  description: string;
}

/**
 * Quick-pick entries for the plans found: the active editor's plan first, then by folder and
 * name so the order is stable between runs.
 */
export function planChoices(planPaths: string[], workspaceRoots: string[], activePath?: string): PlanChoice[] {
  const unique = [...new Set(planPaths.map((planPath) => path.resolve(planPath)))];
  const relative = (planPath: string): string => {
    const root = workspaceRoots
      .map((candidate) => path.resolve(candidate))
      .filter((candidate) => planPath.startsWith(candidate + path.sep))
      .sort((a, b) => b.length - a.length)[0];
    const folder = path.dirname(planPath);
    if (!root) return folder;
    const inside = path.relative(root, folder);
    const rootName = workspaceRoots.length > 1 ? path.basename(root) : '';
    return [rootName, inside].filter((part) => part !== '').join('/') || '.';
  };
  const active = activePath ? path.resolve(activePath) : undefined;
  return unique
    .map((planPath) => ({ planPath, label: planDisplayName(planPath), description: relative(planPath) }))
    .sort((a, b) => {
      if (a.planPath === active) return -1;
      if (b.planPath === active) return 1;
      return a.description.localeCompare(b.description) || a.label.localeCompare(b.label);
    });
}

/** A file name for a new plan that does not clash with the existing names in the folder. */
export function freshPlanFileName(baseName: string, existingNames: string[]): string {
  const taken = new Set(existingNames.map((name) => name.toLowerCase()));
  const clean = baseName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'benchmark';
  for (let counter = 1; ; counter++) {
    const name = `${clean}${counter === 1 ? '' : `-${counter}`}${planFileSuffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}
