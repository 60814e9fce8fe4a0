// Whether a YCSB phase worked, judged by its report (REAL-LAB Y8): `Client` exits 0 after most
// failures (unknown option, unreadable -P file, missing `workload`, DB init failure), so a 0 exit
// proves nothing. A phase worked when it printed a report whose operations are all Return=OK,
// none failed, and (for a load) the OK inserts are the records it had to load. Pure.
import type { YcsbReport } from '../model';

export interface Verdict {
  ok: boolean;
  /** Worded for the user when not ok. */
  problem?: string;
  kind?: 'no-report' | 'no-operations' | 'failed-operations' | 'short-load';
}

/** Names operations that failed: `*-FAILED` sections and non-OK return codes. */
export function failedOperations(report: YcsbReport): string[] {
  const problems: string[] = [];
  for (const stats of Object.values(report.operations)) {
    if (stats.operation.endsWith('-FAILED') && stats.operations > 0)
      problems.push(`${stats.operation}: ${stats.operations}`);
    for (const [code, count] of Object.entries(stats.returnCodes)) {
      if (code !== 'OK' && count > 0 && !stats.operation.endsWith('-FAILED'))
        problems.push(`${stats.operation} Return=${code}: ${count}`);
    }
  }
  return problems;
}

/** The line of YCSB's own output that explains a missing report, when there is one. */
export function reportlessCause(output: string): string | undefined {
  const patterns = [
    /^Unknown option .*$/m,
    /^Missing property: .*$/m,
    /^Unable to open the properties file.*$/m,
    /^Argument '-p' expected.*$/m,
    /^.*(?:Exception|Error)\b.*$/m,
    /^\s*File ".*", line \d+$/m,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(output);
    if (match) return match[0].trim();
  }
  return undefined;
}

export function judgeReport(
  phase: 'load' | 'run',
  report: YcsbReport | undefined,
  output: string,
  expectedInserts?: number,
): Verdict {
  if (!report) {
    const cause = reportlessCause(output);
    return { ok: false, kind: 'no-report', problem: `YCSB ${phase} printed no report${cause ? `: ${cause}` : ''}` };
  }
  const failed = failedOperations(report);
  if (failed.length > 0)
    return {
      ok: false,
      kind: 'failed-operations',
      problem: `YCSB ${phase} reported failed operations: ${failed.join(', ')}`,
    };
  const completed = Object.values(report.operations)
    .filter((stats) => stats.operation !== 'CLEANUP' && !stats.operation.endsWith('-FAILED'))
    .reduce((sum, stats) => sum + (stats.returnCodes.OK ?? stats.operations), 0);
  if (completed === 0) {
    const cause = /^.*(Exception|Error)\b.*$/m.exec(output)?.[0]?.trim();
    return {
      ok: false,
      kind: 'no-operations',
      problem: `YCSB ${phase} completed no operations${cause ? `: ${cause}` : ' (it could not reach the bucket, or the workload does nothing)'}`,
    };
  }
  if (phase === 'load' && expectedInserts !== undefined) {
    const inserted = report.operations.INSERT?.returnCodes.OK ?? 0;
    if (inserted !== expectedInserts)
      return {
        ok: false,
        kind: 'short-load',
        problem: `YCSB load inserted ${inserted} of its ${expectedInserts} records (a time limit or throttle, or a crash, ended it early)`,
      };
  }
  return { ok: true };
}
