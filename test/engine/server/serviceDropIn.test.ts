// The drop-in's pure parts (REAL-LAB H4; issue 19 defects 1-3): the unit's command is read only
// after a drop-in of ours is gone, systemd's effective command is compared word for word with ours
// (show prints words unquoted and unescaped), the drop-ins that also set ExecStart= are named, and
// the default service commands name the plan's unit. The lab test beside this one runs them
// against the real systemd (labServiceUnit.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultServiceCommand, withDefaults } from '../../../engine/src/plan/planSchema';
import {
  effectiveStartScript,
  isOurCommand,
  otherExecStartDropIns,
  parseExecStart,
  unitFactsScript,
} from '../../../engine/src/server/serviceDropIn';
import { fakeHostsPlan } from '../../support/fakeHosts';

test("the unit's command is read after our old drop-in is removed, and systemd's effective one is checked against ours", () => {
  const server = withDefaults(fakeHostsPlan()).servers[0];
  const facts = unitFactsScript(server);
  assert.ok(facts.indexOf('rm -f') < facts.indexOf('systemctl show -p ExecStart'), 'removal first');
  assert.match(facts, /sudo -n systemctl daemon-reload/);
  assert.match(effectiveStartScript(server), /systemctl show -p DropInPaths couchbase-server/);
  const words = [
    '/usr/bin/onload',
    '--profile=/etc/systemd/system/couchbase-server.service.d/onload-bench-profiles/lat 50%.opf',
    '/opt/couchbase/bin/couchbase-server',
    '--',
    '-noinput',
  ];
  const shown = parseExecStart(
    'ExecStart={ path=/usr/bin/onload ; argv[]=/usr/bin/onload --profile=/etc/systemd/system/couchbase-server.service.d/onload-bench-profiles/lat 50%.opf /opt/couchbase/bin/couchbase-server -- -noinput ; ignore_errors=no ; start_time=[n/a] }',
  );
  assert.equal(isOurCommand(shown, words), true);
  const wrapped = parseExecStart(
    'ExecStart={ path=/usr/bin/onload ; argv[]=/usr/bin/onload --profile=/b.opf /usr/bin/onload --profile=/a.opf /opt/couchbase/bin/couchbase-server -- -noinput ; ignore_errors=no }',
  );
  assert.equal(
    isOurCommand(wrapped, [
      '/usr/bin/onload',
      '--profile=/b.opf',
      '/opt/couchbase/bin/couchbase-server',
      '--',
      '-noinput',
    ]),
    false,
  );
  assert.equal(isOurCommand(undefined, words), false);
  const output =
    'ExecStart={ path=/x ; argv[]=/x ; }\n@sets /etc/systemd/system/couchbase-server.service.d/onload-bench.conf\n@sets /etc/systemd/system/couchbase-server.service.d/override.conf\n';
  assert.deepEqual(otherExecStartDropIns(output, '/etc/systemd/system/couchbase-server.service.d/onload-bench.conf'), [
    '/etc/systemd/system/couchbase-server.service.d/override.conf',
  ]);
});

test('the default start and stop commands, the drop-in folder and systemctl all name serviceName', () => {
  const [server] = withDefaults(fakeHostsPlan({ servers: [{ host: 'srv', serviceName: 'couchbase-bench' }] })).servers;
  assert.equal(server.kernelStartCommand, 'sudo -n systemctl start couchbase-bench');
  assert.equal(server.kernelStopCommand, 'sudo -n systemctl stop couchbase-bench');
  assert.equal(server.serviceDropInDir, '/etc/systemd/system/couchbase-bench.service.d');
  assert.match(unitFactsScript(server), /systemctl show -p ExecStart couchbase-bench/);
  assert.equal(defaultServiceCommand('start', 'couchbase-server'), 'sudo -n systemctl start couchbase-server');
  const [custom] = withDefaults(
    fakeHostsPlan({
      servers: [{ host: 'srv', serviceName: 'couchbase-bench', kernelStartCommand: 'sudo -n /usr/local/bin/cb-start' }],
    }),
  ).servers;
  assert.equal(custom.kernelStartCommand, 'sudo -n /usr/local/bin/cb-start', 'a command of the plan stays as written');
});
