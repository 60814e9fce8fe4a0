// Pre-flight on the bucket, through the first server's REST API (the one every cluster size holds):
// whether it fits the cluster's memory quota when Couchbase already answers (it may legitimately be
// stopped now), what it needs whatever the node says (REAL-LAB C5), and the services a scanning
// workload needs (Y7).
import { clusterQuota } from '../../couchbase/bucket';
import { minimumRamQuotaMB, quotaProblem } from '../../couchbase/bucketLifecycle';
import { clusterServices, missingScanServices } from '../../couchbase/primaryIndex';
import { toEngineError } from '../../errors';
import { readLocalFile } from '../../plan/localFiles';
import { resolveLocal } from '../../plan/pathConfinement';
import { restAnswers, throwIfCancelled } from '../../server/serverControl';
import { effectiveWorkload, workloadScans } from '../../ycsb/ycsbPhaseProperties';
import { failedCheck, rethrowCancel, type CheckGroup } from './checkGroup';

/** The bucket against the cluster's memory quota; a refused password is reported as the password's check. */
export const bucketQuota: CheckGroup = async ({ plan, password, signal }, _found, report) => {
  throwIfCancelled(signal, undefined, 'preflight');
  const first = plan.servers[0];
  if (!(await restAnswers(first.address, first.restPort, 2000, signal))) {
    report({
      id: 'bucket-quota',
      host: first.host,
      ok: true,
      detail: `Couchbase REST ${first.address}:${first.restPort} does not answer yet; quota checked when the bucket is created`,
      blocking: false,
    });
    return;
  }
  try {
    const quota = await clusterQuota(first, password, plan.bucket.name, signal);
    if (quota === undefined) {
      report({
        id: 'bucket-quota',
        host: first.host,
        ok: true,
        detail: 'the cluster reports no memory quota; not checked',
        blocking: false,
      });
      return;
    }
    const free = quota.quotaMB - quota.usedByOthersMB;
    report({
      id: 'bucket-quota',
      host: first.host,
      ok: plan.bucket.ramQuotaMB <= free,
      detail: `bucket needs ${plan.bucket.ramQuotaMB} MiB, ${Math.floor(free)} MiB of ${quota.quotaMB} MiB free`,
      action: 'Lower bucket.ramQuotaMB or raise the cluster memory quota.',
      blocking: true,
    });
  } catch (error) {
    rethrowCancel(error, signal);
    const engineError = toEngineError(error, 'preflight', first.host);
    // A refused password is the password's check, not the quota's: "✓ Couchbase password" above
    // "✗ Bucket fits the memory quota: HTTP 401" would contradict itself.
    if (engineError.code === 'bucket-auth')
      report(failedCheck('couchbase-password', first.host, engineError, true), engineError);
    else report(failedCheck('bucket-quota', first.host, engineError, false), engineError);
  }
};

/** The bucket's own minimum quota (C5), and for a workload that scans, the query and index services (Y7). */
export const bucketNeeds: CheckGroup = async ({ plan, planDir, password, signal }, _found, report) => {
  const first = plan.servers[0];
  const minimum = quotaProblem(plan.bucket.name, plan.bucket.ramQuotaMB);
  if (minimum)
    report({
      id: 'bucket-quota',
      host: first.host,
      ok: false,
      detail: minimum,
      action: `Set bucket.ramQuotaMB to ${minimumRamQuotaMB} or more.`,
      blocking: true,
    });
  // an unreadable workload is reported by the local files' checks
  const workload = await readLocalFile(resolveLocal(planDir, plan.workload.path));
  const workloadText = workload.ok ? workload.text : '';
  const scans =
    workloadScans(effectiveWorkload(workloadText, plan.workload.properties, {})) ||
    Object.keys(plan.axes).includes('scanproportion');
  if (!scans || !(await restAnswers(first.address, first.restPort, 2000, signal))) return;
  try {
    const missing = missingScanServices(await clusterServices({ server: first, password, signal }));
    report({
      id: 'query-services',
      host: first.host,
      ok: missing.length === 0,
      detail:
        missing.length === 0
          ? 'the workload scans (N1QL): the cluster runs the query and index services'
          : `the workload scans, which couchbase2 does through N1QL, but no node runs ${missing.join(' and ')}`,
      action: 'Add the query and index services to the cluster, or use a workload without scans.',
      blocking: true,
    });
  } catch (error) {
    rethrowCancel(error, signal);
    report(failedCheck('query-services', first.host, toEngineError(error, 'preflight', first.host), false));
  }
};
