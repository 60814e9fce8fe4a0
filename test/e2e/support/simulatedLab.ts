// Starts the lab (test/lab: real Linux hosts booted by systemd-nspawn with their real sshd, sudo and
// systemd; a Couchbase test node, a stand-in onload and the real YCSB 0.17.0 inside them) and writes a plan that
// targets it into a workspace folder,
// labelled as a SIMULATED LAB so nobody mistakes its numbers for hardware results.
// The lab module is loaded lazily: while it does not exist, callers get the reason instead.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labInfoFile, type LabInfo } from './labInfo';
import { repoRoot } from './workspace';

export const simulatedPlanName = 'SIMULATED-LAB';
export const simulatedLabDescription =
  'SIMULATED LAB - containers and stand-ins on one machine, not real hardware. The hosts are real Linux systems ' +
  '(systemd, sshd, sudo) on this machine and YCSB is the real 0.17.0, but couchbase-server (a small test node) and ' +
  'onload are test stand-ins and no Onload NIC exists; the numbers only show the flow and mean nothing about performance.';

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
  /** One interface keeps the e2e sweep short; `npm start` shows two. */
  interfaces?: 'one' | 'two' | 'all';
  threads?: number[];
  /** Repetitions of every point (intervals need 2 or more). */
  repetitions?: number;
  /** A time-bounded run phase (YCSB maxexecutiontime) instead of a fixed operation count. */
  runSeconds?: number;
  /** YCSB's throttle (`target`, ops/s over all threads), so the client hosts stay far from busy. */
  targetOpsPerSec?: number;
  /** Seconds at the start of each run phase left out of the statistics (the JVM warming up). */
  warmupSec?: number;
}

/**
 * What `npm start` runs: a demo that shows what the product is for. Three repetitions (every point
 * has an interval), run phases long enough for a time series, YCSB throttled far below what the
 * clients can do (no cell client-bound), on two interfaces and two thread counts: 24 cells, about
 * five minutes on the lab.
 */
export const demoLabOptions: SimulatedLabOptions = {
  interfaces: 'two',
  threads: [1, 4],
  repetitions: 3,
  runSeconds: 8,
  targetOpsPerSec: 400,
  warmupSec: 2,
};

/** The plan options a SimulatedLabOptions asks of test/lab's writeLabPlan (besides hosts and interfaces). Pure. */
export function labPlanSettings(options: SimulatedLabOptions): {
  threads: number[];
  repetitions: number;
  properties: Record<string, number>;
  extra: Record<string, number>;
} {
  const properties: Record<string, number> = {};
  if (options.runSeconds !== undefined)
    Object.assign(properties, { maxexecutiontime: options.runSeconds, operationcount: 0 });
  if (options.targetOpsPerSec !== undefined) properties.target = options.targetOpsPerSec;
  return {
    threads: options.threads ?? [1, 2],
    repetitions: options.repetitions ?? 1,
    properties,
    extra: options.warmupSec !== undefined ? { warmupSec: options.warmupSec } : {},
  };
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
  const interfaces =
    options.interfaces === 'one'
      ? lab.interfaces.slice(0, 1)
      : options.interfaces === 'two'
        ? lab.interfaces.slice(0, 2)
        : lab.interfaces;
  const settings = labPlanSettings(options);
  const threads = settings.threads;
  const stacks = ['kernel', 'latency'];
  const password = lab.couchbase.password;
  return {
    lab: {
      env: { [passwordEnvVar]: password },
      settings: { 'onloadBench.ssh.configFile': lab.sshConfigPath },
      password,
      writePlan(workspace: string): LabInfo {
        const folder = join(workspace, 'lab');
        const written = writeLabPlan(lab, {
          dir: folder,
          stacks,
          threads,
          interfaces,
          repetitions: settings.repetitions,
          properties: settings.properties,
          extra: settings.extra,
        });
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
          cells: stacks.length * threads.length * interfaces.length * settings.repetitions,
        };
        writeFileSync(join(workspace, labInfoFile), JSON.stringify(info, null, 2) + '\n');
        return info;
      },
      stop: () => lab.stop(),
    },
  };
}
