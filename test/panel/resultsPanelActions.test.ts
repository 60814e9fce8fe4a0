// The panel host's issue-13 behaviour against a fake `vscode`: one results tab per run and one
// group for them, a notification with Open and Reveal after every export, a full CSV, a point's
// records and logs opened from the webview, the pre-flight failure of a removed run, and
// "Compare two runs" as B against A.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fake, FakeUri, FakeWebviewPanel, until } from './support/fakeVscode';
import type { PanelViewModel } from '../../client/src/panel/protocol';
import { mkdir, writeFile } from 'node:fs/promises';
import { fixtureFiles, fixtureManifest } from './fixtureRun';
import { fixtureDir, panelManagers, readyModel, resultsViewType } from './support/resultsPanelHarness';

const newManager = panelManagers();

test('one tab per run, reused; a new run opens in the results group, not a new split', () => {
  const manager = newManager();
  const first = '/nonexistent/runs/run-1';
  const second = '/nonexistent/runs/run-2';
  manager.onSweepEvent(first, {
    type: 'run-started',
    runDir: first,
    manifest: { ...fixtureManifest(), runId: 'run-1' },
    resumed: false,
    alreadyDone: 0,
  });
  assert.deepEqual(
    fake.panels[0].showOptions,
    { viewColumn: -2, preserveFocus: true },
    'the first results open beside the terminal',
  );
  manager.showRun(first);
  assert.equal(fake.panels.length, 1, 'opening the same run again reuses its tab');
  assert.equal(fake.panels[0].revealed, 1);
  manager.onSweepEvent(second, {
    type: 'run-started',
    runDir: second,
    manifest: { ...fixtureManifest(), runId: 'run-2' },
    resumed: false,
    alreadyDone: 0,
  });
  assert.equal(fake.panels.length, 2);
  assert.deepEqual(
    fake.panels[1].showOptions,
    { viewColumn: 2, preserveFocus: true },
    'the second run goes to the column of the first, not Beside it',
  );
});

test('after an export: a notification with Open and Reveal in File Manager; the CSV holds every metric, percentile and mark', async () => {
  const manager = newManager();
  manager.showRun(fixtureDir);
  const panel = fake.panels[0];
  await readyModel(panel);
  assert.equal((await readyModel(panel)).exportBackground, 'light', 'exports on a light page by default');
  fake.saveDialogAnswer = FakeUri.file('/out/report.csv');
  fake.infoAnswer = 'Reveal in File Manager';
  panel.fromWebview({ type: 'export-csv', runIndex: 0 });
  await until(() => fake.commands.length === 1, 'the reveal command');
  assert.deepEqual(fake.infos[0], {
    message: 'Onload Bench: saved report.csv in /out',
    items: ['Open', 'Reveal in File Manager'],
  });
  assert.equal(fake.commands[0].command, 'revealFileInOS');
  assert.equal((fake.commands[0].args[0] as FakeUri).fsPath, '/out/report.csv');
  const rows = Buffer.from(fake.writes[0].bytes)
    .toString('utf8')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  const metrics = new Set(rows.slice(1).map((row) => row[0]));
  for (const metric of [
    'throughput',
    'read-latency',
    'read-min',
    'read-max',
    'read-p95',
    'read-p99',
    'update-latency',
    'update-p95',
    'update-p99',
  ])
    assert.ok(metrics.has(metric), `the CSV has ${metric}`);
  const marks = rows[0].indexOf('Onload · latency-best marks');
  assert.ok(
    rows.some((row) => row[0] === 'throughput' && row[4] === '20' && row[marks] === 'not-accelerated:1'),
    'the 20-thread profile cell carries its mark',
  );

  fake.saveDialogAnswer = FakeUri.file('/out/chart.png');
  fake.infoAnswer = 'Open';
  panel.fromWebview({
    type: 'save-image',
    format: 'png',
    name: 'run-fixture-25G-throughput',
    data: 'data:image/png;base64,iVBORw0KGgo=',
  });
  await until(() => fake.commands.length === 2, 'the open command');
  assert.equal(fake.commands[1].command, 'vscode.open');
  assert.equal((fake.commands[1].args[0] as FakeUri).fsPath, '/out/chart.png');
});

test("a table cell or chart point opens its cells' records and YCSB logs, never a path outside the run folder", async () => {
  const manager = newManager();
  manager.showRun(fixtureDir);
  const panel = fake.panels[0];
  fake.settings['results.exportBackground'] = 'theme';
  assert.equal((await readyModel(panel)).exportBackground, 'theme', 'the setting reaches the webview');
  fake.quickPickAnswer = (items) => items.find((item) => item.label.endsWith('25G-kernel-t10-r2.log'));
  panel.fromWebview({ type: 'open-cell', runIndex: 0, cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'] });
  await until(() => fake.opened.length === 1, 'the log opened');
  const labels = fake.quickPicks[0].items.map((item) => item.label);
  assert.deepEqual(labels, [
    '25G · kernel · 10 threads · repetition 1',
    '$(json) Cell record',
    '$(output) 25G-kernel-t10-r1.log',
    '25G · kernel · 10 threads · repetition 2',
    '$(json) Cell record',
    '$(output) 25G-kernel-t10-r2.log',
  ]);
  assert.equal(
    (fake.opened[0] as { document: FakeUri }).document.fsPath,
    join(fixtureDir, 'logs', '25G-kernel-t10-r2.log'),
  );

  fake.quickPickAnswer = (items) => items.find((item) => item.label === '$(json) Cell record');
  panel.fromWebview({ type: 'open-cell', runIndex: 0, cellIds: ['25G-kernel-t20-r2'] });
  await until(() => fake.opened.length === 3, 'the record opened');
  const record = JSON.parse((fake.opened[1] as { untitled: { content: string } }).untitled.content) as {
    id: string;
    status: string;
    error: { step: string };
  };
  assert.deepEqual([record.id, record.status, record.error.step], ['25G-kernel-t20-r2', 'failed', 'ycsb-run']);

  panel.fromWebview({ type: 'open-cell', runIndex: 0, cellIds: '../../etc/passwd' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(fake.quickPicks.length, 2, 'a malformed request is ignored');

  const { logPath } =
    require('../../client/src/panel/panelActions') as typeof import('../../client/src/panel/panelActions');
  assert.equal(logPath('/runs/a', '../b/x.log'), undefined);
  assert.equal(logPath('/runs/a', '/etc/passwd'), undefined);
  assert.equal(logPath('/runs/a', 'logs/x.log'), '/runs/a/logs/x.log');
});

test('a run that fails pre-flight: the panel shows the failure and its next step, then never comes back after a reload', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-gone-'));
  const runDir = join(dir, 'run-gone');
  try {
    const manager = newManager();
    manager.onSweepEvent(runDir, {
      type: 'run-started',
      runDir,
      manifest: { ...fixtureManifest(), runId: 'run-gone' },
      resumed: false,
      alreadyDone: 0,
    });
    const panel = fake.panels[0];
    manager.onSweepEvent(runDir, {
      type: 'preflight-check',
      check: {
        id: 'reachable',
        host: '10.0.0.9',
        ok: false,
        detail: 'ssh: connect to host 10.0.0.9 port 22: No route to host',
        action: 'Check that 10.0.0.9 is up and reachable over SSH.',
        blocking: true,
      },
    });
    const checking = await readyModel(
      panel,
      (model) => model.runs[0].status === 'preflight' && (model.runs[0].preflight?.checks.length ?? 0) === 1,
    );
    assert.equal(checking.runs[0].preflight!.checks[0].label, 'Host reachable over SSH');
    manager.onSweepEvent(runDir, {
      type: 'run-finished',
      outcome: {
        runDir: '',
        completed: 0,
        failed: 0,
        total: 0,
        cancelled: false,
        error: {
          code: 'ssh-unreachable',
          host: '10.0.0.9',
          step: 'preflight',
          message: 'No route to host 10.0.0.9.',
          action: 'Check that 10.0.0.9 is up and reachable over SSH.',
        },
      },
    });
    const failed = await readyModel(panel, (model) => model.runs[0].status === 'preflight-failed');
    assert.equal(failed.title, 'Onload Bench Results: pre-flight failed, no run was created');
    assert.equal(panel.title, failed.title);
    assert.equal(failed.runs[0].removed, true);
    assert.deepEqual(failed.runs[0].failure, {
      host: '10.0.0.9',
      step: 'preflight',
      message: 'No route to host 10.0.0.9.',
      action: 'Check that 10.0.0.9 is up and reachable over SSH.',
    });
    // The re-read after run-finished finds no folder: still the failure, no "not found" warning.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const last = panel.models().at(-1) as unknown as PanelViewModel;
    assert.equal(last.runs[0].status, 'preflight-failed');
    assert.deepEqual(last.runs[0].warnings, []);

    const restored = new FakeWebviewPanel(resultsViewType, 'old', {});
    await fake.serializers.get(resultsViewType)!.deserializeWebviewPanel(restored, { runDirs: [runDir] });
    assert.equal(restored.disposed, true, 'no panel for a run folder that does not exist');

    // The next attempt takes the failed attempt's place: one tab, not one more per failure.
    const retry = join(dir, 'run-retry');
    const before = fake.panels.length;
    manager.onSweepEvent(retry, {
      type: 'run-started',
      runDir: retry,
      manifest: { ...fixtureManifest(), runId: 'run-retry' },
      resumed: false,
      alreadyDone: 0,
    });
    assert.equal(panel.disposed, true, "the failed attempt's tab is closed");
    assert.equal(fake.panels.length, before + 1);
    assert.equal(fake.panels.filter((candidate) => !candidate.disposed).length, 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('compare: one panel of run B against run A with the differences and only common points', async () => {
  const manager = newManager();
  const dir = await mkdtemp(join(tmpdir(), 'panel-compare-'));
  try {
    const other = join(dir, 'run-b');
    await mkdir(other);
    const manifest = JSON.parse(fixtureFiles().manifest) as ReturnType<typeof fixtureManifest>;
    manifest.runId = 'run-b';
    manifest.environment!.profiles['latency-best'].EF_POLL_USEC = '0';
    await writeFile(join(other, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(
      join(other, 'results.jsonl'),
      fixtureFiles()
        .results.split('\n')
        .filter((line: string) => !line.includes('-t20-'))
        .join('\n'),
    );
    manager.compare(fixtureDir, other);
    const model = await readyModel(fake.panels[0], (candidate) => candidate.comparison !== undefined);
    assert.equal(model.title, 'Onload Bench Results: run-b against run-fixture');
    assert.deepEqual(model.comparison!.differences, [
      { section: 'profile', name: 'latency-best EF_POLL_USEC', a: '100000', b: '0' },
    ]);
    // 20 threads is planned in B but has no results: the row stays, its cells say so.
    const table = model.comparison!.groups[0].tables[0];
    assert.deepEqual(
      table.rows.map((row) => row.threads),
      [5, 10, 20],
    );
    assert.equal(table.rows[0].cells[0].deltaPercent, 0);
    assert.equal(table.rows[2].cells[0].b.state, 'pending');
    assert.equal(table.rows[2].cells[0].deltaPercent, null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
