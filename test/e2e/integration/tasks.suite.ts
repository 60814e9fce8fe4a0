// The task provider lists a task per plan in the workspace, under the couchbase-benchmark type.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { labInfoFile, type LabInfo } from '../support/labInfo';
import { extension, waitFor, workspacePath } from './host';
import { skipBecause } from './skips';

export function readLabInfo(): LabInfo | undefined {
  const path = workspacePath(labInfoFile);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as LabInfo) : undefined;
}

export function declaresTaskType(): boolean {
  const definitions = (extension().packageJSON.contributes?.taskDefinitions ?? []) as { type: string }[];
  return definitions.some((definition) => definition.type === 'couchbase-benchmark');
}

export async function benchmarkTasks(): Promise<vscode.Task[]> {
  return vscode.tasks.fetchTasks({ type: 'couchbase-benchmark' });
}

export function tasksSuite(): void {
  describe('benchmark tasks', () => {
    it("lists the simulated lab plan's task", async function () {
      if (!declaresTaskType()) skipBecause(this, 'package.json declares no couchbase-benchmark task definition yet');
      const lab = readLabInfo();
      if (!lab)
        skipBecause(this, 'no simulated lab plan in the workspace (test/lab/index.ts startLab() was not available)');
      await extension().activate();
      const task = await waitFor(
        `a couchbase-benchmark task for ${lab.plan}`,
        async () =>
          (await benchmarkTasks()).find(
            (t) => t.name.includes(lab.planName) || JSON.stringify(t.definition).includes(lab.plan),
          ),
        15_000,
      );
      assert.equal(task.definition.type, 'couchbase-benchmark');
      assert.equal(task.source.length > 0, true);
    });
  });
}
