// Pre-flight checks of the server's management address from this workstation (REAL-LAB H2, C7):
// the engine itself talks REST and KV to `address` (bucket lifecycle, item counts, uptime), so a
// firewall or a wrong address must show before any cell, not as a failed bucket create. And a node
// named by address or host name makes the interface axis meaningless: the cluster map sends every
// client to that name, whatever address it bootstrapped through.
import { connect } from 'node:net';
import type { PreflightCheck } from '../../events';
import { isLoopbackName, nodeHost } from '../../evidence/interfaceTraffic';
import type { ResolvedPlan, ResolvedServer } from '../../plan/planSchema';
import { leftoversScript, nodeStatus, parseLeftovers } from '../../server/serverRestartProof';
import { OpenSshSession, type RemoteSession } from '../../remote/ssh';
import { throwIfCancelled } from '../../server/serverControl';
import type { CheckGroup } from './checkGroup';

/**
 * This workstation's reach to each server's REST and KV ports, and whether the interface axis
 * means anything; only against real hosts (test sessions have no network behind their addresses).
 */
export const managementReach: CheckGroup = async ({ plan, pool, password, signal }, found, report) => {
  throwIfCancelled(signal, undefined, 'preflight');
  const realHosts = plan.servers.every((server) => pool.get(server.host) instanceof OpenSshSession);
  if (!realHosts) return;
  for (const server of plan.servers) {
    report(await reachCheck(found.reachable.has(server.host) ? pool.get(server.host) : undefined, server, signal));
  }
  const axis = await interfaceAxisCheck(plan, password, signal).catch(() => undefined);
  if (axis) report(axis);
};

export type Probe = 'open' | 'refused' | 'timeout' | `error ${string}`;

/** One TCP connect from this workstation. */
export function probeTcp(address: string, port: number, timeoutMs = 3000): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const done = (result: Probe): void => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () => done('open'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'refused' : `error ${error.code ?? error.message}`),
    );
    socket.setTimeout(timeoutMs, () => done('timeout'));
  });
}

/** Whether this workstation reaches REST and KV of `server`, judged with what listens on the server. */
export async function reachCheck(
  session: RemoteSession | undefined,
  server: ResolvedServer,
  signal?: AbortSignal,
): Promise<PreflightCheck> {
  const ports = [server.restPort, server.kvPort];
  const probes = await Promise.all(ports.map((port) => probeTcp(server.address, port)));
  const base = { id: 'management-reach', host: server.host };
  if (probes.every((probe) => probe === 'open'))
    return {
      ...base,
      ok: true,
      detail: `this workstation reaches ${server.address} on REST ${server.restPort} and KV ${server.kvPort}`,
      blocking: true,
    };
  let listening: string[] = [];
  if (session) {
    const result = await session
      .run(leftoversScript(server), { step: 'preflight', ...(signal ? { signal } : {}) })
      .catch(() => undefined);
    listening = result ? parseLeftovers(result.stdout).listeners : [];
  }
  const failed = ports.map((port, index) => ({ port, probe: probes[index] })).filter((entry) => entry.probe !== 'open');
  const text = failed
    .map(
      (entry) =>
        `${server.address}:${entry.port} ${entry.probe === 'refused' ? 'refused the connection' : entry.probe === 'timeout' ? 'did not answer (timed out)' : entry.probe}`,
    )
    .join(', ');
  if (listening.length === 0 && failed.every((entry) => entry.probe === 'refused')) {
    // Couchbase is not running: the host answers, the ports are closed; proven again after the start
    return {
      ...base,
      ok: false,
      detail: `${text}; nothing listens on these ports on ${server.host} now (Couchbase stopped?), so reach is checked again when it starts`,
      action: 'Nothing to do if Couchbase is meant to be stopped now.',
      blocking: false,
    };
  }
  return {
    ...base,
    ok: false,
    detail: `${text} from this workstation${listening.length > 0 ? `, although ${server.host} listens on ${listening.join(', ')}` : ''}`,
    action: `The engine talks REST and KV to ${server.address} from this workstation: open ports ${server.restPort} and ${server.kvPort} to it (firewall), or set the server's address in the plan to one this workstation reaches${listening.length > 0 ? ` (it listens on ${listening.join(', ')})` : ''}.`,
    blocking: true,
  };
}

/**
 * Warns when the node is named by an address or host name (C7): asked through two interface
 * addresses, it gives the same name, so clients are sent there whatever address they use.
 */
export async function interfaceAxisCheck(
  plan: ResolvedPlan,
  password: string,
  signal?: AbortSignal,
): Promise<PreflightCheck | undefined> {
  const addresses = [...new Set(Object.values(plan.interfaces))];
  const server = plan.servers[0];
  if (addresses.length < 2 || !server) return undefined;
  const names = await Promise.all(
    addresses.slice(0, 2).map((address) =>
      nodeStatus({ ...server, address }, password, signal)
        .then((status) => status.hostname)
        .catch(() => undefined),
    ),
  );
  if (names.some((name) => name === undefined)) return undefined;
  const [first, second] = names as string[];
  if (first !== second || isLoopbackName(first)) {
    return {
      id: 'interface-axis',
      host: server.host,
      ok: true,
      detail: 'the node is announced as the address each client uses: every interface carries its own cells',
      blocking: false,
    };
  }
  return {
    id: 'interface-axis',
    host: server.host,
    ok: false,
    detail: `the node is named ${first}: the cluster map sends every client to ${nodeHost(first)} whatever interface address it bootstraps through, so the interface axis measures that one address again and again (cells on other interfaces will be marked wrong-interface)`,
    action:
      'Sweep one interface only, or give each interface its own node (or alternate addresses); the cells record which local addresses carried their traffic.',
    blocking: false,
  };
}
