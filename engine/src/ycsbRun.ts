// One YCSB phase (load or run) on one client host: the command line, running it in its own
// process group with live status lines, and reading its final report.
import { EngineFailure } from './errors';
import type { CellKey, YcsbReport } from './model';
import type { ResolvedClient, ResolvedServer } from './planSchema';
import { killGroup, runInGroup } from './remoteProcess';
import type { RemoteSession } from './ssh';
import { fillTemplate, shellJoin, shellQuote } from './shellQuote';
import { parseYcsbReport } from './ycsbOutput';
import { StatusLineReader, type YcsbStatus } from './ycsbStatus';

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
}

export function ycsbPidFile(client: ResolvedClient, phase: YcsbPhase): string {
  return `${client.workDir}/ycsb-${phase}.pid`;
}

/** The properties the engine sets for every phase: where the server is and which bucket. */
export function connectionProperties(invocation: YcsbInvocation): Record<string, string | number> {
  const { server, key } = invocation;
  const common = { 'couchbase.host': key.address, 'couchbase.bucket': invocation.bucketName };
  if (invocation.client.binding === 'couchbase2') return { ...common, 'couchbase.adminport': server.restPort, 'couchbase.carrierport': server.kvPort };
  if (invocation.client.binding === 'couchbase3') return { ...common, 'couchbase.managerPort': server.restPort, 'couchbase.kvPort': server.kvPort };
  return common;
}

/** `cd HOME && exec [onload ...] bin/ycsb PHASE BINDING -P workload -P credentials -p k=v... -threads N -s`. */
export function ycsbCommand(invocation: YcsbInvocation): string {
  const { client, key, phase } = invocation;
  const properties: Record<string, string | number | boolean> = { ...invocation.properties, ...key.axes, ...connectionProperties(invocation) };
  const args: string[] = [phase, client.binding, '-P', invocation.workloadRemotePath, '-P', invocation.credentialsRemotePath];
  for (const [name, value] of Object.entries(properties)) args.push('-p', `${name}=${String(value)}`);
  args.push('-threads', String(key.threads), '-s');
  const launcher = 'if [ -x bin/ycsb ]; then y=bin/ycsb; else y=bin/ycsb.sh; fi';
  const onload = invocation.onloadProfileRemotePath !== undefined ? `${fillTemplate(client.onloadCommand, { profile: invocation.onloadProfileRemotePath })} ` : '';
  const java = client.javaOptions !== undefined ? `JAVA_OPTS=${shellQuote(client.javaOptions)} ` : '';
  return `cd ${shellQuote(client.ycsbHome)} && ${launcher} && ${java}exec ${onload}"$y" ${shellJoin(args)}`;
}

export interface PhaseOutcome {
  report?: YcsbReport;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the phase failed: exit code, missing YCSB, no report, failed operations. */
  error?: EngineFailure;
}

/** Names operations that failed: `*-FAILED` sections and non-OK return codes. */
export function failedOperations(report: YcsbReport): string[] {
  const problems: string[] = [];
  for (const stats of Object.values(report.operations)) {
    if (stats.operation.endsWith('-FAILED') && stats.operations > 0) problems.push(`${stats.operation}: ${stats.operations}`);
    for (const [code, count] of Object.entries(stats.returnCodes)) {
      if (code !== 'OK' && count > 0 && !stats.operation.endsWith('-FAILED')) problems.push(`${stats.operation} Return=${code}: ${count}`);
    }
  }
  return problems;
}

export async function runYcsbPhase(
  session: RemoteSession,
  invocation: YcsbInvocation,
  options: {
    timeoutSec: number;
    signal?: AbortSignal;
    onStatus?: (status: YcsbStatus, line: string) => void;
    /** Content of the credentials file at invocation.credentialsRemotePath, sent over stdin. */
    credentials: string;
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
  if (exitCode === 127 || (exitCode !== 0 && /bin\/ycsb(\.sh)?: (not found|No such file)|can't cd to|No such file or directory.*ycsb/i.test(stderr))) {
    outcome.error = new EngineFailure({ code: 'ycsb-missing', host, step, message: `YCSB could not be started in ${invocation.client.ycsbHome} (exit ${exitCode}): ${lastLines(stderr)}`, action: `Check ycsbHome in the plan: ${invocation.client.ycsbHome}/bin/ycsb must exist on ${host} (and Java/Python it needs).` });
  } else if (exitCode !== 0) {
    outcome.error = new EngineFailure({ code: 'ycsb-exit', host, step, message: `YCSB ${phase} exited with ${exitCode}: ${lastLines(stderr || stdout)}`, action: `Read the cell's ${phase} log; check the binding "${invocation.client.binding}", the workload and that ${invocation.key.address} is reachable from ${host}.` });
  } else if (!parsed.ok) {
    outcome.error = new EngineFailure({ code: 'ycsb-output', host, step, message: `YCSB ${phase} finished but printed no report: ${parsed.error.message}`, action: `Read the cell's ${phase} log; the exporter settings may send the report elsewhere (exportfile).` });
  } else {
    const failed = failedOperations(parsed.report);
    const completed = Object.values(parsed.report.operations)
      .filter((stats) => stats.operation !== 'CLEANUP' && !stats.operation.endsWith('-FAILED'))
      .reduce((sum, stats) => sum + stats.operations, 0);
    if (failed.length === 0 && completed === 0) {
      const cause = /^.*(Exception|Error)\b.*$/m.exec(`${stdout}\n${stderr}`)?.[0]?.trim();
      outcome.error = new EngineFailure({ code: 'ycsb-failed-ops', host, step, message: `YCSB ${phase} completed no operations${cause ? `: ${cause}` : ' (it could not reach the bucket, or the workload does nothing)'}.`, action: `Read the cell's ${phase} log; check that ${invocation.key.address} answers on the KV port from ${host} and that operationcount/recordcount are set.` });
    } else if (failed.length > 0) {
      outcome.error = new EngineFailure({ code: 'ycsb-failed-ops', host, step, message: `YCSB ${phase} reported failed operations: ${failed.join(', ')}.`, action: `Read the cell's ${phase} log and the Couchbase logs (timeouts, memory, a server that restarted).` });
    }
  }
  return outcome;
}

function lastLines(text: string, count = 3): string {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.slice(-count).join(' | ') || '(no output)';
}
