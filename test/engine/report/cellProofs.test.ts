// The text and HTML reports say how each cell's acceleration and interface were proven, or why
// not, naming the source of each claim (engine/src/report/evidence/cellProofs.ts, issue 21).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CellResult } from '../../../engine/src/model';
import { buildHtmlReport } from '../../../engine/src/report/htmlReport';
import { renderReport } from '../../../engine/src/report/report';
import { fixtureManifest, fixtureResults } from '../../panel/fixtureRun';

function withServer(result: CellResult, server: Record<string, unknown>): CellResult {
  return { ...result, evidence: { ...(result.evidence ?? {}), server: { 'cb-server': server } } };
}

test('each cell says how its acceleration and interface were proven, with sources', () => {
  const onload = fixtureResults().find((result) => result.status === 'ok' && result.key.stack !== 'kernel')!;
  const viaKernelNic = withServer(onload, {
    process: {
      pid: 4242,
      foundBy:
        "memcached binary /opt/couchbase/bin/memcached, user couchbase, child of beam.smp 4100 (couchbase-server.service's main process)",
      foundAfterMs: 3000,
    },
    acceleration: { accelerated: true, evidence: 'memcached 4242 in Onload stack 0 with 10.0.0.1:11210 LISTEN' },
    runAcceleration: {
      verdict: 'not-accelerated',
      inStack: 0,
      inKernel: 2,
      evidence:
        "the run's KV connections: 2 as kernel sockets (/proc/net/tcp{,6}), none in memcached's Onload stack (onload_stackdump lots, 5 looks): the traffic ran on the kernel stack",
    },
    traffic: {
      samples: 9,
      localAddresses: { '10.0.2.1': 9 },
      sources: { '/proc/net/tcp': { '10.0.2.1': 9 }, 'onload_stackdump lots': {} },
    },
  });
  const older = withServer(
    { ...onload, id: `${onload.id}-old` },
    {
      process: { pid: 7 },
      acceleration: { accelerated: true, evidence: 'memcached 7 (KV listener) in Onload stack 0' },
    },
  );
  const text = renderReport([], [viaKernelNic, older]);
  assert.match(text, /How each cell was proven:/);
  assert.match(
    text,
    /acceleration: not-accelerated during the run: the run's KV connections: 2 as kernel sockets \(\/proc\/net\/tcp\{,6\}\), none in memcached's Onload stack \(onload_stackdump lots, 5 looks\)/,
  );
  assert.match(text, /interface: 10\.0\.2\.1 \(\/proc\/net\/tcp\)/);
  assert.match(
    text,
    /memcached 4242 found by memcached binary \/opt\/couchbase\/bin\/memcached, user couchbase, child of beam\.smp 4100 \(couchbase-server\.service's main process\) after 3 s/,
  );
  // an older record proved only the listener: said so, never passed as proven
  assert.match(text, /acceleration: only before the run, onload_stackdump: listener in a stack .*: not proven/);
  assert.match(text, /interface: not observed/);
  const html = buildHtmlReport({ runDir: '/runs/run-fixture', results: [viaKernelNic], manifest: fixtureManifest() });
  assert.match(html, /<h2 id="proofs">How each cell was proven<\/h2>/);
  assert.match(
    html,
    /<dt>Acceleration<\/dt><dd>not-accelerated during the run: the run&#39;s KV connections: 2 as kernel sockets/,
  );
});
