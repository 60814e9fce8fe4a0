// The per-thread CPU view is shown wherever a cell's CPU is (issue 21): the `report` text, the HTML
// report and the panel's time-series view list each host's busiest threads of memcached and the
// YCSB JVM (name from comm, tid, % of one CPU, saturated ones said), what window the CPU figures
// cover, and the new marks with their reasons.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { timeSeriesView } from '../../client/src/panel/evidenceModel';
import { runDataFromFiles } from '../../client/src/panel/runData';
import { buildViewModel } from '../../client/src/panel/viewModel';
import type { CellResult, CpuEvidence } from '../../engine/src/model';
import { buildHtmlReport } from '../../engine/src/report/htmlReport';
import { renderReport } from '../../engine/src/report/report';
import { fixtureManifest, fixtureResults } from './fixtureRun';
import { chromiumPath, inTimeSeriesView } from './support/webviewPage';

const id = '25G-kernel-t10-r1';
const clientBound = {
  code: 'client-bound',
  host: '127.0.0.2',
  message:
    'a thread of java (pid 913) ran at 90 % of one CPU or more: cb-io-1-1 (tid 921) 97 % (/proc/PID/task/TID/stat): its numbers measure the client more than Couchbase (add clients or lower threads).',
};

function withThreads(result: CellResult): CellResult {
  const cpu = structuredClone(result.evidence?.cpu) as CpuEvidence;
  const server = Object.keys(cpu.hosts).find((host) => cpu.hosts[host].role === 'server')!;
  const client = Object.keys(cpu.hosts).find((host) => cpu.hosts[host].role === 'client')!;
  cpu.hosts[server].process = { name: 'memcached', pid: 4242, pctOfCore: 120, cpuSec: 60 };
  cpu.hosts[server].threads = [
    { tid: 4250, name: 'mc:worker_0', pctOfCore: 61, cpuSec: 30 },
    { tid: 4251, name: 'mc:worker_1', pctOfCore: 55, cpuSec: 27 },
  ];
  cpu.hosts[server].threadsSeen = 14;
  cpu.hosts[client].process = { name: 'java', pid: 913, pctOfCore: 180, cpuSec: 90 };
  cpu.hosts[client].threads = [
    { tid: 921, name: 'cb-io-1-1', pctOfCore: 97, cpuSec: 48 },
    { tid: 930, name: 'Thread-3', pctOfCore: 20, cpuSec: 10 },
  ];
  cpu.hosts[client].threadsSeen = 2;
  cpu.window = {
    source: 'ycsb-status-lines',
    runStartedAt: '2026-12-04T12:00:02.000Z',
    runEndedAt: '2026-12-04T12:01:02.000Z',
    warmupSec: 10,
    clockOffsetsMs: { [server]: 3, [client]: -2 },
  };
  return { ...result, evidence: { ...result.evidence, cpu }, marks: [...(result.marks ?? []), clientBound] };
}

function results(): CellResult[] {
  return fixtureResults().map((result) => (result.id === id ? withThreads(result) : result));
}

test("report and the HTML report list each host's busiest threads, the CPU window and a saturated client thread's mark", () => {
  const all = results();
  const text = renderReport([], all);
  assert.match(
    text,
    /Busiest threads \(% of one CPU over the measured window, \/proc\/PID\/task\/TID\/stat; names from comm\):/,
  );
  assert.match(
    text,
    /25G · kernel · 10 threads · repetition 1, over YCSB's run 2026-12-04T12:00:02\.000Z to 2026-12-04T12:01:02\.000Z \(its status lines\), the first 10 s left out as warm-up; the hosts' clocks agree within 5 ms \(measured\):/,
  );
  assert.match(
    text,
    /\(server\) memcached 4242: mc:worker_0 \(tid 4250\) 61 %, mc:worker_1 \(tid 4251\) 55 % \(\+12 more threads\)/,
  );
  assert.match(text, /\(client\) java 913: cb-io-1-1 \(tid 921\) 97 % SATURATED, Thread-3 \(tid 930\) 20 %/);
  assert.match(
    text,
    /\[client-bound\] 127\.0\.0\.2: a thread of java \(pid 913\) ran at 90 % of one CPU or more: cb-io-1-1 \(tid 921\) 97 %/,
  );
  const html = buildHtmlReport({ runDir: '/runs/run-fixture', manifest: fixtureManifest(), results: all });
  assert.match(html, /<h2 id="threads">Busiest threads<\/h2>/);
  assert.match(
    html,
    /<tr class="saturated"><th rowspan="2" scope="rowgroup">[^<]+ \(client\) java 913<\/th><td>cb-io-1-1<\/td><td>921<\/td><td>97 % \(saturated\)<\/td><\/tr>/,
  );
  assert.match(html, /\(server\) memcached 4242 <span class="muted">\+12 more<\/span>/);
  assert.match(
    html,
    /its status lines\), the first 10 s left out as warm-up; the hosts&#39;? clocks agree within 5 ms \(measured\)/,
  );
});

test(
  "the panel's time-series view shows the busiest threads and what the CPU figures cover",
  { skip: !existsSync(chromiumPath) && 'no /usr/bin/chromium', timeout: 90_000 },
  async () => {
    const data = runDataFromFiles('/runs/run-fixture', fixtureManifest(), results());
    const view = timeSeriesView(data, 0, {
      cellIds: [id, '25G-kernel-t10-r2'],
      stack: 'kernel',
      threads: 10,
      title: '25G (127.0.0.1), kernel, 10 threads',
    });
    assert.deepEqual(
      view.cells[0].threads?.map((host) => [
        host.role,
        host.process,
        host.threads.map((thread) => `${thread.name} ${thread.pctOfCore}${thread.saturated ? ' saturated' : ''}`),
        host.more,
      ]),
      [
        ['server', 'memcached 4242', ['mc:worker_0 61', 'mc:worker_1 55'], 12],
        ['client', 'java 913', ['cb-io-1-1 97 saturated', 'Thread-3 20'], 0],
      ],
    );
    assert.equal(view.cells[1].threads, undefined, 'an older record shows no threads');
    await inTimeSeriesView(buildViewModel([data]), view, '#ts-r0-g0:not([hidden]) section.threads', async (page) => {
      assert.equal(
        await page.textContent('#ts-r0-g0 section.threads h4'),
        'Busiest threads (% of one CPU over the measured window, /proc/PID/task/TID/stat)',
      );
      assert.deepEqual(
        await page.$$eval('#ts-r0-g0 section.threads tr.saturated td', (cells) =>
          cells.map((cell) => cell.textContent),
        ),
        ['127.0.0.2 (client) java 913', 'cb-io-1-1', '921', '97 % saturated'],
      );
      assert.match(
        (await page.textContent('#ts-r0-g0 section.threads caption')) ?? '',
        /Repetition 1 \(127\.0\.0\.1: 12 more threads\)/,
      );
      assert.match(
        (await page.textContent('#ts-r0-g0 .timeseries-notes')) ?? '',
        /Repetition 1: CPU figures over YCSB's run .* \(its status lines\), the first 10 s left out as warm-up; the hosts' clocks agree within 5 ms \(measured\)\./,
      );
      assert.match(
        (await page.textContent('#ts-r0-g0 .timeseries-notes')) ?? '',
        /Repetition 1 is marked client-bound: a thread of java \(pid 913\) ran at 90 % of one CPU or more: cb-io-1-1 \(tid 921\) 97 %/,
      );
    });
  },
);

test('a couchbase2 IO loop that spins by design (couchbase.boost) is named so in report and HTML, never saturated', () => {
  const all = results().map((result) => {
    if (result.id !== id) return result;
    const cpu = {
      ...result.evidence!.cpu!,
      clientIoSpin: { boost: 3, threadPrefix: 'cb-io-', source: 'YCSB 0.17.0 couchbase2 binding' },
    };
    return {
      ...result,
      evidence: { ...result.evidence, cpu },
      marks: (result.marks ?? []).filter((mark) => mark.code !== 'client-bound'),
    };
  });
  const text = renderReport([], all);
  assert.match(
    text,
    /\(client\) java 913: cb-io-1-1 \(tid 921\) 97 % spins by design \(couchbase\.boost\), Thread-3 \(tid 930\) 20 %/,
  );
  assert.doesNotMatch(text, /SATURATED/);
  const html = buildHtmlReport({ runDir: '/runs/run-fixture', manifest: fixtureManifest(), results: all });
  assert.match(
    html,
    /<tr><th rowspan="2" scope="rowgroup">[^<]+ \(client\) java 913<\/th><td>cb-io-1-1<\/td><td>921<\/td><td>97 % \(spins by design: couchbase\.boost\)<\/td><\/tr>/,
  );
});
