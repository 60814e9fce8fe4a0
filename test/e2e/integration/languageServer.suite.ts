// The language client starts the server and what a user relies on arrives: diagnostics with a
// range, severity and code, a quick fix, and completions, for Onload profiles and YCSB workloads.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { extension, openDocument, positionAfter, rangeOf, repoFileMentions, waitFor, workspacePath } from './host';
import { skipBecause } from './skips';

function labels(list: vscode.CompletionList | undefined): string[] {
  return (list?.items ?? []).map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
}

async function diagnosticsFor(document: vscode.TextDocument, what: string): Promise<vscode.Diagnostic[]> {
  return waitFor(`diagnostics for ${what}`, () => {
    const found = vscode.languages.getDiagnostics(document.uri);
    return found.length > 0 ? found : undefined;
  });
}

/** Appends a line without saving (the server sees the change) and returns the end position. */
async function appendLine(document: vscode.TextDocument, line: string): Promise<vscode.Position> {
  const edit = new vscode.WorkspaceEdit();
  const end = document.lineAt(document.lineCount - 1).range.end;
  edit.insert(document.uri, end, `\n${line}`);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit was not applied');
  return document.lineAt(document.lineCount - 1).range.end;
}

/**
 * The file's errors once the server has analysed it: appends a line the server must flag and waits
 * for that diagnostic (a state, not a sleep: a clean file publishes nothing to wait for), then
 * returns the errors on every other line. The caller reverts the edit.
 */
async function errorsBesideMarker(
  document: vscode.TextDocument,
  marker: string,
  what: string,
): Promise<vscode.Diagnostic[]> {
  const line = (await appendLine(document, marker)).line;
  const all = await waitFor(`the server's diagnostic on the marker line of ${what}`, () => {
    const found = vscode.languages.getDiagnostics(document.uri);
    return found.some((d) => d.range.start.line === line) ? found : undefined;
  });
  return all.filter((d) => d.range.start.line !== line && d.severity === vscode.DiagnosticSeverity.Error);
}

async function completionsAt(
  document: vscode.TextDocument,
  position: vscode.Position,
  expected: string,
): Promise<string[]> {
  // The server may still be parsing the edit: ask again until the expected item shows up.
  return waitFor(`completion item ${expected}`, async () => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      position,
    );
    const found = labels(list);
    return found.includes(expected) ? found : undefined;
  });
}

function exampleFiles(filter: (name: string) => boolean): string[] {
  const root = workspacePath();
  const found: string[] = [];
  const walk = (dir: string, rel: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (['e2e', 'lab', '.vscode', 'bench-results'].includes(entry.name) && rel.length === 0) continue;
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, [...rel, entry.name]);
      else if (filter([...rel, entry.name].join('/'))) found.push([...rel, entry.name].join('/'));
    }
  };
  if (existsSync(root)) walk(root, []);
  return found.sort();
}

export function languageServerSuite(): void {
  describe('Onload profile language server', () => {
    before(async function () {
      if (!repoFileMentions('server/src/languages.ts', 'onload'))
        skipBecause(this, 'server/src/languages.ts registers no Onload profile service yet');
      await extension().activate();
    });

    it('flags the misspelt option EF_POLL_USECS on its name, with a code', async () => {
      const document = await openDocument('e2e', 'wrong-option.opf');
      const diagnostics = await diagnosticsFor(document, 'wrong-option.opf');
      const onName = diagnostics.find((d) => d.range.isEqual(rangeOf(document, 'EF_POLL_USECS')));
      assert.ok(
        onName,
        `no diagnostic on EF_POLL_USECS; got ${JSON.stringify(diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.message]))}`,
      );
      assert.ok(onName.severity <= vscode.DiagnosticSeverity.Warning, `severity ${onName.severity} is below a warning`);
      assert.ok(onName.code !== undefined && onName.code !== '', 'the diagnostic has no code');
      // The correct line below has nothing to complain about.
      assert.equal(diagnostics.filter((d) => d.range.start.line === 2).length, 0);
    });

    it('offers the quick fix EF_POLL_USEC and the fix makes the diagnostic go away', async () => {
      const document = await openDocument('e2e', 'wrong-option.opf');
      await diagnosticsFor(document, 'wrong-option.opf');
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        document.uri,
        rangeOf(document, 'EF_POLL_USECS'),
        vscode.CodeActionKind.QuickFix.value,
      );
      const fix = actions?.find((action) => action.title.includes('EF_POLL_USEC') && action.edit !== undefined);
      assert.ok(fix, `no quick fix naming EF_POLL_USEC; got ${JSON.stringify(actions?.map((a) => a.title))}`);
      assert.ok(await vscode.workspace.applyEdit(fix.edit!));
      assert.match(document.lineAt(1).text, /^onload_set EF_POLL_USEC 100000$/);
      await waitFor('the diagnostic to clear after the fix', () =>
        vscode.languages.getDiagnostics(document.uri).some((d) => d.range.start.line === 1) ? undefined : true,
      );
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });

    it('completes EF_ option names', async () => {
      const document = await openDocument('e2e', 'complete-me.opf');
      const position = await appendLine(document, 'onload_set EF_TCP_FAST');
      const found = await completionsAt(document, position, 'EF_TCP_FASTSTART_INIT');
      assert.ok(
        found.every((label) => label.startsWith('EF_')),
        `non-EF_ items offered: ${found.filter((l) => !l.startsWith('EF_')).join(', ')}`,
      );
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });

    it('the example profiles have no errors and complete EF_ names', async function () {
      const profiles = exampleFiles((name) => name.endsWith('.opf'));
      if (profiles.length === 0) skipBecause(this, 'examples/ has no .opf profile yet');
      for (const profile of profiles) {
        const document = await openDocument(...profile.split('/'));
        if (/mistake/i.test(profile)) {
          // The deliberate-mistakes example must light up.
          await diagnosticsFor(document, profile);
        } else {
          // Waits for the server's answer on this document (a marker line it must flag), not for a time.
          const errors = await errorsBesideMarker(document, 'onload_set EF_E2E_NOT_AN_OPTION 1', profile);
          assert.deepEqual(
            errors.map((d) => `${profile}:${d.range.start.line + 1} ${d.message}`),
            [],
          );
          await vscode.commands.executeCommand('workbench.action.files.revert');
        }
        // A name the file does not set yet (servers may leave out names already set).
        const name =
          ['EF_POLL_USEC', 'EF_SPIN_USEC', 'EF_TCP_FASTSTART_INIT', 'EF_NAME', 'EF_TCP_FASTSTART_LOSS'].find(
            (n) => !document.getText().includes(n),
          ) ?? 'EF_TCP_FASTSTART_LOSS';
        const position = await appendLine(document, `onload_set ${name.slice(0, -2)}`);
        await completionsAt(document, position, name);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    });
  });

  describe('YCSB workload language server', () => {
    before(async function () {
      if (!repoFileMentions('server/src/languages.ts', 'ycsb'))
        skipBecause(this, 'server/src/languages.ts registers no YCSB workload service yet');
      await extension().activate();
    });

    it('flags requestdistribution=gaussian on its line, with a code', async () => {
      const document = await openDocument('e2e', 'workloads', 'workloadx');
      const diagnostics = await diagnosticsFor(document, 'workloads/workloadx');
      const line = positionAfter(document, 'requestdistribution=').line;
      const onValue = diagnostics.find(
        (d) => d.range.start.line === line && d.range.contains(rangeOf(document, 'gaussian').start),
      );
      assert.ok(
        onValue,
        `no diagnostic on "gaussian"; got ${JSON.stringify(diagnostics.map((d) => [d.range.start.line, d.message]))}`,
      );
      assert.equal(onValue.severity, vscode.DiagnosticSeverity.Error);
      assert.ok(onValue.code !== undefined && onValue.code !== '', 'the diagnostic has no code');
      assert.match(onValue.message, /uniform|zipfian/, 'the message should name the accepted values');
    });

    it('completes property names', async () => {
      const document = await openDocument('e2e', 'workloads', 'workloadx');
      const position = await appendLine(document, 'readmodify');
      await completionsAt(document, position, 'readmodifywriteproportion');
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });

    it('the example workloads have no errors and complete property names', async function () {
      const workloads = exampleFiles((name) => /(^|\/)workloads\/workload[^/]*$/.test(name) || name.endsWith('.ycsb'));
      if (workloads.length === 0) skipBecause(this, 'examples/ has no YCSB workload yet');
      for (const workload of workloads) {
        const document = await openDocument(...workload.split('/'));
        const markerKey =
          ['zeropadding', 'maxexecutiontime', 'insertcount'].find((k) => !document.getText().includes(k)) ??
          'zeropadding';
        const errors = await errorsBesideMarker(document, `${markerKey}=not-a-number`, workload);
        assert.deepEqual(
          errors.map((d) => `${workload}:${d.range.start.line + 1} ${d.message}`),
          [],
        );
        await vscode.commands.executeCommand('workbench.action.files.revert');
        // A property the file does not set yet (servers may leave out keys already set).
        const key =
          [
            'maxexecutiontime',
            'zeropadding',
            'hotspotdatafraction',
            'insertorder',
            'measurementtype',
            'fieldcount',
            'recordcount',
          ].find((k) => !document.getText().includes(k)) ?? 'maxexecutiontime';
        const position = await appendLine(document, key.slice(0, -3));
        await completionsAt(document, position, key);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    });
  });
}
