// What a running sweep tells its driver (the VS Code task, the CLI's progress display, tests).
// Plain data; the engine emits, the edges render.
import type { CellKey, CellResult, EngineError, RunManifest } from './model';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** A parsed YCSB `-s` status line (see ycsbStatus.ts). */
export interface LiveStatus {
  elapsedSec: number;
  operations: number;
  currentOpsPerSec: number;
}

export interface PreflightCheck {
  /** Stable id, e.g. `reachable`, `couchbase-version`, `interface-address`, `profile-lint`. */
  id: string;
  host?: string;
  ok: boolean;
  /** What was found (a version, an address) or what is wrong. */
  detail: string;
  /** Next action when not ok. */
  action?: string;
  /** A failed blocking check stops the run before any cell starts. */
  blocking: boolean;
}

export type SweepEvent =
  | { type: 'run-started'; runDir: string; manifest: RunManifest; resumed: boolean; alreadyDone: number }
  /** One pre-flight check as it completes (the full list follows in `preflight`). */
  | { type: 'preflight-check'; check: PreflightCheck }
  | { type: 'preflight'; checks: PreflightCheck[] }
  | { type: 'cell-started'; id: string; key: CellKey; index: number; total: number; attempt: number }
  | { type: 'phase'; id: string; phase: string }
  | { type: 'status'; id: string; host: string; phase: 'load' | 'run'; status: LiveStatus; line: string }
  /** remainingEstimateUpTo: the estimate counts every repetition run-until-stable may still add (say "up to"). */
  | {
      type: 'cell-finished';
      result: CellResult;
      index: number;
      total: number;
      remainingEstimateMs?: number;
      remainingEstimateUpTo?: boolean;
    }
  | { type: 'log'; level: LogLevel; message: string }
  | { type: 'run-finished'; outcome: RunOutcome };

export interface RunOutcome {
  runDir: string;
  completed: number;
  failed: number;
  total: number;
  cancelled: boolean;
  /** Set when the run stopped early for a reason other than cancellation. */
  error?: EngineError;
}
