// A cell and a duration read the same in the task terminal, the progress notification, the CLI's
// progress line, `report`, the HTML report and the panel (engine/src/report/names.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellName, formatDuration, pointName } from '../../../engine/src/report/names';

const key = (extra: Record<string, unknown> = {}) => ({
  interface: '25G',
  stack: 'kernel',
  threads: 1,
  axes: {},
  repetition: 1,
  ...extra,
});

test('a cell is named by every axis it varies on, the cluster size included, and its repetition', () => {
  assert.equal(cellName(key()), '25G · kernel · 1 thread · repetition 1');
  assert.equal(
    cellName(key({ stack: 'onload-latency', threads: 10, axes: { fieldlength: 1024 }, repetition: 2 })),
    '25G · onload-latency · 10 threads · fieldlength=1024 · repetition 2',
  );
  assert.equal(cellName(key({ threads: 10, clusterSize: 3 })), '25G · kernel · 3 nodes · 10 threads · repetition 1');
  assert.equal(cellName(key({ clusterSize: 1 })), '25G · kernel · 1 node · 1 thread · repetition 1');
});

test("a point's name is its cells' without the repetition", () => {
  assert.equal(pointName(key({ threads: 4, clusterSize: 2, repetition: 3 })), '25G · kernel · 2 nodes · 4 threads');
});

test('durations are coarse: seconds, minutes, hours and minutes; nothing negative or not a number', () => {
  assert.equal(formatDuration(44_600), '45 s');
  assert.equal(formatDuration(12 * 60_000 + 10_000), '12 min');
  assert.equal(formatDuration(65 * 60_000), '1 h 05 min');
  assert.equal(formatDuration(-5), '0 s');
  assert.equal(formatDuration(Number.NaN), '0 s');
});
