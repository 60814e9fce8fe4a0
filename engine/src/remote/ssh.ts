// Remote commands over the system OpenSSH client, one multiplexed connection per host
// (ControlMaster + ControlPersist), BatchMode so nothing ever waits for a password, keep-alives so
// a dead link is noticed, and ~/.ssh/config (or `-F`) honoured. Host keys are always verified.
// ssh's own failures (exit 255 with its messages) become EngineFailures naming host and step.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { childEnvironment } from './childEnvironment';
import { cleanStaleControlFolders, createControlFolder } from './controlFolders';
import { EngineFailure } from '../errors';
import { shellQuote } from './shellQuote';

export interface SshOptions {
  /** The ssh client binary (default `ssh` from PATH). */
  binary?: string;
  /** An ssh_config file used instead of ~/.ssh/config (`ssh -F`). */
  configFile?: string;
  /** More `ssh` arguments, e.g. `['-o', 'ConnectTimeout=5']`. Host-key checking cannot be turned off. */
  extraOptions?: string[];
  /** Folder for ControlMaster sockets (short path, private); default a fresh folder under the OS temp dir. */
  controlDir?: string;
}

export interface RemoteResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RemoteRunOptions {
  /** The step this command belongs to, for error messages (`restart-server`, `ycsb-run`...). */
  step: string;
  stdin?: string | Buffer;
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What the engine needs from a host; `OpenSshSession` is the real one, tests use fakes. */
export interface RemoteSession {
  readonly host: string;
  /** Runs a shell command line (already quoted). ssh-level failures throw; a non-zero exit is returned. */
  run(command: string, options: RemoteRunOptions): Promise<RemoteResult>;
  /** Writes content to a remote file over the same connection (created with mode 600 first). */
  upload(
    remotePath: string,
    content: string | Buffer,
    options: { step: string; mode?: string; signal?: AbortSignal },
  ): Promise<void>;
  close(): Promise<void>;
}

/** Options that would weaken host-key checking are refused, whatever the caller passes. */
export function checkSshOptions(extra: string[]): void {
  const joined = extra
    .join(' ')
    .toLowerCase()
    .replace(/\s*=\s*/g, '=');
  if (
    /stricthostkeychecking[= ]+(no|off|accept-new)/.test(joined) ||
    /userknownhostsfile[= ]+\/dev\/null/.test(joined) ||
    /globalknownhostsfile[= ]+\/dev\/null/.test(joined)
  ) {
    throw new EngineFailure({
      code: 'ssh-failed',
      step: 'connect',
      message: 'The SSH options try to turn host-key checking off; Onload Bench always verifies host keys.',
      action:
        'Remove StrictHostKeyChecking/UserKnownHostsFile from the SSH options and add the hosts to known_hosts (ssh-keyscan, then check the fingerprints).',
    });
  }
}

/** Maps an ssh exit 255 and its stderr to a clear error, or undefined when the remote command itself failed. */
export function classifySshFailure(
  host: string,
  step: string,
  exitCode: number,
  stderr: string,
): EngineFailure | undefined {
  if (exitCode !== 255) return undefined;
  const text = stderr;
  const fail = (
    code: 'ssh-unreachable' | 'ssh-auth' | 'ssh-host-key' | 'ssh-failed',
    message: string,
    action: string,
  ): EngineFailure =>
    new EngineFailure({
      code,
      host,
      step,
      message: `${message} (ssh: ${lastMeaningfulLine(text).replace(/^ssh: /, '')})`,
      action,
    });
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/i.test(text)) {
    return fail(
      'ssh-host-key',
      `The host key of ${host} has CHANGED since it was recorded in known_hosts.`,
      `Find out why (reinstalled host or an attack). If legitimate, remove the old key with "ssh-keygen -R ${host}" and verify the new fingerprint.`,
    );
  }
  if (/Host key verification failed|No .*host key is known|host key is not known|Offending .* key/i.test(text)) {
    return fail(
      'ssh-host-key',
      `The host key of ${host} is not known (host-key verification failed).`,
      `Connect once by hand ("ssh ${host}") and check the fingerprint, or add it to known_hosts; host-key checking is never turned off.`,
    );
  }
  if (/Permission denied|Too many authentication failures|no mutual signature|Authentication failed/i.test(text)) {
    return fail(
      'ssh-auth',
      `Authentication to ${host} failed (BatchMode: no passwords are asked for).`,
      `Make key-based login work: "ssh -o BatchMode=yes ${host} true" must succeed (load the key into ssh-agent or set IdentityFile in ~/.ssh/config).`,
    );
  }
  if (/Could not resolve hostname|Name or service not known|Temporary failure in name resolution/i.test(text)) {
    return fail(
      'ssh-unreachable',
      `The host name ${host} cannot be resolved.`,
      `Check the host name in the plan or its Host entry in ~/.ssh/config.`,
    );
  }
  if (
    /Connection refused|Connection timed out|No route to host|Network is unreachable|Connection closed|closed by remote host|Connection reset|Broken pipe|Timeout, server .* not responding|mux_client|Control socket|kex_exchange_identification|banner exchange|disconnect|Operation timed out/i.test(
      text,
    )
  ) {
    return fail(
      'ssh-unreachable',
      `Lost or could not open the SSH connection to ${host}.`,
      `Check that ${host} is up and sshd is running ("ssh ${host} true"), then ${step === 'preflight' ? 'run the benchmark again' : 'resume the run'}.`,
    );
  }
  if (text.trim() === '') return undefined; // the remote command exited 255 by itself
  if (/^ssh: |^ssh_|\bssh\b.*:/m.test(text)) {
    return fail('ssh-failed', `ssh to ${host} failed.`, `Run "ssh -v ${host} true" to see why.`);
  }
  return undefined;
}

function lastMeaningfulLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('@@@'));
  return lines[lines.length - 1] ?? 'no message';
}

/** Splits a byte stream into lines (\n or \r\n), calling back for each complete line. */
export function lineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      let index: number;
      while ((index = pending.indexOf('\n')) >= 0) {
        onLine(pending.slice(0, index).replace(/\r$/, ''));
        pending = pending.slice(index + 1);
      }
    },
    end() {
      if (pending !== '') onLine(pending.replace(/\r$/, ''));
      pending = '';
    },
  };
}

/**
 * Put in front of every remote command: a non-login SSH command may lack /usr/sbin and /sbin in
 * PATH (`ip`, `ethtool`, `ss`, `systemctl` on some hosts; REAL-LAB H2). Appended, so the user's own
 * PATH still wins.
 */
const remotePathPrefix = 'PATH="${PATH:-/usr/bin:/bin}:/usr/local/sbin:/usr/sbin:/sbin"; export PATH; ';

/** Output kept per command (YCSB with timeseries measurements can print a lot; logs keep the rest). */
const maxCollected = 256 * 1024 * 1024;

export class OpenSshSession implements RemoteSession {
  private connected: Promise<void> | undefined;

  constructor(
    readonly host: string,
    private readonly binary: string,
    private readonly baseArgs: string[],
    /** ssh's environment: the engine's without the password (childEnvironment.ts). */
    private readonly env: NodeJS.ProcessEnv = childEnvironment(process.env),
  ) {}

  /**
   * Opens the master connection once; later commands ride on it. A caller whose signal fires stops
   * waiting at once, even when it joined a connect that someone else started.
   */
  connect(step: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelledFailure(this.host, step));
    if (!this.connected) {
      const connected = this.spawn('true', { step, ...(signal ? { signal } : {}) }).then((result) => {
        if (result.exitCode !== 0) {
          throw new EngineFailure({
            code: 'ssh-failed',
            host: this.host,
            step,
            message: `"true" exited with ${result.exitCode} on ${this.host}: ${result.stderr.trim()}`,
            action: `Check the login shell of the SSH user on ${this.host}.`,
          });
        }
      });
      this.connected = connected;
      connected.catch(() => {
        if (this.connected === connected) this.connected = undefined;
      });
    }
    return signal ? untilAborted(this.connected, signal, () => cancelledFailure(this.host, step)) : this.connected;
  }

  async run(command: string, options: RemoteRunOptions): Promise<RemoteResult> {
    await this.connect(options.step, options.signal);
    return this.spawn(command, options);
  }

  async upload(
    remotePath: string,
    content: string | Buffer,
    options: { step: string; mode?: string; signal?: AbortSignal },
  ): Promise<void> {
    const result = await this.run(uploadScript(remotePath, options.mode ?? '600'), {
      step: options.step,
      stdin: content,
      signal: options.signal,
    });
    if (result.exitCode !== 0) {
      throw new EngineFailure({
        code: 'upload',
        host: this.host,
        step: options.step,
        message: `Could not write ${remotePath} on ${this.host}: ${result.stderr.trim() || `exit ${result.exitCode}`}.`,
        action: `Check free space and permissions of the work folder on ${this.host}.`,
      });
    }
  }

  async close(): Promise<void> {
    const { execa } = await import('execa');
    await execa(this.binary, [...this.baseArgs, '-O', 'exit', '--', this.host], {
      reject: false,
      stdin: 'ignore',
      timeout: 10_000,
      env: this.env,
      extendEnv: false,
    });
  }

  private async spawn(command: string, options: RemoteRunOptions): Promise<RemoteResult> {
    const { execa } = await import('execa');
    if (options.signal?.aborted) throw cancelledFailure(this.host, options.step);
    const child = execa(this.binary, [...this.baseArgs, '--', this.host, remotePathPrefix + command], {
      reject: false,
      // output is collected here rather than by execa: cheaper per command, and streamed lines come free
      buffer: false,
      encoding: 'utf8',
      env: this.env,
      extendEnv: false,
      ...(options.stdin !== undefined ? { input: options.stdin } : { stdin: 'ignore' as const }),
      ...(options.signal ? { cancelSignal: options.signal } : {}),
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      forceKillAfterDelay: 2000,
    });
    const collected = { stdout: '', stderr: '' };
    const collect = (name: 'stdout' | 'stderr', onLine: ((line: string) => void) | undefined): void => {
      const stream = child[name];
      if (!stream) return;
      const lines = onLine ? lineSplitter(onLine) : undefined;
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (collected[name].length < maxCollected) collected[name] += chunk;
        lines?.push(chunk);
      });
      stream.on('end', () => lines?.end());
    };
    collect('stdout', options.onStdoutLine);
    collect('stderr', options.onStderrLine);
    // With multiplexing the master holds our pipes; once ssh itself is gone, stop waiting for them.
    child.once('exit', (_code, signal) => {
      if (signal === null) return;
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, 3000).unref();
    });
    const result = await child;
    const { stdout, stderr } = collected;
    if (result.isCanceled || options.signal?.aborted) throw cancelledFailure(this.host, options.step);
    if (result.timedOut) {
      throw new EngineFailure({
        code: 'remote-command',
        host: this.host,
        step: options.step,
        message: `The command did not finish within ${Math.round((options.timeoutMs ?? 0) / 1000)} s on ${this.host}.`,
        action: 'Raise the timeout in the plan (timeouts) or look at the logs for a stuck process.',
      });
    }
    if (result.exitCode === undefined) {
      const failure = classifySshFailure(this.host, options.step, 255, stderr);
      throw (
        failure ??
        new EngineFailure({
          code: 'ssh-failed',
          host: this.host,
          step: options.step,
          message: `ssh ended without an exit code (${result.signal ?? 'killed'}): ${lastMeaningfulLine(stderr)}`,
          action: `Run "ssh ${this.host} true" to check the connection.`,
        })
      );
    }
    const failure = classifySshFailure(this.host, options.step, result.exitCode, stderr);
    if (failure) throw failure;
    return { exitCode: result.exitCode, stdout, stderr };
  }
}

/** `promise`, or a rejection with `reason()` as soon as `signal` fires, whichever comes first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function cancelledFailure(host: string, step: string): EngineFailure {
  return new EngineFailure({
    code: 'cancelled',
    host,
    step,
    message: 'Cancelled.',
    action: 'Resume the run when ready.',
  });
}

/** One session per destination, sharing a private folder of control sockets. */
export class SessionPool {
  private readonly sessions = new Map<string, RemoteSession>();
  private readonly controlDir: string;
  private readonly ownsControlDir: boolean;
  private readonly binary: string;
  private readonly baseArgs: string[];

  private readonly env: NodeJS.ProcessEnv;

  /** `secrets`: values stripped from ssh's environment whatever variable holds them (the password). */
  constructor(
    options: SshOptions = {},
    private readonly factory?: (host: string) => RemoteSession,
    secrets: readonly string[] = [],
  ) {
    checkSshOptions(options.extraOptions ?? []);
    this.ownsControlDir = options.controlDir === undefined;
    this.binary = options.binary ?? 'ssh';
    this.env = childEnvironment(process.env, secrets);
    // what every ssh the engine starts gets, the cleanup of stale masters included
    const shared = [
      ...(options.configFile ? ['-F', options.configFile] : []),
      '-T',
      '-o',
      'BatchMode=yes',
      // wins over ~/.ssh/config: an unknown or changed host key is always an error, never accepted
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      'ServerAliveInterval=5',
      '-o',
      'ServerAliveCountMax=3',
      '-o',
      'ConnectTimeout=15',
      ...(options.extraOptions ?? []),
    ];
    // folders of engines killed with -9 (their masters too) go before this one is made
    if (this.ownsControlDir && !factory)
      cleanStaleControlFolders(undefined, { binary: this.binary, options: shared, env: this.env });
    // Short path: unix socket paths are limited to ~100 bytes; %C is a 40-character hash.
    this.controlDir = options.controlDir ?? (factory ? '' : createControlFolder());
    this.baseArgs = [
      '-o',
      'ControlMaster=auto',
      '-o',
      `ControlPath=${join(this.controlDir, '%C')}`,
      // bounded: a master orphaned by a killed engine exits after two idle minutes
      '-o',
      'ControlPersist=120',
      ...shared,
    ];
  }

  get(host: string): RemoteSession {
    let session = this.sessions.get(host);
    if (!session) {
      session = this.factory ? this.factory(host) : new OpenSshSession(host, this.binary, this.baseArgs, this.env);
      this.sessions.set(host, session);
    }
    return session;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close().catch(() => undefined)));
    this.sessions.clear();
    if (this.ownsControlDir && this.controlDir) rmSync(this.controlDir, { recursive: true, force: true });
  }
}

/**
 * The remote script of an upload: a random temporary name (nobody can plant a symlink there in
 * advance), created with noclobber (`set -C`: an existing file, or a symlink to one, is an error,
 * not followed) under umask 077, then chmod and an atomic rename over the target (`mv -T`: a
 * directory or symlink planted at the target is replaced, never entered).
 */
export function uploadScript(remotePath: string, mode: string, random = randomBytes(8).toString('hex')): string {
  const slash = remotePath.lastIndexOf('/');
  const folder = slash > 0 ? remotePath.slice(0, slash) : '.';
  const temporary = `${folder}/.upload-${random}.part`;
  return `umask 077 && mkdir -p ${shellQuote(folder)} && set -C && cat > ${shellQuote(temporary)} && chmod ${shellQuote(mode)} ${shellQuote(temporary)} && mv -f -T ${shellQuote(temporary)} ${shellQuote(remotePath)} || { rc=$?; rm -f ${shellQuote(temporary)}; exit $rc; }`;
}
