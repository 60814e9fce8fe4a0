// Issue 26, extra: in a trusted workspace `onloadBench.profilePath` is a resource setting a
// workspace can set. It decides where `onload_import` names are looked up, but only the folders the
// user set (user or application settings: `trustedProfilePath`) widen where uploaded files may come
// from. Fake hosts; the profile lives outside the plan's folder and the workspace.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { userProfilePath } from '../../../client/src/settings';
import type { RunSweepOptions } from '../../../engine/src/options';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { FakeHosts, fakeHostsPlan, fakeWorkload } from '../../support/fakeHosts';

const root = mkdtempSync(join(tmpdir(), 'upload-roots-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function sweepWith(extra: Partial<RunSweepOptions>) {
  const planDir = join(root, `ws-${Math.random().toString(36).slice(2)}`);
  mkdirSync(planDir, { recursive: true });
  writeFileSync(join(planDir, 'workloada'), fakeWorkload);
  const outside = join(root, 'elsewhere');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'tuned.opf'), 'onload_set EF_POLL_USEC 100000\n');
  const plan = fakeHostsPlan({
    stacks: ['kernel', { name: 'tuned', profile: join(outside, 'tuned.opf') }],
    threads: [1],
  });
  const planPath = join(planDir, 'p.benchplan.json');
  writeFileSync(planPath, JSON.stringify(plan));
  const hosts = new FakeHosts();
  const outcome = await runSweep(
    {
      planPath,
      plan,
      resultsRoot: join(planDir, 'results'),
      password: 'pw',
      signal: new AbortController().signal,
      onEvent: () => undefined,
      allowedRoots: [planDir],
      ...extra,
    },
    {
      sessionFactory: hosts.sessionFactory,
      bucket: { recreate: async () => undefined, itemCount: async () => 100 },
      skipServerWait: true,
    },
  );
  return { outcome, uploads: hosts.uploads(), outside };
}

describe('onloadBench.profilePath and where uploads may come from', () => {
  it('a workspace-set profilePath (resource scope) does not let a plan upload from that folder', async () => {
    const { outcome, uploads } = await sweepWith({ profilePath: [join(root, 'elsewhere')] });
    assert.equal(outcome.error?.code, 'path-outside', JSON.stringify(outcome.error));
    assert.match(
      outcome.error?.message ?? '',
      /stacks\[1\]\.profile names .*elsewhere\/tuned\.opf, outside the plan's folder/,
    );
    assert.deepEqual(uploads, []);
  });

  it("the user's own profilePath (user settings) does", async () => {
    const { outcome, uploads } = await sweepWith({
      profilePath: [join(root, 'elsewhere')],
      trustedProfilePath: [join(root, 'elsewhere')],
    });
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    assert.ok(uploads.some((upload) => /tuned\.opf mode 644$/.test(upload.command)));
  });

  it("the extension takes only the user or application value as trusted, never the workspace's or folder's", () => {
    assert.deepEqual(
      userProfilePath({ globalValue: ['~/profiles'], workspaceValue: ['/root/.ssh'], workspaceFolderValue: ['/etc'] }),
      ['~/profiles'],
    );
    assert.deepEqual(userProfilePath({ workspaceValue: ['/root/.ssh'] }), []);
    assert.deepEqual(userProfilePath(undefined), []);
  });
});
