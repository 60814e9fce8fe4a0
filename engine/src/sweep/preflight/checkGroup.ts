// What every pre-flight check group shares. A group is one function that looks at one kind of
// thing (the hosts over SSH, the servers' software, the clients' YCSB, the bucket, the local files,
// the results folder) and reports each check as it completes, naming what it looked at: the host
// in `host`, the file, folder or address in its detail. What a group learns that a later one or the
// run needs (the hosts reached, the hosts' facts, the launchers) goes into the findings.
import type { PreflightCheck } from '../../events';
import { EngineFailure } from '../../errors';
import type { EngineError, HostEnvironment, RunEnvironment } from '../../model';
import type { ResolvedPlan } from '../../plan/planSchema';
import type { SessionPool } from '../../remote/ssh';
import type { HdrSupport } from '../../ycsb/ycsbHdrSupport';
import type { YcsbLauncher } from '../../ycsb/ycsbLauncher';

export interface PreflightContext {
  plan: ResolvedPlan;
  planDir: string;
  pool: SessionPool;
  password: string;
  resultsRoot: string;
  signal: AbortSignal;
  profilePath?: string[];
}

/** What the run takes from pre-flight besides its checks. */
export interface PreflightFindings {
  /** Each host's facts and the profiles' effective settings (the manifest's `environment`). */
  environment: RunEnvironment;
  /** The YCSB launcher that worked on each client host (ycsbLauncher.ts). */
  launchers: Map<string, YcsbLauncher>;
  /** Whether each client's YCSB can write HDR interval logs (ycsbHdrSupport.ts). */
  hdrSupport: Map<string, HdrSupport>;
}

/** The findings so far, and what only the later groups need. */
export interface Found extends PreflightFindings {
  /** Hosts SSH reached: the groups after it look only at these. */
  reachable: Set<string>;
  /** Interface address -> `host device`, where a server configures it. */
  addresses: Map<string, string>;
}

/** Reports one check as it completes; `error` is the failure behind it when it has its own code (SSH, launcher). */
export type ReportCheck = (check: PreflightCheck, error?: EngineError) => void;

export type CheckGroup = (context: PreflightContext, found: Found, report: ReportCheck) => Promise<void>;

export function emptyFindings(): Found {
  return {
    environment: { hosts: {}, profiles: {} },
    launchers: new Map(),
    hdrSupport: new Map(),
    reachable: new Set(),
    addresses: new Map(),
  };
}

/** A check that failed on an error: the error's message and next action (the error itself goes with it). */
export function failedCheck(id: string, host: string, error: EngineError, blocking: boolean): PreflightCheck {
  return { id, host, ok: false, detail: error.message, action: error.action, blocking };
}

/** A cancel is not a failed check: it ends the pre-flight at once. */
export function rethrowCancel(error: unknown, signal: AbortSignal): void {
  if (signal.aborted || (error instanceof EngineFailure && error.error.code === 'cancelled')) {
    throw error instanceof EngineFailure && error.error.code === 'cancelled'
      ? error
      : new EngineFailure({
          code: 'cancelled',
          step: 'preflight',
          message: 'Cancelled.',
          action: 'Start the run again when ready.',
        });
  }
}

/** A host's facts beside those an earlier group recorded for it (a host both server and client). */
export function mergeHost(environment: RunEnvironment, host: string, facts: HostEnvironment): void {
  const existing = environment.hosts[host];
  environment.hosts[host] = existing
    ? { ...facts, ...existing, interfaces: { ...(facts.interfaces ?? {}), ...(existing.interfaces ?? {}) } }
    : facts;
}
