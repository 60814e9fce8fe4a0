// `npm start` (scripts/start.sh, after building and packaging): the loopback lab, a plan for it
// in examples/lab/ labelled SIMULATED LAB, and code-server with the packaged .vsix on examples/.
// Prints the local URL and stays in the foreground; Ctrl+C stops everything and removes the
// generated lab files (their ports and keys die with the lab).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installVsix, startCodeServer, type CodeServer } from './support/codeServer';
import { passwordEnvVar, simulatedPlanName, startSimulatedLab, type RunningLab } from './support/simulatedLab';
import { repoRoot } from './support/workspace';

const examples = join(repoRoot, 'examples');
const labFolder = join(examples, 'lab');
/** Committed files of examples/lab; everything else there is generated per start. */
const keptInLab = new Set(['README.md', '.gitignore']);

function removeGeneratedLabFiles(): void {
  if (!existsSync(labFolder)) return;
  for (const name of readdirSync(labFolder)) {
    if (!keptInLab.has(name)) rmSync(join(labFolder, name), { recursive: true, force: true });
  }
}

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
    console.log('\nnpm start: stopping code-server and the loopback lab...');
    await server?.stop().catch(() => undefined);
    await lab?.stop().catch(() => undefined);
    removeGeneratedLabFiles();
    rmSync(stateDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    const attempt = await startSimulatedLab({ interfaces: 'all', threads: [1, 2, 4] });
    if (!('lab' in attempt)) throw new Error(`the loopback lab cannot start: ${attempt.reason}`);
    lab = attempt.lab;
    removeGeneratedLabFiles();
    const info = lab.writePlan(examples);
    await installVsix(stateDir, vsix);
    const preferred = Number(process.env.ONLOAD_BENCH_PORT ?? 8080);
    server = await startCodeServer(examples, {
      stateDir,
      port: (await portIsFree(preferred)) ? preferred : undefined,
      env: lab.env,
      settings: {
        ...lab.settings,
        // The simulated lab's password comes from this variable, so nobody is asked for it.
        'onloadBench.couchbase.passwordEnvVar': passwordEnvVar,
        'workbench.startupEditor': 'none',
      },
    });
    console.log(`
Onload Bench is running in VS Code in the browser:

    ${server.origin}/?folder=${encodeURIComponent(examples)}

Workspace: examples/   Plan: ${info.plan}
  This is a SIMULATED LAB - loopback stand-ins, not real hardware: couchbase-server, onload and
  ycsb are stand-ins reached over a real sshd on 127.0.0.x; the numbers mean nothing.
Try: F1 > "Run Couchbase benchmark" > ${simulatedPlanName}. The password is taken from
\$${passwordEnvVar}; if asked, it is: ${lab.password}
Results go to examples/bench-results/. Press Ctrl+C to stop.`);
    await new Promise(() => undefined);
  } catch (error) {
    console.error(`npm start: ${error instanceof Error ? error.message : error}`);
    await stop(1);
  }
}

void main();
