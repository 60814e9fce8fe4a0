// The extension loads from the development path, activates, and VS Code maps its file types.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { extension, openDocument, repoPath } from './host';
import { skipBecause } from './skips';

export function extensionSuite(): void {
  describe('extension', () => {
    it('is loaded from the repository with its manifest', () => {
      const loaded = extension();
      assert.equal(loaded.packageJSON.name, 'onload-bench');
      assert.equal(loaded.extensionPath, repoPath());
    });

    it('activates without error', async function () {
      if (!existsSync(repoPath('dist', 'extension.js')))
        skipBecause(this, 'dist/extension.js is not built (client/src/extension.ts has not landed)');
      await extension().activate();
      assert.equal(extension().isActive, true);
    });

    it('gives .opf files the language id onload-profile', async () => {
      const document = await openDocument('e2e', 'wrong-option.opf');
      assert.equal(document.languageId, 'onload-profile');
    });

    it('gives workloads/workload* files the language id ycsb-workload', async () => {
      const document = await openDocument('e2e', 'workloads', 'workloadx');
      assert.equal(document.languageId, 'ycsb-workload');
    });

    it('contributes the "Run Couchbase benchmark" command', async function () {
      const contributed = (extension().packageJSON.contributes?.commands ?? []) as { command: string; title: string }[];
      if (!contributed.some((c) => c.command === 'onloadBench.runBenchmark'))
        skipBecause(this, 'package.json does not contribute onloadBench.runBenchmark yet');
      await extension().activate();
      const commands = await vscode.commands.getCommands(true);
      assert.ok(
        commands.includes('onloadBench.runBenchmark'),
        'onloadBench.runBenchmark is not registered after activation',
      );
    });
  });
}
