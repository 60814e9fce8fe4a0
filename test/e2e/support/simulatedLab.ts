// Starts the loopback lab (test/lab: a real sshd, a Couchbase test node, the real YCSB 0.17.0,
// stand-in couchbase-server/onload) and writes a plan that targets it into a workspace folder,
// labelled as a SIMULATED LAB so nobody mistakes its numbers for hardware results.
// The lab module is loaded lazily: while it does not exist, callers get the reason instead.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labInfoFile, type LabInfo } from './labInfo';
import { repoRoot } from './workspace';

export const simulatedPlanName = 'SIMULATED-LAB-loopback';
export const simulatedLabDescription =
  'SIMULATED LAB - loopback stand-ins, not real hardware. couchbase-server and onload are test stand-ins and YCSB ' +
  '(the real 0.17.0) talks to a small test node, reached over a real sshd on 127.0.0.1; the numbers only show the flow and mean nothing about performance.';

export interface RunningLab {
  /** Environment for code-server (and so the extension host): the password variable. */
  env: Record<string, string>;
  /** Workspace/user settings the extension needs to reach the lab (ssh config, password variable name). */
  settings: Record<string, unknown>;
  password: string;
  /** Writes the plan and lab-info.json into `<workspace>/lab` and returns the info. */
  writePlan(workspace: string): LabInfo;
  stop(): Promise<void>;
}

export type LabAttempt = { lab: RunningLab } | { reason: string };

export const passwordEnvVar = 'ONLOAD_BENCH_SIMULATED_LAB_PASSWORD';

export interface SimulatedLabOptions {
  /** One interface keeps the e2e sweep short; `npm start` shows both. */
  interfaces?: 'one' | 'all';
  threads?: number[];
}

export async function startSimulatedLab(options: SimulatedLabOptions = {}): Promise<LabAttempt> {
  const entry = join(repoRoot, 'test', 'lab', 'index.ts');
  if (!existsSync(entry)) return { reason: 'test/lab/index.ts (startLab) has not landed yet' };
  const labModule = (await import(entry)) as Partial<typeof import('../../lab/index')>;
  if (typeof labModule.startLab !== 'function' || typeof labModule.writeLabPlan !== 'function') {
    return { reason: 'test/lab/index.ts does not export startLab() and writeLabPlan()' };
  }
  const lab = await labModule.startLab();
  const writeLabPlan = labModule.writeLabPlan;
  const interfaces = options.interfaces === 'one' ? lab.interfaces.slice(0, 1) : lab.interfaces;
  const threads = options.threads ?? [1, 2];
  const stacks = ['kernel', 'latency'];
  const password = lab.couchbase.password;
  return {
    lab: {
      env: { [passwordEnvVar]: password },
      settings: { 'onloadBench.ssh.configFile': lab.sshConfigPath },
      password,
      writePlan(workspace: string): LabInfo {
        const folder = join(workspace, 'lab');
        const written = writeLabPlan(lab, { dir: folder, stacks, threads, interfaces });
        const plan = JSON.parse(readFileSync(written, 'utf8'));
        rmSync(written);
        const planFile = `lab/${simulatedPlanName}.benchplan.json`;
        const labelled = { name: simulatedPlanName, description: simulatedLabDescription, ...plan };
        labelled.name = simulatedPlanName;
        writeFileSync(join(workspace, planFile), JSON.stringify(labelled, null, 2) + '\n');
        const info: LabInfo = {
          plan: planFile,
          planName: simulatedPlanName,
          resultsFolder: join(workspace, 'bench-results'),
          cells: stacks.length * threads.length * interfaces.length,
        };
        writeFileSync(join(workspace, labInfoFile), JSON.stringify(info, null, 2) + '\n');
        return info;
      },
      stop: () => lab.stop(),
    },
  };
}
