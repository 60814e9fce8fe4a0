// Whether YCSB can write its HDR interval logs on a client host (hdrhistogram.fileoutput, read by
// cellEvidence.ts for the run's merged percentiles). YCSB 0.17.0 ships HdrHistogram 2.1.4, whose
// log writer base64-encodes each interval with javax.xml.bind.DatatypeConverter: Java 11 and later
// have no javax.xml.bind, so on a current JRE the first interval throws NoClassDefFoundError in
// YCSB's threads and the run does no operation at all. Learnt from the real YCSB on Debian 12's
// OpenJDK 17. Pre-flight asks the client itself: a one-record load into YCSB's BasicDB
// with file output on, through the launcher the run will use and its JVM options (a JAXB API jar
// added with `-Xbootclasspath/a:` makes it work). Where it fails the run goes without the logs,
// and the cell's evidence and the pre-flight line say why.
import type { ResolvedClient } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';
import { launchCommand, type YcsbLauncher } from './ycsbLauncher';

export interface HdrSupport {
  ok: boolean;
  /** What the probe showed, for the pre-flight line and the cell's evidence. */
  detail: string;
}

/** The probe: a BasicDB load of one record with HDR file output into a scratch folder, then its file listed. */
export function hdrProbeScript(client: ResolvedClient, launcher: YcsbLauncher): string {
  const folder = '"$probe_dir"';
  const args = [
    'load',
    'basic',
    '-p',
    'workload=site.ycsb.workloads.CoreWorkload',
    '-p',
    'recordcount=1',
    '-p',
    'basicdb.verbose=false',
    '-p',
    'hdrhistogram.fileoutput=true',
    '-p',
    `hdrhistogram.output.path=${'$probe_dir'}/`,
    '-s',
  ];
  const { env, command } = launchCommand(
    launcher,
    client.javaOptions,
    args.map((arg) => (arg.includes('$probe_dir') ? `"${arg}"` : shellQuote(arg))).join(' '),
  );
  return [
    'probe_dir=$(mktemp -d) || exit 1',
    `cd ${shellQuote(client.ycsbHome)} && ${env}${command} > ${folder}/out 2>&1`,
    `cat ${folder}/out; ls ${folder}; rm -rf ${folder}`,
  ].join('\n');
}

/** The verdict on the probe's output: the INSERT log written and no class missing. */
export function judgeHdrProbe(output: string): HdrSupport {
  const missing = /NoClassDefFoundError: (javax\/xml\/bind\/\S+)/.exec(output);
  if (missing)
    return {
      ok: false,
      detail: `YCSB cannot write HDR interval logs here: its HdrHistogram 2.1.4 needs ${missing[1].replace(/\//g, '.')}, which this Java does not have (Java 11 and later)`,
    };
  if (/^INSERT\.hdr$/m.test(output)) return { ok: true, detail: 'YCSB writes HDR interval logs' };
  const last = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-2)
    .join(' | ');
  return { ok: false, detail: `YCSB wrote no HDR interval log in a test load (${last || 'no output'})` };
}

export async function probeHdrSupport(
  session: RemoteSession,
  client: ResolvedClient,
  launcher: YcsbLauncher,
  signal?: AbortSignal,
): Promise<HdrSupport> {
  const result = await session.run(hdrProbeScript(client, launcher), {
    step: 'preflight',
    timeoutMs: 60_000,
    ...(signal ? { signal } : {}),
  });
  return judgeHdrProbe(`${result.stdout}\n${result.stderr}`);
}

/** The next step when the logs cannot be written. */
export const hdrSupportAction =
  "Run YCSB on Java 8, or put a JAXB API jar on the JVM boot class path with the client's javaOptions (-Xbootclasspath/a:/path/to/jaxb-api-2.3.1.jar). Without the logs the run's percentiles come from YCSB's report alone.";
