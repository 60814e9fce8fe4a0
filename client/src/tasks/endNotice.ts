// What a run that ended without failing says, and the next steps it offers as buttons. A cancelled
// run keeps its results and offers *Resume run* at once (not "resume it later" with no way
// to); a finished run offers its results. Failed runs are failureNotice.ts's. Pure.
import type { RunOutcome } from '../../../engine/src/index';
import { failureActionTitles } from './failureNotice';

export interface EndNotice {
  level: 'info' | 'warning';
  text: string;
  /** Button titles, in order. */
  actions: string[];
}

export function endNotice(outcome: RunOutcome): EndNotice | undefined {
  if (!outcome.runDir) return undefined;
  const summary = `${outcome.completed} of ${outcome.total} cells done, ${outcome.failed} failed`;
  const warn = outcome.error !== undefined || outcome.failed > 0;
  if (outcome.cancelled) {
    return {
      level: 'warning',
      text: `Onload Bench: Benchmark cancelled (${summary}). Its results so far are kept; Resume run carries on with the cells left.`,
      actions: [failureActionTitles.resume, failureActionTitles['open-results']],
    };
  }
  const text = outcome.error
    ? `Onload Bench: Benchmark stopped (${summary}): ${outcome.error.message}`
    : `Onload Bench: Benchmark finished: ${summary}.`;
  return { level: warn ? 'warning' : 'info', text, actions: [failureActionTitles['open-results']] };
}
