// Issue 26 B4, the panel's part: "Open records and logs" opens a cell's log only when it is a
// regular file of the run folder reached without a link. A log planted as a symlink to
// /etc/passwd, or a logs/ folder that is a symlink, is refused with a message naming the link;
// a real log opens as before. Against the fake `vscode` of support/fakeVscode.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { CellResult } from '../../engine/src/model';
import { fake, type FakeUri, until } from './support/fakeVscode';
import { panelManagers, readyModel } from './support/resultsPanelHarness';

const newManager = panelManagers();
const root = mkdtempSync(join(tmpdir(), 'panel-log-links-'));
after(() => rmSync(root, { recursive: true, force: true }));

function runFolder(name: string, logs: string[]): string {
  const runDir = join(root, name);
  mkdirSync(runDir, { recursive: true });
  const result: CellResult = {
    kind: 'cell',
    id: 'c1',
    key: { interface: '25G', address: '10.0.0.1', stack: 'kernel', threads: 1, axes: {}, repetition: 1 },
    status: 'ok',
    accelerated: null,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z',
    attempts: 1,
    logs,
  };
  writeFileSync(join(runDir, 'results.jsonl'), `${JSON.stringify(result)}\n`);
  writeFileSync(
    join(runDir, 'manifest.json'),
    JSON.stringify({
      kind: 'manifest',
      formatVersion: 1,
      runId: name,
      createdAt: '2026-01-01T00:00:00Z',
      plan: {},
      cells: [{ id: 'c1', key: result.key }],
    }),
  );
  return runDir;
}

async function pickLog(runDir: string, label: string): Promise<void> {
  const manager = newManager();
  manager.showRun(runDir);
  const panel = fake.panels[0];
  await readyModel(panel);
  fake.quickPickAnswer = (items) => items.find((item) => item.label === `$(output) ${label}`);
  panel.fromWebview({ type: 'open-cell', runIndex: 0, cellIds: ['c1'] });
  await until(() => fake.opened.length > 0 || fake.errors.length > 0, 'the log opened or was refused');
}

test('a log planted as a symlink to /etc/passwd is not opened; the refusal names the link', async () => {
  const runDir = runFolder('linked-log', ['logs/cell/passwd.log']);
  mkdirSync(join(runDir, 'logs', 'cell'), { recursive: true });
  symlinkSync('/etc/passwd', join(runDir, 'logs', 'cell', 'passwd.log'));
  await pickLog(runDir, 'passwd.log');
  assert.deepEqual(fake.opened, []);
  assert.match(
    fake.errors[0] ?? '',
    /logs\/cell\/passwd\.log is a symbolic link; files of a run folder are never followed/,
  );
});

test('a logs/ folder that is a symlink is not followed either', async () => {
  const runDir = runFolder('linked-logs-folder', ['logs/passwd']);
  symlinkSync('/etc', join(runDir, 'logs'));
  await pickLog(runDir, 'passwd');
  assert.deepEqual(fake.opened, []);
  assert.match(fake.errors[0] ?? '', /logs is a symbolic link/);
});

test('a real log of the run folder opens', async () => {
  const runDir = runFolder('real-log', ['logs/cell/attempt1-cli-run.log']);
  mkdirSync(join(runDir, 'logs', 'cell'), { recursive: true });
  writeFileSync(join(runDir, 'logs', 'cell', 'attempt1-cli-run.log'), 'YCSB output\n');
  await pickLog(runDir, 'attempt1-cli-run.log');
  assert.equal(
    (fake.opened[0] as { document: FakeUri }).document.fsPath,
    join(runDir, 'logs', 'cell', 'attempt1-cli-run.log'),
  );
});
