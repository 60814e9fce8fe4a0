// The real YCSB 0.17.0 for the lab's client hosts: the release that scripts/ycsb-release.sh
// assembles once into the tools cache (read-only, shareable or bind-mountable as it is), a real
// Python 2.7 for `bin/ycsb` when a test asks for one, and the JVM options that point the couchbase2
// binding's Java SDK 2.3.1 at the test node's ports.
// Why: the engine has to be tested against the YCSB a lab runs, not against the project's idea of
// it (issue 20). Only what a lab host would differ in is chosen here: whether it has Python 2.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');
let home: string | undefined;

/**
 * The assembled YCSB home (`bin/`, `lib/`, `couchbase2-binding/lib/`, `workloads/`), assembling it
 * first if the cache is cold (about 15 s, then a checksum pass of ~0.1 s per process).
 */
export function ycsbReleaseHome(): string {
  if (home) return home;
  let printed: string;
  try {
    printed = execFileSync('bash', [join(repoRoot, 'scripts', 'ycsb-release.sh'), '--print-home'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(
      `lab: the real YCSB could not be assembled (scripts/ycsb-release.sh):\n${output.stderr ?? ''}${output.stdout ?? ''}`,
      { cause: error },
    );
  }
  home = printed.trim().split('\n').pop() ?? '';
  if (!existsSync(join(home, 'bin', 'ycsb.sh')))
    throw new Error(`lab: scripts/ycsb-release.sh printed ${home}, which holds no bin/ycsb.sh`);
  return home;
}

/**
 * A real Python 2.7 on this machine, or undefined: Debian 12 has none (REAL-LAB Y4); the project's
 * machines carry one under pyenv. Looked for as `python2.7` in the usual places.
 */
export function python27(): string | undefined {
  const candidates = ['/usr/bin/python2.7', '/usr/local/bin/python2.7'];
  const pyenv = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
  if (existsSync(pyenv)) {
    for (const version of readdirSync(pyenv)
      .filter((name) => name.startsWith('2.7'))
      .sort()
      .reverse())
      candidates.push(join(pyenv, version, 'bin', 'python2.7'));
  }
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Where the lab's client hosts see the release and its extras (read-only binds, test/lab/index.ts). */
export const hostYcsbHome = '/opt/ycsb';
export const hostYcsbExtras = '/opt/ycsb-extras';

/** The folder beside the release that holds what a lab user adds (not in the release). */
export function ycsbExtrasHome(): string {
  return `${ycsbReleaseHome()}-extras`;
}

/** The JAXB API jar scripts/ycsb-release.sh keeps beside the release, as the client hosts see it. */
export function jaxbApiJar(): string {
  return join(hostYcsbExtras, 'jaxb-api-2.3.1.jar');
}

/**
 * JVM options for couchbase2 on the lab's client hosts: its Java SDK bootstraps on 11210 and 8091,
 * and reads other ports only from these system properties (core-io 1.3.1 DefaultCoreEnvironment);
 * the lab's node listens on the real ports (each host has its own network namespace), so they only
 * say so explicitly. With `hdrLogs` (the default)
 * also the JAXB API on the boot class path, as pre-flight advises a user on Java 11+: YCSB's
 * HdrHistogram 2.1.4 needs it to write interval logs (engine/src/ycsb/ycsbHdrSupport.ts).
 */
export function labJavaOptions(kvPort: number, restPort: number, options: { hdrLogs?: boolean } = {}): string {
  const ports = `-Dcom.couchbase.bootstrapCarrierDirectPort=${kvPort} -Dcom.couchbase.bootstrapHttpDirectPort=${restPort}`;
  return options.hdrLogs === false ? ports : `${ports} -Xbootclasspath/a:${jaxbApiJar()}`;
}
