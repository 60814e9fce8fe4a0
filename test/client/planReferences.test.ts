import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  findPlanFileReferences,
  linkablePlanReferences,
  planReferenceAt,
  type PlanFileReference,
} from '../../client/src/planReferences';

const plansDir = resolve('examples/plans');
const readPlan = (name: string) => readFileSync(join(plansDir, name), 'utf8');
const range = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});

/** A minimal plan around the given workload, stacks and clients (one key per line). */
function planText(parts: { workload?: unknown; stacks?: unknown; clients?: unknown }): string {
  return [
    '{',
    `"workload": ${JSON.stringify(parts.workload ?? { path: 'workloads/workloada' })},`,
    `"stacks": ${JSON.stringify(parts.stacks ?? ['kernel'])},`,
    `"clients": ${JSON.stringify(parts.clients ?? [])}`,
    '}',
  ].join('\n');
}

test('the example plans link their workload and the Onload stack profile, at the exact place of each path', () => {
  const expected: Record<string, PlanFileReference[]> = {
    'cookbook.benchplan.json': [
      {
        kind: 'workload',
        jsonPath: ['workload', 'path'],
        value: 'workloads/workloada',
        resolvedPath: join(plansDir, 'workloads/workloada'),
        range: range(22, 13, 32),
      },
      {
        kind: 'stack-profile',
        jsonPath: ['stacks', 1, 'profile'],
        value: 'profiles/redis-balanced.opf',
        resolvedPath: join(plansDir, 'profiles/redis-balanced.opf'),
        range: range(25, 63, 90),
      },
    ],
    'workload-a.benchplan.json': [
      {
        kind: 'workload',
        jsonPath: ['workload', 'path'],
        value: 'workloads/workloada',
        resolvedPath: join(plansDir, 'workloads/workloada'),
        range: range(11, 25, 44),
      },
      {
        kind: 'stack-profile',
        jsonPath: ['stacks', 1, 'profile'],
        value: 'profiles/redis-balanced.opf',
        resolvedPath: join(plansDir, 'profiles/redis-balanced.opf'),
        range: range(12, 63, 90),
      },
    ],
    'workload-e.benchplan.json': [
      {
        kind: 'workload',
        jsonPath: ['workload', 'path'],
        value: 'workloads/workloade',
        resolvedPath: join(plansDir, 'workloads/workloade'),
        range: range(11, 25, 44),
      },
      {
        kind: 'stack-profile',
        jsonPath: ['stacks', 1, 'profile'],
        value: 'profiles/redis-balanced.opf',
        resolvedPath: join(plansDir, 'profiles/redis-balanced.opf'),
        range: range(12, 63, 90),
      },
    ],
  };
  for (const [name, references] of Object.entries(expected)) {
    const text = readPlan(name);
    // The files are really there, so every reference is linked.
    assert.deepEqual(linkablePlanReferences(text, join(plansDir, name)), references, name);
    // The range covers exactly the path as written in the file.
    const lines = text.split('\n');
    for (const reference of references) {
      assert.equal(
        lines[reference.range.start.line].slice(reference.range.start.character, reference.range.end.character),
        reference.value,
        name,
      );
    }
  }
});

test('only files that exist are linked: a missing workload, a missing profile and a folder are not', () => {
  const planPath = join(plansDir, 'scratch.benchplan.json');
  const text = planText({
    workload: { path: 'workloads/no-such-workload' },
    stacks: [
      'kernel',
      { name: 'here', profile: 'profiles/redis-balanced.opf' },
      { name: 'gone', profile: 'profiles/missing.opf' },
      { name: 'dir', profile: 'profiles' },
    ],
  });
  assert.deepEqual(
    findPlanFileReferences(text, planPath).map((reference) => reference.value),
    ['workloads/no-such-workload', 'profiles/redis-balanced.opf', 'profiles/missing.opf', 'profiles'],
  );
  const linked = linkablePlanReferences(text, planPath);
  assert.deepEqual(
    linked.map((reference) => [reference.jsonPath, reference.resolvedPath]),
    [[['stacks', 1, 'profile'], join(plansDir, 'profiles/redis-balanced.opf')]],
  );
});

test("a client's runUnderOnload profile path is a reference; true/false are not; absolute paths stay as written", () => {
  const text = planText({
    workload: { path: '/abs/workloads/workloadb' },
    clients: [
      { host: 'a', runUnderOnload: true },
      { host: 'b', runUnderOnload: '../profiles/ycsb.opf' },
      { host: 'c', runUnderOnload: false },
    ],
  });
  const references = findPlanFileReferences(text, '/w/plans/p.benchplan.json');
  assert.deepEqual(
    references.map(({ kind, jsonPath, resolvedPath }) => ({ kind, jsonPath, resolvedPath })),
    [
      { kind: 'workload', jsonPath: ['workload', 'path'], resolvedPath: '/abs/workloads/workloadb' },
      { kind: 'client-profile', jsonPath: ['clients', 1, 'runUnderOnload'], resolvedPath: '/w/profiles/ycsb.opf' },
    ],
  );
  // Line 3 is `"clients": [{"host":"a","runUnderOnload":true},{"host":"b","runUnderOnload":"../profiles/ycsb.opf"},...`
  const start = text.split('\n')[3].indexOf('../profiles');
  assert.deepEqual(references[1].range, range(3, start, start + '../profiles/ycsb.opf'.length));
  // Only the fake file system's files are linked.
  assert.deepEqual(
    linkablePlanReferences(text, '/w/plans/p.benchplan.json', (path) => path === '/w/profiles/ycsb.opf').map(
      (reference) => reference.kind,
    ),
    ['client-profile'],
  );
});

test('ranges are in UTF-16 code units and count CRLF and lone CR line breaks as VS Code does; escapes are decoded in the value only', () => {
  const text = '{\r\n"name": "\u00e9t\u00e9 \u{1F680}",\r"workload": {"path": "work\\/loads\\u002fworkloada"}\r\n}';
  const [reference] = findPlanFileReferences(text, '/w/p.benchplan.json');
  assert.equal(reference.value, 'work/loads/workloada');
  assert.equal(reference.resolvedPath, '/w/work/loads/workloada');
  // Line 2 is `"workload": {"path": "` (22 characters) then 26 characters of escaped path.
  assert.deepEqual(reference.range, range(2, 22, 48));

  const emoji = findPlanFileReferences('{"workload": {"path": "\u{1F680}/w"}}', '/w/p.benchplan.json')[0];
  assert.deepEqual(emoji.range, range(0, 23, 27));
});

test('malformed or unexpected JSON gives no links and does not throw', () => {
  const valid = readPlan('cookbook.benchplan.json');
  const broken = [
    '',
    '   ',
    '{',
    'not json',
    '[{"workload": {"path": "workloads/workloada"}}]',
    '{"workload": {"path": "workloads/workloada"},}', // trailing comma: the engine refuses it
    '// a comment\n{"workload": {"path": "workloads/workloada"}}', // comments too
    '{"workload": {"path": "workloads/workloada"}} {}',
    '{"workload": {"path": "workloads/workloada}}',
    valid.replace('"stacks"', '"stacks" '.repeat(2)),
  ];
  for (const text of broken) {
    assert.deepEqual(linkablePlanReferences(text, join(plansDir, 'x.benchplan.json')), [], JSON.stringify(text));
  }
  // Every truncation of a real plan, as while it is being typed, is malformed: no links, no throw.
  for (let length = 0; length < valid.trimEnd().length; length++) {
    assert.deepEqual(
      findPlanFileReferences(valid.slice(0, length), join(plansDir, 'x.benchplan.json')),
      [],
      `prefix of ${length}`,
    );
  }
  // Well-formed JSON with values of the wrong type, empty paths or odd shapes: nothing to link.
  const oddShapes = [
    planText({ workload: { path: 42 }, stacks: 'kernel', clients: { host: 'a' } }),
    planText({
      workload: { path: '  ' },
      stacks: [{ name: 'x', profile: '' }, null, ['profiles/redis-balanced.opf']],
      clients: [{ runUnderOnload: null }],
    }),
    planText({ workload: 'workloads/workloada' }),
  ];
  for (const text of oddShapes)
    assert.deepEqual(findPlanFileReferences(text, join(plansDir, 'x.benchplan.json')), [], text);
});

test('go to definition finds the reference under the cursor, from its first character to just after its last', () => {
  const references = linkablePlanReferences(
    readPlan('cookbook.benchplan.json'),
    join(plansDir, 'cookbook.benchplan.json'),
  );
  const at = (line: number, character: number) => planReferenceAt(references, { line, character })?.kind;
  assert.equal(at(22, 13), 'workload');
  assert.equal(at(22, 20), 'workload');
  assert.equal(at(22, 32), 'workload');
  assert.equal(at(22, 12), undefined); // the opening quote
  assert.equal(at(22, 33), undefined); // after the closing quote
  assert.equal(at(25, 70), 'stack-profile');
  assert.equal(at(25, 20), undefined); // "kernel"
  assert.equal(at(23, 15), undefined); // the properties line
});
