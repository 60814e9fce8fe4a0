// Resume trusts nothing in a run folder it did not check: a run folder can come from anyone (a
// colleague's share, an archive), and its manifest.json records the plan the run started with.
// Before anything runs, the recorded plan is compared with the plan file the user opened: any
// difference in what runs on a host or is uploaded to it (commands, hosts, local paths, YCSB
// properties...) stops the resume unless the caller accepted the recorded plan (CLI
// --accept-recorded-plan, the editor's "Resume with the recorded plan"). The manifest's cell list
// must be the recorded plan's expansion with ids recomputed from their keys, because ids become
// log folder names.
import { dirname } from 'node:path';
import { cellId, expandCells } from './cells';
import { EngineFailure } from '../errors';
import type { RunManifest } from '../model';
import { withDefaults, type Plan, type ResolvedPlan } from './planSchema';
import { resolveLocal } from './pathConfinement';

export interface PlanDifference {
  /** `servers[0].kernelStopCommand`, `workload.path`... */
  field: string;
  /** JSON of the value, `(none)` when absent. */
  recorded: string;
  current: string;
}

/** Parts of a plan that only shape the sweep or its report: differences there are not asked about. */
const harmlessFields = new Set(['name', 'description', 'threads', 'repetitions', 'restartServer', 'timeouts']);

/**
 * Every difference between the recorded and the current plan in what runs or is uploaded, with
 * local paths compared after resolving each against its own plan's folder. Pure; [] = same.
 */
export function recordedPlanDifferences(
  recorded: { plan: Plan; planPath: string },
  current: { plan: Plan; planPath: string },
): PlanDifference[] {
  const left = flatten(significant(recorded.plan, dirname(recorded.planPath)));
  const right = flatten(significant(current.plan, dirname(current.planPath)));
  const fields = [...new Set([...left.keys(), ...right.keys()])];
  return fields
    .filter((field) => left.get(field) !== right.get(field))
    .map((field) => ({ field, recorded: left.get(field) ?? '(none)', current: right.get(field) ?? '(none)' }));
}

/** One line per difference, for an error message or a dialog. */
function describeDifferences(differences: PlanDifference[], limit = 8): string {
  const lines = differences
    .slice(0, limit)
    .map((entry) => `${entry.field}: recorded ${entry.recorded}, plan file ${entry.current}`);
  if (differences.length > limit) lines.push(`and ${differences.length - limit} more`);
  return lines.join('; ');
}

export function recordedPlanRefusal(differences: PlanDifference[], runDir: string): EngineFailure {
  return new EngineFailure({
    code: 'plan-changed',
    step: 'resume',
    message: `The plan recorded in ${runDir} differs from the plan file in what it runs or uploads: ${describeDifferences(differences)}. Nothing was run.`,
    action:
      'Resume with the plan file as it was, start a new run, or accept the recorded plan explicitly (CLI: --accept-recorded-plan; editor: "Resume with the recorded plan") if you trust the run folder.',
  });
}

function significant(plan: Plan, planDir: string): Record<string, unknown> {
  const resolved: ResolvedPlan = withDefaults(plan);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(resolved)) if (!harmlessFields.has(name)) out[name] = value;
  out.workload = { ...resolved.workload, path: resolveLocal(planDir, resolved.workload.path) };
  // A stack's display name only changes how results show it: not asked about.
  out.stacks = resolved.stacks.map(({ displayName: _shown, ...stack }) =>
    stack.profile === undefined ? stack : { ...stack, profile: resolveLocal(planDir, stack.profile) },
  );
  out.clients = resolved.clients.map((client) =>
    typeof client.runUnderOnload === 'string'
      ? { ...client, runUnderOnload: resolveLocal(planDir, client.runUnderOnload) }
      : client,
  );
  return out;
}

function flatten(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(prefix, '[]');
    value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, out));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    if (entries.length === 0 && prefix !== '') out.set(prefix, '{}');
    for (const [name, item] of entries) flatten(item, prefix ? `${prefix}.${name}` : name, out);
  } else if (value !== undefined) {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}

/**
 * The manifest's cells, checked: each id is recomputed from its key and must match, ids are
 * unique, and every key is one the recorded plan expands to. Anything else is a crafted or damaged
 * manifest (an id like `../../../../tmp/x` would become a path).
 */
export function checkManifestCells(manifest: RunManifest, plan: ResolvedPlan, manifestPath: string): void {
  // run until stable appends extra repetitions (schedule.ts): any repetition up to the plan's max
  const expected = new Set<string>();
  for (const key of expandCells(plan))
    for (let repetition = 1; repetition <= Math.max(plan.repetitionPolicy.max, key.repetition); repetition++)
      expected.add(cellId({ ...key, repetition }));
  const seen = new Set<string>();
  manifest.cells.forEach((cell, index) => {
    const fail = (problem: string): never => {
      throw new EngineFailure({
        code: 'results-read',
        step: 'resume',
        message: `${manifestPath}: cell ${index + 1} ${problem}; the run folder cannot be resumed.`,
        action: 'Start a new run; do not resume run folders whose manifest.json was edited.',
      });
    };
    const id = typeof cell?.id === 'string' ? cell.id : String(cell?.id);
    let computed: string;
    try {
      computed = cellId(cell.key);
    } catch {
      return fail(`has no readable key (id ${JSON.stringify(id).slice(0, 80)})`);
    }
    if (computed !== id)
      fail(`has the id ${JSON.stringify(id).slice(0, 80)}, but its key gives ${JSON.stringify(computed).slice(0, 80)}`);
    if (seen.has(id)) fail(`repeats the id ${JSON.stringify(id).slice(0, 80)}`);
    if (!expected.has(id)) fail(`(${JSON.stringify(id).slice(0, 80)}) is not a cell of the recorded plan`);
    seen.add(id);
  });
}
