// The end of a client's run in one round trip: its CPU sampler's process group stopped
// and its HDR logs read (their folder then removed) by one script, run here by a real sh against a
// real process group; a sampler already gone and a missing folder are no failure.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stopSamplerAndFetchHdr } from '../../../engine/src/evidence/cellEvidence';
import type { RemoteSession } from '../../../engine/src/remote/ssh';

function localSession(trips: string[]): RemoteSession {
  return {
    host: 'c',
    run: async (command, options) => {
      trips.push(options.step);
      const stdout = execFileSync('sh', ['-c', command], { encoding: 'utf8' });
      return { exitCode: 0, stdout, stderr: '' };
    },
    upload: async () => undefined,
    close: async () => undefined,
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

describe("the end of a client's run in one trip", () => {
  it("stops the sampler's group and returns the HDR logs, then removes their folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-end-'));
    try {
      const pidFile = join(dir, 'cpu-sampler-client.pid');
      // a stand-in sampler in its own group, its group id in the pid file (as runInGroup writes it)
      const sampler = spawn('setsid', ['sh', '-c', `echo $$ > ${pidFile}; while :; do sleep 0.05; done`], {
        stdio: 'ignore',
      });
      for (let i = 0; i < 100 && !existsSync(pidFile); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      const group = Number(readFileSync(pidFile, 'utf8'));
      const hdrDir = join(dir, 'hdr', 'cell', 'attempt1');
      mkdirSync(hdrDir, { recursive: true });
      writeFileSync(join(hdrDir, 'READ.hdr'), '#[Logging for: READ]\n0.000,1.000,0.1,HIST\n');
      writeFileSync(join(hdrDir, 'notes.txt'), 'not a log\n');
      const trips: string[] = [];
      const files = await stopSamplerAndFetchHdr(localSession(trips), pidFile, hdrDir);
      assert.deepEqual(files, [{ name: 'READ.hdr', text: '#[Logging for: READ]\n0.000,1.000,0.1,HIST\n' }]);
      assert.deepEqual(trips, ['fetch-hdr']);
      assert.equal(alive(group), false, 'the sampler group is gone');
      assert.equal(existsSync(pidFile), false);
      assert.equal(existsSync(hdrDir), false, 'the folder is removed');
      sampler.kill();
      // nothing left: no group, no folder
      assert.deepEqual(await stopSamplerAndFetchHdr(localSession(trips), pidFile, hdrDir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
