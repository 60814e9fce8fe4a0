// "Show before doing": what a run would do, without connecting anywhere. The sweep's own code runs
// (host preparation, then the first cell of each stack) against recording sessions, so the listing
// is made by the same functions that build the real commands; steps that need the network (REST
// waits and proofs, the bucket lifecycle, the traffic watch) are listed where the sweep skips them.
// The password is `********` throughout: the recording run is given that as the password. The dry
// run refuses what the run refuses, before it reads or shows anything: files outside the plan's
// folder and the trusted ones (path confinement, the same policy as the run), and files that do not
// look like what they claim (the shape checks of the host preparation it runs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cellId, expandCells } from '../plan/cells';
import { toEngineError } from '../errors';
import type { CellKey } from '../model';
import { withDefaults, type Plan, type ResolvedPlan } from '../plan/planSchema';
import type { RemoteResult, RemoteRunOptions, RemoteSession } from '../remote/ssh';
import { runCell } from './cell';
import { cellSteps } from './cellSteps';
import { openPool, SweepRun } from './sweepRun';
import type { SweepSeams } from './sweepSeams';
import { readLocalFile } from '../plan/localFiles';
import { checkPlanPaths, resolveLocal } from '../plan/pathConfinement';
import type { RunSweepOptions } from '../options';
import { pathPolicyOf } from './runOpening';
import { effectiveWorkload, recordsToLoad, workloadScans } from '../ycsb/ycsbPhaseProperties';
import { describeCellBucket, describeSettleAfterLoad } from '../couchbase/cellBucket';
import { describeCellCluster } from '../couchbase/cellCluster';
import { planForCell } from '../plan/clusterSizes';

const shownPassword = '********';

/** A RemoteSession that records and answers every command with a plausible success. */
export class RecordingSession implements RemoteSession {
  constructor(
    readonly host: string,
    private readonly record: (host: string, text: string) => void,
    private readonly couchbaseServerPath: string,
  ) {}

  async run(command: string, options: RemoteRunOptions): Promise<RemoteResult> {
    // YCSB's generated bucket password is as secret as the admin's: both show as ********
    const stdin =
      options.stdin === undefined
        ? undefined
        : String(options.stdin).replace(/^(couchbase\.password=).*$/gm, `$1${shownPassword}`);
    this.record(
      this.host,
      `${options.step}: ${command}${stdin !== undefined ? `\n  with stdin:\n${indent(stdin, 4)}` : ''}`,
    );
    // the login folder is only known on the host: `/home/<user>` stands for it
    if (command.includes('&& pwd')) {
      const folder = /(?:^|&& )cd '?([^' ]+?)'? &&/.exec(command)?.[1] ?? '.';
      return ok(`${folder.startsWith('/') ? folder : `/home/<user>/${folder}`}\n`);
    }
    // the unit's start command is read on the host; shown here with the package's own (REAL-LAB C1)
    if (command.includes('systemctl show -p ExecStart'))
      return ok(
        `@onload /usr/bin/onload\nExecStart={ path=${this.couchbaseServerPath} ; argv[]=${this.couchbaseServerPath} -- -kernel global_enable_tracing false -noinput ; }\n`,
      );
    // a YCSB phase (remoteProcess.ts runInGroup): a minimal report so the cell goes on
    if (command.includes('& wait $!')) {
      options.onStderrLine?.('YCSB Client 0.17.0');
      // a load reports its whole slice inserted (ycsbVerdict.ts checks that), a run one read
      const inserts = / load /.test(command) ? sliceOf(command) : 0;
      const report =
        inserts > 0
          ? `[INSERT], Operations, ${inserts}\n[INSERT], Return=OK, ${inserts}\n`
          : '[READ], Operations, 1\n[READ], Return=OK, 1\n';
      return {
        exitCode: 0,
        stdout: `[OVERALL], RunTime(ms), 0\n[OVERALL], Throughput(ops/sec), 0\n${report}`,
        stderr: 'YCSB Client 0.17.0\n',
      };
    }
    return ok('');
  }

  async upload(remotePath: string, content: string | Buffer, options: { step: string; mode?: string }): Promise<void> {
    const text = String(content);
    const shown =
      remotePath.endsWith('.conf') || remotePath.endsWith('.opf') || text.length < 2000
        ? `:\n${indent(text.trimEnd(), 4)}`
        : ` (${text.length} bytes)`;
    this.record(this.host, `${options.step}: write ${remotePath} (mode ${options.mode ?? '600'})${shown}`);
  }

  async close(): Promise<void> {}
}

/** The records a load command inserts: its insertcount, else recordcount less insertstart (from its -p flags). */
function sliceOf(command: string): number {
  const property = (name: string): number | undefined => {
    const match = new RegExp(`-p ${name}=(\\d+)`).exec(command);
    return match ? Number(match[1]) : undefined;
  };
  return property('insertcount') ?? (property('recordcount') ?? 0) - (property('insertstart') ?? 0);
}

function ok(stdout: string): RemoteResult {
  return { exitCode: 0, stdout, stderr: '' };
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

/** What the edges pass: import folders and the path policy, as for a run (RunSweepOptions). */
export type DryRunOptions = Pick<
  RunSweepOptions,
  'profilePath' | 'allowedRoots' | 'trustedProfilePath' | 'allowOutsidePaths'
>;

/**
 * The listing, in order. `planPath` locates the workload and profiles (read locally, never sent).
 * A file the run would refuse is an EngineFailure (`path-outside`, `upload`), never shown.
 */
export async function dryRun(rawPlan: Plan, planPath: string, options: DryRunOptions = {}): Promise<string> {
  const plan = withDefaults(rawPlan);
  const planDir = dirname(planPath);
  checkPlanPaths(plan, planDir, pathPolicyOf(options));
  const lines: string[] = [
    `# Dry run of ${planPath}: nothing was connected or changed. Password shown as ${shownPassword}.`,
    '# Every remote command with its host, then each REST/SDK step, in the order a run takes them.',
    "# /home/<user> stands for the SSH user's login folder; pre-flight checks (which connect) are not shown.",
    '',
  ];
  const record = (host: string, text: string): void => {
    lines.push(`[${host}] ${text.split('\n').join('\n    ')}`);
  };
  const workload = await readLocalFile(resolveLocal(planDir, plan.workload.path));
  const workloadText = workload.ok ? workload.text : ''; // the preparation below refuses an unreadable one
  const listing = recordingSeams(
    plan,
    record,
    workloadScans(effectiveWorkload(workloadText, plan.workload.properties, {})),
  );
  const scratch = mkdtempSync(join(tmpdir(), 'ob-dry-'));
  const controller = new AbortController();
  const runOptions: RunSweepOptions = {
    planPath,
    plan: rawPlan,
    resultsRoot: scratch,
    password: shownPassword,
    signal: controller.signal,
    onEvent: () => undefined,
    ...options,
  };
  const run = new SweepRun({
    plan,
    planDir,
    runDir: scratch,
    options: runOptions,
    emit: (event) => {
      if (event.type === 'phase') lines.push(`## ${event.phase}`);
    },
    seams: listing.seams,
    pool: openPool(runOptions, listing.seams),
    // no pre-flight: the default launcher, HDR logs tried
    findings: { launchers: new Map(), hdrSupport: new Map() },
    profileSettings: {},
    earlier: [],
  });
  try {
    lines.push('## prepare hosts');
    await run.prepareHosts();
    for (const key of firstCells(plan)) {
      const id = cellId(key);
      lines.push('', `# first cell of stack ${groupOf(key)}: ${id}`);
      listing.expectItems(recordsToLoad(effectiveWorkload(workloadText, plan.workload.properties, key.axes)) ?? 0);
      const outcome = await runCell(cellSteps(run, { id, key, index: 0 }, 1, []));
      if ('failure' in outcome)
        lines.push(`# (the dry run stops this cell here: ${toEngineError(outcome.failure, 'dry-run').message})`);
    }
    lines.push('', '## after the last cell (and on cancel)');
    await run.restoreHosts(new Set());
  } finally {
    controller.abort();
    await run.pool.closeAll().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
  return `${lines.join('\n')}\n`;
}

/** The stack of a cell, and with cluster sizes its size: the dry run shows the first cell of each. */
function groupOf(key: CellKey): string {
  return key.clusterSize === undefined
    ? key.stack
    : `${key.stack} at ${key.clusterSize} node${key.clusterSize === 1 ? '' : 's'}`;
}

function firstCells(plan: ResolvedPlan): CellKey[] {
  const seen = new Set<string>();
  return expandCells(plan).filter((key) => {
    if (seen.has(groupOf(key))) return false;
    seen.add(groupOf(key));
    return true;
  });
}

/**
 * The seams that record instead of connecting: sessions that list each command, the bucket's and
 * the cluster's REST/SDK steps in words (cellBucket.ts, cellCluster.ts), listed where a run sends them.
 */
function recordingSeams(
  plan: ResolvedPlan,
  record: (host: string, text: string) => void,
  scans: boolean,
): { seams: SweepSeams; expectItems(count: number): void } {
  const first = plan.servers[0];
  let expected = 0;
  const seams: SweepSeams = {
    sessionFactory: (host) =>
      new RecordingSession(
        host,
        record,
        plan.servers.find((server) => server.host === host)?.couchbaseServerPath ??
          '/opt/couchbase/bin/couchbase-server',
      ),
    skipServerWait: true,
    skipped: (host, step) => record(host, step),
    bucket: {
      recreate: async (bucket) => {
        for (const line of describeCellBucket(first, bucket, scans, shownPassword)) record(first.host, line);
      },
      itemCount: async () => {
        for (const line of describeSettleAfterLoad(first, plan.bucket, expected, shownPassword, scans))
          record(first.host, line);
        return expected;
      },
    },
    // the resize and the spread of the bucket, listed in the order a run sends them
    cluster: {
      form: async (size) => {
        for (const line of describeCellCluster(plan, size, shownPassword).form) record(first.host, line);
        const cell = planForCell(plan, size);
        return {
          size,
          members: cell.servers.map((server) => ({
            host: server.host,
            hostname: `${server.address}:${server.restPort}`,
            services: [...server.services],
          })),
          replicas: { requested: plan.bucket.replicas, effective: cell.bucket.replicas },
          added: [],
          ejected: [],
          rebalance: { outcome: 'not needed' },
          balanced: true,
        };
      },
      spread: async () => {
        for (const line of describeCellCluster(plan, 1, shownPassword).spread) record(first.host, line);
        return {};
      },
    },
  };
  return { seams, expectItems: (count) => (expected = count) };
}
