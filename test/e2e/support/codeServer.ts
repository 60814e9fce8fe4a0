// Starts code-server (VS Code 1.139 as a server) for one test run: its own process group, its own
// user-data, extensions, config and XDG folders, no auth, bound to 127.0.0.1 on a free port.
// Nothing is written into the user's home, and stop() kills the whole process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { toolPaths } from './tools';

export interface CodeServerOptions {
  /** Folder for this instance's user-data, extensions, config, XDG dirs and log. */
  stateDir: string;
  /** Accept the smoke-test-driver payload (extensionDevelopmentPath / extensionTestsPath). */
  smokeTestDriver?: boolean;
  /** Extra environment for the server and so for its extension host (e.g. the lab password). */
  env?: Record<string, string>;
  /** User settings for the test profile. */
  settings?: Record<string, unknown>;
  /** A fixed port (default: a free one). */
  port?: number;
  /** Workspace Trust on, the folder not trusted and no start-up prompt: Restricted Mode. */
  restrictedMode?: boolean;
}

export interface CodeServer {
  port: number;
  origin: string;
  extensionsDir: string;
  logFile: string;
  stateDir: string;
  stop(): Promise<void>;
}

/**
 * Copies code-server's log and the workbench/extension-host logs (the "Onload Bench" channel too) into the artefacts.
 */
export function keepLogs(stateDir: string, artifactsDir: string, label: string): void {
  const target = join(artifactsDir, `${label}-logs`);
  try {
    mkdirSync(target, { recursive: true });
    if (existsSync(join(stateDir, 'code-server.log')))
      cpSync(join(stateDir, 'code-server.log'), join(target, 'code-server.log'));
    if (existsSync(join(stateDir, 'user-data', 'logs')))
      cpSync(join(stateDir, 'user-data', 'logs'), join(target, 'user-data-logs'), { recursive: true });
  } catch (error) {
    console.error(`e2e: could not keep the logs of ${stateDir}: ${(error as Error).message}`);
  }
}

const DEFAULT_SETTINGS = {
  'remote.autoForwardPorts': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
};

const restrictedModeSettings = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
  'security.workspace.trust.untrustedFiles': 'open',
};

/**
 * The workbench address for `folder`, opening `files` too (VS Code web's `payload` parameter,
 * `openFile` with a vscode-remote URI: what npm start prints and the UI tests open).
 */
export function workbenchUrl(origin: string, folder: string, files: readonly string[] = []): string {
  const payload = files.map((file) => ['openFile', `vscode-remote://${new URL(origin).host}${encodeURI(file)}`]);
  return `${origin}/?folder=${encodeURIComponent(folder)}${payload.length > 0 ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : ''}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function dirsFor(stateDir: string) {
  const dirs = {
    userData: join(stateDir, 'user-data'),
    extensions: join(stateDir, 'extensions'),
    xdgConfig: join(stateDir, 'xdg-config'),
    xdgData: join(stateDir, 'xdg-data'),
    xdgCache: join(stateDir, 'xdg-cache'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

/** Environment with Node 24 first on PATH and every per-user folder inside stateDir. */
export function codeServerEnv(stateDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const tools = toolPaths();
  const dirs = dirsFor(stateDir);
  return {
    ...process.env,
    PATH: `${join(tools.node24Dir, 'bin')}:${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    // The project's Node 20 test runner sets these; they must not leak into Node 24.
    NODE_OPTIONS: '',
    ...extra,
  };
}

/** Installs a .vsix into this state dir's extensions folder (offline; about a second). */
export async function installVsix(stateDir: string, vsix: string): Promise<void> {
  const tools = toolPaths();
  const dirs = dirsFor(stateDir);
  const child = spawn(
    tools.codeServer,
    ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix, '--force'],
    { env: codeServerEnv(stateDir), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`code-server could not install ${vsix} (exit ${code}):\n${output}`);
  }
}

export async function startCodeServer(folder: string, options: CodeServerOptions): Promise<CodeServer> {
  const tools = toolPaths();
  const dirs = dirsFor(options.stateDir);
  const port = options.port ?? (await freePort());
  const configFile = join(options.stateDir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify(
      { ...DEFAULT_SETTINGS, ...(options.restrictedMode ? restrictedModeSettings : {}), ...options.settings },
      null,
      2,
    ),
  );
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.restrictedMode ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    '--config',
    configFile,
  ];
  if (options.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  args.push(folder);

  const logFile = join(options.stateDir, 'code-server.log');
  const log = createWriteStream(logFile);
  // detached = its own process group (setsid), so stop() can kill the server and every child.
  const child: ChildProcess = spawn(tools.codeServer, args, {
    env: codeServerEnv(options.stateDir, options.env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited = false;
  child.on('exit', () => (exited = true));
  // scripts/e2e.sh and scripts/start.sh kill the groups listed here if this process dies first.
  const pidFile =
    process.env.ONLOAD_BENCH_PGID_DIR && child.pid !== undefined
      ? join(process.env.ONLOAD_BENCH_PGID_DIR, String(child.pid))
      : undefined;
  if (pidFile) writeFileSync(pidFile, '');

  const stop = async () => {
    if (pidFile) rmSync(pidFile, { force: true });
    if (child.pid === undefined || exited) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    for (let i = 0; i < 50 && !exited; i++) await delay(100);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited during start-up; see ${logFile}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${origin}/healthz within 60 s; see ${logFile}`);
    }
    await delay(250);
  }
  return { port, origin, extensionsDir: dirs.extensions, logFile, stateDir: options.stateDir, stop };
}
