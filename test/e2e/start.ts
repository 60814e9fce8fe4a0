// `npm start` (scripts/start.sh, after building and packaging): the lab (test/lab), a plan for it
// in examples/lab/ labelled SIMULATED LAB, and code-server with the packaged .vsix on examples/.
// Prints the local URL and stays in the foreground; Ctrl+C stops everything and removes the lab
// files this start wrote (their ports and keys die with the lab), nothing else (startFiles.ts).
// The editor opens on the Welcome page with the walkthrough, and the extension then opens the plan
// beside it (ONLOAD_BENCH_OPEN_AT_START, client/src/openAtStart.ts). Opening the plan through the
// address's `payload` instead would suppress the Welcome page, and with it the walkthrough's record
// of the first steps.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installVsix, startCodeServer, workbenchUrl, type CodeServer } from './support/codeServer';
import {
  demoLabOptions,
  passwordEnvVar,
  simulatedPlanName,
  startSimulatedLab,
  type RunningLab,
} from './support/simulatedLab';
import { repoRoot } from './support/workspace';
import { openAtStartVariable } from '../../client/src/openAtStartPaths';
import { entriesOf, recordCreated, removeRecorded } from './support/startFiles';

const examples = join(repoRoot, 'examples');
const labFolder = join(examples, 'lab');

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function main(): Promise<void> {
  const vsix = process.argv[2];
  if (!vsix || !existsSync(vsix)) throw new Error(`no .vsix given (got ${vsix ?? 'nothing'})`);
  const stateDir = mkdtempSync(join(tmpdir(), 'onload-bench-start-'));
  let lab: RunningLab | undefined;
  let server: CodeServer | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nnpm start: stopping code-server and the lab hosts...');
    await server?.stop().catch(() => undefined);
    await lab?.stop().catch(() => undefined);
    removeRecorded(labFolder);
    rmSync(stateDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    const attempt = await startSimulatedLab(demoLabOptions);
    if (!('lab' in attempt)) throw new Error(`the lab cannot start: ${attempt.reason}`);
    lab = attempt.lab;
    // files an earlier start left behind (it was killed), then this start's, recorded
    removeRecorded(labFolder);
    mkdirSync(labFolder, { recursive: true });
    const before = entriesOf(labFolder);
    const info = lab.writePlan(examples);
    recordCreated(labFolder, before);
    await installVsix(stateDir, vsix);
    const preferred = Number(process.env.ONLOAD_BENCH_PORT ?? 8080);
    server = await startCodeServer(examples, {
      stateDir,
      port: (await portIsFree(preferred)) ? preferred : undefined,
      // the plan opens beside the Welcome page once that is up
      env: { ...lab.env, [openAtStartVariable]: info.plan },
      settings: {
        ...lab.settings,
        // The simulated lab's password comes from this variable, so nobody is asked for it.
        'onloadBench.couchbase.passwordEnvVar': passwordEnvVar,
        // The Welcome page lists the walkthrough, and its service then follows the session from the
        // start: VS Code creates it on demand and ticks steps only on events it saw (examples/README.md
        // in the Explorer links the plan).
        'workbench.startupEditor': 'welcomePage',
        // the generated plan is git-ignored (examples/lab/.gitignore) but must stay in Quick Open
        'search.useIgnoreFiles': false,
        'search.exclude': { '**/bench-results': true, '**/.npm-start-created.json': true },
        // The e2e suite turns completion-as-you-type off for steady key presses; a person trying the
        // product gets VS Code's default (issue 25: npm start turned it off).
        'editor.quickSuggestions': { other: 'on', comments: 'off', strings: 'off' },
      },
    });
    console.log(`
Onload Bench is running in VS Code in the browser:

    ${workbenchUrl(server.origin, examples)}

Workspace: examples/   Plan: ${info.plan}
  This is a SIMULATED LAB - not real hardware: the hosts are containers on this machine (real
  systemd, sshd and sudo) and YCSB is the real 0.17.0, but couchbase-server (a small test node) and
  onload are stand-ins; the numbers mean nothing.
Try: F1 > "Run Couchbase benchmark" > ${simulatedPlanName}. The password is taken from
$${passwordEnvVar}; if asked, it is: ${lab.password}
Results go to examples/bench-results/. Press Ctrl+C to stop.`);
    await new Promise(() => undefined);
  } catch (error) {
    console.error(`npm start: ${error instanceof Error ? error.message : error}`);
    await stop(1);
  }
}

void main();
