// What the editor says when a run stops on an error, and which next steps it offers as buttons.
// Every button is an action that exists at that moment: a run stopped before its first cell has no
// folder to resume (the engine removes it), so it offers Retry; a run with finished cells offers
// Resume; an error about a host offers to open the plan at that host's entry; a refused password
// offers to enter it again only when the re-entered one will be used (no environment variable
// overriding it). Pure: runTracker.ts turns the ids into commands.
import type { RunOutcome } from '../../../engine/src/index';
import { describePasswordSource, type PasswordSource } from '../passwordSource';

export type FailureActionId = 'retry' | 'resume' | 'open-plan-host' | 'show-log' | 'enter-password' | 'open-results';

export const failureActionTitles: Record<FailureActionId, string> = {
  retry: 'Retry',
  resume: 'Resume run',
  'open-plan-host': 'Open plan at the host',
  'show-log': 'Show log',
  'enter-password': 'Enter the password again',
  'open-results': 'Open results',
};

export interface FailureNotice {
  message: string;
  actions: FailureActionId[];
}

export function failureNotice(
  outcome: RunOutcome,
  context: { planName: string; passwordSource?: PasswordSource; planNamesHost?: boolean },
): FailureNotice | undefined {
  const { error } = outcome;
  if (outcome.cancelled || !error) return undefined;
  const started = outcome.runDir !== '';
  const where = error.host ? ` on ${error.host}` : '';
  const hostAction: FailureActionId[] = error.host && context.planNamesHost !== false ? ['open-plan-host'] : [];

  if (error.code === 'bucket-auth') {
    const source = context.passwordSource;
    const from = source ? ` from ${describePasswordSource(source)}` : '';
    if (source?.kind === 'env') {
      return {
        message: `Onload Bench: Couchbase${where} refused the password${from}. Correct ${source.variable} and restart the editor, or clear onloadBench.couchbase.passwordEnvVar to use the password kept in VS Code.`,
        actions: ['show-log'],
      };
    }
    return {
      message: `Onload Bench: Couchbase${where} refused the password${from}.`,
      actions: ['enter-password', 'show-log'],
    };
  }

  if (!started) {
    const what =
      error.step === 'load-plan'
        ? 'the plan has problems'
        : error.code === 'preflight' || error.step === 'preflight'
          ? `pre-flight failed${where}`
          : `it stopped before the first cell${where}`;
    return {
      message: `Onload Bench: ${context.planName} did not start: ${what}. ${error.message} Next: ${error.action}`,
      actions: [...hostAction, 'retry', 'show-log'],
    };
  }
  const summary = `${outcome.completed} of ${outcome.total} cells done, ${outcome.failed} failed`;
  return {
    message: `Onload Bench: ${context.planName} stopped${where} (${summary}): ${error.message} Next: ${error.action}`,
    actions: ['resume', ...hostAction, 'open-results', 'show-log'].slice(0, 4) as FailureActionId[],
  };
}

/**
 * Offset of the plan's `"host": "<host>"` value (the entry to reveal), else of the first `"<host>"`; -1 when absent.
 */
export function hostOffsetInPlan(planText: string, host: string): number {
  const quoted = JSON.stringify(host);
  const escaped = quoted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const entry = new RegExp(`"host"\\s*:\\s*(${escaped})`).exec(planText);
  if (entry) return entry.index + entry[0].length - quoted.length;
  return planText.indexOf(quoted);
}
