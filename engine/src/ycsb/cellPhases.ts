// A cell's YCSB phases across its clients, as the sweep runs them: the load (the first client, or
// each client its slice with workload.splitLoad, or each its own table when several clients
// insert: REAL-LAB Y6, Y10) and the run (every client at once, inserting into its own table then).
// For each client and phase: the invocation (the workload, the binding's connection, the bucket
// user's generated password, the client's Onload profile, the launcher pre-flight chose), the keys
// it was given for the cell's evidence, live status lines, and the raw log kept whatever happened.
// The sweep gives the places (sessions, the cell's log folder) and the events; this file knows YCSB.
import { EngineFailure, formatEngineError, toEngineError } from '../errors';
import type { CellKey, CellResult, YcsbReport } from '../model';
import type { ResolvedClient, ResolvedPlan } from '../plan/planSchema';
import { secretFileName } from '../remote/secrets';
import type { RemoteSession } from '../remote/ssh';
import { remoteProfilePath } from '../remote/workFolder';
import { combineClientReports } from './combine';
import { bindingCredentials, credentialKeys, type BucketLogin } from './ycsbBinding';
import type { YcsbLauncher } from './ycsbLauncher';
import { loadingClients, phaseOverrides, recordsToLoad } from './ycsbPhaseProperties';
import {
  phaseProperties,
  runYcsbPhase,
  ycsbCommand,
  type PhaseOutcome,
  type YcsbInvocation,
  type YcsbPhase,
} from './ycsbRun';
import type { YcsbStatus } from './ycsbStatus';

/** The workload's name in each client's work folder. */
export const workloadRemoteName = 'workload.properties';

export interface CellPhasesContext {
  plan: ResolvedPlan;
  session(host: string): RemoteSession;
  key: CellKey;
  /** The cell's workload: the file with the plan's properties and the cell's axes. */
  workload: Map<string, string>;
  /** YCSB's login for the cell (couchbase/bucketUser.ts); never the admin's. */
  login: BucketLogin | undefined;
  /** The launcher pre-flight chose per client host (ycsbLauncher.ts). */
  launchers: Map<string, YcsbLauncher>;
  timeoutSec: number;
  signal: AbortSignal;
  onStatus(host: string, phase: YcsbPhase, status: YcsbStatus, line: string): void;
  /**
   * Writes a file into the cell's log folder as `attempt<N>-<host>-<name>`, lists it with the
   * cell's logs and returns its path in the run folder.
   */
  keepLog(host: string, name: string, text: string): Promise<string>;
  /** `YCSB Client <version>` as each client printed it, for the environment record. */
  versions: Map<string, string>;
}

export interface ClientPhase {
  client: ResolvedClient;
  outcome: PhaseOutcome;
}

/** What one client's run phase gets beyond the cell's properties (HDR output, a status list). */
export interface RunExtras {
  properties?: Record<string, string>;
  statuses?: YcsbStatus[];
  /** Run on the client before YCSB in the same round trip (the HDR folder), never fatal. */
  setup?: string;
}

/** evidence.ycsb.keys: the keys each client's phase was given, by `<host> <phase>` (the credentials file's by name). */
export type PhaseKeys = Record<
  string,
  { properties: Record<string, string | number | boolean>; credentialsFile: string[] }
>;

/** The load's part of the cell: the keys, the combined report and the items expected, or its failure. */
export interface LoadPart {
  keys: PhaseKeys;
  /** The load's record (its combined report, the items expected): absent when a client could not run it at all. */
  record?: NonNullable<CellResult['load']>;
  /** The first client's failure. */
  failure?: unknown;
}

/** The run on every client, started: the keys each was given, and the phases when they end. */
export interface RunningClients {
  keys: PhaseKeys;
  done: Promise<ClientPhase[]>;
}

/** The load: the combined report and the items expected, and the first client's failure. */
export async function loadClients(context: CellPhasesContext): Promise<LoadPart> {
  const { plan, workload } = context;
  // REAL-LAB Y6, Y10: or every client into its own table when several clients insert (ycsbPhaseProperties.ts)
  const loaders = plan.clients.slice(
    0,
    loadingClients(workload, plan.clients.length, plan.workload.splitLoad === true),
  );
  const expectedItems = recordsToLoad(workload);
  const invocations = loaders.map((client, index) =>
    invocationOf(context, client, 'load', phaseOverrides(workload, { phase: 'load', index, count: loaders.length })),
  );
  const keys = keysOf(invocations);
  let loads: ClientPhase[];
  try {
    loads = await Promise.all(invocations.map((invocation) => runClientPhase(context, invocation)));
  } catch (failure) {
    return { keys, failure };
  }
  const loadReports = reportsOf(loads);
  const loadReport =
    loadReports.length === 1
      ? loadReports[0].report
      : loadReports.length > 1
        ? combineClientReports(loadReports)
        : undefined;
  const record = { report: loadReport as YcsbReport, ...(expectedItems !== undefined ? { expectedItems } : {}) };
  const failed = loads.find((entry) => entry.outcome.error);
  return { keys, record, ...(failed?.outcome.error ? { failure: failed.outcome.error } : {}) };
}

/** Starts the run on every client at once; `extrasFor` adds each client's evidence properties. */
export function runClients(
  context: CellPhasesContext,
  extrasFor: (client: ResolvedClient) => RunExtras,
): RunningClients {
  const { plan, workload } = context;
  const invocations = plan.clients.map((client, index) => {
    const extras = extrasFor(client);
    return {
      invocation: invocationOf(
        context,
        client,
        'run',
        phaseOverrides(workload, { phase: 'run', index, count: plan.clients.length }),
        extras,
      ),
      extras,
    };
  });
  return {
    keys: keysOf(invocations.map((entry) => entry.invocation)),
    done: Promise.all(invocations.map((entry) => runClientPhase(context, entry.invocation, entry.extras))),
  };
}

/** The clients' reports, for combining. */
export function reportsOf(phases: ClientPhase[]): { host: string; report: YcsbReport }[] {
  return phases
    .filter((entry) => entry.outcome.report)
    .map((entry) => ({ host: entry.client.host, report: entry.outcome.report as YcsbReport }));
}

/** Profiles a client needs when YCSB itself runs under Onload, by the name they are uploaded as. */
export function clientProfiles(plan: ResolvedPlan, client: ResolvedClient): Map<string, string> {
  const out = new Map<string, string>();
  if (client.runUnderOnload === true)
    for (const stack of plan.stacks) if (stack.profile) out.set(stack.name, stack.profile);
  if (typeof client.runUnderOnload === 'string') out.set('client', client.runUnderOnload);
  return out;
}

function clientProfileFor(plan: ResolvedPlan, client: ResolvedClient, stack: string): string | undefined {
  if (client.runUnderOnload === true)
    return plan.stacks.find((candidate) => candidate.name === stack)?.profile
      ? remoteProfilePath(client.workDir, stack)
      : undefined;
  if (typeof client.runUnderOnload === 'string') return remoteProfilePath(client.workDir, 'client');
  return undefined;
}

/** What one client's phase runs: the workload, the binding's connection, its profile and launcher. */
function invocationOf(
  context: CellPhasesContext,
  client: ResolvedClient,
  name: YcsbPhase,
  overrides: Record<string, string | number>,
  extra: RunExtras = {},
): YcsbInvocation {
  const { plan, key } = context;
  const onloadProfile = clientProfileFor(plan, client, key.stack);
  const launcher = context.launchers.get(client.host);
  const invocation: YcsbInvocation = {
    client,
    server: plan.servers[0],
    phase: name,
    key,
    bucketName: plan.bucket.name,
    workloadRemotePath: `${client.workDir}/${workloadRemoteName}`,
    credentialsRemotePath: '',
    properties: { ...plan.workload.properties, ...(extra.properties ?? {}) },
    ...(onloadProfile ? { onloadProfileRemotePath: onloadProfile } : {}),
    ...(launcher ? { launcher } : {}),
    overrides,
  };
  if (name === 'load') {
    // REAL-LAB Y8: the report must show every record of the client's slice inserted
    const slice = overrides.insertcount !== undefined ? Number(overrides.insertcount) : recordsToLoad(context.workload);
    if (slice !== undefined) invocation.expectedInserts = slice;
  }
  return invocation;
}

/** The keys each client was given (names and values; the credentials file's keys by name only). */
function keysOf(invocations: YcsbInvocation[]): PhaseKeys {
  return Object.fromEntries(
    invocations.map((invocation) => [
      `${invocation.client.host} ${invocation.phase}`,
      { properties: phaseProperties(invocation), credentialsFile: credentialKeys(invocation.client.binding) },
    ]),
  );
}

/** One YCSB phase on one client, with the credentials file and the raw log kept. */
async function runClientPhase(
  context: CellPhasesContext,
  invocation: YcsbInvocation,
  extra: RunExtras = {},
): Promise<ClientPhase> {
  const { plan } = context;
  const { client, phase: name } = invocation;
  const session = context.session(client.host);
  const step = name === 'load' ? 'ycsb-load' : 'ycsb-run';
  let outcome: PhaseOutcome | undefined;
  let thrown: unknown;
  try {
    invocation.credentialsRemotePath = secretFileName(client.workDir);
    outcome = await runYcsbPhase(session, invocation, {
      timeoutSec: context.timeoutSec,
      signal: context.signal,
      // REAL-LAB Y2: YCSB gets the bucket user's generated password, never the admin's
      credentials: bindingCredentials(client.binding, context.login ?? { username: plan.bucket.name, password: '' }),
      ...(extra.setup !== undefined ? { setup: extra.setup } : {}),
      onStatus: (status, line) => {
        extra.statuses?.push(status);
        context.onStatus(client.host, name, status, line);
      },
    });
  } catch (error) {
    thrown = error;
  }
  if (outcome || !(thrown instanceof EngineFailure && thrown.error.code === 'cancelled')) {
    const text = [
      `# ${ycsbCommand(invocation)}`,
      `# exit ${outcome?.exitCode ?? '-'}`,
      '# --- stdout',
      outcome?.stdout ?? '',
      '# --- stderr',
      outcome?.stderr ?? '',
      thrown ? `# --- error\n${formatEngineError(toEngineError(thrown, step, client.host))}` : '',
    ].join('\n');
    await context.keepLog(client.host, `${name}.log`, text);
  }
  const version = /^YCSB Client (\d\S*)\s*$/m.exec(outcome?.stderr ?? '')?.[1];
  if (version !== undefined) context.versions.set(client.host, version);
  if (thrown) throw thrown;
  return { client, outcome: outcome as PhaseOutcome };
}
