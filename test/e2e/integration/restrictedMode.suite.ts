// Restricted Mode (issue 11 item 4): in a workspace that is not trusted nothing from it runs or is
// uploaded. The workspace's own settings try to pick the SSH client and the profile folders; the
// restricted ones are ignored, the run command and the API refuse before any SSH, no run folder
// appears, and editing help still works. Runs in its own code-server with Workspace Trust on and
// the folder untrusted (run.ts), only when ONLOAD_BENCH_E2E_SUITES=restricted.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { extension, openDocument, waitFor, workspacePath, workspaceUri } from './host';
import { skipBecause } from './skips';
import { readLabInfo } from './tasks.suite';

export const planted = { sshBinary: 'e2e/planted-ssh.sh', marker: 'e2e/planted-ssh-ran' };

export function restrictedModeSuite(): void {
  describe('Restricted Mode: nothing from an untrusted workspace runs or uploads', () => {
    it('the workspace is untrusted and the extension is active', async () => {
      assert.equal(vscode.workspace.isTrusted, false, 'the driver should have opened the folder in Restricted Mode');
      await extension().activate();
      assert.equal(extension().isActive, true);
    });

    it("the workspace's settings cannot choose the SSH client or the profile folders", () => {
      assert.match(
        readFileSync(workspacePath('.vscode', 'settings.json'), 'utf8'),
        /planted-ssh\.sh/,
        'the driver planted the setting',
      );
      const section = vscode.workspace.getConfiguration('onloadBench');
      assert.equal(section.get('ssh.binary'), 'ssh');
      assert.deepEqual(section.get('profilePath'), []);
    });

    it('Run Couchbase benchmark and the API refuse: no SSH, no run folder', async function () {
      const lab = readLabInfo();
      if (!lab) skipBecause(this, 'no simulated lab plan in the workspace');
      const before = existsSync(lab.resultsFolder) ? readdirSync(lab.resultsFolder).length : 0;
      const viaCommand = await vscode.commands.executeCommand(extensionCommand('runBenchmark'), workspaceUri(lab.plan));
      assert.equal(viaCommand, undefined);
      const api = extension().exports as {
        runPlan(path: string): Promise<{ runDir: string; error?: { message: string } }>;
      };
      const outcome = await api.runPlan(workspacePath(lab.plan));
      assert.equal(outcome.runDir, '');
      assert.match(outcome.error?.message ?? '', /Restricted Mode/);
      const resumed = await vscode.commands.executeCommand(
        extensionCommand('resumeRun'),
        workspacePath('bench-results', 'anything'),
      );
      assert.equal(resumed, undefined);
      assert.equal(
        existsSync(lab.resultsFolder) ? readdirSync(lab.resultsFolder).length : 0,
        before,
        'no run folder was created',
      );
      assert.equal(existsSync(workspacePath(planted.marker)), false, 'the planted ssh never ran');
    });

    it('editing help still works: a wrong option is diagnosed', async () => {
      const document = await openDocument('e2e', 'wrong-option.opf');
      const diagnostics = await waitFor('diagnostics on wrong-option.opf', () => {
        const found = vscode.languages.getDiagnostics(document.uri);
        return found.length > 0 ? found : undefined;
      });
      assert.ok(
        diagnostics.some(
          (diagnostic) =>
            String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code) === 'unknown-option',
        ),
        JSON.stringify(diagnostics.map((d) => d.code)),
      );
    });
  });
}

function extensionCommand(name: 'runBenchmark' | 'resumeRun'): string {
  return `onloadBench.${name}`;
}
