// The panel's host side against a fake `vscode`: what it sets on the webview (CSP, resource
// roots, title), what it posts (the model of the run folder), how it treats messages from the
// webview (validated, exports written), live events, and restoring after a reload.
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fake, FakeUri, FakeWebviewPanel, until } from './support/fakeVscode';
import type { PanelViewModel } from '../../client/src/panel/protocol';
import { fixtureFiles, fixtureManifest, fixtureResults } from './fixtureRun';
import { fixtureDir, panelManagers, readyModel, resultsViewType } from './support/resultsPanelHarness';

const newManager = panelManagers();

test('showRun opens one panel with the strict CSP, local roots and the run title', async () => {
  const manager = newManager();
  manager.showRun(fixtureDir);
  manager.showRun(fixtureDir);
  assert.equal(fake.panels.length, 1, 'the second showRun reveals the same panel');
  const panel = fake.panels[0];
  assert.equal(panel.revealed, 1);
  assert.equal(panel.viewType, resultsViewType);
  assert.equal(panel.webview.options.enableScripts, true);
  assert.deepEqual(
    panel.webview.options.localResourceRoots?.map((uri) => uri.fsPath),
    ['/ext/dist/media', '/ext/media'],
  );
  const nonce = /script-src 'nonce-([^']+)'/.exec(panel.webview.html.replace(/&#39;/g, "'"))?.[1];
  assert.ok(nonce);
  assert.match(
    panel.webview.html,
    new RegExp(
      `<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}" src="https://fake\\.vscode-resource\\.test/ext/dist/media/panel\\.js"></script>`,
    ),
  );
  const model = await readyModel(panel);
  assert.equal(model.title, 'Onload Bench Results: run-fixture');
  assert.equal(panel.title, 'Onload Bench Results: run-fixture');
  assert.equal(model.runs[0].groups[0].tables[0].rows[1].profiles[0].value, 29500);
});

test('messages from the webview are validated; exports are written where the user chose', async () => {
  const manager = newManager();
  manager.showRun(fixtureDir);
  const panel = fake.panels[0];
  await readyModel(panel);
  const postedBefore = panel.posted.length;
  panel.fromWebview({ type: 'save-image', format: 'png', name: '../../etc/evil', data: 'data:image/png;base64,AAAA' });
  panel.fromWebview({ type: 'delete-everything' });
  panel.fromWebview('ready');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(fake.saveDialogs.length, 0);
  assert.equal(panel.posted.length, postedBefore);

  fake.saveDialogAnswer = FakeUri.file('/out/report.csv');
  panel.fromWebview({ type: 'export-csv', runIndex: 0 });
  await until(() => fake.writes.length === 1, 'the CSV write');
  assert.equal(fake.writes[0].path, '/out/report.csv');
  const csv = Buffer.from(fake.writes[0].bytes).toString('utf8').split('\r\n');
  assert.equal(
    csv[1],
    'throughput,ops/s,25G,127.0.0.1,5,10500,10000,11000,2,0,ok,,,15500,15000,16000,2,0,ok,,,47.62,16.21,91.97,true,0.0194,',
  );
  assert.equal(
    (fake.saveDialogs[0] as { defaultUri: FakeUri }).defaultUri.fsPath,
    join(fixtureDir, 'run-fixture-report.csv'),
  );

  fake.saveDialogAnswer = FakeUri.file('/out/chart.png');
  panel.fromWebview({
    type: 'save-image',
    format: 'png',
    name: 'run-fixture-25G-throughput',
    data: 'data:image/png;base64,iVBORw0KGgo=',
  });
  await until(() => fake.writes.length === 2, 'the PNG write');
  assert.deepEqual([...fake.writes[1].bytes], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(
    (fake.saveDialogs[1] as { defaultUri: FakeUri }).defaultUri.fsPath,
    join(fixtureDir, 'run-fixture-25G-throughput.png'),
  );

  fake.saveDialogAnswer = undefined;
  panel.fromWebview({ type: 'export-csv', runIndex: 0 });
  await until(() => fake.saveDialogs.length === 3, 'the cancelled dialog');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(fake.writes.length, 2, 'a cancelled dialog writes nothing');
});

test('a sweep opens the panel beside the terminal and its events update the model', async () => {
  const manager = newManager();
  const runDir = '/nonexistent/runs/live-run';
  const manifest = { ...fixtureManifest(), runId: 'live-run' };
  manager.onSweepEvent(runDir, { type: 'log', level: 'info', message: 'before the run: no panel' });
  assert.equal(fake.panels.length, 0);
  manager.onSweepEvent(runDir, { type: 'run-started', runDir, manifest, resumed: false, alreadyDone: 0 });
  assert.equal(fake.panels.length, 1);
  const panel = fake.panels[0];
  assert.deepEqual(panel.showOptions, { viewColumn: -2, preserveFocus: true });
  const first = await readyModel(panel, (model) => model.title === 'Onload Bench Results: live-run');
  assert.equal(first.runs[0].progress.finished, 0);
  assert.equal(first.runs[0].progress.total, 12);
  const [result] = fixtureResults();
  manager.onSweepEvent(runDir, {
    type: 'cell-started',
    id: result.id,
    key: result.key,
    index: 0,
    total: 12,
    attempt: 1,
  });
  manager.onSweepEvent(runDir, { type: 'cell-finished', result, index: 0, total: 12, remainingEstimateMs: 660000 });
  const updated = await readyModel(
    panel,
    (model) => (model.runs[0] as PanelViewModel['runs'][0]).progress.finished === 1,
  );
  assert.equal(updated.runs[0].groups[0].tables[0].rows[0].kernel.value, 10000);
  assert.deepEqual(updated.runs[0].progress.running, {
    cell: '25G · kernel · 5 threads · repetition 1',
    index: 0,
    total: 12,
    remainingEstimateMs: 660000,
  });
  manager.onSweepEvent(runDir, {
    type: 'status',
    id: result.id,
    host: 'client1',
    phase: 'run',
    status: { elapsedSec: 10, operations: 100000, currentOpsPerSec: 10000 },
    line: '',
  });
  await until(() => panel.posted.some((message) => (message as { type: string }).type === 'live'), 'the live line');
  assert.deepEqual(
    panel.posted.find((message) => (message as { type: string }).type === 'live'),
    { type: 'live', runDir, text: 'client1, YCSB run: 10 s, 100,000 operations, 10,000 ops/s' },
  );
});

test('compare opens both runs in one panel; the serializer restores a panel from webview state', async () => {
  const manager = newManager();
  manager.compare(fixtureDir, fixtureDir);
  assert.equal(fake.panels.length, 1, 'comparing a run with itself just shows it');
  const otherDir = join(__dirname, 'fixtures');
  manager.compare(fixtureDir, otherDir);
  assert.equal(fake.panels.length, 2);
  const compared = await readyModel(
    fake.panels[1],
    (model) =>
      model.runs.length === 2 &&
      model.title.startsWith('Onload Bench Results: ') &&
      model.title.endsWith(' against run-fixture'),
  );
  assert.equal(compared.runs[1].runDir, otherDir);
  assert.match(
    (compared.runs[1] as PanelViewModel['runs'][0]).warnings[0],
    /holds neither manifest\.json nor results\.jsonl/,
  );

  const serializer = fake.serializers.get(resultsViewType);
  assert.ok(serializer);
  const restored = new FakeWebviewPanel(resultsViewType, 'old title', {});
  await serializer.deserializeWebviewPanel(restored, { runDirs: [fixtureDir], scrollY: 300 });
  assert.equal(restored.disposed, false);
  assert.deepEqual(
    restored.webview.options.localResourceRoots?.map((uri) => uri.fsPath),
    ['/ext/dist/media', '/ext/media'],
  );
  assert.equal((await readyModel(restored)).title, 'Onload Bench Results: run-fixture');
  const damaged = new FakeWebviewPanel(resultsViewType, 'old title', {});
  await serializer.deserializeWebviewPanel(damaged, { runDirs: 'nope' });
  assert.equal(damaged.disposed, true, 'a panel whose state is not ours is closed');
});

test('openResultsFile accepts results.jsonl or manifest.json and explains anything else', () => {
  const manager = newManager();
  manager.openResultsFile(FakeUri.file(join(fixtureDir, 'results.jsonl')) as never);
  assert.equal(fake.panels.length, 1);
  manager.openResultsFile(FakeUri.file(join(fixtureDir, 'manifest.json')) as never);
  assert.equal(fake.panels.length, 1, 'same run folder, same panel');
  manager.openResultsFile(FakeUri.file('/tmp/notes.txt') as never);
  assert.equal(fake.panels.length, 1);
  assert.match(
    fake.errors[0],
    /notes\.txt is not a results file; open the results\.jsonl or manifest\.json of a run folder/,
  );
});

test('without a sweep feeding it, the panel re-reads results.jsonl when it changes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-host-'));
  try {
    const lines = fixtureFiles().results.trimEnd().split('\n');
    await writeFile(join(dir, 'manifest.json'), fixtureFiles().manifest);
    await writeFile(join(dir, 'results.jsonl'), lines.slice(0, 2).join('\n') + '\n');
    const manager = newManager();
    manager.showRun(dir);
    const panel = fake.panels[0];
    const first = await readyModel(panel);
    assert.equal(first.runs[0].progress.finished, 2);
    assert.equal(fake.watchers.length, 1);
    assert.equal((fake.watchers[0].pattern as { pattern: string }).pattern, '{results.jsonl,manifest.json}');
    await appendFile(join(dir, 'results.jsonl'), lines.slice(2, 4).join('\n') + '\n');
    fake.watchers[0].change.fire(FakeUri.file(join(dir, 'results.jsonl')));
    const after = await readyModel(panel, (model) => model.runs[0].progress.finished === 4);
    assert.equal(after.runs[0].groups[0].tables[0].rows[0].profiles[0].value, 15500);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('Export report writes the self-contained HTML report; a clicked point gets its time series back', async () => {
  const manager = newManager();
  manager.showRun(fixtureDir);
  const panel = fake.panels[0];
  await readyModel(panel);
  fake.saveDialogAnswer = FakeUri.file('/out/run.html');
  panel.fromWebview({ type: 'export-report', runIndex: 0 });
  await until(() => fake.writes.length === 1, 'the HTML write');
  assert.equal(
    (fake.saveDialogs[0] as { defaultUri: FakeUri }).defaultUri.fsPath,
    join(fixtureDir, 'run-fixture-report.html'),
  );
  const html = Buffer.from(fake.writes[0].bytes).toString('utf8');
  assert.match(html, /^<!DOCTYPE html>[^]*<h1>Onload Bench report: run run-fixture<\/h1>/);
  assert.equal((html.match(/<figure /g) ?? []).length, 10);
  await until(
    () => fake.infos.some((info) => (info as { message: string }).message === 'Onload Bench: saved run.html in /out'),
    'the notification after the export',
  );
  assert.deepEqual(
    (fake.infos.find((info) => (info as { message: string }).message.includes('run.html')) as { items: string[] })
      .items,
    ['Open', 'Reveal in File Manager'],
  );

  panel.fromWebview({
    type: 'open-timeseries',
    runIndex: 0,
    cellIds: ['25G-kernel-t10-r1', '25G-kernel-t10-r2'],
    stack: 'kernel',
    threads: 10,
    title: '25G, kernel, 10 threads',
  });
  await until(
    () => panel.posted.some((message) => (message as { type: string }).type === 'timeseries'),
    'the time series answer',
  );
  const answer = panel.posted.find((message) => (message as { type: string }).type === 'timeseries') as {
    view: { title: string; cells: { repetition: number; throughput: { opsPerSec: number }[] }[] };
  };
  assert.equal(answer.view.title, '25G, kernel, 10 threads');
  assert.deepEqual(
    answer.view.cells.map((cell) => [cell.repetition, cell.throughput.at(-1)?.opsPerSec]),
    [
      [1, 18000],
      [2, 19000],
    ],
  );
});

test('a live run re-reads its folder when the first cell starts and at the end: the environment written after pre-flight shows', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'panel-live-'));
  try {
    const withEnvironment = fixtureManifest();
    const { environment, ...withoutEnvironment } = withEnvironment;
    assert.ok(environment, 'the fixture has an environment');
    const manager = newManager();
    // the run starts before pre-flight has recorded the environment
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(withoutEnvironment));
    manager.onSweepEvent(dir, {
      type: 'run-started',
      runDir: dir,
      manifest: withoutEnvironment,
      resumed: false,
      alreadyDone: 0,
    });
    const panel = fake.panels[0];
    const first = await readyModel(panel);
    assert.deepEqual(first.runs[0].environment, []);
    // pre-flight done: the engine writes the environment into the manifest, then starts a cell
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(withEnvironment));
    const [result] = fixtureResults();
    manager.onSweepEvent(dir, {
      type: 'cell-started',
      id: result.id,
      key: result.key,
      index: 0,
      total: 12,
      attempt: 1,
    });
    const after = await readyModel(panel, (model) => model.runs[0].environment.length > 0);
    assert.deepEqual(after.runs[0].environment.map((row) => row.host).sort(), Object.keys(environment.hosts).sort());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
