// A stack profile's local imports travel with it, rewritten to the uploaded copies; Onload's own
// profiles stay for the server's Onload.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleProfile } from '../../../engine/src/plan/profileBundle';

describe('profile bundles (onload_import of workspace profiles)', () => {
  let dir: string;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-bundle-'));
    write(
      'profiles/stack.opf',
      '# stack\nonload_import common\nonload_import latency   # the local one, not Onload\'s\nonload_import throughput\nonload_import "$X"\nonload_set EF_POLL_USEC 5\n',
    );
    write('profiles/common.opf', 'onload_import deep fast\nonload_set EF_SPIN_USEC 7\n');
    write('profiles/latency.opf', 'onload_set EF_POLL_USEC 3\n');
    // found by name in a profilePath folder; imports common back (a cycle, as the launcher would loop)
    write(
      'shared/fragments/deep.opf-fragment',
      'onload_set EF_TCP_FASTSTART_INIT 0\nif [ "$1" = fast ]; then onload_import ../../profiles/common.opf; fi\n',
    );
    write('other/common.opf', 'onload_set EF_SPIN_USEC 1\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('uploads every imported workspace file once and points each import at its uploaded copy', async () => {
    const remote = '/srv/bench/profiles/tuned.opf';
    const bundle = await bundleProfile(join(dir, 'profiles', 'stack.opf'), remote, [join(dir, 'shared', 'fragments')]);
    assert.deepEqual(
      bundle.files.map((file) => [file.remotePath, file.localPath]),
      [
        [remote, join(dir, 'profiles', 'stack.opf')],
        ['/srv/bench/profiles/tuned.imports/common.opf', join(dir, 'profiles', 'common.opf')],
        ['/srv/bench/profiles/tuned.imports/latency.opf', join(dir, 'profiles', 'latency.opf')],
        ['/srv/bench/profiles/tuned.imports/deep.opf-fragment', join(dir, 'shared', 'fragments', 'deep.opf-fragment')],
      ],
    );
    assert.equal(
      bundle.files[0].content,
      '# stack\nonload_import /srv/bench/profiles/tuned.imports/common.opf\nonload_import /srv/bench/profiles/tuned.imports/latency.opf   # the local one, not Onload\'s\nonload_import throughput\nonload_import "$X"\nonload_set EF_POLL_USEC 5\n',
    );
    // arguments of an import stay; the sibling common.opf wins over other/common.opf, as in the editor
    assert.equal(
      bundle.files[1].content,
      'onload_import /srv/bench/profiles/tuned.imports/deep.opf-fragment fast\nonload_set EF_SPIN_USEC 7\n',
    );
    assert.equal(bundle.files[2].content, 'onload_set EF_POLL_USEC 3\n');
    assert.equal(
      bundle.files[3].content,
      'onload_set EF_TCP_FASTSTART_INIT 0\nif [ "$1" = fast ]; then onload_import /srv/bench/profiles/tuned.imports/common.opf; fi\n',
    );
    assert.deepEqual(bundle.standardImports, ['throughput']);
  });

  it('quotes remote paths that need it and keeps a profile without imports byte for byte', async () => {
    const bundle = await bundleProfile(join(dir, 'profiles', 'common.opf'), "/srv/it's here/profiles/c.opf", [
      join(dir, 'shared', 'fragments'),
    ]);
    assert.equal(
      bundle.files[0].content,
      "onload_import '/srv/it'\\''s here/profiles/c.imports/deep.opf-fragment' fast\nonload_set EF_SPIN_USEC 7\n",
    );
    const plain = await bundleProfile(join(dir, 'profiles', 'latency.opf'), '/w/profiles/latency.opf');
    assert.deepEqual(
      plain.files.map((file) => file.content),
      ['onload_set EF_POLL_USEC 3\n'],
    );
  });

  it("never takes a file of that name from elsewhere in the plan folder: only the importer's folder and profilePath", async () => {
    // Without profilePath, deep is not beside common.opf: it is left as written (pre-flight lint reports it).
    const bundle = await bundleProfile(join(dir, 'profiles', 'common.opf'), '/w/profiles/c.opf');
    assert.deepEqual(
      bundle.files.map((file) => file.remotePath),
      ['/w/profiles/c.opf'],
    );
    assert.equal(bundle.files[0].content, 'onload_import deep fast\nonload_set EF_SPIN_USEC 7\n');
  });
});
