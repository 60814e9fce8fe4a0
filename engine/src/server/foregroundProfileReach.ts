// A foreground Onload arm whose command switches user (`sudo -u couchbase`, `runuser`, `su`) reads
// `{profile}` from the SSH user's work folder as that other user. Onload's launcher tests the file
// with `[ -f ]` before sourcing it (Xilinx-CNS/onload scripts/onload, onload_import), so a folder on
// the way that others may not enter (a 0700 home on RHEL, 0750 on Ubuntu) makes the profile "not
// found" and the arm never starts. The service mode installs its profiles beside the drop-in
// instead (serviceProfiles.ts); this check warns the foreground mode before the first start.
import type { ResolvedServer } from '../plan/planSchema';

/** Whether a start command runs its program as another user. Pure; a heuristic, so it only warns. */
export function switchesUser(command: string): boolean {
  return (
    /\bsudo\b[^;&|]*\s(-u\s*|--user=?)\S+/.test(command) ||
    /\brunuser\b/.test(command) ||
    /(^|[\s;&|])su\s/.test(command)
  );
}

/** The warning for `server` when its Onload command switches user and `closedAt` stops others. Pure. */
export function foregroundProfileReachWarning(
  server: ResolvedServer,
  closedAt: string | undefined,
): string | undefined {
  if (server.serverStart !== 'foreground' || closedAt === undefined || !switchesUser(server.onloadRunCommand))
    return undefined;
  return (
    `${server.host}: onloadRunCommand runs as another user, who must read {profile} in ${server.workDir}/profiles, but other users may not enter ${closedAt}: ` +
    `Onload will report "Cannot find profile". Set workDir to a folder that user may enter (e.g. /var/tmp/onload-bench, mode 755), or use serverStart "service".`
  );
}
