// Task type `couchbase-benchmark`: one task per plan in the workspace, and `resolveTask` so
// tasks.json entries work. Each task runs in a BenchmarkTerminal (a CustomExecution).
import * as vscode from 'vscode';
import { refusedInRestrictedMode, restrictedOutcome } from '../workspaceTrust';
import * as path from 'node:path';
import type { RunOutcome } from '../../../engine/src/index';
import { planFileGlob, planSearchExclude } from '../planFiles';
import type { CoreServices } from '../services';
import { BenchmarkTerminal } from './benchmarkTerminal';
import { benchmarkTaskType, definitionForPlan, resolveTaskDefinition, type ResumeChoice } from './taskDefinition';

const taskSource = 'Onload Bench';

interface PendingRun {
  password?: string;
  onOutcome: (outcome: RunOutcome) => void;
}

export class BenchmarkTaskProvider implements vscode.TaskProvider {
  /** Runs asked for through runPlan whose task has not started yet, by resolved plan path. */
  private readonly pending = new Map<string, PendingRun>();

  constructor(private readonly services: CoreServices) {}

  async provideTasks(token: vscode.CancellationToken): Promise<vscode.Task[]> {
    const plans = await vscode.workspace.findFiles(planFileGlob, planSearchExclude, 200, token);
    return plans
      .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
      .flatMap((uri) => {
        const folder = vscode.workspace.getWorkspaceFolder(uri);
        const task = this.taskFor(definitionForPlan(uri.fsPath, folder?.uri.fsPath), folder);
        return task ? [task] : [];
      });
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const folder = typeof task.scope === 'object' ? task.scope : undefined;
    return this.taskFor(task.definition, folder, task.definition);
  }

  /** Builds a task for a plan; a request waiting in `pending` for that plan is used by its execution. */
  taskFor(
    definition: vscode.TaskDefinition,
    folder: vscode.WorkspaceFolder | undefined,
    keepDefinition?: vscode.TaskDefinition,
  ): vscode.Task | undefined {
    const resolved = resolveTaskDefinition(definition, folder?.uri.fsPath);
    if (!resolved.ok) {
      this.services.log.warn(`Ignoring a ${benchmarkTaskType} task: ${resolved.message}`);
      void vscode.window.showErrorMessage(`Onload Bench: ${resolved.message}`);
      return undefined;
    }
    const execution = new vscode.CustomExecution(async () => {
      const key = path.resolve(resolved.planPath);
      const waiting = this.pending.get(key);
      this.pending.delete(key);
      return new BenchmarkTerminal(
        this.services,
        {
          planPath: resolved.planPath,
          resume: resolved.resume,
          ...(waiting?.password !== undefined ? { password: waiting.password } : {}),
        },
        waiting?.onOutcome,
      );
    });
    // VS Code matches a resolved task to its tasks.json entry by the definition object itself.
    const task = new vscode.Task(
      keepDefinition ?? definition,
      folder ?? vscode.TaskScope.Workspace,
      resolved.name,
      taskSource,
      execution,
    );
    task.presentationOptions = {
      reveal: vscode.TaskRevealKind.Always,
      panel: vscode.TaskPanelKind.Dedicated,
      clear: true,
    };
    return task;
  }

  /**
   * Runs a plan as a task and resolves with its outcome (the commands and the test API use this).
   * VS Code may run its own copy of a task with the same definition (one it got from
   * provideTasks), so the password and the outcome callback wait in `pending`, keyed by plan,
   * rather than in this task object's closure.
   */
  runPlan(
    planPath: string,
    options: { password?: string; resume?: ResumeChoice; resumeRunDir?: string },
  ): Promise<RunOutcome> {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(planPath));
    const definition: vscode.TaskDefinition = { ...definitionForPlan(planPath, folder?.uri.fsPath) };
    const resume =
      options.resumeRunDir !== undefined ? ({ kind: 'runDir', runDir: options.resumeRunDir } as const) : options.resume;
    if (resume?.kind === 'latest') definition['resume'] = true;
    if (resume?.kind === 'runDir') definition['resume'] = resume.runDir;
    // Restricted Mode: answered here, before VS Code is asked to run a task in an untrusted folder.
    if (refusedInRestrictedMode(`the benchmark ${path.basename(planPath)}`))
      return Promise.resolve(restrictedOutcome());
    const key = path.resolve(planPath);
    if (this.services.runs.isRunning(key))
      return Promise.reject(new Error(`${path.basename(planPath)} is already running.`));
    // An earlier request whose task never started (VS Code refused or the user dismissed it) is dropped.
    this.pending.get(key)?.onOutcome({ runDir: '', completed: 0, failed: 0, total: 0, cancelled: true });
    return new Promise<RunOutcome>((resolve, reject) => {
      const task = this.taskFor(definition, folder);
      if (!task) {
        reject(new Error(`Cannot make a task for ${planPath}.`));
        return;
      }
      this.pending.set(key, {
        ...(options.password !== undefined ? { password: options.password } : {}),
        onOutcome: resolve,
      });
      vscode.tasks.executeTask(task).then(undefined, (error: unknown) => {
        this.pending.delete(key);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }
}
