// Putting Couchbase on a cell's stack, on every server at once: stop it and prove it stopped
// (nothing on its ports, no memcached/beam.smp of the installation left), start it on the kernel or
// under the stack's Onload profile, wait for REST and prove the start fresh by the node's uptime
// (REAL-LAB C3). How each server was started, with the proofs, is kept for the cells' evidence.
import type { ResolvedPlan } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { startServer, stopServer, waitForServer, type ServerStart } from './serverControl';
import { proveFresh, proveStopped } from './serverRestartProof';
import { serverProfilePath } from './serviceProfiles';

/** A server's start (serverControl.ts) with the proofs of the stop and the start. */
export type ServerStartRecord = ServerStart & Record<string, unknown>;

export interface ServerOnStackContext {
  pool: { get(host: string): RemoteSession };
  plan: ResolvedPlan;
  /** The Couchbase admin password, for the freshness proof's REST call. */
  password: string;
  serverStartSec: number;
  log: (level: 'info' | 'warn', message: string) => void;
  /** Dry run: told each step it skips for want of a network. */
  skipped?: (host: string, step: string) => void;
  /** Unit tests and the dry run: no REST wait, no freshness proof. */
  skipServerWait?: boolean;
}

/**
 * Restarts every server on `stack` (its profile, when it has one); `starts` gets each server's
 * record once it is up and proven, and loses it as soon as that server is stopped.
 */
export async function putServersOnStack(
  context: ServerOnStackContext,
  stack: string,
  starts: Map<string, ServerStartRecord>,
  signal?: AbortSignal,
): Promise<void> {
  const { plan, serverStartSec } = context;
  const profile = plan.stacks.find((candidate) => candidate.name === stack)?.profile;
  await Promise.all(
    plan.servers.map(async (server) => {
      const session = context.pool.get(server.host);
      starts.delete(server.host);
      await stopServer(session, server, signal);
      const killed = await proveStopped(session, server, Math.min(60, serverStartSec), signal);
      if (killed.length > 0)
        context.log('warn', `${server.host}: killed what the stop left running: ${killed.join(', ')} (killLeftovers).`);
      const remoteProfile = profile !== undefined ? serverProfilePath(server, stack) : undefined;
      const startedAt = performance.now();
      const start = await startServer(session, server, remoteProfile, signal);
      let fresh: Record<string, unknown> = {};
      context.skipped?.(
        server.host,
        `REST: GET http://${server.address}:${server.restPort}/pools until it answers (up to ${serverStartSec} s), then GET /pools/default as ${server.adminUser} (password ********): the node's uptime must be below the time since the start`,
      );
      if (!context.skipServerWait) {
        await waitForServer(session, server, server.serverStart === 'foreground', serverStartSec, signal);
        fresh = await proveFresh(session, server, context.password, startedAt, signal);
      }
      starts.set(server.host, { ...start, ...fresh, ...(killed.length > 0 ? { killedLeftovers: killed } : {}) });
    }),
  );
}
