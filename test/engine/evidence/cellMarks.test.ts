// A cell's marks as every view reads them (engine/src/evidence/marks.ts): an old record's bare
// `accelerated: false` reads as not-accelerated, but a cell whose run was partly in Onload's stack
// says only that, never also "the numbers are really the kernel stack's".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellMarks } from '../../../engine/src/evidence/marks';

test('accelerated false alone reads as not-accelerated; with a partly-accelerated mark it reads as that only', () => {
  assert.deepEqual(
    cellMarks({ accelerated: false }).map((mark) => mark.code),
    ['not-accelerated'],
  );
  const partly = {
    code: 'partly-accelerated' as const,
    host: 'cb-server',
    message: "Only part of the run's traffic went through Onload: 3 in the stack, 1 kernel socket.",
  };
  assert.deepEqual(cellMarks({ accelerated: false, marks: [partly] }), [partly]);
  assert.deepEqual(cellMarks({ accelerated: true, marks: [] }), []);
});
