// The engine reads a stack's profile and its imports as the language server does (issue 26 B10):
// only regular files within the bound. A FIFO or /dev/zero imported is left to the server's Onload
// as written (pre-flight lint reports it unresolved) and never read; a profile that is itself a
// FIFO is refused with the reason, instead of hanging the run or the dry run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleProfile } from '../../../engine/src/plan/profileBundle';
import { effectiveProfileSettings, lintFile } from '../../../engine/src/plan/profileFacts';

describe('special files as profiles and imports', { timeout: 30_000 }, () => {
  let dir: string;
  const text = 'onload_import pipe\nonload_import /dev/zero\nonload_import kept\nonload_set EF_POLL_USEC 5\n';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-special-'));
    writeFileSync(join(dir, 'stack.opf'), text);
    writeFileSync(join(dir, 'kept.opf'), 'onload_set EF_SPIN_USEC 1\n');
    assert.equal(spawnSync('mkfifo', [join(dir, 'pipe.opf'), join(dir, 'fifo.opf')]).status, 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('bundles the regular import and leaves the FIFO and the device as written', async () => {
    const bundle = await bundleProfile(join(dir, 'stack.opf'), '/srv/p/stack.opf');
    assert.deepEqual(
      bundle.files.map((file) => file.localPath),
      [join(dir, 'stack.opf'), join(dir, 'kept.opf')],
    );
    assert.equal(
      bundle.files[0]!.content,
      'onload_import pipe\nonload_import /dev/zero\nonload_import /srv/p/stack.imports/kept.opf\nonload_set EF_POLL_USEC 5\n',
    );
  });

  it('pre-flight lint reports them unresolved, and the effective settings come from the rest', async () => {
    const problems = await lintFile(join(dir, 'stack.opf'), 'onload-profile');
    assert.deepEqual(
      problems?.map((problem) => [problem.line, problem.code, problem.severity]),
      [
        [1, 'unresolved-import', 'error'],
        [2, 'unresolved-import', 'error'],
      ],
    );
    assert.deepEqual(await effectiveProfileSettings(join(dir, 'stack.opf')), { EF_SPIN_USEC: '1', EF_POLL_USEC: '5' });
  });

  it('a profile that is a FIFO is refused, with the reason', async () => {
    const fifo = join(dir, 'fifo.opf');
    await assert.rejects(
      bundleProfile(fifo, '/srv/p/fifo.opf'),
      /fifo\.opf: cannot read: a FIFO \(named pipe\), not a regular file/,
    );
    await assert.rejects(lintFile(fifo, 'onload-profile'), /not a regular file/);
    await assert.rejects(effectiveProfileSettings(fifo), /not a regular file/);
  });
});
