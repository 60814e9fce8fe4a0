// The remote work folder receives the workload, profiles and (for one YCSB phase) the credentials
// file. If another user owns it or may write to it, they can swap those files or plant links, so
// the engine refuses it; a work folder under a folder everyone may write to (/tmp, /var/tmp) is
// allowed, since the folder itself is private, but named in a warning: anyone could have created
// it first, and the ownership check is what catches that. GNU stat (`-c`) as on the Linux hosts.
import { EngineFailure } from '../errors';
import { shellQuote } from './shellQuote';

/** Where a stack's profile is uploaded in a host's work folder (clients, foreground servers). */
export function remoteProfilePath(workDir: string, stackName: string): string {
  return `${workDir}/profiles/${stackName}.opf`;
}

/** Shell lines printing `@me UID`, `@dir UID MODE` of the current folder and `@up UID MODE PATH` per ancestor. */
export const workFolderFactsScript = `{ { printf '@me %s\\n' "$(id -u)"; stat -c '@dir %u %a' .; d=$(pwd -P); while [ "$d" != / ]; do d=$(dirname "$d"); stat -c '@up %u %a %n' "$d"; done; } 2>/dev/null || true; }`;

/** The command that creates the work folder, checks it and prints its absolute path last. */
export function prepareWorkFolderCommand(workDir: string): string {
  return `mkdir -p ${shellQuote(workDir)} && cd ${shellQuote(workDir)} && ${workFolderFactsScript} && pwd`;
}

export interface WorkFolderVerdict {
  /** Why the folder must not be used. */
  error?: string;
  /** Worth telling the user, not blocking. */
  warning?: string;
  /** The facts were missing (no GNU stat): nothing was checked. */
  unchecked?: boolean;
  /** The folder nearest / (the work folder or an ancestor) that other users may not enter (no `o+x`). */
  closedToOthersAt?: string;
}

/**
 * The folder nearest / that others may not enter: an ancestor (`@up` lines, nearest first) or the work folder. Pure.
 */
function closedToOthers(
  ancestors: readonly { mode: number; path: string }[],
  workDir: string,
  dirMode: number,
): string | undefined {
  const closed = [...ancestors].reverse().find((ancestor) => (ancestor.mode & 0o001) === 0);
  if (closed) return closed.path;
  return (dirMode & 0o001) === 0 ? workDir : undefined;
}

export function judgeWorkFolder(output: string, workDir: string): WorkFolderVerdict {
  const me = /^@me (\d+)$/m.exec(output)?.[1];
  const dir = /^@dir (\d+) ([0-7]+)$/m.exec(output);
  if (me === undefined || !dir) return { unchecked: true };
  const mode = Number.parseInt(dir[2], 8);
  if (dir[1] !== me)
    return {
      error: `The work folder ${workDir} belongs to uid ${dir[1]}, not to the SSH user (uid ${me}): that user could replace the files uploaded there.`,
    };
  if ((mode & 0o022) !== 0)
    return {
      error: `The work folder ${workDir} may be written by ${(mode & 0o002) !== 0 ? 'every user' : 'its group'} (mode ${dir[2]}): they could replace the files uploaded there.`,
    };
  const ancestors = [...output.matchAll(/^@up (\d+) ([0-7]+) (.+)$/gm)].map((entry) => ({
    mode: Number.parseInt(entry[2], 8),
    path: entry[3],
  }));
  const closed = closedToOthers(ancestors, workDir, mode);
  const reach = closed ? { closedToOthersAt: closed } : {};
  const shared = ancestors.find((ancestor) => (ancestor.mode & 0o002) !== 0);
  if (shared)
    return {
      ...reach,
      warning: `The work folder ${workDir} lies under ${shared.path}, which every user may write to; it is private and owned by the SSH user, but a folder in your home is safer.`,
    };
  return reach;
}

export function workFolderFailure(host: string, message: string): EngineFailure {
  return new EngineFailure({
    code: 'remote-command',
    host,
    step: 'prepare',
    message,
    action: `Set workDir for ${host} in the plan to a folder only the SSH user owns and may write to (default ~/.onload-bench), or fix it (chown, chmod go-w).`,
  });
}
