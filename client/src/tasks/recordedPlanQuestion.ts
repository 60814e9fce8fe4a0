// Resume in the editor: when the plan recorded in the run folder differs from the plan file in
// what runs or is uploaded (engine/src/plan/recordedPlan.ts), the user sees the differing fields and
// decides (benchmarkRun.ts shows this text in a modal). The engine refuses such a resume unless
// told the user accepted the recorded plan. Pure.
import type { PlanDifference } from '../../../engine/src/index';

export const resumeWithRecorded = 'Resume with the recorded plan';

/** The modal's text: which fields differ, recorded value against the plan file's. Pure. */
export function recordedPlanQuestion(
  runName: string,
  planName: string,
  differences: PlanDifference[],
  limit = 12,
): { message: string; detail: string } {
  const lines = differences
    .slice(0, limit)
    .map((entry) => `${entry.field}\n    recorded:  ${entry.recorded}\n    plan file: ${entry.current}`);
  if (differences.length > limit) lines.push(`…and ${differences.length - limit} more`);
  return {
    message: `The plan recorded in ${runName} differs from ${planName} in what it runs or uploads.`,
    detail: `${lines.join('\n')}\n\nResuming runs the recorded plan. Do so only if you trust this run folder; otherwise cancel and start a new run.`,
  };
}
