// A foreground Onload arm started as another user must be able to reach {profile} in the work folder.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { foregroundProfileReachWarning, switchesUser } from '../../../engine/src/server/foregroundProfileReach';
import { withDefaults, type PlanServer } from '../../../engine/src/plan/planSchema';
import { fakeHostsPlan } from '../../support/fakeHosts';
import { judgeWorkFolder } from '../../../engine/src/remote/workFolder';

function server(fields: Partial<PlanServer>) {
  return withDefaults(fakeHostsPlan({ servers: [{ host: 'cb', workDir: '/home/bench/.onload-bench', ...fields }] }))
    .servers[0];
}

describe('a foreground Onload arm run as another user', () => {
  it('recognises commands that switch user, and not those that do not', () => {
    for (const command of [
      'sudo -n -u couchbase onload --profile={profile} {couchbaseServerPath}',
      'sudo -n --user=couchbase onload x',
      'sudo -u couchbase env EF_POLL_USEC=0 onload x',
      'runuser -u couchbase -- onload x',
      'su couchbase -c "onload x"',
    ]) {
      assert.equal(switchesUser(command), true, command);
    }
    for (const command of [
      'onload --profile={profile} {couchbaseServerPath} -- -noinput',
      'sudo -n onload --profile={profile} x',
      'taskset -c 0-7 onload x',
      'sudo -n env SUDO_USER=x onload x',
    ]) {
      assert.equal(switchesUser(command), false, command);
    }
  });

  it('is warned, naming the folder nearest / that others may not enter, when the work folder is closed', () => {
    const facts =
      '@me 1000\n@dir 1000 700\n@up 1000 700 /home/bench\n@up 0 755 /home\n@up 0 755 /\n/home/bench/.onload-bench';
    const closed = judgeWorkFolder(facts, '/home/bench/.onload-bench').closedToOthersAt;
    assert.equal(closed, '/home/bench');
    const foreground = server({
      serverStart: 'foreground',
      kernelRunCommand: 'sudo -n -u couchbase {couchbaseServerPath} -- -noinput',
      onloadRunCommand: 'sudo -n -u couchbase onload --profile={profile} {couchbaseServerPath} -- -noinput',
    });
    assert.equal(
      foregroundProfileReachWarning(foreground, closed),
      'cb: onloadRunCommand runs as another user, who must read {profile} in /home/bench/.onload-bench/profiles, but other users may not enter /home/bench: Onload will report "Cannot find profile". Set workDir to a folder that user may enter (e.g. /var/tmp/onload-bench, mode 755), or use serverStart "service".',
    );
  });

  it('is not warned when others may enter, when the command keeps the SSH user, or through the service', () => {
    const open = judgeWorkFolder(
      '@me 1000\n@dir 1000 755\n@up 0 755 /var/tmp\n@up 0 755 /var\n@up 0 755 /\n/var/tmp/onload-bench',
      '/var/tmp/onload-bench',
    ).closedToOthersAt;
    assert.equal(open, undefined);
    const switching = server({
      serverStart: 'foreground',
      kernelRunCommand: 'x',
      onloadRunCommand: 'sudo -n -u couchbase onload --profile={profile} x',
    });
    assert.equal(foregroundProfileReachWarning(switching, open), undefined);
    assert.equal(
      foregroundProfileReachWarning(server({ serverStart: 'foreground', kernelRunCommand: 'x' }), '/home/bench'),
      undefined,
      'the default command runs as the SSH user',
    );
    assert.equal(
      foregroundProfileReachWarning(server({}), '/home/bench'),
      undefined,
      'the service installs its profiles beside the drop-in',
    );
  });
});
