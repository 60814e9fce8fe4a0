// Resizing a Couchbase cluster between cells, the pure half: from what
// `/pools/default` says and the members a cell wants, the exact REST requests ns_server takes and
// the rules for judging its answers. The requests and rules follow the lab README's K rows
// (ns_server menelaus_web_cluster.erl, ns_doctor.erl, menelaus_web_pools.erl; perfrunner
// helpers/monitor.py): addNode forms carry only hostname, user, password and services (K1, K2);
// a rebalance names every otpNode ns_server knows in knownNodes and the leaving ones in
// ejectedNodes (K5); a 400 {"mismatch":1} means the list was stale: re-read and retry once (K5); a
// rebalance whose progress has not moved for 600 s has hung (K11); after it the cluster must be
// balanced and every node active and healthy (K4, K7, K10). The edge that sends them is
// clusterResizeSteps.ts. Nothing here reads a clock or the network.
import { canonicalAddress } from '../remote/ipAddress';
import type { CouchbaseService, ResolvedServer } from '../plan/planSchema';

/** A node as `/pools/default` lists it (K4). */
export interface PoolNode {
  otpNode: string;
  /** `host:8091`, `[v6]:8091`. */
  hostname: string;
  services: string[];
  /** `active`, `inactiveAdded`, `inactiveFailed`. */
  clusterMembership: string;
  /** `healthy`, `warmup`, `unhealthy`. */
  status: string;
}

export interface PoolState {
  nodes: PoolNode[];
  /** K7; undefined when the answer had none. */
  balanced?: boolean;
}

/** A member a cell wants: the host:port ns_server reaches it at and its services. */
export interface WantedMember {
  hostname: string;
  services: CouchbaseService[];
}

/**
 * The members a cell of these servers wants (plan/clusterSizes.ts clusterMembers): each as ns_server reaches it, its
 * REST address and port.
 */
export function wantedMembers(servers: ResolvedServer[]): WantedMember[] {
  return servers.map((server) => ({
    hostname: `${server.address.includes(':') ? `[${server.address}]` : server.address}:${server.restPort}`,
    services: [...server.services],
  }));
}

/** Reads `/pools/default`'s JSON into nodes, or says what was missing. */
export function parsePoolState(json: unknown): PoolState | { problem: string } {
  const nodes = (json as { nodes?: unknown } | undefined)?.nodes;
  if (!Array.isArray(nodes)) return { problem: '/pools/default has no "nodes" list' };
  const parsed: PoolNode[] = [];
  for (const node of nodes) {
    const fields = node as Record<string, unknown>;
    if (typeof fields.otpNode !== 'string' || typeof fields.hostname !== 'string')
      return {
        problem: `/pools/default lists a node without "otpNode" or "hostname": ${JSON.stringify(node).slice(0, 200)}`,
      };
    parsed.push({
      otpNode: fields.otpNode,
      hostname: fields.hostname,
      services: Array.isArray(fields.services) ? fields.services.map(String) : [],
      clusterMembership: typeof fields.clusterMembership === 'string' ? fields.clusterMembership : '',
      status: typeof fields.status === 'string' ? fields.status : '',
    });
  }
  const balanced = (json as { balanced?: unknown }).balanced;
  return { nodes: parsed, ...(typeof balanced === 'boolean' ? { balanced } : {}) };
}

/**
 * `host:port` in one spelling, so `10.0.0.2:8091` and an IPv6 address in any of its text forms compare equal (REAL-LAB
 * H5).
 */
export function endpointKey(hostname: string): string {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostname);
  const single = (hostname.match(/:/g) ?? []).length === 1 ? /^(.*):(\d+)$/.exec(hostname) : null;
  const [host, port] = bracketed
    ? [bracketed[1], bracketed[2] ?? '8091']
    : single
      ? [single[1], single[2]]
      : [hostname, '8091'];
  return `${canonicalAddress(host).toLowerCase()}|${port}`;
}

export interface ResizeRequests {
  /** Wanted members not in the cluster yet: one addNode form each (password filled in by the edge). */
  add: { hostname: string; form: Record<string, string> }[];
  /** Members to leave: their otpNodes. */
  eject: string[];
  /** Nothing to add or eject and the cluster says it is balanced. */
  nothingToDo: boolean;
}

/**
 * What to send to turn the cluster into `wanted`. A wanted node already in with other services,
 * or failed over, cannot be fixed by a rebalance and is a problem worded for the user.
 */
export function resizeRequests(
  state: PoolState,
  wanted: WantedMember[],
  user: string,
): ResizeRequests | { problem: string } {
  const byKey = new Map(state.nodes.map((node) => [endpointKey(node.hostname), node]));
  const wantedKeys = new Set(wanted.map((member) => endpointKey(member.hostname)));
  const add: ResizeRequests['add'] = [];
  for (const member of wanted) {
    const present = byKey.get(endpointKey(member.hostname));
    if (!present) {
      // K1: exactly these keys; any other is refused ("Got unknown parameters").
      add.push({
        hostname: member.hostname,
        form: { hostname: member.hostname, user, password: '', services: member.services.join(',') },
      });
      continue;
    }
    if (present.clusterMembership === 'inactiveFailed')
      return {
        problem: `${member.hostname} (${present.otpNode}) is failed over; recover or remove it by hand before a resize`,
      };
    const have = [...present.services].sort().join(',');
    const want = [...member.services].sort().join(',');
    if (have !== want)
      return {
        problem: `${member.hostname} (${present.otpNode}) runs services ${have || 'none'} but the plan wants ${want}; a member's services cannot change: remove it from the cluster by hand (or fix servers[].services)`,
      };
  }
  const eject = state.nodes.filter((node) => !wantedKeys.has(endpointKey(node.hostname))).map((node) => node.otpNode);
  if (eject.length === state.nodes.length && state.nodes.length > 0 && add.length === 0)
    return { problem: 'none of the wanted members is in the cluster' };
  const settled = state.nodes.every((node) => node.clusterMembership === 'active');
  return { add, eject, nothingToDo: add.length === 0 && eject.length === 0 && settled && state.balanced === true };
}

/** K5: knownNodes are every otpNode the cluster lists now; ejectedNodes those leaving. */
export function rebalanceForm(state: PoolState, eject: string[]): Record<string, string> {
  return { knownNodes: state.nodes.map((node) => node.otpNode).join(','), ejectedNodes: eject.join(',') };
}

export type RebalanceAnswer =
  { kind: 'started'; rebalanceId?: string } | { kind: 'mismatch' } | { kind: 'refused'; detail: string };

/** K5: how ns_server answered POST /controller/rebalance. */
export function judgeRebalanceAnswer(status: number, text: string, json: unknown): RebalanceAnswer {
  if (status === 200) {
    const id = (json as { rebalance_id?: unknown } | undefined)?.rebalance_id;
    return { kind: 'started', ...(typeof id === 'string' ? { rebalanceId: id } : {}) };
  }
  if (status === 400 && (json as { mismatch?: unknown } | undefined)?.mismatch === 1) return { kind: 'mismatch' };
  return { kind: 'refused', detail: `HTTP ${status}: ${text.trim().replace(/\s+/g, ' ').slice(0, 300)}` };
}

/** K3: addNode's answer: the new otpNode, or ns_server's words (a JSON list of messages). */
export function judgeAddNodeAnswer(
  status: number,
  text: string,
  json: unknown,
): { otpNode: string } | { refused: string; stillInACluster: boolean } {
  const otpNode = (json as { otpNode?: unknown } | undefined)?.otpNode;
  if (status === 200 && typeof otpNode === 'string') return { otpNode };
  const words = Array.isArray(json) ? json.map(String).join('; ') : text.trim().replace(/\s+/g, ' ').slice(0, 300);
  // K3/K16: the joining node's system_joinable is false: in another cluster, or still leaving ours
  return {
    refused: `HTTP ${status}: ${words}`,
    stillInACluster: status === 400 && words.includes('Node is already part of cluster.'),
  };
}

/** The `rebalance` entry of `/pools/default/tasks` (K6). */
export interface RebalanceTask {
  running: boolean;
  progress?: number;
  statusId?: string;
  rebalanceId?: string;
  errorMessage?: string;
  lastReportURI?: string;
}

export function rebalanceTaskOf(json: unknown): RebalanceTask | undefined {
  if (!Array.isArray(json)) return undefined;
  const task = json.find((entry) => (entry as { type?: unknown } | null)?.type === 'rebalance') as
    Record<string, unknown> | undefined;
  if (!task) return undefined;
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const progress = typeof task.progress === 'number' ? task.progress : undefined;
  const statusId = text(task.statusId);
  const rebalanceId = text(task.rebalanceId);
  const errorMessage = text(task.errorMessage);
  const lastReportURI = text(task.lastReportURI);
  return {
    running: task.status === 'running',
    ...(progress !== undefined ? { progress } : {}),
    ...(statusId !== undefined ? { statusId } : {}),
    ...(rebalanceId !== undefined ? { rebalanceId } : {}),
    ...(errorMessage !== undefined ? { errorMessage } : {}),
    ...(lastReportURI !== undefined ? { lastReportURI } : {}),
  };
}

/** K11: perfrunner's limit on a rebalance whose progress does not move. */
export const rebalanceStallMs = 600_000;

/** What the follower knows between polls. */
export interface RebalanceWatch {
  /** The task's statusId before the POST: a notRunning entry with it is the previous rebalance's. */
  statusIdBefore?: string;
  seenRunning: boolean;
  lastProgress?: number;
  /** When progress last moved (or the watch began), in the edge's clock's milliseconds. */
  lastMoveAt: number;
}

export function startWatch(before: RebalanceTask | undefined, now: number): RebalanceWatch {
  return {
    ...(before?.statusId !== undefined ? { statusIdBefore: before.statusId } : {}),
    seenRunning: false,
    lastMoveAt: now,
  };
}

export type WatchVerdict =
  | { kind: 'running'; watch: RebalanceWatch }
  /** Over: the post-conditions decide whether it did what was asked. */
  | { kind: 'ended'; watch: RebalanceWatch }
  | { kind: 'failed'; message: string; reportUri?: string }
  | { kind: 'stalled'; message: string };

/**
 * One poll of the tasks: has the rebalance moved, ended, failed or hung? A notRunning entry that is
 * still the previous rebalance's (same statusId, or no statusId and never seen running) means it has
 * not started yet; the stall clock runs then too.
 */
export function watchRebalance(watch: RebalanceWatch, task: RebalanceTask | undefined, now: number): WatchVerdict {
  if (task?.running) {
    const moved = !watch.seenRunning || task.progress !== watch.lastProgress;
    const next: RebalanceWatch = {
      ...watch,
      seenRunning: true,
      ...(task.progress !== undefined ? { lastProgress: task.progress } : {}),
      lastMoveAt: moved ? now : watch.lastMoveAt,
    };
    if (!moved && now - watch.lastMoveAt >= rebalanceStallMs) {
      return {
        kind: 'stalled',
        message: `the rebalance's progress stayed at ${formatProgress(task.progress)} for ${Math.round((now - watch.lastMoveAt) / 1000)} s (perfrunner's limit is ${rebalanceStallMs / 1000} s)`,
      };
    }
    return { kind: 'running', watch: next };
  }
  const previous =
    task === undefined || (task.statusId !== undefined ? task.statusId === watch.statusIdBefore : !watch.seenRunning);
  if (previous && !watch.seenRunning) {
    if (now - watch.lastMoveAt >= rebalanceStallMs)
      return {
        kind: 'stalled',
        message: `the rebalance did not start within ${Math.round((now - watch.lastMoveAt) / 1000)} s (/pools/default/tasks still shows no new rebalance)`,
      };
    return { kind: 'running', watch };
  }
  if (task?.errorMessage)
    return {
      kind: 'failed',
      message: task.errorMessage,
      ...(task.lastReportURI ? { reportUri: task.lastReportURI } : {}),
    };
  return { kind: 'ended', watch };
}

function formatProgress(progress: number | undefined): string {
  return progress === undefined ? 'an unknown value' : `${Math.round(progress * 10) / 10} %`;
}

/**
 * K4, K7, K10: after a rebalance the cluster is exactly the wanted members, balanced, all active and healthy. Problems
 * in words; [] = done.
 */
export function postConditionProblems(state: PoolState, wanted: WantedMember[]): string[] {
  const problems: string[] = [];
  if (state.balanced !== true)
    problems.push(
      `/pools/default says balanced: ${state.balanced === undefined ? '(missing)' : String(state.balanced)}`,
    );
  const wantedKeys = new Set(wanted.map((member) => endpointKey(member.hostname)));
  const present = new Set(state.nodes.map((node) => endpointKey(node.hostname)));
  for (const member of wanted)
    if (!present.has(endpointKey(member.hostname))) problems.push(`${member.hostname} is not in the cluster`);
  for (const node of state.nodes) {
    if (!wantedKeys.has(endpointKey(node.hostname)))
      problems.push(`${node.hostname} (${node.otpNode}) is still in the cluster`);
    else if (node.clusterMembership !== 'active')
      problems.push(`${node.hostname} is ${node.clusterMembership || 'of no membership'}, not active`);
    else if (node.status !== 'healthy')
      problems.push(`${node.hostname} is ${node.status || 'of no status'}, not healthy`);
  }
  return problems;
}

/** The report's own words when it has them (perfrunner reads `completionMessage`, K8). */
export function reportMessage(json: unknown): string | undefined {
  const message = (json as { completionMessage?: unknown } | undefined)?.completionMessage;
  return typeof message === 'string' ? message : undefined;
}
