// A test process killed with SIGKILL cannot power its lab hosts off; the next startLab must (by
// the pids kept in the lab's folder): no host, network namespace, bridge, mount or folder of the
// dead owner's lab may survive it, and labs of live owners are left alone.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { labUnavailable, reapStaleLabs } from '../lab/index';

function pidsOfMachine(labId: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--machine=ob${labId}-`);
      } catch {
        return false;
      }
    });
}

describe('reaping the lab of a killed test process', { skip: labUnavailable() }, () => {
  it(
    'powers its hosts off, removes its network, mounts and folder at the next start',
    { timeout: 120_000 },
    async () => {
      const script = `const { startLab } = require(${JSON.stringify(join(__dirname, '..', 'lab', 'index.ts'))}); startLab({ startCouchbase: false }).then((lab) => { console.log(JSON.stringify({ id: lab.id, dir: lab.dir })); setInterval(() => {}, 1000); });`;
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const started = await new Promise<{ id: string; dir: string }>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n').find((text) => text.startsWith('{'));
          if (line) resolve(JSON.parse(line) as { id: string; dir: string });
        });
        child.once('exit', (code) => reject(new Error(`the lab's owner exited (${code}) before its lab was up`)));
      });
      assert.ok(pidsOfMachine(started.id).length > 0, 'its hosts run');
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      assert.ok(pidsOfMachine(started.id).length > 0, 'SIGKILL leaves the hosts running');

      const reaped = reapStaleLabs();
      assert.ok(reaped.includes(started.dir), JSON.stringify(reaped));
      for (let waited = 0; waited < 50 && pidsOfMachine(started.id).length > 0; waited++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(pidsOfMachine(started.id), [], 'no host of the dead owner runs');
      assert.equal(existsSync(started.dir), false);
      assert.deepEqual(
        existsSync('/run/netns')
          ? readdirSync('/run/netns').filter((name) => name.startsWith(`obl-${started.id}-`))
          : [],
        [],
      );
      const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
      assert.doesNotMatch(links, new RegExp(`: ob${started.id}`));
      assert.doesNotMatch(readFileSync('/proc/self/mountinfo', 'utf8'), new RegExp(`obl-${started.id}/`));
    },
  );
});
