// What the edges (extension, CLI, tests) pass to the engine.
import type { SweepEvent } from './events';
import type { Plan } from './plan/planSchema';
import type { SshOptions } from './remote/ssh';

export type { SshOptions } from './remote/ssh';

export interface TimeoutOptions {
  serverStartSec?: number;
  bucketReadySec?: number;
  cellSec?: number;
}

export interface PreflightOptions {
  planPath: string;
  plan: Plan;
  resultsRoot: string;
  /** Couchbase admin password: kept in memory, never logged, never on a command line. */
  password: string;
  signal: AbortSignal;
  onEvent: (event: SweepEvent) => void;
  ssh?: SshOptions;
  timeouts?: TimeoutOptions;
  /** Folders searched for `onload_import NAME` after the importing profile's folder (setting
   * `onloadBench.profilePath`), as the editor and `lint` resolve imports. */
  profilePath?: string[];
}

export interface RunSweepOptions extends PreflightOptions {
  /** A run folder to resume (its finished cells are skipped). */
  resumeRunDir?: string;
  /**
   * Resume even when the plan recorded in the run folder differs from `plan` in what runs or is
   * uploaded (recordedPlan.ts); the recorded plan is used. Without it such a resume is refused.
   */
  acceptRecordedPlan?: boolean;
  /** Folders besides the plan's own that uploaded files may come from (the editor's workspace folders). */
  allowedRoots?: string[];
  /**
   * The `onloadBench.profilePath` folders the user set in user or application settings: uploaded
   * files may come from these too. `profilePath` alone (which a workspace can set) only decides
   * where imports are looked up, never where uploads may come from.
   */
  trustedProfilePath?: string[];
  /** The user's opt-in to upload files from anywhere (CLI --allow-outside-paths). */
  allowOutsidePaths?: boolean;
}
