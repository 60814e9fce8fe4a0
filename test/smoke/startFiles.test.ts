// `npm start` removes only what it wrote into examples/lab/ (issue 13 item 11): a plan the user
// saved there during the session, and the committed README and .gitignore, stay.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { entriesOf, recordCreated, removeRecorded, startRecordName } from '../e2e/support/startFiles';

const scratch = mkdtempSync(join(tmpdir(), 'start-files-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('Ctrl+C removes the files the start created and keeps a plan the user saved meanwhile', () => {
  const lab = join(scratch, 'lab');
  mkdirSync(lab);
  writeFileSync(join(lab, 'README.md'), 'committed');
  writeFileSync(join(lab, '.gitignore'), '*');
  writeFileSync(join(lab, 'mine-before.benchplan.json'), '{}');
  const before = entriesOf(lab);
  // what the lab writes
  writeFileSync(join(lab, 'SIMULATED-LAB.benchplan.json'), '{}');
  writeFileSync(join(lab, 'lab-info.json'), '{}');
  mkdirSync(join(lab, 'profiles'));
  writeFileSync(join(lab, 'profiles', 'latency.opf'), 'onload_set EF_POLL_USEC 100000\n');
  assert.deepEqual(recordCreated(lab, before), ['SIMULATED-LAB.benchplan.json', 'lab-info.json', 'profiles']);
  // the user saves a plan of their own during the session
  writeFileSync(join(lab, 'my-tuning.benchplan.json'), '{}');

  assert.deepEqual(removeRecorded(lab), ['SIMULATED-LAB.benchplan.json', 'lab-info.json', 'profiles']);
  assert.deepEqual(entriesOf(lab), [
    '.gitignore',
    'README.md',
    'mine-before.benchplan.json',
    'my-tuning.benchplan.json',
  ]);
  assert.equal(existsSync(join(lab, startRecordName)), false);
  assert.deepEqual(removeRecorded(lab), [], 'nothing recorded, nothing removed');
});

test('a damaged or hostile record removes nothing outside the folder', () => {
  const lab = join(scratch, 'hostile');
  mkdirSync(lab);
  writeFileSync(join(scratch, 'outside.txt'), 'keep');
  writeFileSync(
    join(lab, startRecordName),
    JSON.stringify({ created: ['../outside.txt', '..', '/etc/passwd', 'sub/dir'] }),
  );
  assert.deepEqual(removeRecorded(lab), []);
  assert.equal(existsSync(join(scratch, 'outside.txt')), true);
  writeFileSync(join(lab, startRecordName), 'not json');
  assert.deepEqual(removeRecorded(lab), []);
});
