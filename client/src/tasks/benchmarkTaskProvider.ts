// Task type `couchbase-benchmark`: one task per plan in the workspace, and `resolveTask` so
// tasks.json entries work. Each task runs in a BenchmarkTerminal (a CustomExecution).
import * as vscode from 'vscode';
import type { RunOutcome } from '../../../engine/src/events';
import { planFileGlob, planSearchExclude } from '../planFiles';
import type { CoreServices } from '../services';
import { BenchmarkTerminal } from './benchmarkTerminal';
import { benchmarkTaskType, definitionForPlan, resolveTaskDefinition, type ResumeChoice } from './taskDefinition';

const taskSource = 'Onload Bench';

export class BenchmarkTaskProvider implements vscode.TaskProvider {
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

  /** Builds a task for a plan; `password` (tests, the API) is used for that execution only. */
  taskFor(
    definition: vscode.TaskDefinition,
    folder: vscode.WorkspaceFolder | undefined,
    keepDefinition?: vscode.TaskDefinition,
    extras: { password?: string; onOutcome?: (outcome: RunOutcome) => void } = {},
  ): vscode.Task | undefined {
    const resolved = resolveTaskDefinition(definition, folder?.uri.fsPath);
    if (!resolved.ok) {
      this.services.log.warn(`Ignoring a ${benchmarkTaskType} task: ${resolved.message}`);
      void vscode.window.showErrorMessage(`Onload Bench: ${resolved.message}`);
      return undefined;
    }
    const execution = new vscode.CustomExecution(async () =>
      new BenchmarkTerminal(
        this.services,
        { planPath: resolved.planPath, resume: resolved.resume, ...(extras.password !== undefined ? { password: extras.password } : {}) },
        extras.onOutcome,
      ),
    );
    // VS Code matches a resolved task to its tasks.json entry by the definition object itself.
    const task = new vscode.Task(keepDefinition ?? definition, folder ?? vscode.TaskScope.Workspace, resolved.name, taskSource, execution);
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated, clear: true };
    return task;
  }

  /** Runs a plan as a task and resolves with its outcome (the command and the test API use this). */
  runPlan(planPath: string, options: { password?: string; resume?: ResumeChoice; resumeRunDir?: string }): Promise<RunOutcome> {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(planPath));
    const definition: vscode.TaskDefinition = { ...definitionForPlan(planPath, folder?.uri.fsPath) };
    const resume = options.resumeRunDir !== undefined ? ({ kind: 'runDir', runDir: options.resumeRunDir } as const) : options.resume;
    if (resume?.kind === 'latest') definition['resume'] = true;
    if (resume?.kind === 'runDir') definition['resume'] = resume.runDir;
    return new Promise<RunOutcome>((resolve, reject) => {
      const extras: { password?: string; onOutcome: (outcome: RunOutcome) => void } = { onOutcome: resolve };
      if (options.password !== undefined) extras.password = options.password;
      const task = this.taskFor(definition, folder, undefined, extras);
      if (!task) {
        reject(new Error(`Cannot make a task for ${planPath}.`));
        return;
      }
      vscode.tasks.executeTask(task).then(undefined, reject);
    });
  }
}
