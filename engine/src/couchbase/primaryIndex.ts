// Scans need the query service and a primary index (REAL-LAB Y7): `couchbase2` runs workload E's
// SCAN as N1QL (`SELECT RAW meta().id ... ORDER BY meta().id`), and a fresh bucket has no index, so
// every SCAN would fail. When the workload scans, the engine creates `#primary` after the bucket
// through the query service's REST endpoint (`POST /query/service`, the port from
// /pools/default/nodeServices) and waits until system:indexes says it is online, as perfrunner
// does for YCSB E. Pre-flight checks that the cluster runs the query and index services.
// REAL-LAB C11: an index created before the load is still applying the load's mutations after
// it, so scans would read a partial index and the server's CPU would include the indexer's
// backlog. After the load the engine asks the query service to count the bucket through the index
// with scan_consistency=request_plus, which answers only once the index holds every mutation made
// before the request (perfrunner waits for the indexer's queue too before YCSB E).
import { EngineFailure } from '../errors';
import { quote, restCall, type RestTarget } from './couchbaseRest';
import { sleep } from '../server/serverControl';
import { pollIntervalMs } from '../remote/pollInterval';
import type { WaitFacts } from './bucketLifecycle';

/** Services of every node, from /pools/default (`nodes[].services`: kv, n1ql, index, ...). */
export async function clusterServices(target: RestTarget): Promise<string[][]> {
  const answer = await restCall(target, 'GET', '/pools/default', 'preflight');
  const nodes = (answer.json as { nodes?: { services?: unknown }[] } | undefined)?.nodes ?? [];
  return nodes.map((node) => (Array.isArray(node.services) ? node.services.map(String) : []));
}

/** What is missing for scans (empty: nothing). Pure. */
export function missingScanServices(services: string[][]): string[] {
  const all = new Set(services.flat());
  return ['n1ql', 'index'].filter((service) => !all.has(service));
}

async function queryPort(target: RestTarget): Promise<number> {
  const answer = await restCall(target, 'GET', '/pools/default/nodeServices', 'primary-index');
  const nodes =
    (answer.json as { nodesExt?: { services?: Record<string, number>; thisNode?: boolean }[] } | undefined)?.nodesExt ??
    [];
  const withQuery =
    nodes.find((node) => node.thisNode && node.services?.n1ql) ?? nodes.find((node) => node.services?.n1ql);
  if (!withQuery?.services?.n1ql) {
    throw new EngineFailure({
      code: 'query-index',
      host: target.server.host,
      step: 'primary-index',
      message:
        'The workload scans, but no node of the cluster runs the query service (no n1ql in /pools/default/nodeServices).',
      action: 'Add the query and index services to the cluster, or use a workload without scans (scanproportion=0).',
    });
  }
  return withQuery.services.n1ql;
}

async function query(
  target: RestTarget,
  port: number,
  statement: string,
  extra: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ status: number; results: unknown[]; errors: { code?: number; msg?: string }[]; text: string }> {
  const answer = await restCall(target, 'POST', '/query/service', 'primary-index', {
    port,
    form: { statement, ...extra },
    timeoutMs,
  });
  const body = (answer.json ?? {}) as { results?: unknown[]; errors?: { code?: number; msg?: string }[] };
  return { status: answer.status, results: body.results ?? [], errors: body.errors ?? [], text: answer.text };
}

/** `CREATE PRIMARY INDEX` (an existing one is fine) and wait until it is online. */
export async function ensurePrimaryIndex(
  target: RestTarget,
  bucket: string,
  deadline: number,
): Promise<WaitFacts & { created: boolean }> {
  const started = performance.now();
  const port = await queryPort(target);
  const keyspace = `\`${bucket.replace(/`/g, '``')}\``;
  const create = await query(target, port, `CREATE PRIMARY INDEX ON ${keyspace}`);
  // 4300: "The index #primary already exists."
  const exists = create.errors.some((error) => error.code === 4300 || /already exists/i.test(error.msg ?? ''));
  if (create.status !== 200 && !exists) {
    throw new EngineFailure({
      code: 'query-index',
      host: target.server.host,
      step: 'primary-index',
      message: `The query service did not create the primary index on "${bucket}" (HTTP ${create.status}: ${quote(create.errors.map((error) => `${error.code ?? ''} ${error.msg ?? ''}`).join('; ') || create.text)}).`,
      action: 'Check the query and index services (Couchbase console, Indexes), and the index storage mode.',
    });
  }
  let polls = 0;
  let last: string;
  const literal = JSON.stringify(bucket);
  for (;;) {
    polls += 1;
    const state = await query(
      target,
      port,
      `SELECT RAW state FROM system:indexes WHERE keyspace_id = ${literal} AND is_primary = true`,
    );
    last = state.status === 200 ? JSON.stringify(state.results) : `HTTP ${state.status}: ${quote(state.text)}`;
    if (state.results.includes('online')) return { polls, ms: performance.now() - started, created: !exists };
    if (performance.now() >= deadline) break;
    // often at first, less as it drags on (pollInterval.ts), not every 250 ms
    await sleep(
      Math.min(pollIntervalMs(performance.now() - started, 100), Math.max(0, deadline - performance.now())),
      target.signal,
    );
  }
  throw new EngineFailure({
    code: 'query-index',
    host: target.server.host,
    step: 'primary-index',
    message: `The primary index on "${bucket}" did not come online (system:indexes: ${last}).`,
    action: 'Look at the index service logs, or raise timeouts.bucketReadySec.',
  });
}

/**
 * After the load (REAL-LAB C11): waits until the primary index holds every loaded mutation, by a
 * request_plus count through it; returns the wait and the count the index gave.
 */
export async function waitIndexCaughtUp(
  target: RestTarget,
  bucket: string,
  deadline: number,
): Promise<WaitFacts & { indexedItems: number }> {
  const started = performance.now();
  const port = await queryPort(target);
  const keyspace = `\`${bucket.replace(/`/g, '``')}\``;
  const seconds = Math.max(1, Math.ceil((deadline - performance.now()) / 1000));
  const answer = await query(
    target,
    port,
    `SELECT RAW COUNT(*) FROM ${keyspace}`,
    { scan_consistency: 'request_plus', timeout: `${seconds}s` },
    seconds * 1000 + 5000,
  );
  const count = answer.results[0];
  if (answer.status !== 200 || typeof count !== 'number') {
    throw new EngineFailure({
      code: 'query-index',
      host: target.server.host,
      step: 'primary-index',
      message: `The primary index on "${bucket}" did not catch up with the load within ${seconds} s (HTTP ${answer.status}: ${quote(answer.errors.map((error) => `${error.code ?? ''} ${error.msg ?? ''}`).join('; ') || answer.text)}).`,
      action: 'Look at the index service (its queue and memory quota), or raise timeouts.bucketReadySec.',
    });
  }
  return { polls: 1, ms: performance.now() - started, indexedItems: count };
}
