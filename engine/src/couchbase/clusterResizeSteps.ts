// Resizing a Couchbase cluster between the cells of a cluster-size sweep, the edge: sends what
// clusterResize.ts decides through the engine's REST client (couchbaseRest.ts) to the first
// server, which is in every size. Each step is a function of its own, in resizeCluster's order:
// refuse while a bucket exists, follow a rebalance left running (an engine stopped mid-rebalance)
// to its end, read /pools/default, addNode each missing member, rebalance with every known otpNode
// (a stale list's {"mismatch":1} is re-read and retried once), follow /pools/default/tasks every
// second until the rebalance ends, fails or hangs for 600 s (a hung one is stopped, K15), then
// require the post-conditions (balanced, every member active and healthy) within 20 s, as
// perfrunner does (lab README K10, K11). A node ejected by an earlier resize leaves in the
// background after its rebalance ended and refuses to join until it is done (K16): its addNode is
// retried every poll for up to 60 s. A failed or hung rebalance keeps /logs/rebalanceReport (K8)
// on the error. The clock is injected so tests decide time; the password goes only into
// addNode's form body and the Authorization header.
import { EngineFailure } from '../errors';
import type { LeaveWait } from '../model';
import { quote, restCall, type RestTarget } from './couchbaseRest';
import { cancelledFailure } from '../remote/ssh';
import { sleep } from '../server/serverControl';
import {
  judgeAddNodeAnswer,
  judgeRebalanceAnswer,
  parsePoolState,
  postConditionProblems,
  rebalanceForm,
  rebalanceTaskOf,
  reportMessage,
  resizeRequests,
  startWatch,
  watchRebalance,
  type PoolState,
  type RebalanceTask,
  type RebalanceWatch,
  type ResizeRequests,
  type WantedMember,
} from './clusterResize';

export interface ResizeClock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const monotonicClock: ResizeClock = { now: () => performance.now(), sleep };

/** What a cell's evidence records of its resize. */
export interface ResizeFacts {
  /** otpNodes of the members after the resize. */
  members: string[];
  added: string[];
  ejected: string[];
  /** A rebalance found running before this resize (an engine stopped mid-rebalance), followed to its end. */
  earlierRebalance?: { ms: number; polls: number; outcome: string };
  /** Absent when the cluster already was the wanted one. */
  rebalance?: { rebalanceId?: string; ms: number; polls: number; mismatchRetried: boolean };
  /** Nodes whose addNode was refused while they finished leaving a cluster (K16), and how long that took. */
  waitedForLeave?: LeaveWait[];
}

/** A rebalance that failed or hung, with ns_server's report when it gave one (K8). */
export class RebalanceFailure extends EngineFailure {
  constructor(
    host: string,
    message: string,
    readonly report: string | undefined,
  ) {
    super({
      code: 'cluster-resize',
      host,
      step: 'resize-cluster',
      message,
      action:
        'Read the rebalance report kept with the cell and the Couchbase logs of the nodes; a node that cannot be reached from the others, or runs out of memory, stops a rebalance.',
    });
    this.name = 'RebalanceFailure';
  }
}

const step = 'resize-cluster';

interface ResizeTiming {
  clock: ResizeClock;
  pollMs: number;
  settleMs: number;
  leaveWaitMs: number;
}

function resizeFailure(host: string, message: string, action: string): EngineFailure {
  return new EngineFailure({ code: 'cluster-resize', host, step, message, action });
}

/**
 * Makes the cluster exactly `wanted`: no bucket in it, a rebalance left running followed to its
 * end, the missing members added, a rebalance that ejects the others, followed until it ends, and
 * the cluster balanced and healthy afterwards.
 */
export async function resizeCluster(
  target: RestTarget,
  wanted: WantedMember[],
  clock: ResizeClock = monotonicClock,
  options: { pollMs?: number; settleMs?: number; leaveWaitMs?: number } = {},
): Promise<ResizeFacts> {
  const timing: ResizeTiming = {
    clock,
    pollMs: options.pollMs ?? 1000,
    settleMs: options.settleMs ?? 20_000,
    leaveWaitMs: options.leaveWaitMs ?? 60_000,
  };
  await requireNoBucket(target);
  let before = await readPool(target);
  let requests = requestsFor(target, before, wanted);
  if (requests.nothingToDo) return { members: before.nodes.map((node) => node.otpNode), added: [], ejected: [] };
  // a rebalance still running (an engine stopped mid-rebalance; ns_server goes on without it) is
  // followed to its end first: ns_server takes no addNode and no other rebalance meanwhile (K3, K5)
  let tasksBefore = await readRebalanceTask(target);
  let earlier: ResizeFacts['earlierRebalance'];
  if (tasksBefore?.running) {
    earlier = await followEarlierRebalance(target, tasksBefore, clock, timing.pollMs);
    tasksBefore = await readRebalanceTask(target);
    before = await readPool(target);
    requests = requestsFor(target, before, wanted);
    if (requests.nothingToDo)
      return { members: before.nodes.map((node) => node.otpNode), added: [], ejected: [], earlierRebalance: earlier };
  }
  const { added, waitedForLeave } = await addMembers(target, requests.add, timing);
  const started = clock.now();
  const { rebalanceId, mismatchRetried } = await startRebalance(target, wanted);
  const polls = await followRebalance(target, startWatch(tasksBefore, started), timing);
  const after = await requireBalanced(target, wanted, timing);
  return {
    members: after.nodes.map((node) => node.otpNode),
    added,
    ejected: requests.eject,
    ...(earlier ? { earlierRebalance: earlier } : {}),
    rebalance: {
      ...(rebalanceId !== undefined ? { rebalanceId } : {}),
      ms: clock.now() - started,
      polls,
      mismatchRetried,
    },
    ...(waitedForLeave.length > 0 ? { waitedForLeave } : {}),
  };
}

/** K10: sizes are formed with no bucket (perfrunner creates buckets after the rebalance), so no data moves. */
async function requireNoBucket(target: RestTarget): Promise<void> {
  const host = target.server.host;
  const buckets = await restCall(target, 'GET', '/pools/default/buckets', step);
  const names = Array.isArray(buckets.json)
    ? buckets.json.map((bucket) => String((bucket as { name?: unknown }).name))
    : [];
  if (buckets.status !== 200 || !Array.isArray(buckets.json))
    throw resizeFailure(
      host,
      `GET /pools/default/buckets on ${target.server.address} gave no bucket list (HTTP ${buckets.status}: ${quote(buckets.text)}).`,
      'Check that the first server runs Couchbase and is initialised.',
    );
  if (names.length > 0)
    throw resizeFailure(
      host,
      `The cluster still holds ${names.map((name) => `"${name}"`).join(', ')}: a cluster is resized with no bucket, so that no data moves.`,
      'Drop the bucket (and wait until it answers 404) before the resize.',
    );
}

async function readPool(target: RestTarget): Promise<PoolState> {
  const answer = await restCall(target, 'GET', '/pools/default', step);
  const state =
    answer.status === 200 ? parsePoolState(answer.json) : { problem: `HTTP ${answer.status}: ${quote(answer.text)}` };
  if ('problem' in state)
    throw resizeFailure(
      target.server.host,
      `GET /pools/default on ${target.server.address} gave no node list (${state.problem}).`,
      'Check that the first server runs Couchbase and is initialised.',
    );
  return state;
}

async function readRebalanceTask(target: RestTarget): Promise<RebalanceTask | undefined> {
  return rebalanceTaskOf((await restCall(target, 'GET', '/pools/default/tasks', step)).json);
}

/** What to send to make `state` the wanted cluster (clusterResize.ts), or why it cannot be. */
function requestsFor(target: RestTarget, state: PoolState, wanted: WantedMember[]): ResizeRequests {
  const requests = resizeRequests(state, wanted, target.server.adminUser);
  if ('problem' in requests)
    throw resizeFailure(
      target.server.host,
      `The cluster cannot be resized to ${wanted.map((member) => member.hostname).join(', ')}: ${requests.problem}.`,
      "Fix the cluster or the plan's servers, then resume.",
    );
  return requests;
}

/**
 * addNode for each missing member. A node ejected by an earlier resize refuses to join until it
 * has left its cluster (K16): its addNode is retried every poll for up to `leaveWaitMs`.
 */
async function addMembers(
  target: RestTarget,
  add: ResizeRequests['add'],
  { clock, pollMs, leaveWaitMs }: ResizeTiming,
): Promise<{ added: string[]; waitedForLeave: LeaveWait[] }> {
  const host = target.server.host;
  const added: string[] = [];
  const waitedForLeave: LeaveWait[] = [];
  for (const request of add) {
    const first = clock.now();
    for (let attempts = 1; ; attempts++) {
      const answer = await restCall(target, 'POST', '/controller/addNode', step, {
        form: { ...request.form, password: target.password },
      });
      const judged = judgeAddNodeAnswer(answer.status, answer.text, answer.json);
      if ('otpNode' in judged) {
        added.push(judged.otpNode);
        if (attempts > 1)
          waitedForLeave.push({ hostname: request.hostname, ms: Math.round(clock.now() - first), attempts });
        break;
      }
      const waited = clock.now() - first;
      if (judged.stillInACluster && waited < leaveWaitMs) {
        await clock.sleep(pollMs, target.signal);
        if (target.signal?.aborted) throw cancelledFailure(host, step);
        continue;
      }
      if (judged.stillInACluster) {
        throw resizeFailure(
          host,
          `Couchbase refused to add ${request.hostname} to the cluster for ${Math.round(waited / 1000)} s (POST /controller/addNode: ${judged.refused}). A node ejected by an earlier resize leaves its cluster in the background once the rebalance has ended (ns_server restarts on it, usually within seconds); one that still belongs to a cluster after that is in another cluster, or its leave did not finish.`,
          `Check ${request.hostname}: if it is in another cluster, remove it there; if this run ejected it, read its Couchbase logs (ns_cluster, "leaving cluster") and restart its service.`,
        );
      }
      throw resizeFailure(
        host,
        `Couchbase refused to add ${request.hostname} to the cluster (POST /controller/addNode: ${judged.refused}).`,
        `Check ${request.hostname}: a Couchbase node that is in no other cluster, with the same admin user and password, whose REST port the first server reaches.`,
      );
    }
  }
  return { added, waitedForLeave };
}

/**
 * The rebalance with every known otpNode, ejecting the others; a stale list's {"mismatch":1} is
 * re-read and retried once.
 */
async function startRebalance(
  target: RestTarget,
  wanted: WantedMember[],
): Promise<{ rebalanceId?: string; mismatchRetried: boolean }> {
  const host = target.server.host;
  let mismatchRetried = false;
  for (let attempt = 1; ; attempt++) {
    const state = await readPool(target);
    const eject = resizeRequests(state, wanted, target.server.adminUser);
    if ('problem' in eject)
      throw resizeFailure(
        host,
        `The cluster changed during the resize: ${eject.problem}.`,
        'Make sure nothing else manages this cluster during a run.',
      );
    const answer = await restCall(target, 'POST', '/controller/rebalance', step, {
      form: rebalanceForm(state, eject.eject),
    });
    const judged = judgeRebalanceAnswer(answer.status, answer.text, answer.json);
    if (judged.kind === 'started')
      return { ...(judged.rebalanceId !== undefined ? { rebalanceId: judged.rebalanceId } : {}), mismatchRetried };
    if (judged.kind === 'mismatch' && attempt === 1) {
      mismatchRetried = true;
      continue;
    }
    throw resizeFailure(
      host,
      judged.kind === 'mismatch'
        ? 'Couchbase answered {"mismatch":1} to the rebalance twice: its node list changed again after it was re-read.'
        : `Couchbase refused the rebalance (POST /controller/rebalance: ${judged.detail}).`,
      'Make sure nothing else adds or removes nodes during a run, then resume.',
    );
  }
}

/**
 * /pools/default/tasks every poll until the rebalance ends; one that fails or hangs for 600 s (a hung
 * one is stopped, K15) fails with ns_server's report (K8). Returns the polls it took.
 */
async function followRebalance(
  target: RestTarget,
  first: RebalanceWatch,
  { clock, pollMs }: ResizeTiming,
): Promise<number> {
  const host = target.server.host;
  let watch = first;
  for (let polls = 1; ; polls++) {
    await clock.sleep(pollMs, target.signal);
    if (target.signal?.aborted) throw cancelledFailure(host, step);
    const verdict = watchRebalance(watch, await readRebalanceTask(target), clock.now());
    if (verdict.kind === 'running') {
      watch = verdict.watch;
      continue;
    }
    if (verdict.kind === 'ended') return polls;
    const stopped = verdict.kind === 'stalled' ? await stopHungRebalance(target) : '';
    const report = await readReport(target, verdict.kind === 'failed' ? verdict.reportUri : undefined);
    const said = report?.message ? ` The rebalance report says: ${quote(report.message)}` : '';
    throw new RebalanceFailure(
      host,
      verdict.kind === 'stalled'
        ? `The rebalance hung: ${verdict.message}.${stopped}${said}`
        : `The rebalance failed: ${quote(verdict.message).replace(/\.$/, '')}.${said}`,
      report?.text,
    );
  }
}

/** K10, K11: balanced and every member active and healthy, within `settleMs`. */
async function requireBalanced(
  target: RestTarget,
  wanted: WantedMember[],
  { clock, pollMs, settleMs }: ResizeTiming,
): Promise<PoolState> {
  const settleBy = clock.now() + settleMs;
  for (;;) {
    const after = await readPool(target);
    const problems = postConditionProblems(after, wanted);
    if (problems.length === 0) return after;
    if (clock.now() >= settleBy) {
      const report = await readReport(target, undefined);
      const said = report?.message ? ` The rebalance report says: ${quote(report.message)}` : '';
      throw new RebalanceFailure(
        target.server.host,
        `The rebalance ended but the cluster is not what was asked: ${problems.join('; ')}.${said}`,
        report?.text,
      );
    }
    await clock.sleep(pollMs, target.signal);
  }
}

/** Follows a rebalance already running to its end (whatever its outcome); a hung one fails as any hung rebalance. */
async function followEarlierRebalance(
  target: RestTarget,
  first: RebalanceTask,
  clock: ResizeClock,
  pollMs: number,
): Promise<{ ms: number; polls: number; outcome: string }> {
  const started = clock.now();
  let watch = startWatch(undefined, started);
  let task: RebalanceTask | undefined = first;
  let polls = 0;
  for (;;) {
    const verdict = watchRebalance(watch, task, clock.now());
    if (verdict.kind === 'stalled') {
      const stopped = await stopHungRebalance(target);
      const report = await readReport(target, undefined);
      const said = report?.message ? ` The rebalance report says: ${quote(report.message)}` : '';
      throw new RebalanceFailure(
        target.server.host,
        `A rebalance that was already running before this resize (an earlier run stopped during it?) hung: ${verdict.message}.${stopped}${said}`,
        report?.text,
      );
    }
    if (verdict.kind !== 'running')
      return {
        ms: clock.now() - started,
        polls,
        outcome: verdict.kind === 'failed' ? `failed: ${verdict.message}` : 'ended',
      };
    watch = verdict.watch;
    await clock.sleep(pollMs, target.signal);
    if (target.signal?.aborted) throw cancelledFailure(target.server.host, step);
    polls += 1;
    task = rebalanceTaskOf((await restCall(target, 'GET', '/pools/default/tasks', step)).json);
  }
}

/**
 * K15: a hung rebalance is stopped (POST /controller/stopRebalance), so that the cell's retry or the
 * next cell starts a rebalance of its own instead of following this one for another 600 s. Says
 * what happened, for the error; a stop that fails is said too, and does not hide the hang.
 */
async function stopHungRebalance(target: RestTarget): Promise<string> {
  try {
    const answer = await restCall(target, 'POST', '/controller/stopRebalance', step, { form: {} });
    return answer.status === 200
      ? ' The engine stopped it (POST /controller/stopRebalance).'
      : ` Stopping it failed (POST /controller/stopRebalance: HTTP ${answer.status}: ${quote(answer.text)}).`;
  } catch (error) {
    return ` Stopping it failed (${error instanceof EngineFailure ? error.error.message : String(error)}).`;
  }
}

/** K8: the last rebalance's report, or undefined when ns_server has none to give. */
async function readReport(
  target: RestTarget,
  uri: string | undefined,
): Promise<{ text: string; message?: string } | undefined> {
  const path = uri !== undefined && uri.startsWith('/logs/rebalanceReport') ? uri : '/logs/rebalanceReport';
  try {
    const answer = await restCall(target, 'GET', path, step);
    if (answer.status !== 200) return undefined;
    const message = reportMessage(answer.json);
    return { text: answer.text, ...(message !== undefined ? { message } : {}) };
  } catch {
    return undefined; // the failure being reported matters more than its report
  }
}
