import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SweepEvent } from '../../engine/src/events';
import type { Plan } from '../../engine/src/plan/planSchema';
import { chooseNodeRuntime, engineEnvironment, runSweepInProcess } from '../../client/src/engineProcess';

// The real engine entry, loaded through tsx so the test needs no build.
const engineEntry = 'client/src/engineHost/main.ts';
const tsx = ['--import', 'tsx'];

function scratch(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ob-client-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const request = (dir: string, plan: Plan) => ({
  planPath: join(dir, 'lab.benchplan.json'),
  plan,
  resultsRoot: join(dir, 'results'),
  password: 'pw-Secret-42',
});

test("the engine runs on the setting's Node, else the host's own Node, else node from PATH under Electron", () => {
  assert.equal(
    chooseNodeRuntime({ setting: ' /opt/node/bin/node ', execPath: '/x/code', isElectron: true }),
    '/opt/node/bin/node',
  );
  assert.equal(chooseNodeRuntime({ setting: undefined, execPath: '/cs/lib/node', isElectron: false }), '/cs/lib/node');
  assert.equal(chooseNodeRuntime({ setting: '', execPath: '/usr/share/code/code', isElectron: true }), 'node');
});

test("the engine's environment drops the flag that makes the Couchbase SDK look for an Electron build", () => {
  const env = engineEnvironment({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1', HOME: '/root' });
  assert.deepEqual(env, { PATH: '/bin', HOME: '/root' });
});

test('the password reaches the engine over IPC only: not in its arguments or environment', async (t) => {
  const dir = scratch(t);
  const seen = join(dir, 'seen.json');
  const probe = join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    `const fs = require('fs');
     process.on('message', (message) => {
       fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ argv: process.argv, execArgv: process.execArgv, env: process.env, message }));
       process.send({ type: 'done', outcome: { runDir: '', completed: 0, failed: 0, total: 0, cancelled: false } }, () => process.exit(0));
     });`,
  );
  const previous = process.env['ELECTRON_RUN_AS_NODE'];
  process.env['ELECTRON_RUN_AS_NODE'] = '1';
  t.after(() =>
    previous === undefined
      ? delete process.env['ELECTRON_RUN_AS_NODE']
      : (process.env['ELECTRON_RUN_AS_NODE'] = previous),
  );
  const outcome = await runSweepInProcess({
    modulePath: probe,
    nodePath: process.execPath,
    request: request(dir, {} as Plan),
    signal: new AbortController().signal,
    onEvent: () => undefined,
  });
  assert.deepEqual(outcome, { runDir: '', completed: 0, failed: 0, total: 0, cancelled: false });
  const recorded = JSON.parse(readFileSync(seen, 'utf8'));
  assert.equal(recorded.message.type, 'run');
  assert.equal(recorded.message.request.password, 'pw-Secret-42');
  assert.equal(JSON.stringify(recorded.argv).includes('pw-Secret-42'), false);
  assert.equal(JSON.stringify(recorded.execArgv).includes('pw-Secret-42'), false);
  assert.equal(JSON.stringify(recorded.env).includes('pw-Secret-42'), false);
  assert.equal(recorded.env.ELECTRON_RUN_AS_NODE, undefined);
});

test('a plan the engine rejects comes back as a plan-invalid outcome with its run-finished event', async (t) => {
  const dir = scratch(t);
  const events: SweepEvent[] = [];
  const outcome = await runSweepInProcess({
    modulePath: engineEntry,
    nodePath: process.execPath,
    execArgv: tsx,
    request: request(dir, { servers: [] } as unknown as Plan),
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
  });
  assert.equal(outcome.error?.code, 'plan-invalid');
  assert.equal(outcome.cancelled, false);
  assert.deepEqual(
    events.map((event) => event.type),
    ['run-finished'],
  );
});

test('an unreachable server stops the run in pre-flight and leaves no half-made run folder behind', async (t) => {
  const dir = scratch(t);
  writeFileSync(join(dir, 'ssh_config'), 'Host *\n  Port 1\n  ConnectTimeout 5\n');
  writeFileSync(join(dir, 'workloada'), 'recordcount=10\noperationcount=10\nreadproportion=1\nupdateproportion=0\n');
  const plan = {
    servers: [{ host: '127.0.0.1' }],
    interfaces: { lo: '127.0.0.1' },
    clients: [{ host: '127.0.0.1', ycsbHome: '/opt/ycsb' }],
    bucket: { name: 'bench' },
    workload: { path: 'workloada' },
    stacks: ['kernel'],
    threads: [1],
  } as Plan;
  const events: SweepEvent[] = [];
  const commands: string[] = [];
  const outcome = await runSweepInProcess({
    modulePath: engineEntry,
    nodePath: process.execPath,
    execArgv: tsx,
    request: { ...request(dir, plan), ssh: { configFile: join(dir, 'ssh_config') } },
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    onRemoteCommand: (line) => commands.push(line),
  });
  assert.equal(outcome.error?.code, 'ssh-unreachable');
  assert.equal(outcome.error?.host, '127.0.0.1');
  assert.equal(outcome.total, 1);
  // Nothing ran, so nothing is offered for resumption later.
  assert.equal(existsSync(outcome.runDir), false);
  const types = events.map((event) => event.type);
  assert.equal(types[0], 'run-started');
  assert.ok(types.includes('preflight'));
  // Each check is reported as it completes, before the whole list (the panel shows them live).
  assert.ok(
    types.includes('preflight-check') && types.indexOf('preflight-check') < types.indexOf('preflight'),
    types.join(' '),
  );
  assert.equal(types.at(-1), 'run-finished');
  assert.equal(JSON.stringify(events).includes('pw-Secret-42'), false);
  // The reachability check's command reached the log, attributed to its host and step.
  assert.ok(
    commands.some((line) => line.startsWith('127.0.0.1 [') && line.includes('$ ')),
    `no remote command logged: ${JSON.stringify(commands)}`,
  );
  assert.equal(JSON.stringify(commands).includes('pw-Secret-42'), false);
});

test('a missing Node.js or an engine that dies become outcomes that say what to do', async (t) => {
  const dir = scratch(t);
  const missing = await runSweepInProcess({
    modulePath: engineEntry,
    nodePath: join(dir, 'no-such-node'),
    request: request(dir, {} as Plan),
    signal: new AbortController().signal,
    onEvent: () => undefined,
  });
  assert.equal(missing.error?.code, 'internal');
  assert.match(missing.error?.message ?? '', /Node\.js was not found at ".*no-such-node"/);
  assert.match(missing.error?.action ?? '', /onloadBench\.nodePath/);

  const crash = join(dir, 'crash.cjs');
  writeFileSync(crash, "process.stderr.write('boom: out of memory\\n'); process.exit(3);");
  const died = await runSweepInProcess({
    modulePath: crash,
    nodePath: process.execPath,
    request: { ...request(dir, {} as Plan), resumeRunDir: join(dir, 'results', 'run-1') },
    signal: new AbortController().signal,
    onEvent: () => undefined,
  });
  assert.equal(died.runDir, join(dir, 'results', 'run-1'));
  assert.match(died.error?.message ?? '', /exited with code 3 before the run finished: boom: out of memory/);
  assert.match(died.error?.action ?? '', /Resume the run/);
});

test('a run cancelled before it starts starts no process and says cancelled', async (t) => {
  const dir = scratch(t);
  const abort = new AbortController();
  abort.abort();
  const outcome = await runSweepInProcess({
    modulePath: join(dir, 'never-started.cjs'),
    nodePath: process.execPath,
    request: request(dir, {} as Plan),
    signal: abort.signal,
    onEvent: () => undefined,
  });
  assert.deepEqual(outcome, { runDir: '', completed: 0, failed: 0, total: 0, cancelled: true });
});
