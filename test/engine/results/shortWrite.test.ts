// Issue 26 B5: on a nearly full results disk a line is written only in part (a short write). That
// cell must not be reported ok, the file must be cut back to its last whole line before the
// failure is reported, and once space returns a resume completes with every line whole. A real
// tmpfs (mounted here, removed after); fake hosts for the sweep.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SweepEvent } from '../../../engine/src/events';
import type { Plan } from '../../../engine/src/plan/planSchema';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { faultyResultsIo } from '../../support/faultyResultsIo';
import { FakeHosts, fakeHostsPlan, fakeWorkload } from '../../support/fakeHosts';

const root = mkdtempSync(join(tmpdir(), 'short-write-'));
const mountPoint = join(root, 'disk');
mkdirSync(mountPoint);
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint], { stdio: 'ignore' });
  mounted = true;
} catch {
  // not allowed here: the test is skipped
}
after(() => {
  if (mounted) execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
  rmSync(root, { recursive: true, force: true });
});

/** Fills the disk to the last byte it takes (the filler's last write is itself short). */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 0x20);
  try {
    for (let index = 0; index < 1_000; index++) writeSync(fd, chunk);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
}

describe(
  'a short write on a full results disk',
  { skip: mounted ? false : 'mounting a tmpfs is not allowed here' },
  () => {
    it(
      'is not reported ok: the file is cut back to its last whole line, the run stops, and resume completes',
      { timeout: 60_000 },
      async () => {
        const dir = join(root, 'plan');
        mkdirSync(dir);
        writeFileSync(join(dir, 'workloada'), fakeWorkload);
        // long axis values make every line longer than a page, so a line written into the last
        // page's free bytes is always cut short
        const plan: Plan = fakeHostsPlan({ threads: [1, 2, 3, 4, 5, 6], axes: { fieldlength: ['1'.repeat(3000)] } });
        const planPath = join(dir, 'p.benchplan.json');
        writeFileSync(planPath, JSON.stringify(plan));
        const filler = join(mountPoint, 'filler');
        const shortWrites: { asked: number; written: number }[] = [];
        const sweep = async (resumeRunDir?: string) => {
          const events: SweepEvent[] = [];
          let appends = 0;
          const outcome = await runSweep(
            {
              planPath,
              plan,
              resultsRoot: mountPoint,
              password: 'pw',
              signal: new AbortController().signal,
              onEvent: (event) => events.push(event),
              ...(resumeRunDir ? { resumeRunDir } : {}),
            },
            {
              sessionFactory: new FakeHosts().sessionFactory,
              bucket: { recreate: async () => undefined, itemCount: async () => 100 },
              skipServerWait: true,
              // the real disk, filled up just before the third line is appended (after that cell's
              // logs are written), with part of a page left in results.jsonl
              resultsIo: resumeRunDir
                ? undefined
                : faultyResultsIo((path, handle) => {
                    if (!path.endsWith('results.jsonl')) return undefined;
                    return (async (...args: Parameters<typeof handle.write>) => {
                      if (++appends !== 3) return handle.write(...args);
                      fillDisk(filler);
                      const written = await handle.write(...args);
                      shortWrites.push({ asked: (args[0] as unknown as Buffer).length, written: written.bytesWritten });
                      return written;
                    }) as typeof handle.write;
                  }),
            },
          );
          return { outcome, events };
        };

        const first = await sweep();
        const path = join(first.outcome.runDir, 'results.jsonl');
        const text = readFileSync(path, 'utf8');
        assert.ok(
          shortWrites.length === 1 && shortWrites[0].written > 0 && shortWrites[0].written < shortWrites[0].asked,
          `a short write happened: ${JSON.stringify(shortWrites)}`,
        );
        assert.equal(first.outcome.error?.code, 'results-write', JSON.stringify(first.outcome.error));
        assert.match(first.outcome.error?.message ?? '', /the disk is full\. Results already written are intact\./);
        assert.ok(text.endsWith('\n'), 'no fragment left behind');
        const lines = text.split('\n').filter(Boolean);
        assert.equal(lines.length, 2);
        for (const line of lines) assert.equal(JSON.parse(line).kind, 'cell');
        const reportedOk = first.events.filter((event) => event.type === 'cell-finished').length;
        assert.equal(reportedOk, 2, 'only cells whose line is on disk were reported');
        assert.equal(first.outcome.completed, 2);

        rmSync(filler);
        const second = await sweep(first.outcome.runDir);
        assert.equal(second.outcome.error, undefined, JSON.stringify(second.outcome.error));
        const after = readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        assert.deepEqual(
          after.map((result) => result.key.threads),
          [1, 2, 3, 4, 5, 6],
        );
        assert.ok(after.every((result) => result.status === 'ok'));
      },
    );
  },
);
