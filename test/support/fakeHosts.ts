// Scriptable fake hosts for tests that run the engine without SSH: each `RemoteSession` answers the
// engine's scripts as a well-behaved real lab host does (the text the real tools print, the same as
// the lab's stand-ins in test/lab/), records every command and upload, and lets a test answer or
// fail chosen commands (`answer`, `ycsb`). What is simulated, with its source:
//   - the environment scripts (environment.ts): one `@tag value` line per line of the script,
//     empty values where a real host prints nothing (no VERSION file in YCSB 0.17.0's release);
//   - the work folder (workFolder.ts): owned by the SSH user (uid 1000), mode 700, in a 0700 home;
//   - the host lock (remoteLock.ts): flock takes it (`@locked`) and holds it until the run ends;
//   - the YCSB launcher probe (ycsbLauncher.ts, REAL-LAB Y4, Y9): the couchbase2 shell prints its
//     banner and Couchbase2Client.init's refusal of persistTo=9 (exit 0), as the real 0.17.0 does;
//     `quit` to the basic shell ends it cleanly;
//   - the HDR log probe (ycsbHdrSupport.ts): the one-record BasicDB load leaves INSERT.hdr, as YCSB
//     on Java 8 does (on Java 11+ it cannot: the lab's real YCSB shows that side);
//   - the systemd unit (serviceDropIn.ts, REAL-LAB C1/H3/H4): `systemctl show -p ExecStart` in
//     systemd's record format with Couchbase's own unit command line, or, once the drop-in is
//     installed, with the drop-in's (as systemd reports it after daemon-reload); the drop-in and the
//     `onload-bench-profiles` folder (serviceProfiles.ts) installed and removed by their scripts
//     (`@removed` only when the drop-in was there);
//   - YCSB 0.17.0 phases (`... & wait $!`): the client's stderr banner, one status line, and a report
//     whose operations are all Return=OK.
// Any other command succeeds with no output.
import type { Plan } from '../../engine/src/plan/planSchema';
import type { RemoteResult, RemoteRunOptions, RemoteSession } from '../../engine/src/remote/ssh';

/** A command run on a host, or an upload (`command` is then `upload PATH mode MODE`, `stdin` the content). */
export interface FakeCall {
  host: string;
  command: string;
  stdin?: string;
  step: string;
}

/** One YCSB phase as the engine started it. */
export interface YcsbInvocation {
  host: string;
  phase: 'load' | 'run';
  threads: number;
  command: string;
  options: RemoteRunOptions;
}

export interface FakeHostsOptions {
  /**
   * Answers a command before the defaults (throw to fail as ssh does); undefined falls through to
   * the well-behaved host's answer.
   */
  answer?: (
    command: string,
    host: string,
    options: RemoteRunOptions,
  ) => RemoteResult | undefined | Promise<RemoteResult | undefined>;
  /** Answers a YCSB phase before the default report (throw to fail as ssh does). */
  ycsb?: (invocation: YcsbInvocation) => RemoteResult | undefined;
}

export const fakeWorkDir = '/home/u/.onload-bench';
export const fakeVersions = {
  kernel: '6.1.0-18-amd64',
  couchbase: '7.6.2-3721',
  onload: 'Onload 8.1.2.26',
  java: 'openjdk version "17.0.9" 2023-10-17',
  ycsb: '0.17.0',
};

/** YCSB's workload a made small: 100 records, 100 reads. */
export const fakeWorkload =
  'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=100\noperationcount=100\nreadproportion=1\nupdateproportion=0\n';

/**
 * A plan for these hosts: server `srv` (127.0.0.1, interface 25G at 10.0.0.1), client `cli` with
 * YCSB in /opt/ycsb, the workload file `workloada` beside the plan, the kernel arm at 1 and 2 threads.
 */
export function fakeHostsPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    servers: [{ host: 'srv', address: '127.0.0.1', restPort: 9 }],
    interfaces: { '25G': '10.0.0.1' },
    clients: [{ host: 'cli', ycsbHome: '/opt/ycsb' }],
    bucket: { name: 'bench' },
    workload: { path: 'workloada' },
    stacks: ['kernel'],
    threads: [1, 2],
    ...overrides,
  };
}

export function ok(stdout: string, stderr = ''): RemoteResult {
  return { exitCode: 0, stdout, stderr };
}

/** YCSB's report for a phase (stdout): all operations OK. */
export function ycsbReport(phase: 'load' | 'run', operations = 100, throughput = phase === 'load' ? 200 : 100): string {
  const runTime = Math.round((operations / throughput) * 1000);
  const [name, latency] = phase === 'load' ? ['INSERT', 300] : ['READ', 250];
  return [
    `[OVERALL], RunTime(ms), ${runTime}`,
    `[OVERALL], Throughput(ops/sec), ${javaDouble(throughput)}`,
    `[${name}], Operations, ${operations}`,
    `[${name}], AverageLatency(us), ${javaDouble(latency)}`,
    `[${name}], 99thPercentileLatency(us), 900`,
    `[${name}], Return=OK, ${operations}`,
    '',
  ].join('\n');
}

/** What YCSB 0.17.0's Client prints on stderr before its status lines (stand-in ycsb.ts). */
export const ycsbBanner = `YCSB Client ${fakeVersions.ycsb}\n\nLoading workload...\nStarting test.\n`;

/** The default answer to a YCSB phase: a status line (streamed, as the real client's), then the report. */
export function ycsbPhaseResult(invocation: YcsbInvocation, report = ycsbReport(invocation.phase)): RemoteResult {
  const status = '2026-01-01 00:00:00:000 1 sec: 50 operations; 50 current ops/sec; ';
  invocation.options.onStderrLine?.(status);
  return { exitCode: 0, stdout: report, stderr: `${ycsbBanner}${status}\n` };
}

export class FakeHosts {
  readonly calls: FakeCall[] = [];
  private readonly dropIns = new Set<string>();
  private readonly serviceProfiles = new Map<string, string[]>();

  constructor(private readonly options: FakeHostsOptions = {}) {}

  /** For `runSweep`'s `sessionFactory`. */
  readonly sessionFactory = (host: string): RemoteSession => this.session(host);

  /** Whether the Onload drop-in is installed on `host` now. */
  dropInInstalled(host: string): boolean {
    return this.dropIns.has(host);
  }

  /** The profiles installed into `onload-bench-profiles/` on `host` (relative names), from the staging uploads. */
  installedProfiles(host: string): string[] {
    return this.serviceProfiles.get(host) ?? [];
  }

  uploads(): FakeCall[] {
    return this.calls.filter((call) => call.command.startsWith('upload '));
  }

  session(host: string): RemoteSession {
    return {
      host,
      run: (command, options) => this.run(host, command, options),
      upload: async (path, content, options) => {
        this.calls.push({
          host,
          command: `upload ${path} mode ${options.mode}`,
          stdin: String(content),
          step: options.step,
        });
      },
      close: async () => undefined,
    };
  }

  private async run(host: string, command: string, options: RemoteRunOptions): Promise<RemoteResult> {
    this.calls.push({
      host,
      command,
      step: options.step,
      ...(options.stdin !== undefined ? { stdin: String(options.stdin) } : {}),
    });
    const scripted = await this.options.answer?.(command, host, options);
    if (scripted) return scripted;
    const ycsb = ycsbInvocation(host, command, options);
    if (ycsb) return this.options.ycsb?.(ycsb) ?? ycsbPhaseResult(ycsb);
    if (command.includes('echo "@kernel')) return ok(environmentFacts(command));
    if (command.includes('&& pwd'))
      return ok(`@me 1000\n@dir 1000 700\n@up 1000 700 /home/u\n@up 0 755 /home\n@up 0 755 /\n${fakeWorkDir}\n`);
    if (command.includes('echo @locked')) return holdLock(options);
    if (command.includes(' shell couchbase2 -p couchbase.persistTo=9 ')) {
      return ok(
        'YCSB Command Line client\nType "help" for command line help\nStart with "-help" for usage info\nsite.ycsb.DBException: "couchbase.persistTo" must be between 0 and 4\n\tat site.ycsb.db.couchbase2.Couchbase2Client.parsePersistTo(Couchbase2Client.java:845)\n',
      );
    }
    if (/echo quit \| .* shell basic/.test(command))
      return ok(
        'YCSB Command Line client\nType "help" for command line help\nStart with "-help" for usage info\nConnected.\n> ',
      );
    if (command.includes('hdrhistogram.fileoutput=true') && command.includes(' load basic '))
      return ok('YCSB Client 0.17.0\n[INSERT], Return=OK, 1\nINSERT.hdr\nout\n');
    // the removal of an old drop-in comes first when one script also reads the unit (unitFactsScript)
    let removed = '';
    if (command.includes('onload-bench.conf') && command.includes('rm -f')) {
      this.serviceProfiles.delete(host);
      if (this.dropIns.delete(host)) removed = '@removed\n';
      if (!command.includes('systemctl show')) return ok(removed);
    }
    if (command.includes('systemctl show -p ExecStart')) {
      const argv = this.dropIns.has(host)
        ? this.dropInArgv(host)
        : '/opt/couchbase/bin/couchbase-server -- -kernel global_enable_tracing false -noinput';
      const onload = command.includes('command -v onload') ? '@onload /usr/bin/onload\n' : '';
      return ok(
        `${removed}${onload}ExecStart={ path=${argv.split(' ')[0]} ; argv[]=${argv} ; ignore_errors=no ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }\n`,
      );
    }
    if (command.includes('onload-bench.conf') && command.includes('install -m')) {
      this.dropIns.add(host);
      const staged = this.uploads()
        .filter((call) => call.host === host)
        .map((call) => /\/profiles\/service\/(\S+) mode /.exec(call.command)?.[1])
        .filter((name) => name !== undefined);
      this.serviceProfiles.set(host, [...new Set(staged)]);
      return ok('');
    }
    return ok('');
  }

  /** The installed drop-in's start command as `systemctl show` prints it: words unquoted, `%%` as `%`. */
  private dropInArgv(host: string): string {
    const staged =
      this.uploads()
        .filter(
          (call) =>
            call.host === host &&
            call.command.startsWith('upload ') &&
            / \S*onload-bench\.conf mode /.test(call.command),
        )
        .at(-1)?.stdin ?? '';
    const line =
      staged
        .split('\n')
        .filter((text) => text.startsWith('ExecStart=') && text !== 'ExecStart=')
        .at(-1) ?? '';
    return line.slice('ExecStart='.length).replace(/"/g, '').replace(/%%/g, '%').replace(/\$\$/g, '$');
  }
}

function ycsbInvocation(host: string, command: string, options: RemoteRunOptions): YcsbInvocation | undefined {
  // `cd HOME && exec LAUNCHER PHASE BINDING ... -threads N -s` in the background (ycsbRun.ts)
  const match = / (load|run) (\S+) .*-threads (\d+) -s\b/.exec(command);
  if (!command.includes('& wait $!') || !match) return undefined;
  return { host, phase: match[1] as 'load' | 'run', threads: Number(match[3]), command, options };
}

/** Answers an environment script (serverFactsScript or clientFactsScript) tag by tag. */
function environmentFacts(script: string): string {
  const facts: Record<string, string> = {
    kernel: fakeVersions.kernel,
    couchbase: fakeVersions.couchbase,
    'couchbase-binary': 'yes',
    onload: fakeVersions.onload,
    'onload-binary': 'yes',
    java: fakeVersions.java,
    'java-binary': 'yes',
    'ycsb-binary': 'yes',
    ycsb: fakeVersions.ycsb,
    'ycsb-version-file': '',
    'ycsb-folder': fakeVersions.ycsb,
  };
  const lines: string[] = [];
  for (const match of script.matchAll(/echo "@([a-z-]+)(?: ([^"$]*))?/g)) {
    const [, tag, literal] = match;
    if (tag === 'iface') {
      const address = literal?.split(' ')[0] ?? '';
      lines.push(`@iface ${address} device=eth${lines.filter((line) => line.startsWith('@iface ')).length}`);
    } else if (tag in facts && !lines.some((line) => line.startsWith(`@${tag} `))) {
      lines.push(`@${tag} ${facts[tag]}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** flock took the lock: `@locked`, then held (heartbeats) until the engine ends the session. */
function holdLock(options: RemoteRunOptions): Promise<RemoteResult> {
  options.onStdoutLine?.('@locked');
  return new Promise((resolve) => {
    const end = (): void => resolve({ exitCode: 143, stdout: '@locked\n@held\n', stderr: '' });
    if (!options.signal || options.signal.aborted) end();
    else options.signal.addEventListener('abort', end, { once: true });
  });
}

/** Java's Double.toString for the small values used here: `200.0`, `1234.5`. */
function javaDouble(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}
