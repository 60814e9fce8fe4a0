// Which Couchbase password a run will use, said in words: the environment variable named by the
// setting `onloadBench.couchbase.passwordEnvVar` wins whenever that variable is set (so saving a
// password in SecretStorage does not change what the next run sends), else SecretStorage, else
// nothing yet (the run asks). Pure, so the command, the terminal and pre-flight say the same.
import type { SweepEvent } from '../../engine/src/index';

export type PasswordSource =
  | { kind: 'env'; variable: string }
  | { kind: 'secret-storage'; cluster: string }
  | { kind: 'none'; cluster: string; variable?: string };

export function passwordSourceOf(input: {
  variable: string | undefined;
  env: Record<string, string | undefined>;
  stored: boolean;
  cluster: string;
}): PasswordSource {
  if (input.variable && input.env[input.variable]) return { kind: 'env', variable: input.variable };
  if (input.stored) return { kind: 'secret-storage', cluster: input.cluster };
  return { kind: 'none', cluster: input.cluster, ...(input.variable ? { variable: input.variable } : {}) };
}

/** "the environment variable CB_PASSWORD (setting onloadBench.couchbase.passwordEnvVar)" and the like. */
export function describePasswordSource(source: PasswordSource): string {
  switch (source.kind) {
    case 'env':
      return `the environment variable ${source.variable} (setting onloadBench.couchbase.passwordEnvVar)`;
    case 'secret-storage':
      return `VS Code's secret storage (${source.cluster}; "Set Couchbase password")`;
    case 'none':
      return source.variable
        ? `nothing yet: ${source.variable} is not set in the editor's environment and no password is stored for ${source.cluster}`
        : `nothing yet: no password is stored for ${source.cluster}`;
  }
}

/**
 * What "Set Couchbase password" says before asking, when a password it would save is not the one
 * runs use (said before asking, not after the user typed it); undefined when saving matters.
 */
export function passwordNotUsedWarning(source: PasswordSource): string | undefined {
  if (source.kind !== 'env') return undefined;
  return `Onload Bench: runs take the password from ${describePasswordSource(source)} while it is set, so a password saved here would not be used. Unset ${source.variable} or clear the setting to use a saved one.`;
}

/** What "Set Couchbase password" says after saving. */
export function passwordSavedMessage(source: PasswordSource, cluster: string): string {
  if (source.kind === 'env') {
    return `Onload Bench: password saved in VS Code's secret storage for ${cluster}, but runs use ${describePasswordSource(source)} while it is set. Clear the setting or unset ${source.variable} to use the saved one.`;
  }
  return `Onload Bench: password saved for ${cluster}; runs use it (from VS Code's secret storage).`;
}

/**
 * The pre-flight event with a line saying where the password came from, after the Couchbase check
 * (`bucket-quota`). A password Couchbase refused is the engine's own `couchbase-password` check
 * (engine/src/sweep/preflight.ts): that failed line names the source instead, and no "✓" line is
 * added above a refusal. Other events unchanged.
 */
export function withPasswordSource(event: SweepEvent, source: string): SweepEvent {
  if (event.type !== 'preflight') return event;
  if (event.checks.some((check) => check.id === 'couchbase-password')) {
    return {
      ...event,
      checks: event.checks.map((check) =>
        check.id === 'couchbase-password' && !check.ok
          ? { ...check, detail: `${check.detail} (password from ${source})` }
          : check,
      ),
    };
  }
  const checks = [...event.checks];
  const line = {
    id: 'couchbase-password',
    ok: true,
    detail: `the Couchbase password comes from ${source}`,
    blocking: false,
  };
  const after = checks.findIndex((check) => check.id === 'bucket-quota');
  checks.splice(after < 0 ? checks.length : after + 1, 0, line);
  return { ...event, checks };
}
