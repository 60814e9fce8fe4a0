// Engine failures as values: every error names the host, the step and the next action, with a
// stable code. `EngineFailure` carries one through `throw`; `fatal` ones stop the sweep (no point
// running further cells when a host is unreachable or the results disk is full), the others are
// retried once and then recorded against the cell.
import type { EngineError } from './model';

export type EngineErrorCode =
  | 'plan-invalid'
  | 'plan-changed'
  | 'path-outside'
  | 'run-locked'
  | 'ssh-unreachable'
  | 'ssh-auth'
  | 'ssh-host-key'
  | 'ssh-failed'
  | 'remote-command'
  | 'upload'
  | 'server-start'
  | 'server-stop'
  | 'bucket-auth'
  | 'bucket-drop'
  | 'bucket-create'
  | 'bucket-ready'
  | 'item-count'
  // bucket and YCSB side of REAL-LAB (bucketLifecycle.ts, bucketUser.ts, ycsbLauncher.ts, primaryIndex.ts)
  | 'bucket-quota'
  | 'bucket-user'
  | 'write-queue'
  | 'rest'
  | 'ycsb-launcher'
  | 'query-index'
  // a cluster resized between cells (couchbase/clusterResizeSteps.ts)
  | 'cluster-resize'
  | 'ycsb-missing'
  | 'ycsb-exit'
  | 'ycsb-failed-ops'
  | 'ycsb-output'
  | 'not-accelerated'
  | 'results-write'
  | 'results-read'
  | 'preflight'
  | 'cancelled'
  | 'internal';

const fatalCodes = new Set<string>([
  'ssh-unreachable',
  'ssh-auth',
  'ssh-host-key',
  'results-write',
  'results-read',
  'preflight',
  'cancelled',
  'plan-invalid',
  'plan-changed',
  'path-outside',
  'run-locked',
]);

export class EngineFailure extends Error {
  readonly error: EngineError;
  constructor(error: EngineError & { code: EngineErrorCode }, options?: { cause?: unknown }) {
    super(formatEngineError(error), options);
    this.name = 'EngineFailure';
    this.error = error;
  }
  get fatal(): boolean {
    return fatalCodes.has(this.error.code);
  }
}

/** One line for logs and the CLI: `[code] host: step: message. Next: action`. */
export function formatEngineError(error: EngineError): string {
  const where = error.host ? `${error.host}: ` : '';
  return `[${error.code}] ${where}${error.step}: ${error.message} Next: ${error.action}`;
}

/** Turns anything thrown into an EngineError for a results line; unknown errors become `internal`. */
export function toEngineError(thrown: unknown, step: string, host?: string): EngineError {
  if (thrown instanceof EngineFailure) return thrown.error;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const error: EngineError = {
    code: 'internal',
    step,
    message,
    action: 'Look at the run logs; report a bug if this repeats.',
  };
  if (host !== undefined) error.host = host;
  return error;
}
