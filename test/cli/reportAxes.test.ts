// Issue 23: `onload-bench report` on a run with cluster sizes and a fieldlength axis
// (test/fixtures/cluster-size-run): the tables against the axis asked for, the scaling view with
// its ideal line and efficiencies, cost per node from the plan or the command line, the HTML
// report's sections, and the refusals worded for the user.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const run = join('test', 'fixtures', 'cluster-size-run');

function cli(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('cli', 'src', 'main.ts'), ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('onload-bench report on a run with cluster sizes', () => {
  it("by default: the cookbook tables by threads, one group per size, and the scaling view with the plan's price", () => {
    const { code, stdout, stderr } = cli(['report', run]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^25G \(10\.0\.0\.1\), 2 nodes, fieldlength=100\nthreads +kernel/m);
    assert.match(stdout, /^Scaling with the cluster size \(.*\), at 2\.5 EUR per node hour:$/m);
    const block = stdout
      .split('\n\n')
      .find((part) => part.startsWith('25G (10.0.0.1), 16 threads, fieldlength=100 · kernel\n'))!;
    assert.ok(block, stdout);
    const lines = block.split('\n');
    assert.match(lines[1], /^nodes +ops\/s +ideal +of ideal +ops\/s per node +EUR per million ops +step efficiency$/);
    assert.match(lines[2], /^ +1 +100000 +100000 +100\.0 % +100000 +0\.00694$/);
    assert.match(lines[3], /^ +2 +198000 +200000 +99\.0 % +99000 +0\.00701 +99\.0 % \(95 % CI 96\.4 to 101\.6 %\)$/);
    assert.match(lines[4], /^ +3 +240000 +300000 +80\.0 % +80000 +0\.00868 +80\.8 % \(95 % CI 79\.0 to 82\.7 %\)$/);
    assert.match(
      lines[5],
      /^Best performance per price: 1 node \(100,000 ops\/s per node, 0\.00694 EUR per million operations\); not distinguishable from it: 2 nodes \(−1\.0 %, 95 % CI −3\.2 to \+1\.3 %\)\.$/,
    );
  });

  it("--x-axis cluster-size: a row per size with the kernel-vs-Onload interval; --price and --currency replace the plan's", () => {
    const { code, stdout, stderr } = cli([
      'report',
      run,
      '--x-axis',
      'cluster-size',
      '--price',
      '3',
      '--currency',
      'USD',
    ]);
    assert.equal(code, 0, stderr);
    assert.match(
      stdout,
      /^25G \(10\.0\.0\.1\), 16 threads, fieldlength=100\nnodes +kernel +Onload · latency +Onload · latency vs kernel\n +1 +100000 \[99000-101000\] +130000 \[128700-131300\] +\+30\.0 % \(±3\.0\)\n +2 .*\+26\.3 % \(±2\.9\)\n +3 .*\+37\.5 % \(±3\.2\) \*$/m,
    );
    assert.match(
      stdout,
      /^ {2}25G \(10\.0\.0\.1\), 16 threads, fieldlength=100 · Onload · latency vs kernel: ▲ better: throughput \+37\.5 % \(95 % CI \+34\.3 % to \+40\.8 %\) at 3 nodes$/m,
    );
    assert.match(stdout, /at 3 USD per node hour/);
    assert.match(stdout, /0\.00833/); // 3 USD / (100,000 ops/s × 3,600 s) × 10^6
  });

  it("--x-axis fieldlength holds the size and the threads; --csv names every row's whole point", () => {
    const text = cli(['report', run, '-x', 'fieldlength', '--metric', 'throughput']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^25G \(10\.0\.0\.1\), 3 nodes, 16 threads\nfieldlength +kernel/m);
    const csv = cli(['report', run, '-x', 'fieldlength', '--csv', '--metric', 'throughput']).stdout.split('\r\n');
    assert.deepEqual(csv[0].split(',').slice(0, 7), [
      'metric',
      'unit',
      'interface',
      'address',
      'nodes',
      'fieldlength',
      'threads',
    ]);
    assert.ok(
      csv.some((line) => line.startsWith('throughput,ops/s,25G,10.0.0.1,3,1000,16,192000,')),
      csv.slice(0, 4).join('\n'),
    );
  });

  it('refuses an axis the run does not sweep, and a price without a currency', () => {
    const axis = cli(['report', run, '--x-axis', 'recordcount']);
    assert.equal(axis.code, 2);
    assert.match(
      axis.stderr,
      /the run does not sweep 'recordcount': its axes are threads, cluster-size, fieldlength\./,
    );
    const price = cli(['report', run, '--price', '3']);
    assert.equal(price.code, 2);
    assert.match(price.stderr, /--currency must name the currency/);
  });

  it('--html: the sections by cluster size and by fieldlength, the scaling figure with its ideal line, the best size per price', () => {
    const { code, stdout, stderr } = cli(['report', run, '--html']);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /<h2 id="by-clusterSize">By cluster size \(nodes\)<\/h2>/);
    assert.match(stdout, /<h2 id="by-fieldlength">By fieldlength<\/h2>/);
    assert.match(
      stdout,
      /<table class="report-table" id="clusterSize-g1-throughput" data-metric="throughput" data-x-axis="clusterSize"><caption>Throughput \(ops\/s, higher is better\)<\/caption><thead><tr><th>nodes<\/th>/,
    );
    const scaling = stdout.slice(stdout.indexOf('<h2 id="scaling">'));
    assert.match(scaling, /<text class="x-label"[^>]*>cluster size \(nodes\)<\/text>/);
    assert.match(scaling, /data-series="Onload · latency: ideal \(linear from 1 node\)"/);
    assert.match(
      scaling,
      /<p class="best-size" data-stack="kernel">Best performance per price: 1 node \(100,000 ops\/s per node, 0\.00694 EUR per million operations\); not distinguishable from it: 2 nodes/,
    );
    assert.match(scaling, /<td class="efficiency">80\.8 % \(95 % CI 79\.0 to 82\.7 %\)<\/td>/);
  });
});
