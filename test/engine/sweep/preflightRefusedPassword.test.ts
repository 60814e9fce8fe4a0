// Couchbase refusing the password (HTTP 401) is reported by pre-flight under the
// password's own check (`couchbase-password`, blocking), not under "Bucket fits the memory quota".
// The fake hosts answer SSH; a local HTTP server answers every REST call with 401.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { PreflightCheck, SweepEvent } from '../../../engine/src/events';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan, fakeWorkload } from '../../support/fakeHosts';

const root = mkdtempSync(join(tmpdir(), 'preflight-401-'));
let http: Server;
let port = 0;
before(async () => {
  http = createServer((_request, response) =>
    response.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized'),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
after(() => {
  http.close();
  rmSync(root, { recursive: true, force: true });
});

it(
  'a refused password fails the password check, and the quota check does not claim it',
  { timeout: 60_000 },
  async () => {
    const dir = join(root, 'plan');
    mkdirSync(dir);
    writeFileSync(join(dir, 'workloada'), fakeWorkload);
    const plan = fakeHostsPlan({ threads: [1], servers: [{ host: 'srv', address: '127.0.0.1', restPort: port }] });
    const planPath = join(dir, 'p.benchplan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    const events: SweepEvent[] = [];
    const outcome = await runSweep(
      {
        planPath,
        plan,
        resultsRoot: join(dir, 'results'),
        password: 'wrong',
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
      },
      {
        sessionFactory: new FakeHosts().sessionFactory,
        bucket: { recreate: async () => undefined, itemCount: async () => 100 },
        skipServerWait: true,
      },
    );
    assert.equal(outcome.error?.code, 'bucket-auth', JSON.stringify(outcome.error));
    const report = events.find(
      (event): event is Extract<SweepEvent, { type: 'preflight' }> => event.type === 'preflight',
    );
    assert.ok(report, 'a pre-flight report');
    const failed = report.checks
      .filter((check: PreflightCheck) => !check.ok)
      .map((check) => [check.id, check.blocking]);
    assert.deepEqual(
      failed.filter(([id]) => id === 'couchbase-password' || id === 'bucket-quota'),
      [['couchbase-password', true]],
    );
    assert.match(report.checks.find((check) => check.id === 'couchbase-password')!.detail, /HTTP 401/);
  },
);
