// A whole run against the lab (test/lab) through the task: it ends with exit code 0 and leaves a
// run folder whose manifest and results agree, with a throughput for every cell.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { extension, waitFor } from './host';
import { skipBecause } from './skips';
import { benchmarkTasks, declaresTaskType, readLabInfo } from './tasks.suite';

function runFolders(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isDirectory() && existsSync(join(path, 'manifest.json')));
}

export function benchmarkRunSuite(): void {
  describe('benchmark run against the lab', () => {
    it('runs the plan as a task and writes every cell to results.jsonl', async function () {
      this.timeout(240_000);
      if (!declaresTaskType()) skipBecause(this, 'package.json declares no couchbase-benchmark task definition yet');
      const lab = readLabInfo();
      if (!lab)
        skipBecause(this, 'no simulated lab plan in the workspace (test/lab/index.ts startLab() was not available)');
      await extension().activate();
      const before = new Set(runFolders(lab.resultsFolder));
      const task = await waitFor(
        `the task for ${lab.plan}`,
        async () =>
          (await benchmarkTasks()).find(
            (t) => t.name.includes(lab.planName) || JSON.stringify(t.definition).includes(lab.plan),
          ),
        15_000,
      );

      const ended = new Promise<number | undefined>((resolve) => {
        const listener = vscode.tasks.onDidEndTaskProcess((event) => {
          if (event.execution.task.name !== task.name) return;
          listener.dispose();
          resolve(event.exitCode);
        });
      });
      await vscode.tasks.executeTask(task);
      const exitCode = await Promise.race([
        ended,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the benchmark task did not end within 200 s')), 200_000),
        ),
      ]);
      const created = runFolders(lab.resultsFolder).filter((path) => !before.has(path));
      assert.equal(
        created.length,
        1,
        `expected one new run folder in ${lab.resultsFolder} (task exit code ${exitCode})`,
      );
      const manifest = JSON.parse(readFileSync(join(created[0], 'manifest.json'), 'utf8'));
      const cells = readFileSync(join(created[0], 'results.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line));
      assert.equal(manifest.cells.length, lab.cells);
      assert.deepEqual(
        cells.map((cell) => cell.id).sort(),
        manifest.cells.map((cell: { id: string }) => cell.id).sort(),
      );
      for (const cell of cells) {
        assert.equal(cell.status, 'ok', `cell ${cell.id} failed: ${JSON.stringify(cell.error)}`);
        assert.ok(cell.run.throughputOpsPerSec > 0, `cell ${cell.id} has no throughput`);
      }
      assert.equal(exitCode, 0, 'the benchmark task ended with a failure although every cell is ok');
    });
  });
}
