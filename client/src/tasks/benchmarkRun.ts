// One benchmark run from a plan path to a RunOutcome: check the plan, find the password, pick
// the run to resume, then the engine's sweep (pre-flight checks first, then the cells). Prints
// through `print` (the task terminal) and reports through the RunTracker. The engine is loaded
// here, lazily.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { EngineError, PlanDifference, RunOutcome, SweepEvent } from '../../../engine/src/index';
import type { RunSweepRequest } from '../engineHost/protocol';
import { currentSettings, resultsRootFor, uploadPolicyFor } from '../config';
import { loadEngine } from '../engine';
import { chooseNodeRuntime, runSweepInProcess } from '../engineProcess';
import type { CoreServices } from '../services';
import { refusedInRestrictedMode, restrictedModeError } from '../workspaceTrust';
import { redact, terminalLinesOnce } from './eventText';
import { describePasswordSource, withPasswordSource } from '../passwordSource';
import type { ResumeChoice } from './taskDefinition';
import { latestUnfinishedRun } from './resumeChoice';
import { recordedPlanQuestion, resumeWithRecorded } from './recordedPlanQuestion';

export interface RunRequest {
  planPath: string;
  resume: ResumeChoice;
  /** For this run only (tests, the API); otherwise the password store is asked. */
  password?: string;
}

export interface RunOutput {
  print(lines: string[]): void;
  signal: AbortSignal;
  abort: AbortController;
}

function stoppedBeforeStart(error: EngineError, cancelled = false): RunOutcome {
  return { runDir: '', completed: 0, failed: 0, total: 0, cancelled, ...(cancelled ? {} : { error }) };
}

export async function runBenchmark(services: CoreServices, request: RunRequest, out: RunOutput): Promise<RunOutcome> {
  const { log } = services;
  const planPath = path.resolve(request.planPath);
  if (services.runs.isRunning(planPath)) {
    const error: EngineError = {
      code: 'preflight',
      step: 'start',
      message: `${path.basename(planPath)} is already running.`,
      action: 'Wait for it to finish or cancel it first.',
    };
    out.print([error.message]);
    return stoppedBeforeStart(error);
  }

  if (refusedInRestrictedMode(`the benchmark ${path.basename(planPath)}`)) {
    out.print([restrictedModeError.message, `Next: ${restrictedModeError.action}`]);
    return stoppedBeforeStart(restrictedModeError);
  }
  out.print([`Checking plan ${planPath}`]);
  const engine = await loadEngine();
  const loaded = await engine.loadPlan(planPath);
  if (loaded.errors.length > 0) {
    out.print(loaded.errors.map((problem) => `  ${planPath}:${problem.line}:${problem.column} ${problem.message}`));
    return stoppedBeforeStart({
      code: 'plan-invalid',
      step: 'load-plan',
      message: `The plan has ${loaded.errors.length} problem${loaded.errors.length === 1 ? '' : 's'}.`,
      action: 'Fix them (they are underlined in the plan file) and run again.',
    });
  }
  const plan = loaded.plan;
  const planUri = vscode.Uri.file(planPath);
  const settings = currentSettings(log, planUri);
  const resultsRoot = resultsRootFor(settings, planUri);

  const password = request.password ?? (await services.passwords.passwordFor(plan, settings));
  if (password === undefined) {
    out.print(['No Couchbase password given; nothing was run.']);
    return stoppedBeforeStart(
      {
        code: 'cancelled',
        step: 'password',
        message: 'No password given.',
        action: 'Run again and enter the password.',
      },
      true,
    );
  }
  // Said in pre-flight, and in the notice if Couchbase refuses it (an env var setting wins over SecretStorage).
  // (A password handed in by the API with nothing stored or set has no source to name.)
  const foundSource = await services.passwords.sourceFor(plan, settings);
  const passwordSource = foundSource.kind === 'none' ? undefined : foundSource;
  const secrets = [password];
  const print = (lines: string[]) => out.print(lines.map((line) => redact(line, secrets)));

  let resumeRunDir: string | undefined;
  if (request.resume.kind === 'runDir') resumeRunDir = request.resume.runDir;
  if (request.resume.kind === 'latest') {
    resumeRunDir = latestUnfinishedRun(await engine.listRuns(resultsRoot), planPath)?.runDir;
    print([
      resumeRunDir ? `Resuming ${resumeRunDir}` : 'No unfinished run of this plan was found; starting a new run.',
    ]);
  }

  // a run folder is not trusted input: if its recorded plan differs from this plan file in what
  // runs or uploads, show the differences and let the user decide (the engine refuses otherwise)
  let acceptRecordedPlan = false;
  if (resumeRunDir !== undefined) {
    const manifest = await engine.readManifest(resumeRunDir).catch(() => undefined); // unreadable: the engine says why
    const differences = manifest
      ? engine.recordedPlanDifferences(
          { plan: manifest.plan as typeof plan, planPath: manifest.planPath ?? planPath },
          { plan, planPath },
        )
      : [];
    if (differences.length > 0) {
      print([
        `The plan recorded in ${resumeRunDir} differs from ${planPath} in: ${differences.map((entry) => entry.field).join(', ')}.`,
      ]);
      if (!(await askAboutRecordedPlan(path.basename(resumeRunDir), path.basename(planPath), differences))) {
        print(['Not resumed: nothing was run.']);
        return stoppedBeforeStart(
          {
            code: 'cancelled',
            step: 'resume',
            message: 'The recorded plan differs from the plan file; not resumed.',
            action:
              'Start a new run, or resume and choose "Resume with the recorded plan" if you trust the run folder.',
          },
          true,
        );
      }
      acceptRecordedPlan = true;
      print(['Resuming with the recorded plan, as chosen.']);
    }
  }

  const handle = services.runs.begin(planPath, out.abort, secrets, passwordSource);
  if (!handle) {
    print([`${path.basename(planPath)} is already running.`]);
    return stoppedBeforeStart({
      code: 'preflight',
      step: 'start',
      message: 'Already running.',
      action: 'Wait for it to finish.',
    });
  }
  let sawRunFinished = false;
  const printedErrors = new Set<string>();
  const onEvent = (raw: SweepEvent) => {
    const event = passwordSource ? withPasswordSource(raw, describePasswordSource(passwordSource)) : raw;
    if (event.type === 'run-finished') sawRunFinished = true;
    print(terminalLinesOnce(event, printedErrors));
    handle.onEvent(event);
  };
  const sweepRequest: RunSweepRequest = {
    planPath,
    plan,
    resultsRoot,
    password,
    ssh: {
      binary: settings.ssh.binary,
      extraOptions: settings.ssh.extraOptions,
      ...(settings.ssh.configFile !== undefined ? { configFile: settings.ssh.configFile } : {}),
    },
    timeouts: definedTimeouts(settings.timeouts),
    ...uploadPolicyFor(settings, planUri),
    ...(resumeRunDir !== undefined ? { resumeRunDir } : {}),
    ...(acceptRecordedPlan ? { acceptRecordedPlan } : {}),
  };

  log.info(
    `Running ${planPath} with ssh ${settings.ssh.binary}${settings.ssh.configFile ? ` -F ${settings.ssh.configFile}` : ''}` +
      `${settings.ssh.extraOptions.length > 0 ? ` ${settings.ssh.extraOptions.join(' ')}` : ''}, results in ${resultsRoot}` +
      `${resumeRunDir ? `, resuming ${resumeRunDir}` : ''}.`,
  );

  // The sweep runs in its own Node process (see engineHost/main.ts). runSweep runs the pre-flight
  // checks itself, on the same SSH connections, and stops before any cell if a blocking one fails.
  const nodePath = chooseNodeRuntime({
    setting: settings.nodePath,
    execPath: process.execPath,
    isElectron: process.versions['electron'] !== undefined,
  });
  log.debug(`Engine process: ${nodePath} ${engineModule(services)}`);
  let outcome: RunOutcome;
  try {
    outcome = await runSweepInProcess({
      modulePath: engineModule(services),
      nodePath,
      request: sweepRequest,
      signal: out.signal,
      onEvent,
      onStderr: (text) => log.warn(`engine: ${redact(text.trimEnd(), secrets)}`),
      onRemoteCommand: (line) => log.info(redact(line, secrets)),
    });
    // A process that died (or was stopped) before its run-finished event: say so in the terminal and the panel.
    if (!sawRunFinished) onEvent({ type: 'run-finished', outcome });
  } catch (thrown) {
    // runSweep reports failures as outcomes; this is the safety net for a bug.
    const error: EngineError =
      thrown instanceof engine.EngineFailure
        ? thrown.error
        : {
            code: 'internal',
            step: 'run',
            message: thrown instanceof Error ? thrown.message : String(thrown),
            action: 'Look at the "Onload Bench" output; the results written so far are kept.',
          };
    log.error(redact(engine.formatEngineError(error), secrets));
    outcome = stoppedBeforeStart(error);
    onEvent({ type: 'run-finished', outcome });
  }
  handle.end(outcome);
  return outcome;
}

/** The modal: the differing fields, "Resume with the recorded plan" or Cancel. */
async function askAboutRecordedPlan(
  runName: string,
  planName: string,
  differences: PlanDifference[],
): Promise<boolean> {
  const { message, detail } = recordedPlanQuestion(runName, planName, differences);
  return (
    (await vscode.window.showWarningMessage(message, { modal: true, detail }, resumeWithRecorded)) ===
    resumeWithRecorded
  );
}

function engineModule(services: CoreServices): string {
  return vscode.Uri.joinPath(services.context.extensionUri, 'dist', 'engineHost.js').fsPath;
}

function definedTimeouts(timeouts: {
  serverStartSec: number | undefined;
  bucketReadySec: number | undefined;
  cellSec: number | undefined;
}) {
  const out: { serverStartSec?: number; bucketReadySec?: number; cellSec?: number } = {};
  if (timeouts.serverStartSec !== undefined) out.serverStartSec = timeouts.serverStartSec;
  if (timeouts.bucketReadySec !== undefined) out.bucketReadySec = timeouts.bucketReadySec;
  if (timeouts.cellSec !== undefined) out.cellSec = timeouts.cellSec;
  return out;
}
