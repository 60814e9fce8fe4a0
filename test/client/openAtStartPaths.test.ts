import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { filesToOpenAtStart } from '../../client/src/openAtStartPaths';

const root = path.resolve('/work/examples');
const other = path.resolve('/work/second');
const present = new Set([
  path.join(root, 'lab', 'SIMULATED-LAB.benchplan.json'),
  path.join(root, 'README.md'),
  path.join(other, 'only-here.opf'),
  '/etc/passwd',
]);
const isFile = (file: string) => present.has(file);

test('workspace-relative paths open in the order listed, each once', () => {
  const value = ['lab/SIMULATED-LAB.benchplan.json', 'README.md', './lab/SIMULATED-LAB.benchplan.json'].join(
    path.delimiter,
  );
  assert.deepEqual(filesToOpenAtStart(value, [root], isFile), [
    path.join(root, 'lab', 'SIMULATED-LAB.benchplan.json'),
    path.join(root, 'README.md'),
  ]);
});

test('a path resolves in the first folder that holds it', () => {
  assert.deepEqual(filesToOpenAtStart('only-here.opf', [root, other], isFile), [path.join(other, 'only-here.opf')]);
});

test('nothing outside the workspace, nothing missing, nothing without the variable', () => {
  const value = ['../../etc/passwd', '/etc/passwd', 'lab/missing.benchplan.json', '', ' '].join(path.delimiter);
  assert.deepEqual(filesToOpenAtStart(value, [root], isFile), []);
  assert.deepEqual(filesToOpenAtStart(undefined, [root], isFile), []);
  assert.deepEqual(filesToOpenAtStart('README.md', [], isFile), []);
});
