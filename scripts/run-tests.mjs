// Runs the project's Node tests (unit, LSP over JSON-RPC, engine against the loopback lab)
// with Node's own test runner, TypeScript loaded through tsx.
//   node scripts/run-tests.mjs [folder-or-file ...]   (default: everything under test/ but e2e)
// Writes test-artifacts/results/node.json = {passed, failed, skipped} for scripts/test-all.sh.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const roots = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const passThrough = process.argv.slice(2).filter((arg) => arg.startsWith('-'));

function collect(path, out) {
  if (statSync(path).isFile()) {
    if (path.endsWith('.test.ts')) out.push(path);
    return out;
  }
  for (const name of readdirSync(path).sort()) {
    const child = join(path, name);
    if (child === join('test', 'e2e') || name === 'node_modules') continue;
    collect(child, out);
  }
  return out;
}

const files = (roots.length > 0 ? roots : ['test']).flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

mkdirSync('test-artifacts/results', { recursive: true });
const tapFile = 'test-artifacts/results/node.tap';
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    // a hung test fails after 10 minutes (its after hooks still power its lab off) instead of holding CI
    '--test-timeout=600000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...passThrough,
    ...files,
  ],
  { stdio: 'inherit' },
);

const tap = readFileSync(tapFile, 'utf8');
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
const summary = {
  passed: count('pass'),
  failed: count('fail') + count('cancelled'),
  skipped: count('skipped') + count('todo'),
};
writeFileSync('test-artifacts/results/node.json', JSON.stringify(summary) + '\n');
process.exit(result.status ?? 1);
