// Issue 23: the cookbook tables, the scaling view and cost per node against any swept axis, on the
// checked-in run with cluster sizes and a fieldlength axis (test/fixtures/clusterSizeRun.ts); the
// plan's optional price as lint and run check it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkPlanText } from '../../../engine/src/plan/plan';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import { recordedPlanDifferences } from '../../../engine/src/plan/recordedPlan';
import { sweptAxes } from '../../../engine/src/report/axes';
import { buildReportTable, renderReportTable } from '../../../engine/src/report/report';
import {
  bestSizeText,
  buildScaling,
  costPerMillionOps,
  efficiencyText,
  formatCost,
  planCost,
} from '../../../engine/src/report/scaling';
import { readRunFolder } from '../../../engine/src/results/resultsFile';
import {
  clusterCells,
  clusterManifest,
  clusterPlan,
  clusterRunFiles,
  pricePerNodeHour,
} from '../../fixtures/clusterSizeRun';

const folder = join(__dirname, '..', '..', 'fixtures', 'cluster-size-run');
const input = { results: clusterCells(), manifest: clusterManifest() };

describe('the run with cluster sizes and a fieldlength axis', () => {
  it('the checked-in folder is what clusterSizeRun.ts builds, and the results reader takes every cell', async () => {
    const files = clusterRunFiles();
    assert.equal(readFileSync(join(folder, 'manifest.json'), 'utf8'), files['manifest.json']);
    assert.equal(readFileSync(join(folder, 'results.jsonl'), 'utf8'), files['results.jsonl']);
    const run = await readRunFolder(folder);
    assert.ok(run.ok);
    assert.equal(run.results.length, 72);
    assert.deepEqual(run.warnings, []);
    assert.equal(run.results[0].id, '25G~kernel~n1~t8~fieldlength=100~r1');
    assert.equal(run.results[0].key.clusterSize, 1);
  });

  it('names the axes that vary: threads, the cluster size, fieldlength', () => {
    assert.deepEqual(
      sweptAxes(input.manifest.cells.map((cell) => cell.key)).map((axis) => [axis.id, axis.title]),
      [
        ['threads', 'YCSB threads'],
        ['clusterSize', 'cluster size (nodes)'],
        ['fieldlength', 'fieldlength'],
      ],
    );
  });
});

describe('tables against any axis', () => {
  it('by threads (the default), the cluster size is held in each group instead of mixing sizes as repetitions', () => {
    const table = buildReportTable(input, 'throughput')!;
    assert.equal(table.xAxis.id, 'threads');
    assert.deepEqual(
      table.groups.map((group) => group.title),
      [
        '25G (10.0.0.1), 1 node, fieldlength=100',
        '25G (10.0.0.1), 1 node, fieldlength=1000',
        '25G (10.0.0.1), 2 nodes, fieldlength=100',
        '25G (10.0.0.1), 2 nodes, fieldlength=1000',
        '25G (10.0.0.1), 3 nodes, fieldlength=100',
        '25G (10.0.0.1), 3 nodes, fieldlength=1000',
      ],
    );
    const twoNodes = table.groups[2];
    assert.deepEqual(
      twoNodes.rows.map((row) => [row.x, row.cells[0].value, row.cells[0].repetitions]),
      [
        [8, 99_000, 3],
        [16, 198_000, 3],
      ],
    );
  });

  it('by cluster size: one row per size, the kernel against Onload with its interval per size', () => {
    const table = buildReportTable(input, 'throughput', 'clusterSize')!;
    assert.equal(table.xAxis.title, 'cluster size (nodes)');
    const group = table.groups.find((candidate) => candidate.threads === 16 && candidate.axes.fieldlength === 100)!;
    assert.equal(group.title, '25G (10.0.0.1), 16 threads, fieldlength=100');
    assert.deepEqual(
      group.rows.map((row) => row.x),
      [1, 2, 3],
    );
    assert.deepEqual(
      group.rows.map((row) => row.cells.map((cell) => cell.value)),
      [
        [100_000, 130_000],
        [198_000, 250_000],
        [240_000, 330_000],
      ],
    );
    const atThree = group.rows[2].comparisons[0];
    assert.equal(atThree.percent!.toFixed(1), '37.5');
    assert.ok(atThree.difference!.interval, 'three repetitions a side give an interval');
    assert.equal(atThree.significant, true);
    const text = renderReportTable({ ...table, groups: [group] });
    assert.match(text, /^nodes +kernel +Onload · latency +Onload · latency vs kernel$/m);
    assert.match(text, /^ {4}3 +240000 \[237600-242400\] +330000 \[326700-333300\] +\+37\.5 % \(±3\.2\) \*$/m);
  });

  it('by fieldlength: the size and threads held, a row per field length', () => {
    const table = buildReportTable(input, 'read-latency', 'fieldlength')!;
    const group = table.groups.find((candidate) => candidate.threads === 16 && candidate.clusterSize === 1)!;
    assert.equal(group.title, '25G (10.0.0.1), 1 node, 16 threads');
    assert.deepEqual(
      group.rows.map((row) => [row.x, row.cells[0].value]),
      [
        [100, 400],
        [1000, 500],
      ],
    );
    assert.equal(
      renderReportTable({ ...table, groups: [group] })
        .split('\n')[3]
        .trim()
        .split(/\s+/)[0],
      'fieldlength',
    );
  });
});

describe('the scaling view', () => {
  const scaling = buildScaling(input)!;
  const group = scaling.groups.find((candidate) => candidate.threads === 16 && candidate.axes.fieldlength === 100)!;
  const [kernel, onload] = group.series;

  it('draws the medians against the sizes and the ideal linear line from the smallest size', () => {
    assert.deepEqual(scaling.sizes, [1, 2, 3]);
    assert.deepEqual(
      kernel.points.map((point) => [point.size, point.median, point.ideal]),
      [
        [1, 100_000, 100_000],
        [2, 198_000, 200_000],
        [3, 240_000, 300_000],
      ],
    );
    assert.deepEqual(
      onload.points.map((point) => point.ideal),
      [130_000, 260_000, 390_000],
    );
    assert.equal(kernel.points[2].ofIdealPercent, 80);
  });

  it('gives the scaling efficiency of each step with its interval', () => {
    assert.deepEqual(
      kernel.steps.map((step) => [step.from, step.to, step.efficiency.toFixed(1)]),
      [
        [1, 2, '99.0'],
        [2, 3, '80.8'],
      ],
    );
    assert.ok(
      kernel.steps[0].interval!.low < 100 && kernel.steps[0].interval!.high > 100,
      'the first step cannot be told from linear',
    );
    assert.ok(kernel.steps[1].interval!.high < 100, 'the second is below linear');
    assert.match(efficiencyText(kernel.steps[1]), /^80\.8 % \(95 % CI \d+\.\d to \d+\.\d %\)$/);
  });

  it('says "no interval" where one repetition is all there is', () => {
    const single = buildScaling({ results: input.results.filter((result) => result.key.repetition === 1) })!;
    const step = single.groups[0].series[0].steps[0];
    assert.equal(step.interval, undefined);
    assert.equal(efficiencyText(step), `${step.efficiency.toFixed(1)} % (1 repetition: no interval)`);
  });

  it('is absent from a run with one size or none', () => {
    assert.equal(buildScaling({ results: input.results.filter((result) => result.key.clusterSize === 2) }), undefined);
  });
});

describe('cost per node', () => {
  const scaling = buildScaling(input)!;
  const group = scaling.groups.find((candidate) => candidate.threads === 16 && candidate.axes.fieldlength === 100)!;
  const [kernel, onload] = group.series;
  const cost = planCost(clusterPlan())!;

  it('reads the price from the recorded plan, and nothing from a plan without one or with a bad one', () => {
    assert.deepEqual(cost, { pricePerNodeHour, currency: 'EUR' });
    assert.equal(planCost({}), undefined);
    assert.equal(planCost({ cost: { pricePerNodeHour: -1, currency: 'EUR' } }), undefined);
    assert.equal(planCost({ cost: { pricePerNodeHour: '2', currency: 'EUR' } }), undefined);
  });

  it('gives ops/s per node and the cost of a million operations', () => {
    assert.deepEqual(
      kernel.points.map((point) => point.perNode),
      [100_000, 99_000, 80_000],
    );
    // 2.5 EUR per node hour at 100,000 ops/s per node: 2.5 / 360,000,000 ops × 10^6.
    assert.equal(costPerMillionOps(100_000, 2.5).toFixed(6), '0.006944');
    assert.equal(formatCost(costPerMillionOps(80_000, 2.5), 'EUR'), '0.00868 EUR');
  });

  it("ranks the sizes by performance per price with the run's intervals: two sizes it cannot tell apart are both named", () => {
    assert.deepEqual(
      kernel.ranking.map((rank) => [rank.size, rank.tiedWithBest]),
      [
        [1, true],
        [2, true],
        [3, false],
      ],
    );
    assert.equal(kernel.ranking[1].vsBest!.significant, false);
    assert.match(
      bestSizeText(kernel, cost),
      /^1 node \(100,000 ops\/s per node, 0\.00694 EUR per million operations\); not distinguishable from it: 2 nodes \(−1\.0 %, 95 % CI −\d\.\d to \+\d\.\d %\)$/,
    );
    assert.deepEqual(
      onload.ranking.map((rank) => [rank.size, rank.tiedWithBest]),
      [
        [1, true],
        [2, false],
        [3, false],
      ],
    );
    assert.equal(
      bestSizeText(onload, cost),
      '1 node (130,000 ops/s per node, 0.00534 EUR per million operations); every other size is distinguishably lower',
    );
  });

  it('with one repetition no size can be told from the best: "no interval"', () => {
    const single = buildScaling({ results: input.results.filter((result) => result.key.repetition === 1) })!;
    const series = single.groups.find((candidate) => candidate.threads === 16 && candidate.axes.fieldlength === 100)!
      .series[1];
    assert.match(
      bestSizeText(series),
      /not distinguishable from it: 2 nodes \([−+]\d\.\d %, no interval\), 3 nodes \([−+]\d+\.\d %, no interval\)$/,
    );
  });
});

describe("the plan's price", () => {
  const base = { ...clusterPlan(), stacks: ['kernel'] };
  const errors = (plan: unknown) =>
    checkPlanText(JSON.stringify(plan)).errors.map((error) => `${error.path ?? ''} ${error.message}`);

  it('lint accepts a price per node hour with its currency, and old plans without one', () => {
    assert.deepEqual(
      errors(base).filter((line) => /cost/.test(line)),
      [],
    );
    const { cost: _cost, ...without } = base as Record<string, unknown>;
    assert.deepEqual(
      errors(without).filter((line) => /cost/.test(line)),
      [],
    );
  });

  it('lint refuses a price that is not positive, a missing currency and unknown fields', () => {
    assert.ok(errors({ ...base, cost: { pricePerNodeHour: 0, currency: 'EUR' } }).some((line) => /cost/.test(line)));
    assert.ok(errors({ ...base, cost: { pricePerNodeHour: 1 } }).some((line) => /cost|currency/.test(line)));
    assert.ok(
      errors({ ...base, cost: { pricePerNodeHour: 1, currency: 'EUR', perCore: 2 } }).some((line) =>
        /cost|perCore/.test(line),
      ),
    );
  });

  it('a changed price changes nothing that runs: resume does not ask about it', () => {
    const recorded = { plan: base as never, planPath: '/plans/a.benchplan.json' };
    const current = {
      plan: { ...base, cost: { pricePerNodeHour: 9, currency: 'USD' } } as never,
      planPath: '/plans/a.benchplan.json',
    };
    assert.deepEqual(recordedPlanDifferences(recorded, current), []);
    assert.equal('cost' in withDefaults(base as never), false);
  });
});

describe("the HTML report's figures against other axes", () => {
  const { buildHtmlReport } =
    require('../../../engine/src/report/htmlReport') as typeof import('../../../engine/src/report/htmlReport');
  const html = buildHtmlReport({ runDir: '/runs/cluster-size-run', ...input });
  const figureOf = (from: string, title: string) => {
    const start = html.indexOf(`<title>${title}</title>`, html.indexOf(from));
    return html.slice(start, html.indexOf('</svg>', start));
  };
  const ys = (svg: string, series: string) =>
    [
      ...(svg.split(`data-series="${series}"`)[1]?.split('</g>')[0] ?? '').matchAll(
        /<circle class="point" cx="([\d.]+)" cy="([\d.]+)"/g,
      ),
    ].map((match) => [Number(match[1]), Number(match[2])]);

  it('by cluster size: the x label, one point per size and stack', () => {
    const svg = figureOf('<h2 id="by-clusterSize">', 'Throughput, 25G (10.0.0.1), 16 threads, fieldlength=100');
    assert.match(svg, /<text class="x-label"[^>]*>cluster size \(nodes\)<\/text>/);
    assert.deepEqual(
      [...svg.matchAll(/<text class="x-tick"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]),
      ['1', '2', '3'],
    );
    assert.equal(ys(svg, 'kernel').length, 3);
    assert.equal(ys(svg, 'Onload · latency').length, 3);
  });

  it('by fieldlength: the property as the x label, a point per value', () => {
    const svg = figureOf('<h2 id="by-fieldlength">', 'Throughput, 25G (10.0.0.1), 1 node, 16 threads');
    assert.match(svg, /<text class="x-label"[^>]*>fieldlength<\/text>/);
    assert.deepEqual(
      [...svg.matchAll(/<text class="x-tick"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]),
      ['100', '1000'],
    );
    assert.equal(ys(svg, 'kernel').length, 2);
  });

  it("another axis shown as separate lines: a line per stack and thread count, the stack's colour, a dash pattern per thread count", () => {
    const svg = figureOf(
      '<h2 id="by-clusterSize">',
      'Throughput, 25G (10.0.0.1), fieldlength=100, YCSB threads as lines',
    );
    const labels = [...svg.matchAll(/<g class="series" data-series="([^"]*)"/g)].map((match) => match[1]);
    assert.deepEqual(labels, [
      'kernel · 8 threads',
      'Onload · latency · 8 threads',
      'kernel · 16 threads',
      'Onload · latency · 16 threads',
    ]);
    for (const label of labels) assert.equal(ys(svg, label).length, 3, label);
    assert.match(svg.split('data-series="kernel · 16 threads"')[1].split('</g>')[0], /stroke-dasharray="6 4"/);
    assert.doesNotMatch(svg.split('data-series="kernel · 8 threads"')[1].split('</g>')[0], /stroke-dasharray/);
  });

  it('the scaling figure: the ideal line through the smallest size, above the measured points where scaling falls short', () => {
    const svg = figureOf(
      '<h2 id="scaling">',
      'Throughput by cluster size, 25G (10.0.0.1), 16 threads, fieldlength=100',
    );
    const measured = ys(svg, 'kernel');
    const ideal = ys(svg, 'kernel: ideal (linear from 1 node)');
    assert.equal(ideal.length, 3);
    assert.deepEqual(ideal[0], measured[0], "the ideal line starts at the smallest size's median");
    assert.ok(ideal[2][1] < measured[2][1], '300,000 ideal is drawn above 240,000 measured');
    // Linear: the ideal points are evenly spaced in y over evenly spaced sizes.
    assert.ok(Math.abs(ideal[1][1] - ideal[0][1] - (ideal[2][1] - ideal[1][1])) < 0.05);
    assert.match(svg, /data-series="kernel: ideal \(linear from 1 node\)"[^]*?stroke-dasharray="6 4"/);
  });
});
