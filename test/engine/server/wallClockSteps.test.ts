// Issue 26 B7: the wall clock may step (NTP, a VM resumed) while a server starts. Durations and
// deadlines come from a monotonic clock, so a step back does not fail the freshness proof and a
// step forward does not pass an old instance as fresh; the wall clock only stamps what is shown,
// and a cell never finishes before it started. A local HTTP server plays Couchbase's
// /pools/default; fake hosts play the rest.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import { proveFresh } from '../../../engine/src/server/serverRestartProof';
import { waitForServer } from '../../../engine/src/server/serverControl';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan, fakeWorkload } from '../../support/fakeHosts';

const RealDate = Date;
let offsetMs = 0;
/** Date as the process sees it, `offsetMs` away from the real one (Date.now and new Date()). */
class SteppedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...(args as [string]));
  }
  static override now(): number {
    return RealDate.now() + offsetMs;
  }
}
function stepClock(ms: number): void {
  offsetMs += ms;
}
function useSteppedClock(): void {
  offsetMs = 0;
  globalThis.Date = SteppedDate as DateConstructor;
}
function realClock(): void {
  globalThis.Date = RealDate;
  offsetMs = 0;
}

const root = mkdtempSync(join(tmpdir(), 'wall-clock-'));
let uptimeSec = 0;
let http: Server;
let port = 0;
before(async () => {
  http = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ nodes: [{ thisNode: true, uptime: String(uptimeSec), hostname: '127.0.0.1:8091' }] }),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
after(() => {
  realClock();
  http.close();
  rmSync(root, { recursive: true, force: true });
});

const server = () =>
  withDefaults(fakeHostsPlan({ servers: [{ host: 'srv', address: '127.0.0.1', restPort: port }] })).servers[0];
const session = new FakeHosts().session('srv');

describe('a wall-clock step during a server start', () => {
  it(
    'a step back of 120 s does not fail the freshness proof of a server just started',
    { timeout: 20_000 },
    async () => {
      useSteppedClock();
      try {
        const started = performance.now();
        uptimeSec = 2;
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        stepClock(-120_000);
        const proof = await proveFresh(session, server(), 'pw', started);
        assert.ok(proof.sinceStartSec >= 2 && proof.sinceStartSec < 10, `since start ${proof.sinceStartSec} s`);
      } finally {
        realClock();
      }
    },
  );

  it('a step forward of 600 s does not pass an old instance (up 300 s) as fresh', { timeout: 20_000 }, async () => {
    useSteppedClock();
    try {
      const started = performance.now();
      uptimeSec = 300;
      stepClock(600_000);
      await assert.rejects(
        proveFresh(session, server(), 'pw', started),
        /has been up 300 s, but it was started 0 s ago: an old instance answers/,
      );
    } finally {
      realClock();
    }
  });

  it('a step forward of an hour does not cut the wait for REST short', { timeout: 20_000 }, async () => {
    useSteppedClock();
    const silent = withDefaults(fakeHostsPlan({ servers: [{ host: 'srv', address: '127.0.0.1', restPort: 9 }] }))
      .servers[0]; // nothing answers
    const started = performance.now();
    const stepping = setInterval(() => stepClock(3600_000), 200);
    try {
      await assert.rejects(waitForServer(session, silent, false, 2, undefined), /did not answer within 2 s/);
    } finally {
      clearInterval(stepping);
      realClock();
    }
    assert.ok(performance.now() - started >= 1_900, `gave up after ${Math.round(performance.now() - started)} ms`);
  });

  it('a cell whose clock steps back 120 s while it runs finishes after it started', { timeout: 30_000 }, async () => {
    const dir = join(root, 'plan');
    mkdirSync(dir);
    writeFileSync(join(dir, 'workloada'), fakeWorkload);
    const plan = fakeHostsPlan({ threads: [1] });
    const planPath = join(dir, 'p.benchplan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    useSteppedClock();
    let outcome;
    try {
      outcome = await runSweep(
        {
          planPath,
          plan,
          resultsRoot: join(dir, 'results'),
          password: 'pw',
          signal: new AbortController().signal,
          onEvent: (event) => {
            if (event.type === 'phase' && event.phase === 'ycsb-run') stepClock(-120_000);
          },
        },
        {
          sessionFactory: new FakeHosts().sessionFactory,
          bucket: { recreate: async () => undefined, itemCount: async () => 100 },
          skipServerWait: true,
        },
      );
    } finally {
      realClock();
    }
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    const [line] = readFileSync(join(outcome.runDir, 'results.jsonl'), 'utf8').split('\n');
    const result = JSON.parse(line);
    assert.ok(
      new Date(result.finishedAt).getTime() >= new Date(result.startedAt).getTime(),
      `started ${result.startedAt}, finished ${result.finishedAt}`,
    );
  });
});
