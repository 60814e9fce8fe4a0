// The failed pre-flights the Runs view groups. A new run that stops in
// pre-flight leaves no run folder (the engine removes it), so only the editor can remember it: kept
// in the workspace's storage (VS Code's workspaceState), they outlive a reload of the window. Pure:
// the storage is anything with Memento's get/update, so tests hand it a Map.
import type { PreflightFailure } from './runHistory';

/** The part of vscode.Memento this needs. */
export interface FailureStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const preflightFailuresKey = 'onloadBench.preflightFailures';
/** The newest this many are kept: a group of old attempts tells nothing more. */
export const keptPreflightFailures = 20;

function isFailure(value: unknown): value is PreflightFailure {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.planPath === 'string' &&
    entry.planPath !== '' &&
    typeof entry.runDir === 'string' &&
    typeof entry.at === 'string' &&
    !Number.isNaN(Date.parse(entry.at)) &&
    typeof entry.message === 'string'
  );
}

export class PreflightFailures {
  private entries: PreflightFailure[];

  constructor(private readonly storage: FailureStorage) {
    // What an older or hand-edited store holds is read, never trusted: entries not of this shape are left out.
    const stored = storage.get(preflightFailuresKey);
    this.entries = Array.isArray(stored)
      ? stored.filter(isFailure).map(({ planPath, runDir, at, message }) => ({ planPath, runDir, at, message }))
      : [];
  }

  list(): readonly PreflightFailure[] {
    return this.entries;
  }

  /** Records one attempt (the newest keptPreflightFailures stay) and stores the list. */
  add(failure: PreflightFailure): PromiseLike<void> {
    this.entries = [...this.entries, { ...failure }]
      .sort((a, b) => a.at.localeCompare(b.at))
      .slice(-keptPreflightFailures);
    return this.storage.update(preflightFailuresKey, this.entries);
  }
}
