// The extension's settings as typed values. Pure (no `vscode` import) so it can be tested with
// plain Node: `readSettings` takes a getter over the `onloadBench` configuration section.
// There is deliberately no password setting: passwords live in SecretStorage or an env var.

export interface BenchSettings {
  ssh: {
    /** The OpenSSH client binary. */
    binary: string;
    /** An ssh_config file used instead of ~/.ssh/config; undefined means the default. */
    configFile: string | undefined;
    /** Extra `ssh` arguments; options that would weaken host-key checking are removed. */
    extraOptions: string[];
  };
  /** Where runs are written: absolute, or relative to the plan's workspace folder. */
  resultsFolder: string;
  timeouts: {
    /** Seconds to wait for couchbase-server to answer after a (re)start. */
    serverStartSec: number | undefined;
    /** Seconds to wait for a new bucket to be ready. */
    bucketReadySec: number | undefined;
    /** Seconds one cell (load + run) may take before it is failed. */
    cellSec: number | undefined;
  };
  couchbase: {
    /** Name of an environment variable that may hold the Couchbase password. */
    passwordEnvVar: string | undefined;
  };
  /** Offer to resume unfinished runs when a workspace with runs is opened. */
  offerResumeOnStartup: boolean;
  /** The Node.js executable that runs the engine; undefined: chosen automatically. */
  nodePath: string | undefined;
  /** Folders searched for `onload_import NAME` after the importing profile's folder, as written
   * (`~/`, relative to the workspace folder); the language server reads the same setting. */
  profilePath: string[];
  /** Upload workload/profile files from outside the plan's and the workspace's folders (application scope). */
  allowOutsidePaths: boolean;
}

/** A setting that could not be used as written, worded for the user. */
export interface SettingProblem {
  setting: string;
  message: string;
}

export const defaultResultsFolder = 'bench-results';

/** `ssh -o` values that would turn host-key checking off or make it meaningless. */
const unsafeSshOptions = [
  /^stricthostkeychecking\s*[= ]\s*(no|off|accept-new)$/i,
  /^userknownhostsfile\s*[= ]\s*\/dev\/null$/i,
  /^globalknownhostsfile\s*[= ]\s*\/dev\/null$/i,
  /^checkhostip\s*[= ]\s*no$/i,
];

export function readSettings(get: (key: string) => unknown): { settings: BenchSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const text = (key: string, fallback: string): string => {
    const value = get(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') {
      problems.push({ setting: key, message: `onloadBench.${key} must be a string; using "${fallback}".` });
      return fallback;
    }
    return value.trim() === '' ? fallback : value.trim();
  };
  const optionalText = (key: string): string | undefined => {
    const value = text(key, '');
    return value === '' ? undefined : value;
  };
  const seconds = (key: string): number | undefined => {
    const value = get(key);
    if (value === undefined || value === null || value === 0) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      problems.push({
        setting: key,
        message: `onloadBench.${key} must be a positive number of seconds; using the plan's value.`,
      });
      return undefined;
    }
    return value;
  };

  const envVar = optionalText('couchbase.passwordEnvVar');
  if (envVar !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(envVar)) {
    problems.push({
      setting: 'couchbase.passwordEnvVar',
      message: `onloadBench.couchbase.passwordEnvVar must be an environment variable name, not "${envVar}".`,
    });
  }
  const offer = get('offerResumeOnStartup');

  return {
    settings: {
      ssh: {
        binary: text('ssh.binary', 'ssh'),
        configFile: optionalText('ssh.configFile'),
        extraOptions: safeSshOptions(get('ssh.extraOptions'), problems),
      },
      resultsFolder: text('resultsFolder', defaultResultsFolder),
      timeouts: {
        serverStartSec: seconds('timeouts.serverStartSec'),
        bucketReadySec: seconds('timeouts.bucketReadySec'),
        cellSec: seconds('timeouts.cellSec'),
      },
      couchbase: {
        passwordEnvVar: envVar !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(envVar) ? envVar : undefined,
      },
      offerResumeOnStartup: typeof offer === 'boolean' ? offer : true,
      nodePath: optionalText('nodePath'),
      profilePath: folderList(get('profilePath'), problems),
      allowOutsidePaths: get('allowOutsidePaths') === true,
    },
    problems,
  };
}

/**
 * `onloadBench.profilePath` as the user set it (user or application settings), never a workspace's
 * or a folder's value: a trusted workspace may say where imports are looked up, but only the user's
 * own folders widen where uploaded files may come from (engine/src/sweep/runOpening.ts pathPolicyOf).
 */
export function userProfilePath(
  inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): string[] {
  return folderList(inspected?.globalValue, []);
}

function folderList(value: unknown, problems: SettingProblem[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    problems.push({
      setting: 'profilePath',
      message: 'onloadBench.profilePath must be a list of folders; ignoring it.',
    });
    return [];
  }
  return (value as string[]).map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * Keeps the user's extra ssh arguments except those that disable host-key verification (in
 * either `-o Key=value` or `-oKey=value` form). The design never allows that, even on request.
 */
function safeSshOptions(value: unknown, problems: SettingProblem[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    problems.push({
      setting: 'ssh.extraOptions',
      message: 'onloadBench.ssh.extraOptions must be a list of strings; ignoring it.',
    });
    return [];
  }
  const args = value as string[];
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    let option: string | undefined;
    let consumed = 1;
    if (arg === '-o' && index + 1 < args.length) {
      option = args[index + 1]!;
      consumed = 2;
    } else if (arg.startsWith('-o') && arg.length > 2) {
      option = arg.slice(2);
    }
    if (option !== undefined && unsafeSshOptions.some((pattern) => pattern.test(option!.trim()))) {
      problems.push({
        setting: 'ssh.extraOptions',
        message: `onloadBench.ssh.extraOptions: "${option}" would weaken host-key checking and is ignored; add the hosts to known_hosts instead (ssh-keyscan, then check the fingerprints).`,
      });
    } else {
      kept.push(...args.slice(index, index + consumed));
    }
    index += consumed - 1;
  }
  return kept;
}
