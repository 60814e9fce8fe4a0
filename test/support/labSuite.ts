// One lab (test/lab) per test suite (describe) of the engine's lab tests: started before the first
// test with a fresh local work folder, stopped and removed after the last; after each test the
// injected faults are cleared and no process may be left on the lab's hosts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before } from 'node:test';
import { startLab, type Lab, type LabOptions } from '../lab/index';

/** Registers the suite's hooks; `onStart` receives the lab and the work folder once they exist. */
export function labPerSuite(
  options: LabOptions,
  workPrefix: string,
  onStart: (started: { lab: Lab; work: string }) => void,
): void {
  let lab: Lab | undefined;
  let work: string | undefined;
  before(async () => {
    lab = await startLab(options);
    work = mkdtempSync(join(tmpdir(), workPrefix));
    onStart({ lab, work });
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    lab!.faults.clear();
    assert.deepEqual(await lab!.processesLeft(), [], 'no remote process left');
  });
}
