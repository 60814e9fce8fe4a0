import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { commandCategory, commands, gettingStartedWalkthrough } from '../../client/src/commandIds';
import { benchmarkTaskType } from '../../client/src/tasks/taskDefinition';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const contributes = manifest.contributes;

test('package.json contributes exactly the commands the extension registers, with stable titles', () => {
  const declared = contributes.commands
    .filter((command: { command: string }) => command.command.startsWith('onloadBench.'))
    .map((command: { command: string; title: string; category: string }) => [
      command.command,
      command.title,
      command.category,
    ]);
  const registered = Object.values(commands).map((command) => [command.id, command.title, commandCategory]);
  assert.deepEqual(new Set(declared.map(String)), new Set(registered.map(String)));
  assert.equal(declared.length, registered.length);
});

test("menus only name declared commands; Run sits on a plan editor's title bar", () => {
  const ids = new Set(contributes.commands.map((command: { command: string }) => command.command));
  for (const [menu, entries] of Object.entries(contributes.menus as Record<string, { command: string }[]>)) {
    for (const entry of entries) assert.ok(ids.has(entry.command), `${menu} names unknown command ${entry.command}`);
  }
  const run = contributes.menus['editor/title'].find(
    (entry: { command: string }) => entry.command === commands.runBenchmark.id,
  );
  assert.match(run.when, /benchplan/);
});

test('the task definition matches the provider: a required plan and an optional resume', () => {
  const definition = contributes.taskDefinitions.find((entry: { type: string }) => entry.type === benchmarkTaskType);
  assert.deepEqual(definition.required, ['plan']);
  assert.deepEqual(Object.keys(definition.properties).sort(), ['plan', 'resume']);
});

test('settings: the documented keys exist and no setting can hold a password', () => {
  const keys = Object.keys(contributes.configuration.properties);
  for (const key of [
    'onloadBench.ssh.binary',
    'onloadBench.ssh.configFile',
    'onloadBench.ssh.extraOptions',
    'onloadBench.resultsFolder',
    'onloadBench.couchbase.passwordEnvVar',
  ]) {
    assert.ok(keys.includes(key), `missing setting ${key}`);
  }
  assert.equal(contributes.configuration.properties['onloadBench.resultsFolder'].default, 'bench-results');
  assert.deepEqual(
    keys.filter((key) => /password/i.test(key)),
    ['onloadBench.couchbase.passwordEnvVar'],
  );
});

test("an untrusted workspace cannot pick the ssh client, its options, the engine's Node.js, the variable read as the password or the folders profiles are imported (and uploaded) from", () => {
  const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  const sensitive = Object.keys(contributes.configuration.properties).filter(
    (key) =>
      key.startsWith('onloadBench.ssh.') ||
      key.endsWith('passwordEnvVar') ||
      key === 'onloadBench.nodePath' ||
      key === 'onloadBench.profilePath',
  );
  assert.deepEqual([...sensitive].sort(), [...restricted].sort());
  // Machine-scoped settings would be ignored from user settings in remote windows such as code-server.
  for (const key of sensitive) assert.notEqual(contributes.configuration.properties[key].scope, 'machine');
});

test('every walkthrough step ticks on a context key the extension really sets, and its Markdown shows a picture that exists', () => {
  // client/src/walkthroughProgress.ts sets these (it imports vscode, so its source is read here)
  const source = readFileSync('client/src/walkthroughProgress.ts', 'utf8');
  const keys = [...source.matchAll(/'(onloadBench\.walkthrough\.[A-Za-z]+)'/g)].map((match) => match[1]);
  assert.equal(keys.length, 5);
  // npm start turns the Welcome page to the walkthrough by this id (client/src/openAtStart.ts)
  assert.deepEqual(
    contributes.walkthroughs.map((walkthrough: { id: string }) => walkthrough.id),
    [gettingStartedWalkthrough],
  );
  const steps = contributes.walkthroughs[0].steps as {
    id: string;
    media: { markdown: string };
    completionEvents: string[];
  }[];
  const contexts = steps.flatMap((step) =>
    step.completionEvents
      .filter((event) => event.startsWith('onContext:'))
      .map((event) => event.slice('onContext:'.length)),
  );
  // the first step has two forms (no folder open / a folder open) that tick on the same key
  assert.deepEqual([...new Set(contexts)].sort(), [...keys].sort());
  for (const step of steps)
    assert.ok(
      step.completionEvents.some((event) => event.startsWith('onContext:')),
      `${step.id} ticks only on a command the user may never run`,
    );
  // Opening a command is not doing the step: "Run the plan" ticks when a run starts, not when the
  // plan picker opens (cancelled, it would stay ticked); the same for the password and the results.
  const asking = [
    'runBenchmark',
    'resumeRun',
    'setPassword',
    'openResults',
    'compareRuns',
    'newPlan',
    'showCommands',
  ].map((name) => `onCommand:onloadBench.${name}`);
  for (const step of steps)
    assert.deepEqual(
      step.completionEvents.filter((event) => asking.includes(event)),
      [],
      `${step.id} ticks when a command only opens its picker`,
    );
  for (const step of steps) {
    const markdown = readFileSync(step.media.markdown, 'utf8');
    const image = /!\[[^\]]+\]\(([^)]+)\)/.exec(markdown)?.[1];
    assert.ok(image, `${step.media.markdown} has no picture`);
    assert.ok(existsSync(join(dirname(step.media.markdown), image)), `${step.media.markdown}: ${image} does not exist`);
  }
});

test('the extension activates on its languages and plans, and the walkthrough media exist', () => {
  for (const event of [
    'onLanguage:onload-profile',
    'onLanguage:ycsb-workload',
    'workspaceContains:**/*.benchplan.json',
  ]) {
    assert.ok(manifest.activationEvents.includes(event), `missing activation event ${event}`);
  }
  assert.ok(!manifest.activationEvents.includes('*'), 'activation on "*" slows every window down');
  const steps = contributes.walkthroughs[0].steps as { id: string; media: { markdown: string }; description: string }[];
  assert.deepEqual(
    steps.map((step) => step.id),
    ['openFolder', 'openExamples', 'profileDiagnostics', 'setPassword', 'runPlan', 'readResults'],
  );
  for (const step of steps) assert.ok(existsSync(step.media.markdown), `missing ${step.media.markdown}`);
  // Issue 25: opening an empty Problems view is not having read a profile's diagnostics.
  const diagnostics = (contributes.walkthroughs[0].steps as { id: string; completionEvents: string[] }[]).find(
    (step) => step.id === 'profileDiagnostics',
  )!;
  assert.deepEqual(
    diagnostics.completionEvents.filter((event) => /problems|markers/.test(event)),
    [],
  );
});

test('the walkthrough offers Open Folder only when no folder is open (issue 25 item 11)', () => {
  const steps = contributes.walkthroughs[0].steps as {
    id: string;
    description: string;
    when?: string;
    completionEvents: string[];
  }[];
  const offering = steps.filter((step) => step.description.includes('workbench.action.files.openFolder'));
  assert.ok(offering.length > 0, 'a newcomer without a folder is offered Open Folder');
  for (const step of offering)
    assert.equal(step.when, "workbenchState == 'empty'", `step ${step.id} offers Open Folder on an open folder`);
  // With a folder open, the first step says where the files are instead, and ticks on the same events.
  const inFolder = steps.find((step) => step.id === 'openExamples')!;
  assert.equal(inFolder.when, "workbenchState != 'empty'");
  assert.doesNotMatch(inFolder.description, /openFolder/);
  const empty = offering[0]!;
  assert.deepEqual(empty.completionEvents, inFolder.completionEvents);
});
