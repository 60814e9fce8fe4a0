// Pre-flight on the servers: what each one runs (Couchbase, and Onload when a stack needs it, with
// their versions, evidence/environment.ts) and where the plan's interface addresses are configured.
import type { PreflightCheck } from '../../events';
import { toEngineError } from '../../errors';
import { serverFacts, type HostFacts } from '../../evidence/environment';
import type { ResolvedServer } from '../../plan/planSchema';
import { sameAddress } from '../../remote/ipAddress';
import { failedCheck, mergeHost, rethrowCancel, type CheckGroup, type PreflightContext } from './checkGroup';

/** Couchbase on every server reached, and Onload where a stack needs it; their facts go to the environment. */
export const serverSoftware: CheckGroup = async (context, found, report) => {
  const { plan, pool, signal } = context;
  const addresses = Object.values(plan.interfaces);
  for (const server of plan.servers) {
    if (!found.reachable.has(server.host)) continue;
    let facts: HostFacts;
    try {
      facts = await serverFacts(pool.get(server.host), server, addresses, signal);
    } catch (error) {
      rethrowCancel(error, signal);
      const engineError = toEngineError(error, 'preflight', server.host);
      report(failedCheck('server-facts', server.host, engineError, true), engineError);
      continue;
    }
    mergeHost(found.environment, server.host, facts.environment);
    for (const check of serverVersionChecks(context, server, facts)) report(check);
    for (const [address, entry] of Object.entries(facts.environment.interfaces ?? {})) {
      if (entry.device) found.addresses.set(address, `${server.host} ${entry.device}`);
    }
  }
};

function serverVersionChecks({ plan }: PreflightContext, server: ResolvedServer, facts: HostFacts): PreflightCheck[] {
  const onloadStacks = plan.stacks.filter((stack) => stack.profile !== undefined);
  const needsBinary = onloadStacks.length > 0 || server.kernelRunCommand !== undefined;
  return [
    {
      id: 'couchbase-version',
      host: server.host,
      ok: facts.binaries.couchbase !== false,
      detail:
        facts.binaries.couchbase === false
          ? `${server.couchbaseServerPath} is not an executable file`
          : /^couchbase/i.test(facts.environment.couchbase ?? '')
            ? (facts.environment.couchbase as string)
            : `Couchbase ${facts.environment.couchbase ?? '(version unknown)'}`,
      action: 'Set couchbaseServerPath in the plan to the couchbase-server binary.',
      blocking: needsBinary,
    },
    ...(onloadStacks.length > 0
      ? [
          {
            id: 'onload-version',
            host: server.host,
            ok: facts.binaries.onload === true,
            detail: facts.binaries.onload
              ? onloadLabel(facts.environment.onload)
              : 'onload is not on the PATH of the SSH user',
            action: 'Install Onload on the server or put it on the PATH for non-interactive SSH logins.',
            blocking: true,
          },
        ]
      : []),
  ];
}

/** Each of the plan's interface addresses is configured on a server (ip -o addr); skipped when no server answered. */
export const interfaceAddresses: CheckGroup = async ({ plan }, found, report) => {
  if (!plan.servers.some((server) => found.reachable.has(server.host))) return;
  for (const [label, address] of Object.entries(plan.interfaces)) {
    const where = [...found.addresses.entries()].find(([configured]) => sameAddress(configured, address))?.[1];
    report({
      id: 'interface-address',
      ok: where !== undefined,
      detail: where
        ? `${label} ${address} is on ${where}`
        : `${label}: ${address} is not configured on any server (ip -o addr)`,
      action: `Fix the address of "${label}" in the plan or configure it on the server's NIC.`,
      blocking: true,
    });
  }
};

/** `onload --version` already names itself ("Onload 9.0.1.86", older releases "OpenOnload 8.1.2.26"). */
export function onloadLabel(version: string | undefined): string {
  if (version === undefined || version === '') return 'Onload (version unknown)';
  return /onload/i.test(version) ? version : `Onload ${version}`;
}
