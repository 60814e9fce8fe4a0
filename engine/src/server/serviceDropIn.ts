// The Onload arm through the same systemd service as the kernel arm (REAL-LAB C1, H3): a temporary
// drop-in replaces the unit's ExecStart by the same command line behind `onload --profile=...`, so
// user, limits (LimitNOFILE, LimitMEMLOCK) and cgroup stay the unit's. Started by hand instead,
// couchbase-server refuses another user's data folder, or leaves root-owned files behind (C1).
// The drop-in, and the profiles it names (serviceProfiles.ts: readable by the unit's user), are
// removed (daemon-reload) after the arm, on cancel, and at the next run's start when a crash left
// them behind. Commands run with `sudo -n`; refusals are explained (H2).
// systemd judges the result (REAL-LAB H4): after a drop-in is loaded, `systemctl show -p ExecStart`
// reports the drop-in's command, so a drop-in left by the previous Onload arm (stack A then B, a
// retried cell, every-cell restarts) is removed before the unit's command is read, or B would wrap
// A's wrapper; and drop-ins apply in file-name order, so after daemon-reload the effective start
// command is read back and the arm refused, naming the drop-in that overrides ours, when it is not
// the one we wrote.
import { EngineFailure } from '../errors';
import type { ResolvedServer } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';
import { sudoProblem } from '../remote/sudoProblems';
import { installServiceProfilesScript, removeServiceProfilesScript } from './serviceProfiles';

export const dropInFileName = 'onload-bench.conf';

export function dropInPath(server: ResolvedServer): string {
  return `${server.serviceDropInDir}/${dropInFileName}`;
}

/**
 * The unit's start command from `systemctl show -p ExecStart UNIT`:
 * `ExecStart={ path=/opt/couchbase/bin/couchbase-server ; argv[]=/opt/couchbase/bin/couchbase-server -- -noinput ; ...
 * }`.
 * (Plain `show -p`, not `--value`, which systemd 219 of RHEL 7 lacks.) Pure.
 */
export function parseExecStart(output: string): string[] | undefined {
  const match = /argv\[\]=(.*?) ;/.exec(output);
  if (!match) return undefined;
  const argv = match[1]
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  return argv.length > 0 ? argv : undefined;
}

/** One word of a unit file's command line: quoted when needed, `%` and `$` escaped. Pure. */
export function unitWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /[\s"'\\;]/.test(escaped) ? `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : escaped;
}

/** The drop-in's text: ExecStart reset, then the unit's own command behind onload. Pure. */
export function dropInText(onloadPath: string, profileRemotePath: string, execStart: string[]): string {
  const command = [onloadPath, `--profile=${profileRemotePath}`, ...execStart].map(unitWord).join(' ');
  return [
    '# Written by Onload Bench for the Onload arm of a benchmark; removed after the arm.',
    '# Same unit, user, limits and cgroup as the kernel arm; only the start command differs.',
    '[Service]',
    'ExecStart=',
    `ExecStart=${command}`,
    '',
  ].join('\n');
}

/**
 * Script that first removes a drop-in of ours left by an earlier Onload arm (so systemd reports the
 * unit's own start command, not that arm's wrapper), then prints `@onload PATH` and the unit's
 * `ExecStart=` line. Exits non-zero only when the removal fails.
 */
export function unitFactsScript(server: ResolvedServer): string {
  return [
    `(${removeDropInScript(server)}) || exit $?`,
    `echo "@onload $(command -v onload 2>/dev/null)"`,
    `systemctl show -p ExecStart ${shellQuote(server.serviceName)} 2>&1`,
    'exit 0',
  ].join('\n');
}

/**
 * Script printing, after a daemon-reload, the unit's effective `ExecStart=` and `@sets FILE` for
 * every drop-in in effect that has an `ExecStart=` line (plain `show -p`, as systemd 219 has it).
 */
export function effectiveStartScript(server: ResolvedServer): string {
  const unit = shellQuote(server.serviceName);
  return [
    `systemctl show -p ExecStart ${unit} 2>&1`,
    `for f in $(systemctl show -p DropInPaths ${unit} 2>/dev/null | sed 's/^DropInPaths=//'); do`,
    `  if grep -qs '^[[:space:]]*ExecStart[[:space:]]*=' "$f"; then echo "@sets $f"; fi`,
    'done',
    'exit 0',
  ].join('\n');
}

/** The drop-ins other than ours that set ExecStart= (from effectiveStartScript's output). Pure. */
export function otherExecStartDropIns(output: string, ours: string): string[] {
  return [...output.matchAll(/^@sets (.+)$/gm)].map((match) => match[1].trim()).filter((file) => file !== ours);
}

/**
 * Whether systemd's effective argv (as `show` prints it: words unquoted and unescaped, so split at
 * spaces) is the command our drop-in sets, given as its words before unit-file quoting. Pure.
 */
export function isOurCommand(effective: string[] | undefined, words: string[]): boolean {
  const flat = (list: string[]): string => list.join(' ').split(/\s+/).filter(Boolean).join(' ');
  return effective !== undefined && flat(effective) === flat(words);
}

function sudoFailure(
  session: RemoteSession,
  step: string,
  what: string,
  stderr: string,
  exitCode: number,
): EngineFailure {
  const problem = sudoProblem(stderr);
  return new EngineFailure({
    code: 'server-start',
    host: session.host,
    step,
    message: `${what} failed (exit ${exitCode}): ${problem ? problem.explanation : stderr.trim().split('\n').slice(-3).join(' | ') || '(no output)'}`,
    action: problem
      ? problem.action
      : 'The SSH user needs sudo -n rights for install, rm and systemctl daemon-reload on this host; or set serverStart to "foreground" in the plan.',
  });
}

/**
 * The commands that install the drop-in from `stagedPath` (already uploaded), with the profiles
 * the service's user must read (serviceProfiles.ts), and reload systemd.
 */
export function installDropInScript(server: ResolvedServer, stagedPath: string): string {
  return `sudo -n mkdir -p ${shellQuote(server.serviceDropInDir)} && (${installServiceProfilesScript(server)}) && sudo -n install -m 644 ${shellQuote(stagedPath)} ${shellQuote(dropInPath(server))} && sudo -n systemctl daemon-reload`;
}

/** Removes the drop-in and its profiles if there (exit 0 either way; prints `@removed` when the drop-in was). */
export function removeDropInScript(server: ResolvedServer): string {
  const path = shellQuote(dropInPath(server));
  return `${removeServiceProfilesScript(server)} && if [ -e ${path} ]; then sudo -n rm -f ${path} && sudo -n systemctl daemon-reload && echo "@removed"; fi`;
}

/**
 * Installs the drop-in for `profileRemotePath` (after removing one left by an earlier arm) and
 * proves that systemd now starts the unit with its command; returns its text for the cell's evidence.
 */
export async function installDropIn(
  session: RemoteSession,
  server: ResolvedServer,
  profileRemotePath: string,
  signal?: AbortSignal,
): Promise<{ text: string; command: string }> {
  const step = 'start-server';
  const options = { step, ...(signal ? { signal } : {}) };
  const facts = await session.run(unitFactsScript(server), { ...options, timeoutMs: 120_000 });
  if (facts.exitCode !== 0)
    throw sudoFailure(
      session,
      step,
      `Removing ${dropInPath(server)} left by the previous Onload arm`,
      facts.stderr,
      facts.exitCode,
    );
  const onloadPath = /^@onload (\/\S+)$/m.exec(facts.stdout)?.[1] ?? '/usr/bin/onload';
  const execStart = parseExecStart(facts.stdout);
  if (!execStart) {
    throw new EngineFailure({
      code: 'server-start',
      host: session.host,
      step,
      message: `Cannot read the start command of ${server.serviceName}.service ("systemctl show -p ExecStart" printed: ${
        facts.stdout
          .replace(/^@onload.*\n?/m, '')
          .trim()
          .slice(0, 200) || 'nothing'
      }).`,
      action: `Check the unit name (plan: serviceName), or set serverStart to "foreground" on hosts without systemd.`,
    });
  }
  const text = dropInText(onloadPath, profileRemotePath, execStart);
  const words = [onloadPath, `--profile=${profileRemotePath}`, ...execStart];
  const staged = `${server.workDir}/${dropInFileName}`;
  await session.upload(staged, text, { step, mode: '644', ...(signal ? { signal } : {}) });
  const result = await session.run(installDropInScript(server, staged), { ...options, timeoutMs: 120_000 });
  if (result.exitCode !== 0)
    throw sudoFailure(session, step, `Installing ${dropInPath(server)}`, result.stderr, result.exitCode);
  const command = /^ExecStart=(.+)$/m.exec(text.split('ExecStart=\n')[1] ?? '')?.[1] ?? '';
  // what systemd will really run: ours, unless a drop-in later in file-name order sets ExecStart= too
  const check = await session.run(effectiveStartScript(server), options);
  const effective = parseExecStart(check.stdout);
  if (!isOurCommand(effective, words)) {
    const others = otherExecStartDropIns(check.stdout, dropInPath(server));
    await removeDropIn(session, server, step, signal).catch(() => undefined);
    const named = others.join(', ');
    throw new EngineFailure({
      code: 'server-start',
      host: session.host,
      step,
      message: `After installing ${dropInPath(server)} and daemon-reload, systemd starts ${server.serviceName}.service with "${effective?.join(' ') ?? 'no ExecStart'}", not the Onload arm's command: ${others.length > 0 ? `${named} ${others.length === 1 ? 'sets' : 'set'} ExecStart= too and ${others.length === 1 ? 'comes' : 'come'} later (drop-ins apply in file-name order)` : 'another unit setting overrides the drop-in'}. The Onload arm would have run on the kernel stack.`,
      action:
        others.length > 0
          ? `On ${session.host}, remove ${named} or move its ExecStart= into a drop-in named before ${dropInFileName} (then systemctl daemon-reload); the Onload arm wraps whatever the unit starts. Or set serverStart to "foreground" in the plan.`
          : `Check "systemctl cat ${server.serviceName}" on ${session.host}; or set serverStart to "foreground" in the plan.`,
    });
  }
  return { text, command };
}

/** Removes the drop-in when present; returns whether there was one. */
export async function removeDropIn(
  session: RemoteSession,
  server: ResolvedServer,
  step: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const result = await session.run(removeDropInScript(server), {
    step,
    ...(signal ? { signal } : {}),
    timeoutMs: 120_000,
  });
  if (result.exitCode !== 0)
    throw sudoFailure(session, step, `Removing ${dropInPath(server)}`, result.stderr, result.exitCode);
  return /^@removed$/m.test(result.stdout);
}
