// Imports only point down (ARCHITECTURE.md): dependency-cruiser checks the whole house against
// .dependency-cruiser.cjs, and the rules themselves are shown to fire on a small tree with
// deliberately wrong imports, so a rule that matches nothing cannot pass silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}
interface RuleSet {
  forbidden: unknown[];
  options: Record<string, unknown>;
}

const config = createRequire(__filename)(resolve('.dependency-cruiser.cjs')) as RuleSet;

async function violations(paths: string[], baseDir: string, withTsConfig: boolean): Promise<Violation[]> {
  const { cruise } = (await import('dependency-cruiser')) as unknown as {
    cruise: (
      files: string[],
      options: Record<string, unknown>,
    ) => Promise<{ output: { summary: { violations: Violation[] } } }>;
  };
  const { tsConfig: _tsConfig, ...options } = config.options;
  const result = await cruise(paths, {
    ...options,
    ...(withTsConfig ? { tsConfig: config.options.tsConfig } : {}),
    baseDir,
    ruleSet: { forbidden: config.forbidden },
    validate: true,
  });
  return result.output.summary.violations;
}

const describe = (list: Violation[]) => list.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).join('\n');

test('the house keeps its import rules (dependency-cruiser, .dependency-cruiser.cjs)', async () => {
  const found = await violations(['engine', 'client', 'server', 'cli', 'media/src'], process.cwd(), true);
  assert.deepEqual(describe(found), '', 'imports that break a rule of ARCHITECTURE.md');
});

test('the rules fire: an import up, a circle, a webview value import, the engine reaching the client', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-rules-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  try {
    write('engine/src/model.ts', 'export interface Cell { id: string }\n');
    write(
      'engine/src/sweep/sweep.ts',
      "import type { Cell } from '../model';\nexport const sweep = (cell: Cell) => cell.id;\n",
    );
    write('engine/src/remote/ssh.ts', "import { sweep } from '../sweep/sweep';\nexport const ssh = sweep;\n");
    write('engine/src/plan/a.ts', "import type { B } from './b';\nexport interface A { b?: B }\n");
    write('engine/src/plan/b.ts', "import type { A } from './a';\nexport interface B { a?: A }\n");
    write(
      'engine/src/report/report.ts',
      "import { panel } from '../../../client/src/panel';\nexport const report = panel;\n",
    );
    write('client/src/panel.ts', 'export const panel = 1;\n');
    write('media/src/view.ts', "import { sweep } from '../../engine/src/sweep/sweep';\nexport const view = sweep;\n");
    // the shared words: the webview may take them, and they may take nothing but types
    write('engine/src/report/names.ts', "import { sweep } from '../sweep/sweep';\nexport const name = sweep;\n");
    write('media/src/label.ts', "import { name } from '../../engine/src/report/names';\nexport const label = name;\n");
    const found = describe(await violations(['engine', 'client', 'media'], dir, false));
    assert.match(found, /^engine-remote-imports-down: engine\/src\/remote\/ssh\.ts -> engine\/src\/sweep\/sweep\.ts$/m);
    assert.match(found, /^no-circular: engine\/src\/plan\/a\.ts -> engine\/src\/plan\/b\.ts$/m);
    assert.match(found, /^engine-stays-plain-node: engine\/src\/report\/report\.ts -> client\/src\/panel\.ts$/m);
    assert.match(found, /^webview-types-only: media\/src\/view\.ts -> engine\/src\/sweep\/sweep\.ts$/m);
    assert.match(found, /^webview-contracts-only: media\/src\/view\.ts -> engine\/src\/sweep\/sweep\.ts$/m);
    assert.match(found, /^shared-names-stay-pure: engine\/src\/report\/names\.ts -> engine\/src\/sweep\/sweep\.ts$/m);
    assert.doesNotMatch(found, /media\/src\/label\.ts -> engine\/src\/report\/names\.ts/);
    // a type-only import down is fine
    assert.doesNotMatch(found, /engine\/src\/sweep\/sweep\.ts -> engine\/src\/model\.ts/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the engine entries are the only door: client and cli import nothing else, the reading one stays light', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-rules-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  try {
    write('engine/src/model.ts', 'export interface Cell { id: string }\n');
    write('engine/src/sweep/sweep.ts', 'export const runSweep = () => 1;\n');
    write('engine/src/plan/plan.ts', 'export const loadPlan = () => 1;\n');
    write('engine/src/results/resultsFile.ts', 'export const readRunFolder = () => 1;\n');
    write('engine/src/report/report.ts', "import { loadPlan } from '../plan/plan';\nexport const report = loadPlan;\n");
    write('engine/src/index.ts', "export { runSweep } from './sweep/sweep';\nexport type { Cell } from './model';\n");
    write(
      'engine/src/report/index.ts',
      "export { readRunFolder } from '../results/resultsFile';\nexport { report } from './report';\n",
    );
    write(
      'engine/src/couchbase/bucket.ts',
      "import { report } from '../report/index';\nexport const bucket = report;\n",
    );
    // an edge reaching past the entries, by value and by type
    write('cli/src/run.ts', "import { runSweep } from '../../engine/src/sweep/sweep';\nexport const run = runSweep;\n");
    write('cli/src/parse.ts', "import type { Cell } from '../../engine/src/model';\nexport type Parsed = Cell;\n");
    write(
      'cli/src/report.ts',
      "import { readRunFolder } from '../../engine/src/report/index';\nexport const r = readRunFolder;\n",
    );
    // the extension host: the running entry by value at activation is refused, on first use or for types it is not
    write(
      'client/src/eventText.ts',
      "import { runSweep } from '../../engine/src/index';\nexport const text = runSweep;\n",
    );
    write('client/src/engine.ts', "export const load = () => import('../../engine/src/index');\n");
    write('client/src/types.ts', "import type { Cell } from '../../engine/src/index';\nexport type T = Cell;\n");
    write(
      'client/src/engineHost/main.ts',
      "import { runSweep } from '../../../engine/src/index';\nexport const m = runSweep;\n",
    );
    const found = describe(await violations(['engine', 'client', 'cli'], dir, false));
    assert.match(found, /^edges-use-the-engine-entries: cli\/src\/run\.ts -> engine\/src\/sweep\/sweep\.ts$/m);
    assert.match(found, /^edges-use-the-engine-entries: cli\/src\/parse\.ts -> engine\/src\/model\.ts$/m);
    assert.match(
      found,
      /^extension-loads-the-run-entry-on-use: client\/src\/eventText\.ts -> engine\/src\/index\.ts$/m,
    );
    assert.match(
      found,
      /^engine-read-entry-stays-light: engine\/src\/report\/index\.ts -> engine\/src\/plan\/plan\.ts$/m,
    );
    assert.match(
      found,
      /^nothing-imports-the-engine-entry: engine\/src\/couchbase\/bucket\.ts -> engine\/src\/report\/index\.ts$/m,
    );
    // through the entries is fine, and an entry may import any folder
    assert.doesNotMatch(found, /cli\/src\/report\.ts|client\/src\/(engine|types)\.ts|client\/src\/engineHost\//);
    assert.doesNotMatch(found, /^engine-report-imports-down: engine\/src\/report\/index\.ts/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ARCHITECTURE.md shows the same engine folder rules as .dependency-cruiser.cjs', () => {
  const text = readFileSync('.dependency-cruiser.cjs', 'utf8');
  const table = /const engineMayImport = \{([\s\S]*?)\n\};/.exec(text)?.[1] ?? '';
  const rules = new Map(
    [...table.matchAll(/^\s+(\w+): \[([^\]]*)\]/gm)].map((m) => [
      m[1],
      m[2]
        .replace(/'/g, '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .sort()
        .join(', '),
    ]),
  );
  assert.ok(rules.size >= 9, 'the rule table was read');
  const architecture = readFileSync('ARCHITECTURE.md', 'utf8');
  for (const [folder, allowed] of rules) {
    const row = new RegExp(
      `^\\| \`${folder === 'options' ? 'options.ts' : `${folder}/`}\` \\|[^|]*\\| ([^|]*) \\|$`,
      'm',
    ).exec(architecture);
    assert.ok(row, `ARCHITECTURE.md has a row for engine ${folder}`);
    const documented = row[1]
      .replace(/`/g, '')
      .replace(/\/|\.ts/g, '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .sort()
      .join(', ');
    assert.equal(documented, allowed, `ARCHITECTURE.md's row for ${folder}`);
  }
});
