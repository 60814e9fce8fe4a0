// Runs a sweep in a separate Node process (dist/engineHost.js) and relays its events. No
// `vscode` import, so it is tested with plain Node. The run's outcome is always a value: a
// process that cannot start or dies early becomes an outcome with an `internal` error, and the
// results already written by the engine stay on disk.
import { fork } from 'node:child_process';
import type { EngineError, RunOutcome, SweepEvent } from '../../engine/src/index';
import type { FromEngine, RunSweepRequest, ToEngine } from './engineHost/protocol';

export interface NodeRuntimeChoice {
  /** `onloadBench.nodePath`, if the user set one. */
  setting: string | undefined;
  /** The extension host's own executable. */
  execPath: string;
  /** Whether the extension host runs on Electron (desktop VS Code) rather than Node. */
  isElectron: boolean;
}

/**
 * The Node executable for the engine: the setting, else the extension host's own Node when it
 * is a real Node (code-server, VS Code server), else `node` from PATH (desktop VS Code's
 * Electron cannot load the Couchbase SDK's OpenSSL build).
 */
export function chooseNodeRuntime(choice: NodeRuntimeChoice): string {
  if (choice.setting && choice.setting.trim() !== '') return choice.setting.trim();
  return choice.isElectron ? 'node' : choice.execPath;
}

/** The environment for the engine: the host's, minus what would make the SDK think it is Electron. */
export function engineEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy['ELECTRON_RUN_AS_NODE'];
  delete copy['ELECTRON_NO_ATTACH_CONSOLE'];
  return copy;
}

export interface EngineProcessOptions {
  /** Path of dist/engineHost.js. */
  modulePath: string;
  nodePath: string;
  request: RunSweepRequest;
  signal: AbortSignal;
  onEvent: (event: SweepEvent) => void;
  /** stderr lines of the engine process (Node warnings, crashes). */
  onStderr?: (text: string) => void;
  /** Each remote command or upload the engine makes, already redacted (for the log). */
  onRemoteCommand?: (line: string) => void;
  /** Node flags for the engine process; default none (the extension host's own flags do not apply). */
  execArgv?: string[];
}

function failedOutcome(request: RunSweepRequest, message: string, action: string): RunOutcome {
  const error: EngineError = { code: 'internal', step: 'engine-process', message, action };
  return { runDir: request.resumeRunDir ?? '', completed: 0, failed: 0, total: 0, cancelled: false, error };
}

export function runSweepInProcess(options: EngineProcessOptions): Promise<RunOutcome> {
  const { request, signal } = options;
  if (signal.aborted)
    return Promise.resolve({ runDir: request.resumeRunDir ?? '', completed: 0, failed: 0, total: 0, cancelled: true });
  return new Promise<RunOutcome>((resolve) => {
    let settled = false;
    let lastRunFinished: RunOutcome | undefined;
    let stderrTail = '';
    const settle = (outcome: RunOutcome) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };

    const child = fork(options.modulePath, [], {
      execPath: options.nodePath,
      execArgv: options.execArgv ?? [],
      env: engineEnvironment(process.env),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });

    const onAbort = () => {
      if (child.connected) child.send({ type: 'abort' } satisfies ToEngine);
    };
    signal.addEventListener('abort', onAbort);

    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderrTail = (stderrTail + text).slice(-2000);
      options.onStderr?.(text);
    });

    child.on('message', (message: FromEngine) => {
      if (message.type === 'event') {
        if (message.event.type === 'run-finished') lastRunFinished = message.event.outcome;
        try {
          options.onEvent(message.event);
        } catch {
          // a broken listener must not lose the run
        }
      } else if (message.type === 'remote') {
        options.onRemoteCommand?.(message.line);
      } else if (message.type === 'done') {
        settle(message.outcome);
      } else if (message.type === 'failed') {
        settle(
          failedOutcome(
            request,
            `The engine failed: ${message.message}`,
            'Look at the "Onload Bench" output; results written so far are kept.',
          ),
        );
      }
    });

    child.on('error', (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'ENOENT'
          ? `Cannot start the engine: Node.js was not found at "${options.nodePath}".`
          : `Cannot start the engine with "${options.nodePath}": ${error.message}`;
      settle(
        failedOutcome(request, message, 'Install Node.js 20 or later, or set onloadBench.nodePath to its executable.'),
      );
    });

    child.on('exit', (code, exitSignal) => {
      if (settled) return;
      // The engine reported the end of the run but exited before its last message: keep what it said.
      if (lastRunFinished) {
        settle(lastRunFinished);
        return;
      }
      if (signal.aborted) {
        settle({ runDir: request.resumeRunDir ?? '', completed: 0, failed: 0, total: 0, cancelled: true });
        return;
      }
      const how = exitSignal ? `was killed by ${exitSignal}` : `exited with code ${code}`;
      const detail = stderrTail.trim().split('\n').slice(-3).join(' ').trim();
      settle(
        failedOutcome(
          request,
          `The engine process ${how} before the run finished${detail ? `: ${detail}` : '.'}`,
          'Resume the run; the cells already written are kept.',
        ),
      );
    });

    child.send({ type: 'run', request } satisfies ToEngine);
  });
}
