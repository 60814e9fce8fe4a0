// Pre-flight on the clients: YCSB and Java are there, a launcher really starts YCSB (REAL-LAB Y4:
// bin/ycsb alone needs a Python 2), its HDR interval logs can be written (ycsbHdrSupport.ts), and
// Onload is installed where YCSB runs under it. The launchers and HDR support go to the findings.
import type { PreflightCheck } from '../../events';
import { toEngineError } from '../../errors';
import { clientFacts, type HostFacts } from '../../evidence/environment';
import type { EngineError } from '../../model';
import type { ResolvedClient } from '../../plan/planSchema';
import { throwIfCancelled } from '../../server/serverControl';
import { hdrSupportAction, probeHdrSupport } from '../../ycsb/ycsbHdrSupport';
import { chooseLauncher, noLauncherError, type LauncherProbe } from '../../ycsb/ycsbLauncher';
import {
  failedCheck,
  mergeHost,
  rethrowCancel,
  type CheckGroup,
  type Found,
  type PreflightContext,
  type ReportCheck,
} from './checkGroup';
import { onloadLabel } from './serverChecks';

/** Every client reached, one after the other. */
export const clientSoftware: CheckGroup = async (context, found, report) => {
  throwIfCancelled(context.signal, undefined, 'preflight');
  for (const client of context.plan.clients) {
    if (!found.reachable.has(client.host)) continue;
    try {
      await clientChecks(context, client, found, report);
    } catch (error) {
      rethrowCancel(error, context.signal);
      const engineError = toEngineError(error, 'preflight', client.host);
      report(failedCheck('client-facts', client.host, engineError, true), engineError);
    }
  }
};

async function clientChecks(
  { pool, signal }: PreflightContext,
  client: ResolvedClient,
  found: Found,
  report: ReportCheck,
): Promise<void> {
  const facts = await clientFacts(pool.get(client.host), client, signal);
  mergeHost(found.environment, client.host, facts.environment);
  report({
    id: 'ycsb-version',
    host: client.host,
    ok: facts.binaries.ycsb === true,
    detail: facts.binaries.ycsb
      ? ycsbLabel(facts.environment.ycsb, client.ycsbHome)
      : `no bin/ycsb in ${client.ycsbHome}`,
    action: `Set ycsbHome for ${client.host} to the folder that contains bin/ycsb.`,
    blocking: true,
  });
  report({
    id: 'java-version',
    host: client.host,
    ok: facts.binaries.java === true,
    detail: facts.binaries.java ? (facts.environment.java ?? 'java') : 'java is not on the PATH',
    action: 'Install a Java runtime for YCSB.',
    blocking: false,
  });
  // REAL-LAB Y4: run the launcher for real; bin/ycsb alone needs a Python 2
  const probe = await chooseLauncher(pool.get(client.host), client, signal);
  if (probe.launcher) found.launchers.set(client.host, probe.launcher);
  const launcherError = probe.launcher ? undefined : noLauncherError(client.host, client, probe).error;
  report(launcherCheck(client, probe, facts, launcherError), launcherError);
  // HdrHistogram 2.1.4 needs javax.xml.bind for the run's interval logs (ycsbHdrSupport.ts)
  if (probe.launcher) {
    const hdr = await probeHdrSupport(pool.get(client.host), client, probe.launcher, signal);
    found.hdrSupport.set(client.host, hdr);
    report({
      id: 'ycsb-hdr-log',
      host: client.host,
      ok: hdr.ok,
      detail: hdr.detail,
      ...(hdr.ok ? {} : { action: hdrSupportAction }),
      blocking: false,
    });
  }
  if (client.runUnderOnload !== false) {
    report({
      id: 'onload-version',
      host: client.host,
      ok: facts.binaries.onload === true,
      detail: facts.binaries.onload ? onloadLabel(facts.environment.onload) : 'onload is not on the PATH',
      action: 'Install Onload on the client or set runUnderOnload to false.',
      blocking: true,
    });
  }
}

/** The launcher that starts YCSB, and why the ones tried before it did not; or why none did. */
function launcherCheck(
  client: ResolvedClient,
  probe: LauncherProbe,
  facts: HostFacts,
  launcherError: EngineError | undefined,
): PreflightCheck {
  return {
    id: 'ycsb-launcher',
    host: client.host,
    ok: probe.launcher !== undefined,
    detail: probe.launcher
      ? `${probe.launcher.command} starts YCSB${facts.environment.java ? ` (${facts.environment.java})` : ''}${
          probe.tried.length > 1
            ? `; ${probe.tried
                .filter((entry) => !entry.ok)
                .map((entry) => `${entry.launcher.command}: ${entry.detail}`)
                .join('; ')}`
            : ''
        }`
      : (launcherError as EngineError).message,
    action: (launcherError ?? { action: '' }).action,
    blocking: true,
  };
}

/** The version the run records when the client folder does not reveal it comes from YCSB's own first line. */
export function ycsbLabel(version: string | undefined, ycsbHome: string): string {
  return version
    ? `YCSB ${version} in ${ycsbHome}`
    : `YCSB in ${ycsbHome} (version read from its output at the first run)`;
}
