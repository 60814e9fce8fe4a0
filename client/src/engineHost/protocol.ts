// Messages between the extension host and the engine process (dist/engineHost.js) over Node's
// IPC channel. Plain data; the password travels only here, never on a command line or in the
// environment.
import type { RunOutcome, RunSweepOptions, SweepEvent } from '../../../engine/src/index';

/** RunSweepOptions without the parts that cannot cross a process boundary. */
export type RunSweepRequest = Omit<RunSweepOptions, 'signal' | 'onEvent'>;

export type ToEngine = { type: 'run'; request: RunSweepRequest } | { type: 'abort' };

export type FromEngine =
  | { type: 'event'; event: SweepEvent }
  /** A remote command or upload (see commandLog.ts), for the log only. */
  | { type: 'remote'; line: string }
  | { type: 'done'; outcome: RunOutcome }
  | { type: 'failed'; message: string };
