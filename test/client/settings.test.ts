import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandProfileFolders } from '../../server/src/common/profileFolders';
import { readSettings } from '../../client/src/settings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

test('defaults when nothing is set: ssh from PATH, bench-results, plan timeouts, resume offers on', () => {
  const { settings, problems } = readSettings(from({}));
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, {
    ssh: { binary: 'ssh', configFile: undefined, extraOptions: [] },
    resultsFolder: 'bench-results',
    timeouts: { serverStartSec: undefined, bucketReadySec: undefined, cellSec: undefined },
    couchbase: { passwordEnvVar: undefined },
    offerResumeOnStartup: true,
    nodePath: undefined,
    profilePath: [],
    allowOutsidePaths: false,
  });
});

test('onloadBench.profilePath: a list of folders, blanks dropped; anything else is a problem and ignored', () => {
  assert.deepEqual(
    readSettings(from({ profilePath: [' ~/.openonload/profiles ', '', 'shared/profiles'] })).settings.profilePath,
    ['~/.openonload/profiles', 'shared/profiles'],
  );
  const wrong = readSettings(from({ profilePath: '/opt/profiles' }));
  assert.deepEqual(wrong.settings.profilePath, []);
  assert.deepEqual(
    wrong.problems.map((problem) => problem.setting),
    ['profilePath'],
  );
});

test('values the user set are used, trimmed; a 0 timeout means "the plan decides"', () => {
  const { settings, problems } = readSettings(
    from({
      'ssh.binary': ' /usr/local/bin/ssh ',
      'ssh.configFile': '/home/me/.ssh/lab_config',
      'ssh.extraOptions': ['-o', 'ConnectTimeout=5', '-v'],
      resultsFolder: '/data/runs',
      'timeouts.serverStartSec': 600,
      'timeouts.bucketReadySec': 0,
      'timeouts.cellSec': 90,
      'couchbase.passwordEnvVar': 'CB_PASSWORD',
      offerResumeOnStartup: false,
      nodePath: '/opt/node20/bin/node',
    }),
  );
  assert.deepEqual(problems, []);
  assert.equal(settings.nodePath, '/opt/node20/bin/node');
  assert.equal(settings.ssh.binary, '/usr/local/bin/ssh');
  assert.equal(settings.ssh.configFile, '/home/me/.ssh/lab_config');
  assert.deepEqual(settings.ssh.extraOptions, ['-o', 'ConnectTimeout=5', '-v']);
  assert.equal(settings.resultsFolder, '/data/runs');
  assert.deepEqual(settings.timeouts, { serverStartSec: 600, bucketReadySec: undefined, cellSec: 90 });
  assert.equal(settings.couchbase.passwordEnvVar, 'CB_PASSWORD');
  assert.equal(settings.offerResumeOnStartup, false);
});

test('ssh options that turn host-key checking off are removed, in both -o forms, and reported', () => {
  const { settings, problems } = readSettings(
    from({
      'ssh.extraOptions': [
        '-o',
        'StrictHostKeyChecking=no',
        '-oUserKnownHostsFile=/dev/null',
        '-o',
        'ConnectTimeout=5',
        '-o',
        'stricthostkeychecking accept-new',
        '-p',
        '2222',
      ],
    }),
  );
  assert.deepEqual(settings.ssh.extraOptions, ['-o', 'ConnectTimeout=5', '-p', '2222']);
  assert.equal(problems.length, 3);
  assert.ok(problems.every((problem) => problem.setting === 'ssh.extraOptions'));
  assert.match(problems[0]!.message, /"StrictHostKeyChecking=no" would weaken host-key checking/);
  assert.match(problems[1]!.message, /UserKnownHostsFile=\/dev\/null/);
  assert.match(problems[0]!.message, /known_hosts/);
});

test('strict host-key checking set to yes is kept', () => {
  const { settings, problems } = readSettings(from({ 'ssh.extraOptions': ['-o', 'StrictHostKeyChecking=yes'] }));
  assert.deepEqual(settings.ssh.extraOptions, ['-o', 'StrictHostKeyChecking=yes']);
  assert.deepEqual(problems, []);
});

test('wrong types fall back to defaults with a message naming the setting', () => {
  const { settings, problems } = readSettings(
    from({
      'ssh.binary': 42,
      'ssh.extraOptions': '-o ConnectTimeout=5',
      'timeouts.cellSec': -3,
      'couchbase.passwordEnvVar': 'not a name',
      offerResumeOnStartup: 'yes',
    }),
  );
  assert.equal(settings.ssh.binary, 'ssh');
  assert.deepEqual(settings.ssh.extraOptions, []);
  assert.equal(settings.timeouts.cellSec, undefined);
  assert.equal(settings.couchbase.passwordEnvVar, undefined);
  assert.equal(settings.offerResumeOnStartup, true);
  assert.deepEqual(problems.map((problem) => problem.setting).sort(), [
    'couchbase.passwordEnvVar',
    'ssh.binary',
    'ssh.extraOptions',
    'timeouts.cellSec',
  ]);
  assert.match(
    problems.find((problem) => problem.setting === 'couchbase.passwordEnvVar')!.message,
    /environment variable name, not "not a name"/,
  );
});

test('profile folders: ~ is the home folder, relative ones are taken from the workspace folder', () => {
  assert.deepEqual(
    expandProfileFolders(['~/.openonload/profiles', 'shared/profiles', '/opt/p/', '~'], '/work/ws', '/home/me'),
    ['/home/me/.openonload/profiles', '/work/ws/shared/profiles', '/opt/p', '/home/me'],
  );
});
