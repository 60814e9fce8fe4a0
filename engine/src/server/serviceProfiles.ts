// Where the Onload arm's profiles live on a server, so that the process reading them can.
// Through the service (serviceDropIn.ts) `onload --profile=FILE` runs as the unit's User
// (couchbase, REAL-LAB C1), and Onload's launcher tests the file with `[ -f ]` and sources it with
// `.` (Xilinx-CNS/onload scripts/onload, onload_import): a profile in the SSH user's work folder
// (home folders are 0700 or 0750 on current distributions, uploads are 0600) is "not found" (exit
// 3) or cannot be opened, and the arm never starts. So the service's profiles are uploaded into the
// work folder's `profiles/service/` (a staging copy, the SSH user's only) and installed, with the
// drop-in and by the same `sudo -n`, root-owned and world-readable into `onload-bench-profiles/`
// beside the drop-in (systemd reads only `*.conf` there); they are removed with the drop-in.
// Foreground starts read the work folder directly: as the SSH user, or as the user their command
// switches to, whom foregroundProfileReach.ts warns about when a folder on the way is closed.
import type { ResolvedServer } from '../plan/planSchema';
import { shellQuote } from '../remote/shellQuote';
import { remoteProfilePath } from '../remote/workFolder';

export const serviceProfilesFolderName = 'onload-bench-profiles';

/** The folder the service's user reads profiles from (root-owned, 755/644). */
export function serviceProfileDir(server: ResolvedServer): string {
  return `${server.serviceDropInDir}/${serviceProfilesFolderName}`;
}

/** The staging copy in the SSH user's work folder, mirroring serviceProfileDir's layout. */
export function serviceProfileStagingDir(server: ResolvedServer): string {
  return `${server.workDir}/profiles/service`;
}

/** The path `onload --profile=` gets for a stack on this server. */
export function serverProfilePath(server: ResolvedServer, stackName: string): string {
  return server.serverStart === 'service'
    ? `${serviceProfileDir(server)}/${stackName}.opf`
    : remoteProfilePath(server.workDir, stackName);
}

/**
 * Where a file meant for `remotePath` is uploaded: in service mode its staging copy (same path
 * below the staging folder), otherwise the path itself. Pure.
 */
export function uploadPathFor(server: ResolvedServer, remotePath: string): string {
  const installed = `${serviceProfileDir(server)}/`;
  return server.serverStart === 'service' && remotePath.startsWith(installed)
    ? `${serviceProfileStagingDir(server)}/${remotePath.slice(installed.length)}`
    : remotePath;
}

/**
 * Replaces the installed profiles by the staging copies: every file with `install -D -m 644`
 * (root-owned, parents 755), so the service's user can read what the SSH user uploaded. Only
 * `install` and `rm` under `sudo -n`, as for the drop-in.
 */
export function installServiceProfilesScript(server: ResolvedServer): string {
  const target = shellQuote(serviceProfileDir(server));
  return [
    `cd ${shellQuote(serviceProfileStagingDir(server))}`,
    `sudo -n rm -rf -- ${target}`,
    `find . -type f | { while IFS= read -r f; do sudo -n install -D -m 644 "$f" ${target}/"\${f#./}" || exit 1; done; }`,
  ].join(' && ');
}

/** Removes the installed profiles if there (exit 0 either way). */
export function removeServiceProfilesScript(server: ResolvedServer): string {
  const target = shellQuote(serviceProfileDir(server));
  return `if [ -e ${target} ]; then sudo -n rm -rf -- ${target}; fi`;
}
