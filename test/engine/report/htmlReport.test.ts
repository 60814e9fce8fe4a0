// The self-contained HTML report (engine/src/report/htmlReport.ts, `onload-bench report --html`)
// of the panel's fixture run: the tables' numbers and intervals, one inline SVG per figure, the
// marks explained, environment and Onload settings, names from files escaped; rendered in headless
// Chromium, which must make no request beyond the file itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { buildHtmlReport } from '../../../engine/src/report/htmlReport';
import type { CellResult, RunManifest } from '../../../engine/src/model';
import { fixtureManifest, fixtureResults, profileName } from '../../panel/fixtureRun';

const root = resolve(__dirname, '..', '..', '..');
const chromiumPath = '/usr/bin/chromium';

function fixtureReport(results: CellResult[] = fixtureResults(), manifest: RunManifest = fixtureManifest()): string {
  return buildHtmlReport({ runDir: '/runs/run-fixture', results, manifest });
}

/** The fixture with names that try to become markup: a run id, a profile, a host, a mark's message. */
function hostileFixture(): { results: CellResult[]; manifest: RunManifest } {
  const evilProfile = 'lb<img src=x onerror=alert(1)>';
  const results = fixtureResults().map((result) => {
    const copy = structuredClone(result);
    if (copy.key.stack === profileName) copy.key.stack = evilProfile;
    if (copy.id === '25G-kernel-t5-r1')
      copy.marks = [{ code: 'client-bound', host: 'client"1', message: 'client "1" ran <b>95 %</b> busy' }];
    return copy;
  });
  const manifest = fixtureManifest();
  manifest.runId = 'run</title><script>alert(1)</script>';
  manifest.cells = manifest.cells.map((cell) => ({
    ...cell,
    key: { ...cell.key, stack: cell.key.stack === profileName ? evilProfile : cell.key.stack },
  }));
  manifest.environment!.profiles = { [evilProfile]: { EF_POLL_USEC: '<100000>' } };
  manifest.environment!.hosts['<host>'] = { role: 'client', kernel: '"6.1"' };
  return { results, manifest };
}

test('the report holds the tables with intervals, one SVG per figure, the marks, environment and Onload settings', () => {
  const html = fixtureReport();
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<title>Onload Bench report: run run-fixture<\/title>/);
  // The verdict opens the report, before any table: better said by the word and symbol, not by colour alone.
  assert.ok(
    html.indexOf('<h2 id="verdict">Verdict</h2>') < html.indexOf('<table'),
    'the verdict comes before the tables',
  );
  assert.match(
    html,
    /<h2 id="verdict">Verdict<\/h2><ul class="verdict"><li class="better" data-kind="better" data-interface="25G" data-stack="latency-best">25G \(127\.0\.0\.1\) · Onload · latency-best vs kernel: <span class="cue">▲ better<\/span>: throughput \+59\.5 % \(95 % CI \+39\.5 % to \+83\.8 %\) at 10 threads; 2 marked points left out<\/li><\/ul>/,
  );
  // The cookbook's throughput table: kernel median 10500 [10000–11000], the profile +47.6 % (±37.9).
  assert.match(
    html,
    /<table class="report-table" id="g0-throughput"[^]*?<tr data-threads="5"><th>5<\/th><td class="value" data-stack="kernel" data-value="10500">10,500 <span class="spread">\[10,000–11,000\]<\/span><\/td>/,
  );
  assert.match(
    html,
    /<td class="improvement" data-stack="latency-best" title="95 % interval [^"]*">\+59\.5 % \(±22\.1\) ★<\/td>/,
  );
  assert.match(html, /\+4\.0 % \(1 repetition: no interval\) \(a side is marked\)/);
  // CPU tables: server busy (31 and 32 % for the kernel at 5 threads) and CPU per operation.
  assert.match(
    html,
    /<table class="report-table" id="g0-server-cpu"[^]*?<td class="value" data-stack="kernel" data-value="31.5">31\.5 <span class="spread">\[31–32\]<\/span>/,
  );
  assert.match(html, /id="g0-server-cpu-per-op"/);
  // Figures: throughput, read/update average and p99 latency, server and client CPU, CPU per op, ops per core, the
  // spectrum.
  const figures = [...html.matchAll(/<figure data-metric="([^"]+)"><svg /g)].map((match) => match[1]);
  assert.deepEqual(figures, [
    'throughput',
    'read-latency',
    'update-latency',
    'read-p99',
    'update-p99',
    'server-cpu',
    'client-cpu',
    'server-cpu-per-op',
    'ops-per-busy-core',
    'spectrum',
  ]);
  // The spectrum compares the arms where both have merged HDR logs and no mark: 10 threads.
  assert.match(html, /<title>READ latency by percentile, 10 threads, 25G \(127\.0\.0\.1\)<\/title>/);
  assert.match(html, /<text class="x-tick"[^>]*>99\.9%<\/text>/);
  // The kernel's p99 at 20 threads is the clients' maximum: the figure says it is an upper bound.
  assert.match(
    html,
    /<figure data-metric="read-p99">[^]*?<figcaption>[^<]*Upper bound \(max of clients\), no HDR logs to merge: kernel at 20 threads\.<\/figcaption>/,
  );
  const caption = (metric: string) =>
    new RegExp(`<figure data-metric="${metric}">(?:(?!</figure>)[^])*<figcaption>([^<]*)</figcaption>`).exec(
      html,
    )?.[1] ?? '';
  assert.match(caption('read-p99'), /Upper bound/);
  assert.doesNotMatch(caption('throughput'), /Upper bound/);
  assert.match(
    html,
    /<dt data-mark="not-accelerated">not accelerated <code>not-accelerated<\/code><\/dt><dd>Couchbase was not verified/,
  );
  assert.match(
    html,
    /<li data-mark="not-accelerated" data-cells="1"><span class="mark">not accelerated<\/span>, 1 cell: <span class="cells"><span class="cell" title="[^"]*">25G · latency-best · 20 threads · repetition 1<\/span><\/span>\. /,
  );
  assert.match(html, /<h2 id="failures">Failed cells \(2\)<\/h2>/);
  assert.match(html, /kernel <code>6\.1\.0-fixture<\/code>/);
  assert.match(
    html,
    /<table class="profile" data-profile="latency-best"><caption>Profile latency-best<\/caption><tbody><tr><td class="text"><code>EF_POLL_USEC<\/code><\/td><td class="text"><code>100000<\/code><\/td><\/tr>/,
  );
  assert.match(html, /CPU sampler cost: at most 0\.12 % of one core/);
  // Self-contained: nothing that loads anything.
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
});

test('one unit per metric: latencies from 10,000 µs read in ms in every table, caption, header and axis of the metric; no "40k"', () => {
  // Read latencies 40 times the fixture's: 10,400 µs and up, so the whole metric reads in ms.
  const results = fixtureResults().map((result) => {
    const copy = structuredClone(result);
    const read = copy.run?.operations.READ;
    if (read?.averageUs !== undefined) read.averageUs *= 40;
    return copy;
  });
  const html = fixtureReport(results);
  const table = /<table class="report-table" id="g0-read-latency"[^]*?<\/table>/.exec(html)?.[0] ?? '';
  assert.match(table, /<caption>Read average latency \(ms, lower is better\)<\/caption>/);
  assert.match(
    table,
    /<th>kernel \(ms\)<\/th><th>Onload · latency-best \(ms\)<\/th><th>Onload · latency-best vs kernel<\/th>/,
  );
  assert.match(
    table,
    /<td class="value" data-stack="kernel" data-value="16400">16\.4 <span class="spread">\[16–16\.8\]<\/span><\/td>/,
  );
  const figure = /<figure data-metric="read-latency">[^]*?<\/figure>/.exec(html)?.[0] ?? '';
  assert.match(figure, /<text class="y-label"[^>]*>ms<\/text>/);
  const ticks = [...figure.matchAll(/<text class="y-tick"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
  assert.ok(ticks.length > 2 && ticks.every((tick) => /^[\d.,]+$/.test(tick)), ticks.join(' '));
  // Throughput ticks are written in full, never with a k.
  const throughput = /<figure data-metric="throughput">[^]*?<\/figure>/.exec(html)?.[0] ?? '';
  assert.doesNotMatch(throughput, /<text class="y-tick"[^>]*>[^<]*k<\/text>/);
  assert.match(throughput, /<text class="y-tick"[^>]*>\d{1,2},\d{3}<\/text>/);
});

test('exports fit for a report: one bullet per mark reason with its cells, "1 thread", no repeated words, CLEANUP left out', () => {
  // Every kernel cell client-bound, each with its own message; the server names itself "Couchbase Server ...".
  const results = fixtureResults().map((result, index) => {
    const copy = structuredClone(result);
    if (copy.key.stack === 'kernel' && copy.status === 'ok')
      copy.marks = [{ code: 'client-bound', host: '127.0.0.2', message: `Client 127.0.0.2 was ${90 + index} % busy.` }];
    if (copy.key.threads === 5) copy.key.threads = 1;
    if (copy.run)
      copy.run.operations.CLEANUP = {
        operation: 'CLEANUP',
        operations: 4,
        averageUs: 2000,
        minUs: 1,
        maxUs: 4000,
        percentilesUs: { '95': 3000, '99': 4000 },
        returnCodes: {},
      };
    return copy;
  });
  const manifest = fixtureManifest();
  manifest.cells = manifest.cells.map((cell) =>
    cell.key.threads === 5 ? { ...cell, key: { ...cell.key, threads: 1 } } : cell,
  );
  manifest.environment!.hosts['127.0.0.1'].couchbase = 'Couchbase Server 7.6.2-3721 (Enterprise Edition)';
  const html = fixtureReport(results, manifest);
  const bullets = [...html.matchAll(/<li data-mark="client-bound" data-cells="(\d+)">/g)];
  assert.equal(bullets.length, 1, 'one bullet for the reason');
  assert.equal(bullets[0][1], '5');
  assert.match(
    html,
    /<span class="cell" title="127\.0\.0\.2: Client 127\.0\.0\.2 was \d+ % busy\.">25G · kernel · 1 thread · repetition 1<\/span>/,
  );
  assert.match(html, /\(and 4 more like it\)/);
  assert.doesNotMatch(html, /\b1 threads\b/);
  assert.doesNotMatch(html, /Couchbase <code>Couchbase/);
  assert.match(html, /<code>Couchbase Server 7\.6\.2-3721 \(Enterprise Edition\)<\/code>/);
  assert.doesNotMatch(html, /CLEANUP latency by percentile/);
});

test('names and messages from files are escaped everywhere', () => {
  const { results, manifest } = hostileFixture();
  const html = fixtureReport(results, manifest);
  assert.doesNotMatch(html, /<script|<img|<b>|<host>|<100000>/);
  assert.match(html, /run&lt;\/title&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /lb&lt;img src=x onerror=alert\(1\)&gt;/);
  assert.match(html, /client &quot;1&quot; ran &lt;b&gt;95 %&lt;\/b&gt; busy/);
  assert.match(
    html,
    /<dt data-mark="client-bound">client-bound <code>client-bound<\/code><\/dt><dd>A YCSB client host ran above about 90 % CPU busy/,
  );
});

test(
  'rendered in Chromium: tables and figures are there, and nothing is requested beyond the file',
  { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium', timeout: 60_000 },
  async () => {
    const { results, manifest } = hostileFixture();
    const html = fixtureReport(results, manifest);
    let server: Server | undefined;
    let browser: Browser | undefined;
    try {
      server = await new Promise<Server>((done) => {
        const created = createServer((request, response) => {
          if (request.url === '/report.html')
            response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
          else response.writeHead(404).end();
        });
        created.listen(0, '127.0.0.1', () => done(created));
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report.html`;
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const page = await browser.newPage({ viewport: { width: 1250, height: 900 } });
      const requests: string[] = [];
      await page.route('**/*', (route) => {
        requests.push(route.request().url());
        return route.request().url() === url ? route.continue() : route.abort();
      });
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.addInitScript({
        content: `window.__violations = []; document.addEventListener('securitypolicyviolation', (event) => window.__violations.push(event.violatedDirective + ' ' + event.blockedURI));`,
      });
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForTimeout(200);

      assert.equal(
        await page.textContent('#g0-throughput tr[data-threads="10"] td[data-stack="kernel"]'),
        '18,500 [18,000–19,000]',
      );
      assert.equal(await page.locator('figure svg').count(), 10, 'one SVG per figure');
      const box = await page.locator('figure[data-metric="throughput"] svg').boundingBox();
      assert.ok(
        box && box.width > 300 && box.height > 150,
        `the throughput figure is drawn at a readable size (${JSON.stringify(box)})`,
      );
      // The hostile names stayed text.
      assert.equal(await page.locator('script, img').count(), 0);
      assert.equal(await page.title(), 'Onload Bench report: run run</title><script>alert(1)</script>');
      assert.deepEqual(dialogs, []);
      assert.deepEqual(requests, [url], 'no request beyond the report itself');
      assert.deepEqual(
        await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
        [],
        'nothing tried to load',
      );
      mkdirSync(join(root, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(root, 'test-artifacts', 'html-report.png'), fullPage: true });
      // On a screen of 1000 px the tables wrap their cells (marks stay whole) instead of running past the page.
      await page.setViewportSize({ width: 1000, height: 900 });
      const screen = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        widest: Math.max(
          ...Array.from(document.querySelectorAll('table')).map((table) => table.getBoundingClientRect().right),
        ),
      }));
      const wideOnScreen = await page.evaluate(() =>
        Array.from(document.querySelectorAll('body *'))
          .filter((element) => element.getBoundingClientRect().right > 1000)
          .slice(0, 6)
          .map((element) => `${element.tagName}.${element.className}#${element.id}`),
      );
      assert.ok(
        screen.page <= 1000 && screen.widest <= 1000,
        `screen width ${JSON.stringify(screen)}: ${wideOnScreen.join(', ')}`,
      );
      // Printed on A4 (210 mm less 2 × 14 mm margins: about 688 CSS px), nothing is wider than the page.
      await page.emulateMedia({ media: 'print' });
      await page.setViewportSize({ width: 688, height: 1000 });
      const wide = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        widest: Math.max(
          ...Array.from(document.querySelectorAll('table')).map((table) => table.getBoundingClientRect().right),
        ),
      }));
      const culprits = await page.evaluate(() =>
        Array.from(document.querySelectorAll('body *'))
          .filter((element) => element.getBoundingClientRect().right > 690)
          .slice(0, 5)
          .map((element) => `${element.tagName}.${element.className}`),
      );
      assert.ok(
        wide.page <= 688 && wide.widest <= 688,
        `printed width ${JSON.stringify(wide)}: ${culprits.join(', ')}`,
      );
      const pdf = await page.pdf({ format: 'A4' });
      assert.ok(pdf.length > 10_000, 'prints to a PDF');
    } finally {
      await browser?.close();
      await new Promise((done) => (server ? server.close(done) : done(undefined)));
    }
  },
);

test(
  'onload-bench report --html writes the file; --output without --html is a usage error',
  { skip: !existsSync(join(root, 'dist', 'cli.js')) && 'dist/cli.js not built' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'html-report-'));
    try {
      const run = join(dir, 'run-fixture');
      mkdirSync(run);
      const fixture = join(root, 'test', 'panel', 'fixtures', 'run-fixture');
      writeFileSync(join(run, 'manifest.json'), readFileSync(join(fixture, 'manifest.json')));
      writeFileSync(join(run, 'results.jsonl'), readFileSync(join(fixture, 'results.jsonl')));
      const cli = (args: string[]) =>
        spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'report', ...args], {
          encoding: 'utf8',
          timeout: 60_000,
        });
      const out = join(dir, 'report.html');
      const written = cli([run, '--html', '--output', out]);
      assert.equal(written.status, 0, written.stderr);
      assert.equal(written.stderr, `Wrote ${out}\n`);
      const html = readFileSync(out, 'utf8');
      assert.match(html, /<h1>Onload Bench report: run run-fixture<\/h1>/);
      assert.equal((html.match(/<figure /g) ?? []).length, 10);
      const stdout = cli([run, '--html']);
      assert.equal(stdout.status, 0, stdout.stderr);
      assert.match(stdout.stdout, /^<!DOCTYPE html>/);
      // --json carries the CPU metrics and each percentile's source.
      const json = cli([run, '--json']);
      assert.equal(json.status, 0, json.stderr);
      const tables = JSON.parse(json.stdout) as {
        metric: { id: string };
        groups: {
          rows: { threads: number; cells: { stack: string; value?: number; percentilesSource?: string }[] }[];
        }[];
      }[];
      assert.deepEqual(tables.map((table) => table.metric.id).slice(-5), [
        'server-cpu',
        'client-cpu',
        'server-cpu-per-op',
        'memcached-cpu-per-op',
        'ops-per-busy-core',
      ]);
      const p99 = tables
        .find((table) => table.metric.id === 'read-p99')!
        .groups[0].rows.find((row) => row.threads === 20)!.cells;
      assert.deepEqual(
        p99.map((cell) => [cell.stack, cell.percentilesSource]),
        [
          ['kernel', 'client-max'],
          ['latency-best', 'hdr-merged'],
        ],
      );
      assert.equal(tables.find((table) => table.metric.id === 'server-cpu')!.groups[0].rows[1].cells[0].value, 41.5);
      const text = cli([run, '--metric', 'read-p99']);
      assert.match(text.stdout, /\n\s+20\s+2400\.0 \^ \(1\/2 failed\)/, 'the text table marks the upper bound with ^');
      const bad = cli([run, '--csv', '--output', out]);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--output goes with --html/);
      const both = cli([run, '--csv', '--html']);
      assert.equal(both.status, 2);
      const unwritable = cli([run, '--html', '--output', join(dir, 'no-such-dir', 'r.html')]);
      assert.equal(unwritable.status, 1);
      assert.match(unwritable.stderr, /cannot write .*no-such-dir/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
