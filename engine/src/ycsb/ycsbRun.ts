// One YCSB phase (load or run) on one client host: the command line, running it in its own
// process group with live status lines, and reading its final report.
import { EngineFailure } from '../errors';
import type { CellKey, YcsbReport } from '../model';
import type { ResolvedClient, ResolvedServer } from '../plan/planSchema';
import { killGroup, runInGroup } from '../remote/remoteProcess';
import type { RemoteSession } from '../remote/ssh';
import { fillTemplate, shellJoin, shellQuote } from '../remote/shellQuote';
import { parseYcsbReport } from './ycsbOutput';
import { StatusLineReader, type YcsbStatus } from './ycsbStatus';
import { bindingProperties } from './ycsbBinding';
import { launchCommand, launcherCandidates, type YcsbLauncher } from './ycsbLauncher';
import { withoutRunLimits } from './ycsbPhaseProperties';
import { judgeReport } from './ycsbVerdict';

export type YcsbPhase = 'load' | 'run';

export interface YcsbInvocation {
  client: ResolvedClient;
  server: ResolvedServer;
  phase: YcsbPhase;
  key: CellKey;
  bucketName: string;
  workloadRemotePath: string;
  credentialsRemotePath: string;
  /** Workload overrides from the plan (the cell's axes are added on top). */
  properties: Record<string, string | number | boolean>;
  /** Uploaded profile path when YCSB itself runs under Onload, else undefined. */
  onloadProfileRemotePath?: string;
  /** The launcher pre-flight chose (ycsbLauncher.ts); default python2 bin/ycsb. */
  launcher?: YcsbLauncher;
  /** Per-phase, per-client overrides (ycsbPhaseProperties.ts), added last. */
  overrides?: Record<string, string | number>;
  /** Inserts the load must report as Return=OK (REAL-LAB Y8). */
  expectedInserts?: number;
}

export function ycsbPidFile(client: ResolvedClient, phase: YcsbPhase): string {
  return `${client.workDir}/ycsb-${phase}.pid`;
}

/** The properties the engine sets for every phase: only the keys the binding reads (REAL-LAB Y1, Y3). */
export function connectionProperties(invocation: YcsbInvocation): Record<string, string | number> {
  const { server, key } = invocation;
  return bindingProperties({
    binding: invocation.client.binding,
    host: key.address,
    bucket: invocation.bucketName,
    restPort: server.restPort,
    kvPort: server.kvPort,
  });
}

/**
 * Every `-p` of the phase, in order: the plan's properties, the cell's axes, the engine's keys, the phase overrides.
 */
export function phaseProperties(invocation: YcsbInvocation): Record<string, string | number | boolean> {
  const { key, phase } = invocation;
  // REAL-LAB Y5: the run's limits never reach the load
  const planned =
    phase === 'load'
      ? withoutRunLimits({ ...invocation.properties, ...key.axes })
      : { ...invocation.properties, ...key.axes };
  return { ...planned, ...connectionProperties(invocation), ...(invocation.overrides ?? {}) };
}

/** `cd HOME && exec [onload ...] LAUNCHER PHASE BINDING -P workload -P credentials -p k=v... -threads N -s`. */
export function ycsbCommand(invocation: YcsbInvocation): string {
  const { client, key, phase } = invocation;
  const args: string[] = [
    phase,
    client.binding,
    '-P',
    invocation.workloadRemotePath,
    '-P',
    invocation.credentialsRemotePath,
  ];
  for (const [name, value] of Object.entries(phaseProperties(invocation))) args.push('-p', `${name}=${String(value)}`);
  args.push('-threads', String(key.threads), '-s');
  const launcher = invocation.launcher ?? launcherCandidates(client)[0];
  const onload =
    invocation.onloadProfileRemotePath !== undefined
      ? `${fillTemplate(client.onloadCommand, { profile: invocation.onloadProfileRemotePath })} `
      : '';
  const { env, command } = launchCommand(launcher, client.javaOptions, shellJoin(args));
  return `cd ${shellQuote(client.ycsbHome)} && ${env}exec ${onload}${command}`;
}

export interface PhaseOutcome {
  report?: YcsbReport;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the phase failed: exit code, missing YCSB, no report, failed operations. */
  error?: EngineFailure;
}

export { failedOperations } from './ycsbVerdict';

export async function runYcsbPhase(
  session: RemoteSession,
  invocation: YcsbInvocation,
  options: {
    timeoutSec: number;
    signal?: AbortSignal;
    onStatus?: (status: YcsbStatus, line: string) => void;
    /** Content of the credentials file at invocation.credentialsRemotePath, sent over stdin. */
    credentials: string;
    /** Run before YCSB in the same round trip (runInGroup's `setup`). */
    setup?: string;
  },
): Promise<PhaseOutcome> {
  const { phase } = invocation;
  const step = phase === 'load' ? 'ycsb-load' : 'ycsb-run';
  const host = session.host;
  const pidFile = ycsbPidFile(invocation.client, phase);
  const reader = new StatusLineReader();
  const emit = (line: string): void => {
    for (const status of reader.push(`${line}\n`)) options.onStatus?.(status, line);
  };
  let result;
  try {
    result = await runInGroup(session, ycsbCommand(invocation), pidFile, {
      step,
      stdin: options.credentials,
      privateFile: invocation.credentialsRemotePath,
      ...(options.setup !== undefined ? { setup: options.setup } : {}),
      onStderrLine: emit,
      timeoutMs: options.timeoutSec * 1000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // the local ssh is gone (cancel, timeout, dropped link): make sure YCSB and the password file are too
    await killGroup(session, pidFile, step, 5).catch(() => undefined);
    await session.run(`rm -f ${shellQuote(invocation.credentialsRemotePath)}`, { step }).catch(() => undefined);
    throw error;
  }
  for (const status of reader.end()) options.onStatus?.(status, '');
  const { stdout, stderr, exitCode } = result;
  const outcome: PhaseOutcome = { stdout, stderr, exitCode };
  const parsed = parseYcsbReport(stdout);
  if (parsed.ok) outcome.report = parsed.report;
  if (
    exitCode === 127 ||
    (exitCode !== 0 &&
      /bin\/ycsb(\.sh)?: (not found|No such file)|can't cd to|No such file or directory.*ycsb/i.test(stderr))
  ) {
    outcome.error = new EngineFailure({
      code: 'ycsb-missing',
      host,
      step,
      message: `YCSB could not be started in ${invocation.client.ycsbHome} (exit ${exitCode}): ${lastLines(stderr)}`,
      action: `Check ycsbHome in the plan: ${invocation.client.ycsbHome}/bin/ycsb must exist on ${host} (and Java/Python it needs).`,
    });
  } else if (exitCode !== 0 && !parsed.ok) {
    outcome.error = new EngineFailure({
      code: 'ycsb-exit',
      host,
      step,
      message: `YCSB ${phase} exited with ${exitCode}: ${lastLines(stderr || stdout)}`,
      action: `Read the cell's ${phase} log; check the binding "${invocation.client.binding}", the workload and that ${invocation.key.address} is reachable from ${host}.`,
    });
  } else {
    // REAL-LAB Y8: the report decides, whatever the exit status said
    const verdict = judgeReport(
      phase,
      parsed.ok ? parsed.report : undefined,
      `${stdout}\n${stderr}`,
      invocation.expectedInserts,
    );
    if (!verdict.ok) {
      const code = verdict.kind === 'no-report' ? 'ycsb-output' : 'ycsb-failed-ops';
      const action =
        verdict.kind === 'no-report'
          ? `Read the cell's ${phase} log (YCSB exits with 0 after most errors); the exporter settings may also send the report elsewhere (exportfile).`
          : verdict.kind === 'short-load'
            ? `Read the cell's load log; a maxexecutiontime or target in the workload file limits the load too.`
            : `Read the cell's ${phase} log and the Couchbase logs (login of the bucket user, timeouts, memory, missing index for scans).`;
      outcome.error = new EngineFailure({
        code,
        host,
        step,
        message: `${verdict.problem}${exitCode !== 0 ? ` (exit ${exitCode})` : ''}.`,
        action,
      });
    } else if (exitCode !== 0) {
      outcome.error = new EngineFailure({
        code: 'ycsb-exit',
        host,
        step,
        message: `YCSB ${phase} printed a report but exited with ${exitCode}: ${lastLines(stderr)}`,
        action: `Read the cell's ${phase} log.`,
      });
    }
  }
  return outcome;
}

function lastLines(text: string, count = 3): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(-count).join(' | ') || '(no output)';
}
