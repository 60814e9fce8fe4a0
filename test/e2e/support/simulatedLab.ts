// Starts the loopback lab (test/lab: a real sshd, a Couchbase test node, stand-in
// couchbase-server/onload/ycsb) and writes a plan that targets it into a workspace folder,
// labelled as a SIMULATED LAB so nobody mistakes its numbers for hardware results.
// The lab module is loaded lazily: while it does not exist, callers get the reason instead.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labInfoFile, type LabInfo } from './labInfo';
import { repoRoot } from './workspace';

export const simulatedPlanName = 'SIMULATED-LAB-loopback';
export const simulatedLabDescription =
  'SIMULATED LAB - loopback stand-ins, not real hardware. couchbase-server, onload and ycsb are test stand-ins ' +
  'reached over a real sshd on 127.0.0.1; the numbers only show the flow and mean nothing about performance.';

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

interface LabModule {
  startLab(options?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export async function startSimulatedLab(stateDir: string): Promise<LabAttempt> {
  const entry = join(repoRoot, 'test', 'lab', 'index.ts');
  if (!existsSync(entry)) return { reason: 'test/lab/index.ts (startLab) has not landed yet' };
  const module = (await import(entry)) as Partial<LabModule>;
  if (typeof module.startLab !== 'function') return { reason: 'test/lab/index.ts does not export startLab()' };
  mkdirSync(stateDir, { recursive: true });
  const lab = (await module.startLab({ dir: stateDir })) as any;
  const password: string = lab.password ?? lab.couchbase?.password;
  const sshConfig: string | undefined = lab.sshConfig ?? lab.sshConfigFile ?? lab.ssh?.configFile;
  const plan: unknown = typeof lab.plan === 'function' ? lab.plan() : lab.plan;
  if (!password || !sshConfig || !plan) {
    await lab.stop?.();
    return { reason: 'startLab() did not return the password, ssh config and plan the e2e tests expect (password, sshConfig, plan)' };
  }
  return {
    lab: {
      env: { [passwordEnvVar]: password },
      settings: { 'onloadBench.ssh.configFile': sshConfig },
      password,
      writePlan(workspace: string): LabInfo {
        const folder = join(workspace, 'lab');
        mkdirSync(folder, { recursive: true });
        const planFile = `lab/${simulatedPlanName}.benchplan.json`;
        const labelled = { ...(plan as object), name: simulatedPlanName, description: simulatedLabDescription };
        writeFileSync(join(workspace, planFile), JSON.stringify(labelled, null, 2) + '\n');
        const info: LabInfo = {
          plan: planFile,
          planName: simulatedPlanName,
          resultsFolder: join(workspace, 'bench-results'),
          cells: typeof lab.cellCount === 'number' ? lab.cellCount : Number(lab.cells ?? 0),
        };
        writeFileSync(join(workspace, labInfoFile), JSON.stringify(info, null, 2) + '\n');
        return info;
      },
      stop: async () => {
        await lab.stop?.();
      },
    },
  };
}
