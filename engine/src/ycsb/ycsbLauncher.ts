// Which command starts YCSB on a client host (REAL-LAB Y4): `bin/ycsb` of 0.17.0 and of the
// couchbaselabs fork is Python 2 only (on current distributions `python` is missing or Python 3:
// exit 127 or a SyntaxError), and takes JVM options only as `-jvm-args=...`; `bin/ycsb.sh` reads
// them from JAVA_OPTS. The plan may name its own command (`ycsbCommand`, e.g. a wrapper that
// starts Python 2.7 as perfrunner does), which then gets JAVA_OPTS. Pre-flight runs each candidate
// for real and keeps the first that works.
// The probe (REAL-LAB Y9): YCSB's shell is no clean exit at end of input (CommandLine dereferences
// the null readLine() returns: exit 1), so it is never judged by `shell basic </dev/null`. For
// couchbase2 it opens the shell with the binding itself and `couchbase.persistTo=9`, which
// Couchbase2Client.init refuses before it connects to anything ("must be between 0 and 4", exit 0):
// the launcher, Java, YCSB's core and the binding's jars with its SDK all had to load. Other
// bindings get the shell with the BasicDB and `quit`, its clean exit.
import { EngineFailure } from '../errors';
import type { ResolvedClient } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';

export type LauncherKind = 'python2' | 'ycsb.sh' | 'plan';

export interface YcsbLauncher {
  kind: LauncherKind;
  /** The command as run from ycsbHome, e.g. `python2 bin/ycsb`. */
  command: string;
}

/** The candidates in order of preference; only the plan's when it names one. */
export function launcherCandidates(client: ResolvedClient): YcsbLauncher[] {
  if (client.ycsbCommand !== undefined) return [{ kind: 'plan', command: client.ycsbCommand }];
  return [
    { kind: 'python2', command: 'python2 bin/ycsb' },
    { kind: 'ycsb.sh', command: 'bin/ycsb.sh' },
  ];
}

/**
 * The shell words that start YCSB with the launcher: `-jvm-args=` for bin/ycsb, JAVA_OPTS for the
 * others. `args` are already quoted words (`PHASE BINDING ...`).
 */
export function launchCommand(
  launcher: YcsbLauncher,
  javaOptions: string | undefined,
  args: string,
): { env: string; command: string } {
  if (launcher.kind === 'python2') {
    const jvm = javaOptions !== undefined ? ` ${shellQuote(`-jvm-args=${javaOptions}`)}` : '';
    // bin/ycsb reads its own options anywhere after "command database"
    const [phase, binding, ...rest] = args.split(' ');
    return {
      env: '',
      command: `${launcher.command} ${phase} ${binding}${jvm}${rest.length > 0 ? ` ${rest.join(' ')}` : ''}`,
    };
  }
  return {
    env: javaOptions !== undefined ? `JAVA_OPTS=${shellQuote(javaOptions)} ` : '',
    command: `${launcher.command} ${args}`,
  };
}

export interface LauncherProbe {
  launcher?: YcsbLauncher;
  /** What each candidate did, for the pre-flight detail. */
  tried: { launcher: YcsbLauncher; ok: boolean; detail: string }[];
}

/** What couchbase2's init says to `couchbase.persistTo=9`, before it connects (Couchbase2Client.parsePersistTo). */
const bindingLoaded = /"couchbase\.persistTo" must be between 0 and 4/;

/** The probe script of one candidate: runs it for real, stopping before any connection. */
export function probeScript(client: ResolvedClient, launcher: YcsbLauncher): string {
  const guard =
    launcher.kind === 'python2'
      ? 'command -v python2 >/dev/null 2>&1 || { echo "python2 is not on the PATH" >&2; exit 127; }; '
      : launcher.kind === 'ycsb.sh'
        ? '[ -x bin/ycsb.sh ] || { echo "no executable bin/ycsb.sh" >&2; exit 127; }; '
        : '';
  const probe =
    client.binding === 'couchbase2'
      ? `${launcher.command} shell couchbase2 -p couchbase.persistTo=9 < /dev/null 2>&1`
      : `echo quit | ${launcher.command} shell basic 2>&1`;
  return `cd ${shellQuote(client.ycsbHome)} && ${guard}${probe}`;
}

/** Whether a probe's output shows YCSB's client running (couchbase2: its binding loaded too). */
export function probeWorked(binding: string, exitCode: number, output: string): boolean {
  if (exitCode !== 0) return false;
  return binding === 'couchbase2' ? bindingLoaded.test(output) : /YCSB Command Line [Cc]lient/.test(output);
}

/** The lines of a failed probe worth showing: the error, not the banner or the java command line. */
function probeFailure(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const telling = lines.filter(
    (line) => /error|exception|not found|no such|denied|cannot|invalid|syntax/i.test(line) && !line.startsWith('at '),
  );
  return (telling.length > 0 ? telling : lines).slice(-2).join(' | ');
}

export async function chooseLauncher(
  session: RemoteSession,
  client: ResolvedClient,
  signal?: AbortSignal,
): Promise<LauncherProbe> {
  const tried: LauncherProbe['tried'] = [];
  for (const launcher of launcherCandidates(client)) {
    const result = await session.run(probeScript(client, launcher), {
      step: 'preflight',
      timeoutMs: 60_000,
      ...(signal ? { signal } : {}),
    });
    const output = `${result.stdout}\n${result.stderr}`;
    const ok = probeWorked(client.binding, result.exitCode, output);
    const failure = ok ? '' : probeFailure(output);
    tried.push({ launcher, ok, detail: ok ? 'works' : `exit ${result.exitCode}: ${failure || '(no output)'}` });
    if (ok) return { launcher, tried };
  }
  return { tried };
}

export function noLauncherError(host: string, client: ResolvedClient, probe: LauncherProbe): EngineFailure {
  const tried = probe.tried.map((entry) => `${entry.launcher.command}: ${entry.detail}`).join('; ');
  return new EngineFailure({
    code: 'ycsb-launcher',
    host,
    step: 'preflight',
    message: `No YCSB launcher works in ${client.ycsbHome} on ${host} (${tried}).`,
    action: `Install Python 2 (bin/ycsb of YCSB 0.17.0 needs it) or make bin/ycsb.sh executable, or set clients[].ycsbCommand to a command that starts YCSB; install Java and the ${client.binding} binding's jars (${client.binding}-binding/lib) in ycsbHome.`,
  });
}
