// How memcached is found (engine/src/server/serverProcess.ts, issue 21): by what it is, with the way
// it was found kept in the cell's evidence; the script is valid sh with every remote value quoted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  memcachedIdentity,
  parseServerProcessFacts,
  processEvidence,
  serverProcessScript,
} from '../../../engine/src/server/serverProcess';
import type { ResolvedServer } from '../../../engine/src/plan/planSchema';

describe('finding memcached', () => {
  it('records how memcached was found', () => {
    const facts = parseServerProcessFacts(
      [
        '@rights sudo',
        '@pid 4242',
        "@found memcached binary /opt/couchbase/bin/memcached, user couchbase, child of beam.smp 4100 (couchbase-server.service's main process)",
        '@name memcached',
        '@user couchbase',
      ].join('\n'),
    );
    assert.equal(facts.pid, 4242);
    assert.equal(
      facts.foundBy,
      "memcached binary /opt/couchbase/bin/memcached, user couchbase, child of beam.smp 4100 (couchbase-server.service's main process)",
    );
    assert.equal(processEvidence(facts).foundBy, facts.foundBy);
  });

  it("looks for the installation's binary and, in service mode, the unit's main process as its parent", () => {
    const server = {
      host: 'cb',
      couchbaseServerPath: "/opt/it's couchbase/bin/couchbase-server",
      serverStart: 'service',
      serviceName: 'couchbase-server',
    } as unknown as ResolvedServer;
    const identity = memcachedIdentity(server);
    assert.equal(
      memcachedIdentity({ ...server, serverStart: 'foreground' }).serviceName,
      undefined,
      'a foreground server has no unit',
    );
    assert.equal(identity.binary, "/opt/it's couchbase/bin/memcached");
    const script = serverProcessScript(11210, identity);
    assert.ok(script.includes(`bin='/opt/it'\\''s couchbase/bin/memcached'`), 'the binary is shell-quoted');
    assert.ok(script.includes('systemctl show -p MainPID --value couchbase-server '));
    const syntax = spawnSync('sh', ['-n', '-c', script], { encoding: 'utf8' });
    assert.equal(syntax.status, 0, syntax.stderr);
  });
});
