// Before any cell: can every host be reached, are the binaries there (and which versions), is each
// interface address configured on a server, does the bucket fit the memory quota, do the profiles
// and the workload pass the language services' checks, and can results be written. Each group of
// checks is one function (preflight/), `checkGroups` says their order; each check is reported as it
// completes. Blocking failures stop the run before anything is changed on the hosts.
import { dirname } from 'node:path';
import type { PreflightCheck } from '../events';
import type { EngineError } from '../model';
import type { PreflightOptions } from '../options';
import { withDefaults } from '../plan/planSchema';
import { SessionPool } from '../remote/ssh';
import { bucketNeeds, bucketQuota } from './preflight/bucketChecks';
import {
  emptyFindings,
  type CheckGroup,
  type PreflightContext,
  type PreflightFindings,
  type ReportCheck,
} from './preflight/checkGroup';
import { clientSoftware } from './preflight/clientChecks';
import { localFiles, resultsFolder } from './preflight/localChecks';
import { managementReach } from './preflight/managementReach';
import { reachability } from './preflight/reachability';
import { interfaceAddresses, serverSoftware } from './preflight/serverChecks';

export type { PreflightContext, PreflightFindings } from './preflight/checkGroup';

/** The groups in the order they run: each looks only at what the ones before it reached. */
const checkGroups: CheckGroup[] = [
  reachability, // reachable: SSH to every host
  serverSoftware, // couchbase-version, onload-version (or server-facts) per server
  interfaceAddresses, // interface-address per plan interface
  clientSoftware, // ycsb-version, java-version, ycsb-launcher, ycsb-hdr-log, onload-version (or client-facts)
  bucketQuota, // bucket-quota, or couchbase-password when the password is refused
  bucketNeeds, // bucket-quota (the bucket's own minimum), query-services
  managementReach, // management-reach per server, interface-axis
  localFiles, // profile-lint, workload-lint
  resultsFolder, // results-writable
];

export interface PreflightReport {
  checks: PreflightCheck[];
  /** What the run takes from pre-flight: the hosts' facts, the launchers, HDR support. */
  findings: PreflightFindings;
  /** The error behind the first blocking failure (an SSH error keeps its own code). */
  blockingError?: EngineError;
}

/** Public entry: the checks only, with its own SSH connections. */
export async function runPreflight(options: PreflightOptions): Promise<PreflightCheck[]> {
  const plan = withDefaults(options.plan);
  const pool = new SessionPool(options.ssh ?? {}, undefined, [options.password]);
  try {
    const report = await preflight({
      plan,
      planDir: dirname(options.planPath),
      pool,
      password: options.password,
      resultsRoot: options.resultsRoot,
      signal: options.signal,
    });
    options.onEvent({ type: 'preflight', checks: report.checks });
    return report.checks;
  } finally {
    await pool.closeAll();
  }
}

export async function preflight(
  context: PreflightContext & { onCheck?: (check: PreflightCheck) => void },
): Promise<PreflightReport> {
  const checks: PreflightCheck[] = [];
  let blockingError: EngineError | undefined;
  const report: ReportCheck = (check, error) => {
    checks.push(check);
    context.onCheck?.(check);
    if (!check.ok && check.blocking && blockingError === undefined) {
      blockingError = error ?? {
        code: 'preflight',
        ...(check.host ? { host: check.host } : {}),
        step: 'preflight',
        message: `${check.id}: ${check.detail}`,
        action: check.action ?? 'Fix the problem and start the run again.',
      };
    }
  };
  const found = emptyFindings();
  for (const group of checkGroups) await group(context, found, report);
  const { environment, launchers, hdrSupport } = found;
  return { checks, findings: { environment, launchers, hdrSupport }, ...(blockingError ? { blockingError } : {}) };
}
