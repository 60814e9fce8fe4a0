import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellId, expandCells, expandValues } from '../../../engine/src/plan/cells';
import { withDefaults } from '../../../engine/src/plan/planSchema';

describe('sweep cells', () => {
  it('expands lists, linear and geometric ranges inclusively without float noise', () => {
    assert.deepEqual(expandValues({ from: 5, to: 50, step: 5 }), [5, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
    assert.deepEqual(expandValues({ from: 0.1, to: 0.5, step: 0.1 }), [0.1, 0.2, 0.3, 0.4, 0.5]);
    assert.deepEqual(expandValues({ from: 128, to: 16384, factor: 2 }), [128, 256, 512, 1024, 2048, 4096, 8192, 16384]);
    assert.deepEqual(expandValues(['zipfian', 'uniform']), ['zipfian', 'uniform']);
    assert.deepEqual(expandValues({ from: 10, to: 5, step: 1 }), []);
  });

  it('orders repetition, stack, interface, axes, threads and defaults threads to 5..50', () => {
    const plan = withDefaults({
      servers: [{ host: 's' }],
      interfaces: { '10G': '10.0.0.1', '25G': '10.0.1.1' },
      clients: [{ host: 'c', ycsbHome: '/y' }],
      bucket: { name: 'b' },
      workload: { path: 'w' },
      stacks: ['kernel', { name: 'redis-balanced', profile: 'r.opf' }],
      axes: { fieldlength: [100, 1000] },
      repetitions: 2,
    });
    const cells = expandCells(plan);
    assert.equal(cells.length, 2 * 2 * 2 * 2 * 10);
    assert.deepEqual(
      cells.slice(0, 2).map((key) => [key.interface, key.stack, key.axes.fieldlength, key.threads, key.repetition]),
      [
        ['10G', 'kernel', 100, 5, 1],
        ['10G', 'kernel', 100, 10, 1],
      ],
    );
    assert.deepEqual(
      [cells[10].axes.fieldlength, cells[20].interface, cells[40].stack, cells[80].repetition],
      [1000, '25G', 'redis-balanced', 2],
    );
    const ids = cells.map(cellId);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids[0], '10G~kernel~t5~fieldlength=100~r1');
  });

  it('makes ids that are file-name safe and stable whatever the axis order', () => {
    const a = cellId({
      interface: '25G',
      address: '1.2.3.4',
      stack: 'kernel',
      threads: 10,
      axes: { b: 'x/y z', a: 1 },
      repetition: 3,
    });
    const b = cellId({
      interface: '25G',
      address: '9.9.9.9',
      stack: 'kernel',
      threads: 10,
      axes: { a: 1, b: 'x/y z' },
      repetition: 3,
    });
    assert.equal(a, b);
    assert.equal(a, '25G~kernel~t10~a=1~b=x%2Fy%20z~r3');
    assert.doesNotMatch(a, /[/\\ ]/);
  });
});
