// The test node as a member of a cluster (issue 23): what ns_server does when nodes are added,
// rebalanced and ejected, fact by fact from the lab README's K rows, so that the engine's resize
// (engine/src/couchbase/clusterResizeSteps.ts) meets the refusals a real cluster gives:
// - K1, K2, K3 `POST /controller/addNode`: only hostname, user, password, services, clientCertAuth
//   (else "Got unknown parameters"), ns_server's service names, every parse error in one 400 list;
//   the orchestrator then asks the joining node (`POST /engageCluster2` with the form's
//   credentials) and passes on its refusal: a node already in a cluster, the node itself, a wrong
//   password, an unreachable node; no addition during a rebalance;
// - K4: an added node is `inactiveAdded` until a rebalance makes it `active`;
// - K5 `POST /controller/rebalance`: knownNodes exactly the members (else {"mismatch":1}), ejected
//   among them, not all ejected, one at a time (503);
// - K6 `/pools/default/tasks`' rebalance entry, K7 `balanced`, K8 `/logs/rebalanceReport`,
//   K15 `POST /controller/stopRebalance`;
// - K9: an ejected node leaves: it forgets the cluster, its buckets and users, and restarts its
//   memcached (its KV connections close, its uptime starts again). K16: the rebalance ends once
//   the ejected nodes were told (chronicle's remove_peer inside eject_nodes), but each leaves in
//   the background (`leaveMs`, default 1000: ns_server stops, wipes and starts again), still
//   refusing to join a cluster meanwhile; a node restarted before it finished leaves at its start
//   (the leave marker).
// Progress moves linearly over `rebalanceMs`; the faults `rebalanceStallAtPercent` and
// `rebalanceFailure` make it hang or fail. The membership survives a restart of the node when the
// caller keeps it (`saved`: the test node writes it into its data folder), as ns_server keeps
// `nodes_wanted` on disk (K14). The cluster map over the members is the test node's
// (couchbaseTestNode.ts, K13, told through `onMembersChanged`); vBucket moves are not simulated.
import { randomBytes } from 'node:crypto';

export type ClusterMembershipState = 'active' | 'inactiveAdded';

export interface Member {
  otpNode: string;
  /** `host:port` of its REST service. */
  hostname: string;
  services: string[];
  membership: ClusterMembershipState;
}

export interface MembershipFaults {
  /** How long a rebalance takes (default 1500 ms). */
  rebalanceMs?: number;
  /** Progress stops at this percentage: the rebalance hangs (K11's stall). */
  rebalanceStallAtPercent?: number;
  /** The rebalance ends at half way with this errorMessage (K6). */
  rebalanceFailure?: string;
  /** How long an ejected node takes to leave after it was told (K16, default 1000 ms). */
  leaveMs?: number;
}

export interface MembershipOptions {
  /** This node as the cluster sees it. */
  self: () => { otpNode: string; hostname: string; services: string[] };
  username: string;
  password: string;
  faults: () => MembershipFaults;
  /** K9: forget buckets and users, restart memcached. */
  wipe: () => void;
  log: (line: string) => void;
  /**
   * Where the membership is kept across a restart of the node (ns_server keeps `nodes_wanted` in
   * its config on disk, so a member that restarts is still a member): read once at the start,
   * written after every change. Absent: memory only.
   */
  saved?: { read(): SavedMembership | undefined; write(state: SavedMembership): void };
  /** After a rebalance that completed: the members now (this node first), for the cluster map. */
  onMembersChanged?: (members: Member[]) => void;
}

/** What survives a restart: the cluster this node joined, or the members it orchestrates. */
export interface SavedMembership {
  joinedTo?: string;
  others: Member[];
  /** K16: told to leave, not finished (ns_server's leave marker in its data folder). */
  leaving?: boolean;
}

export interface RestOutcome {
  status: number;
  body?: unknown;
}

/** ns_server's service names (K2: ns_cluster_membership services_by_version). */
const supportedServices = ['kv', 'n1ql', 'index', 'fts', 'cbas', 'eventing', 'backup'];
/** K1: parse_join_cluster_params' KnownParams for addNode. */
const addNodeParams = ['hostname', 'user', 'password', 'services', 'clientCertAuth'];

/** Erlang's `~p` of a list of strings, as ns_server's messages print them: `["a","b"]`. */
function erlangList(values: string[]): string {
  return `[${values.map((value) => JSON.stringify(value)).join(',')}]`;
}

interface Rebalance {
  statusId: string;
  rebalanceId: string;
  startedAt: number;
  known: string[];
  ejected: string[];
  /** Set when its moves were done and the ejected nodes are being told (K16). */
  ejecting?: boolean;
  /** Set when it ended. */
  endedAt?: number;
  errorMessage?: string;
  reportId?: string;
}

export function clusterMembership(options: MembershipOptions) {
  /** The orchestrator's members (this node first); undefined until something asks (then just itself). */
  const others = new Map<string, Member>();
  /** Set when this node joined another node's cluster (K3: it is then not joinable). */
  let joinedTo: string | undefined = undefined;
  let rebalance: Rebalance | undefined;
  let lastStatusId = randomBytes(16).toString('hex');
  const reports = new Map<string, Record<string, unknown>>();
  let lastReportId: string | undefined;
  /** K16: told to leave and not done yet: not joinable. */
  let leaving = false;
  const restored = options.saved?.read();
  if (restored) {
    joinedTo = restored.joinedTo;
    for (const member of restored.others) others.set(member.otpNode, member);
    options.log(
      `cluster: membership restored after a restart (${restored.joinedTo !== undefined ? `member of ${restored.joinedTo}'s cluster` : `${restored.others.length} other member(s)`})`,
    );
  }
  const save = (): void =>
    options.saved?.write({
      ...(joinedTo !== undefined ? { joinedTo } : {}),
      others: [...others.values()],
      ...(leaving ? { leaving } : {}),
    });
  const setting = <K extends keyof MembershipFaults>(
    name: K,
    fallback: NonNullable<MembershipFaults[K]>,
  ): NonNullable<MembershipFaults[K]> => options.faults()[name] ?? fallback;

  /** K9, K16: the leave itself, `leaveMs` after the node was told (ns_cluster leave_body). */
  function leave(): void {
    leaving = true;
    save();
    setTimeout(
      () => {
        joinedTo = undefined;
        others.clear();
        rebalance = undefined;
        leaving = false;
        save();
        options.wipe();
        options.log('cluster: left the cluster; configuration wiped, memcached restarted');
      },
      setting('leaveMs', 1000),
    ).unref();
  }
  if (restored?.leaving) {
    // ns_cluster init: "Found marker of in-flight cluster leave … Going to complete leave cluster procedure."
    options.log('cluster: a leave was under way before the restart; completing it');
    leave();
  }

  const self = (): Member => ({ ...options.self(), membership: 'active' });
  const members = (): Member[] => [self(), ...others.values()];

  /** Progress in percent now, and whether it has ended (completing or failing it on the way). */
  function advance(now: number): void {
    if (!rebalance || rebalance.endedAt !== undefined) return;
    const took = setting('rebalanceMs', 1500);
    const progress = Math.min(100, ((now - rebalance.startedAt) / took) * 100);
    const failure = options.faults().rebalanceFailure;
    if (failure !== undefined && progress >= 50) return finish(now, failure);
    const stallAt = options.faults().rebalanceStallAtPercent;
    if (stallAt !== undefined && progress >= stallAt) return;
    if (progress >= 100) eject(now);
  }

  /**
   * K16: the moves are done; the ejected nodes are told to leave (ns_rebalancer eject_nodes, each
   * ns_cluster:leave/1 → shun → chronicle_master:remove_peer, synchronous) before the rebalance ends.
   */
  function eject(now: number): void {
    if (!rebalance || rebalance.ejecting) return;
    rebalance.ejecting = true;
    const ending = rebalance;
    const told = ending.ejected
      .map((otpNode) => others.get(otpNode))
      .filter((member): member is Member => member !== undefined);
    if (told.length === 0) {
      finish(now, undefined);
      return;
    }
    void Promise.all(told.map(tellToLeave)).then(() => {
      if (rebalance === ending && ending.endedAt === undefined) finish(Date.now(), undefined);
    });
  }

  function progressOf(now: number): number {
    if (!rebalance) return 0;
    const raw = Math.min(100, ((now - rebalance.startedAt) / setting('rebalanceMs', 1500)) * 100);
    const stallAt = options.faults().rebalanceStallAtPercent;
    return stallAt !== undefined ? Math.min(raw, stallAt) : raw;
  }

  function finish(now: number, errorMessage: string | undefined): void {
    if (!rebalance) return;
    rebalance.endedAt = now;
    lastStatusId = randomBytes(16).toString('hex');
    const reportId = randomBytes(16).toString('hex');
    rebalance.reportId = reportId;
    lastReportId = reportId;
    if (errorMessage !== undefined) {
      rebalance.errorMessage = errorMessage;
      reports.set(reportId, {
        completionMessage: `Rebalance exited with reason ${errorMessage}`,
        is_rebalancing: false,
        rebalanceId: rebalance.rebalanceId,
      });
      options.log(`cluster: rebalance ${rebalance.rebalanceId} failed: ${errorMessage}`);
      return;
    }
    for (const member of others.values()) member.membership = 'active';
    for (const otpNode of rebalance.ejected) others.delete(otpNode);
    save();
    options.onMembersChanged?.(members());
    reports.set(reportId, {
      completionMessage: 'Rebalance completed successfully.',
      is_rebalancing: false,
      rebalanceId: rebalance.rebalanceId,
      nodesOut: rebalance.ejected,
    });
    options.log(
      `cluster: rebalance ${rebalance.rebalanceId} completed; members ${members()
        .map((member) => member.otpNode)
        .join(', ')}`,
    );
  }

  async function tellToLeave(member: Member): Promise<void> {
    try {
      await fetch(`http://${member.hostname}/_lab/leaveCluster`, {
        method: 'POST',
        headers: { authorization: basic(options.username, options.password) },
        signal: AbortSignal.timeout(5000),
      });
    } catch (error) {
      options.log(`cluster: ${member.otpNode} did not hear it was ejected: ${String(error)}`);
    }
  }

  const running = (now: number): boolean => {
    advance(now);
    return rebalance !== undefined && rebalance.endedAt === undefined;
  };

  async function addNode(form: URLSearchParams, now: number): Promise<RestOutcome> {
    const keys = [...form.keys()];
    const hostname = (form.get('hostname') ?? '').trim();
    const user = form.get('user');
    const password = form.get('password');
    const errors: string[] = [];
    // K1: the order parse_join_cluster_params collects them in
    if (user === null) errors.push('user is missing');
    if (password === null) errors.push('password is missing');
    if (hostname === '') errors.push('Hostname is required.');
    const unknown = keys.filter((key) => !addNodeParams.includes(key));
    if (unknown.length > 0) errors.push(`Got unknown parameters: ${erlangList(unknown)}`);
    let services = ['kv'];
    const servicesParam = form.get('services');
    if (servicesParam !== null) {
      const named = servicesParam.split(',').filter((name) => name !== '');
      const bad = named.filter((name) => !supportedServices.includes(name));
      if (bad.length > 0) errors.push(`Unknown services: ${erlangList(bad)}`);
      else if (named.length === 0) errors.push('At least one service has to be selected');
      else services = [...new Set(named)].sort();
    }
    if (errors.length > 0) return { status: 400, body: errors };
    if (user === '' && password !== '')
      return { status: 400, body: ['If a username is not specified, a password must not be supplied.'] };
    if (user !== '' && password === '') return { status: 400, body: ['A password must be supplied.'] };
    if (running(now)) return { status: 400, body: ['Node addition is disallowed while rebalance is in progress'] };
    const target = /^(?:https?:\/\/)?(\[[^\]]+\]|[^:/]+)(?::(\d+))?\/?$/.exec(hostname);
    if (!target) return { status: 400, body: [`Malformed URL ${hostname}; if using IPv6, enclose in square brackets`] };
    const endpoint = `${target[1]}:${target[2] ?? '8091'}`;
    // K3: the joining node is asked to engage (ns_cluster: post_json_to_joinee /engageCluster2)
    let answer: Response;
    try {
      answer = await fetch(`http://${endpoint}/engageCluster2`, {
        method: 'POST',
        headers: { authorization: basic(user ?? '', password ?? ''), 'content-type': 'application/json' },
        body: JSON.stringify({ otpNode: self().otpNode, requestedServices: services }),
        signal: AbortSignal.timeout(5000),
      });
    } catch {
      const host = target[1].replace(/^\[|\]$/g, '');
      return {
        status: 400,
        body: [
          `Failed to connect to http://${endpoint}. Could not connect to "${host}" on port ${target[2] ?? '8091'}.  This could be due to an incorrect host/port combination or a firewall in place between the servers.`,
        ],
      };
    }
    const text = await answer.text();
    if (answer.status === 401)
      return { status: 400, body: ['Prepare join failed. Authentication failed. Verify username and password.'] };
    let joinee: { otpNode?: string; error?: string } = {};
    try {
      joinee = JSON.parse(text) as typeof joinee;
    } catch {
      // not JSON: refused below
    }
    if (answer.status !== 200 || typeof joinee.otpNode !== 'string')
      return { status: 400, body: [`Prepare join failed. ${joinee.error ?? text.trim()}`] };
    others.set(joinee.otpNode, { otpNode: joinee.otpNode, hostname: endpoint, services, membership: 'inactiveAdded' });
    save();
    options.log(`cluster: added ${joinee.otpNode} (${endpoint}, ${services.join(',')})`);
    return { status: 200, body: { otpNode: joinee.otpNode } };
  }

  /** K3: the joining node's side: itself, or already in a cluster, refuses. */
  function engage(body: string): RestOutcome {
    let asker: { otpNode?: unknown } = {};
    try {
      asker = JSON.parse(body) as typeof asker;
    } catch {
      return { status: 400, body: { error: 'Invalid JSON' } };
    }
    if (asker.otpNode === self().otpNode)
      return { status: 400, body: { error: 'Joining node to itself is not allowed.' } };
    // system_joinable: nodes_wanted is this node alone, which it is again only once a leave is done (K16)
    if (joinedTo !== undefined || others.size > 0 || leaving)
      return { status: 400, body: { error: 'Node is already part of cluster.' } };
    joinedTo = String(asker.otpNode);
    save();
    options.log(`cluster: joined ${joinedTo}'s cluster`);
    return { status: 200, body: { otpNode: self().otpNode, hostname: self().hostname, services: self().services } };
  }

  function startRebalance(form: URLSearchParams, now: number): RestOutcome {
    const list = (name: string): string[] => (form.get(name) ?? '').split(',').filter((value) => value !== '');
    const known = list('knownNodes');
    if (known.length === 0) return { status: 400, body: { empty_known_nodes: 1 } };
    const ejected = list('ejectedNodes');
    const names = members().map((member) => member.otpNode);
    // K5: parse_rebalance_params (a name ns_server never saw) and rebalance_safety_checks
    if ([...known, ...ejected].some((name) => !names.includes(name))) return { status: 400, body: { mismatch: 1 } };
    if (ejected.some((name) => !known.includes(name)) || [...new Set(known)].sort().join() !== [...names].sort().join())
      return { status: 400, body: { mismatch: 1 } };
    if (running(now)) return { status: 503, body: { error: 'Cannot rebalance during rebalance' } };
    const keep = members().filter((member) => !ejected.includes(member.otpNode));
    if (keep.length === 0) return { status: 400, body: 'No active nodes left' };
    if (!keep.some((member) => member.services.includes('kv'))) return { status: 400, body: { noKVNodesLeft: 1 } };
    if (ejected.includes(self().otpNode))
      return { status: 400, body: "The lab's test node does not eject the node that orchestrates the rebalance" };
    rebalance = {
      statusId: randomBytes(16).toString('hex'),
      rebalanceId: randomBytes(16).toString('hex'),
      startedAt: now,
      known,
      ejected,
    };
    lastStatusId = rebalance.statusId;
    options.log(
      `cluster: rebalance ${rebalance.rebalanceId} started (known ${known.join(',')}; ejected ${ejected.join(',') || 'none'})`,
    );
    return { status: 200, body: { rebalance_id: rebalance.rebalanceId } };
  }

  /** K6: the rebalance entry of /pools/default/tasks. */
  function rebalanceTask(now: number): Record<string, unknown> {
    if (running(now) && rebalance) {
      return {
        statusId: rebalance.statusId,
        type: 'rebalance',
        subtype: 'rebalance',
        recommendedRefreshPeriod: 0.25,
        status: 'running',
        progress: progressOf(now),
        perNode: Object.fromEntries(rebalance.known.map((name) => [name, { progress: progressOf(now) }])),
        rebalanceId: rebalance.rebalanceId,
      };
    }
    return {
      statusId: lastStatusId,
      type: 'rebalance',
      subtype: 'rebalance',
      status: 'notRunning',
      statusIsStale: false,
      masterRequestTimedOut: false,
      ...(rebalance?.errorMessage !== undefined
        ? { errorMessage: 'Rebalance failed. See logs for detailed reason. You can try again.' }
        : {}),
      ...(lastReportId !== undefined ? { lastReportURI: `/logs/rebalanceReport?reportID=${lastReportId}` } : {}),
    };
  }

  return {
    /** The members as /pools/default lists them (K4), this node's own entry built by the caller. */
    nodes(
      now: number,
      selfJson: Record<string, unknown>,
      otherJson: (member: Member) => Record<string, unknown>,
    ): Record<string, unknown>[] {
      advance(now);
      return [
        { ...selfJson, otpNode: self().otpNode, clusterMembership: 'active' },
        ...[...others.values()].map((member) => ({
          ...otherJson(member),
          otpNode: member.otpNode,
          hostname: member.hostname,
          services: member.services,
          clusterMembership: member.membership,
        })),
      ];
    },
    /** K7: balanced unless a member waits for a rebalance or the last one failed. */
    balanced(now: number): boolean {
      advance(now);
      return (
        [...others.values()].every((member) => member.membership === 'active') &&
        rebalance?.errorMessage === undefined &&
        !running(now)
      );
    },
    rebalanceStatus(now: number): string {
      return running(now) ? 'running' : 'none';
    },
    /** The REST paths of membership; undefined for any other. Callers have checked the admin's credentials. */
    async handle(
      method: string,
      path: string,
      query: URLSearchParams,
      body: () => Promise<string>,
      now: number,
    ): Promise<RestOutcome | undefined> {
      if (method === 'POST' && path === '/controller/addNode') return addNode(new URLSearchParams(await body()), now);
      if (method === 'POST' && path === '/engageCluster2') return engage(await body());
      if (method === 'POST' && path === '/controller/rebalance')
        return startRebalance(new URLSearchParams(await body()), now);
      if (method === 'GET' && path === '/pools/default/tasks') return { status: 200, body: [rebalanceTask(now)] };
      if (method === 'POST' && path === '/controller/stopRebalance') {
        // K15: 200 whether or not one runs; the members stay as they were (added ones inactiveAdded)
        if (running(now) && rebalance) {
          rebalance.endedAt = now;
          lastStatusId = randomBytes(16).toString('hex');
          lastReportId = randomBytes(16).toString('hex');
          reports.set(lastReportId, {
            completionMessage: 'Rebalance stopped by user.',
            is_rebalancing: false,
            rebalanceId: rebalance.rebalanceId,
          });
          options.log(`cluster: rebalance ${rebalance.rebalanceId} stopped`);
        }
        return { status: 200 };
      }
      if (method === 'GET' && path === '/logs/rebalanceReport') {
        // K8: reportID, when given, is exactly 32 characters; no other key
        const id = query.get('reportID');
        if ([...query.keys()].some((key) => key !== 'reportID'))
          return { status: 400, body: { errors: { _: 'Unsupported key' } } };
        if (id !== null && id.length !== 32)
          return { status: 400, body: { errors: { reportID: 'length must be 32' } } };
        const report = reports.get(id ?? lastReportId ?? '');
        return report ? { status: 200, body: report } : { status: 200, body: { error: 'not_found' } };
      }
      if (method === 'POST' && path === '/_lab/leaveCluster') {
        // K9, K16: told it was removed; the leave marker is written now, the leave itself takes leaveMs
        options.log('cluster: ejected; leaving the cluster');
        leave();
        return { status: 200 };
      }
      return undefined;
    },
  };
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
