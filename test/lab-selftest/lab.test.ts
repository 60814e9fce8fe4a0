// The whole lab through real OpenSSH: host aliases and host-key checking, per-host folders, the
// stand-ins as a user (or the engine) sees them over ssh, fault switches, and cleanup. The real
// YCSB on the client hosts: realYcsb.test.ts.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLab, waitForPort, type Lab } from '../lab/index';
import { labProcesses } from '../lab/processes';

describe('loopback lab', { skip: existsSync('/usr/sbin/sshd') ? false : 'OpenSSH sshd is not installed (scripts/setup-system.sh installs it)' }, () => {
  let lab: Lab;

  before(async () => {
    lab = await startLab({ clients: 2 });
  });

  after(async () => {
    const { dir, id } = lab;
    await lab.stop();
    assert.deepEqual(labProcesses(id).map((info) => info.command), [], 'stop() leaves no lab process');
    assert.equal(existsSync(dir), false, 'stop() removes the lab folder');
  });

  it('reaches cb-server through real sshd and runs the stand-in couchbase-server', async () => {
    const result = await lab.ssh(lab.serverHost, 'couchbase-server --version');
    assert.deepEqual(result, { code: 0, stdout: 'Couchbase Server 7.6.2-3721 (EE)\n', stderr: '' });
    const where = await lab.ssh(lab.serverHost, 'pwd; command -v onload; echo "$ONLOAD_BENCH_LAB_HOST"');
    assert.equal(where.stdout, `${lab.hosts[lab.serverHost].home}\n${join(lab.hostRoot, 'bin', 'onload')}\ncb-server\n`);
    assert.deepEqual(lab.clientHosts, ['ycsb-client', 'ycsb-client-2']);
    for (const host of lab.clientHosts) {
      const client = await lab.ssh(host, 'pwd');
      assert.equal(client.stdout, `${lab.hosts[host].home}\n`, 'each host works in its own folder');
    }
    assert.notEqual(lab.hosts['ycsb-client'].home, lab.hosts['ycsb-client-2'].home);
  });

  it('refuses a host whose key is not in known_hosts, and a host whose key changed', async () => {
    const unknown = await lab.ssh(lab.unknownHost, 'true');
    assert.equal(unknown.code, 255);
    assert.match(unknown.stderr, /Host key verification failed/);
    await lab.faults.swapHostKey(lab.serverHost);
    try {
      const changed = await lab.ssh(lab.serverHost, 'true');
      assert.equal(changed.code, 255);
      assert.match(changed.stderr, /REMOTE HOST IDENTIFICATION HAS CHANGED/);
    } finally {
      await lab.faults.swapHostKey(lab.serverHost, false);
    }
    assert.equal((await lab.ssh(lab.serverHost, 'true')).code, 0);
  });

  it('drops a host when its sshd is killed and brings it back', async () => {
    lab.faults.killSshd(lab.clientHost);
    try {
      const down = await lab.ssh(lab.clientHost, 'true');
      assert.equal(down.code, 255);
      // Refused once the daemon is gone; reset when the connect races its last moments.
      assert.match(down.stderr, /Connection refused|Connection reset by peer/);
    } finally {
      await lab.faults.startSshd(lab.clientHost);
    }
    assert.equal((await lab.ssh(lab.clientHost, 'true')).code, 0);
  });

  it('runs couchbase as a system service and under onload, visible to onload_stackdump', async () => {
    assert.equal(lab.couchbaseState().service, true);
    // (by pid file: `pgrep -x memcached` would also see other labs' nodes on this machine)
    const kernel = await lab.ssh(lab.serverHost, 'grep -c libonload.so /proc/$(cat "$ONLOAD_BENCH_LAB/state/couchbase-server.pid")/maps');
    assert.equal(kernel.stdout, '0\n');
    assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server')).code, 0);
    assert.equal(lab.couchbaseState().running, false);
    // the real tool prints nothing at all when there are no stacks (libstack.c:435)
    const empty = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump');
    assert.deepEqual([empty.code, empty.stdout], [0, '']);

    // REAL-LAB C1: the SSH user (not couchbase) may not start it from a shell
    const refused = await lab.ssh(lab.serverHost, `onload --profile=latency ${lab.couchbaseServerPath} -- -noinput`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Insufficient privileges to start couchbase-server: .*var\/lib\/couchbase is not writable by bench/);

    const start = await lab.ssh(
      lab.serverHost,
      `sudo -n -u couchbase setsid onload --profile=latency ${lab.couchbaseServerPath} -- -noinput > cb.log 2>&1 < /dev/null & i=0; while [ ! -s "$ONLOAD_BENCH_LAB/state/couchbase-server.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; cat "$ONLOAD_BENCH_LAB/state/couchbase-server.pid"`,
    );
    const pid = Number(start.stdout.trim());
    const state = lab.couchbaseState();
    assert.deepEqual(state, { running: true, pid, service: false, accelerated: true });
    // REAL-LAB O5: without root another user's stacks are "inaccessible" (no name, no pids) and
    // `lots` leaves them out with a word on stderr; O1: every child is in a stack
    const unprivileged = await lab.ssh(lab.serverHost, 'onload_stackdump');
    assert.match(unprivileged.stdout, /^#stack-id stack-name {6}pids\n(\d+ {8,}inaccessible\n){3}$/);
    const unprivilegedLots = await lab.ssh(lab.serverHost, 'onload_stackdump lots');
    assert.equal(unprivilegedLots.stdout, '');
    assert.match(unprivilegedLots.stderr, /^User 1000:1000 cannot access full details of stack \d+\(\) owned by 996:996 share_with=0$/m);
    const stacks = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump');
    assert.match(stacks.stdout, new RegExp(`^\\d+ {8,}- {15}${pid} $`, 'm'));
    assert.equal(stacks.stdout.trim().split('\n').length, 4, 'babysitter, ns_server and memcached');
    assert.match((await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump list')).stdout, /^unknown command: list$/m);
    const lots = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump lots');
    assert.match(lots.stdout, new RegExp(`pid=${pid} ns_flags=[\\s\\S]*?^pids: ${pid}$[\\s\\S]*?^TCP \\d+:\\d+ lcl=127\\.0\\.0\\.2:${lab.couchbase.kvPort} rmt=0\\.0\\.0\\.0:0 LISTEN$`, 'm'));
    // REAL-LAB C2: babysitter, beam.smp and memcached, each child in its own process group
    const left = await lab.processesLeft();
    assert.equal(left.length, 3, left.join('\n'));
    const groups = await lab.ssh(lab.serverHost, `ps -o pgid= -p ${pid}; ps -o pgid= -p $(cat "$ONLOAD_BENCH_LAB/state/couchbase-babysitter.pid")`);
    const [memcachedGroup, babysitterGroup] = groups.stdout.trim().split(/\s+/);
    assert.notEqual(memcachedGroup, babysitterGroup);
    assert.equal(memcachedGroup, String(pid));
    // what an acceleration check on a real server looks at: the memcached process maps libonload
    const mapped = await lab.ssh(lab.serverHost, 'pid=$(pgrep -x memcached | grep -x ' + pid + ') && echo $pid && grep -c libonload.so /proc/$pid/maps');
    assert.equal(mapped.stdout.split('\n')[0], String(pid));
    assert.ok(Number(mapped.stdout.split('\n')[1]) > 0);

    assert.equal((await lab.ssh(lab.serverHost, `${lab.couchbaseServerPath} -k`)).code, 0);
    assert.deepEqual(await lab.processesLeft(), []);
    assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl start couchbase-server')).code, 0);
    assert.equal((await lab.ssh(lab.serverHost, 'systemctl is-active couchbase-server')).stdout, 'active\n');
    await waitForPort('127.0.0.2', lab.couchbase.restPort, 15_000);
  });

  it('memcached outlives a killed babysitter until its stdin closes; systemctl stop takes the whole control group (REAL-LAB C2)', async () => {
    const babysitter = Number((await lab.ssh(lab.serverHost, 'cat "$ONLOAD_BENCH_LAB/state/couchbase-babysitter.pid"')).stdout.trim());
    const memcached = lab.couchbaseState().pid;
    assert.ok(babysitter > 0 && memcached !== undefined);
    // killing the babysitter's process group leaves memcached (its own group) listening for a while
    await lab.ssh(lab.serverHost, `kill -KILL -${babysitter}`);
    const soon = await lab.ssh(lab.serverHost, `sleep 0.3; [ -d /proc/${memcached} ] && echo alive`);
    assert.equal(soon.stdout, 'alive\n');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(lab.couchbaseState().running, false, 'gone once it saw its stdin close');
    assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server; sudo -n systemctl start couchbase-server')).code, 0);
    await waitForPort('127.0.0.2', lab.couchbase.restPort, 15_000);
    // the service runs as couchbase with its limits raised; an SSH session has the lower soft limits
    const limits = await lab.ssh(lab.serverHost, 'ulimit -S -n; grep "Max open files" /proc/$(cat "$ONLOAD_BENCH_LAB/state/couchbase-server.pid")/limits');
    assert.match(limits.stdout, /^1024\nMax open files +(\d+)/);
    assert.notEqual(/Max open files +(\d+)/.exec(limits.stdout)?.[1], '1024');
  });

  it('systemctl reads drop-ins after daemon-reload only; show -p ExecStart prints systemd\'s record (REAL-LAB C1, H3)', async () => {
    const dir = `${lab.hostRoot}/etc/systemd/system/couchbase-server.service.d`;
    const before = await lab.ssh(lab.serverHost, 'systemctl show -p ExecStart couchbase-server');
    assert.match(before.stdout, new RegExp(`^ExecStart=\\{ path=${lab.couchbaseServerPath.replace(/[.]/g, '\\.')} ; argv\\[\\]=${lab.couchbaseServerPath.replace(/[.]/g, '\\.')} -- -kernel global_enable_tracing false -noinput ;`));
    await lab.ssh(lab.serverHost, `printf '[Service]\\nExecStart=\\nExecStart=/usr/bin/onload --profile=latency ${lab.couchbaseServerPath} -- -noinput\\n' > ${dir}/x.conf`);
    assert.doesNotMatch((await lab.ssh(lab.serverHost, 'systemctl show -p ExecStart couchbase-server')).stdout, /onload/);
    await lab.ssh(lab.serverHost, 'sudo -n systemctl daemon-reload');
    assert.match((await lab.ssh(lab.serverHost, 'systemctl show -p ExecStart couchbase-server')).stdout, /argv\[\]=\/usr\/bin\/onload --profile=latency /);
    await lab.ssh(lab.serverHost, `rm -f ${dir}/x.conf; sudo -n systemctl daemon-reload`);
    assert.doesNotMatch((await lab.ssh(lab.serverHost, 'systemctl show -p ExecStart couchbase-server')).stdout, /onload/);
  });

  it('hosts like RHEL 7 and Onload without drivers (REAL-LAB H1, H2, O3)', async () => {
    const setsid = await lab.ssh(lab.serverHost, 'setsid -w true');
    assert.equal(setsid.code, 1);
    assert.match(setsid.stderr, /invalid option -- 'w'/);
    lab.faults.set({ sudoRequiresTty: true, onloadDriversMissing: true });
    try {
      const sudo = await lab.ssh(lab.serverHost, 'sudo -n true');
      assert.match(sudo.stderr, /sudo: sorry, you must have a tty to run sudo/);
      const onload = await lab.ssh(lab.serverHost, 'onload --profile=latency true');
      assert.equal(onload.code, 1);
      assert.match(onload.stderr, /The onload drivers are not loaded\./);
      // onload_stackdump cannot open /dev/onload (libstack.c:283-287) and exits 255
      const stackdump = await lab.ssh(lab.serverHost, 'onload_stackdump lots');
      assert.deepEqual([stackdump.code, stackdump.stdout], [255, '']);
      assert.equal(stackdump.stderr, 'Could not open /dev/onload (rc=-2) - check Onload drivers are loaded\n');
    } finally {
      lab.faults.clear();
    }
  });

  it('checks onload arguments and profiles like the real launcher', async () => {
    const missing = await lab.ssh(lab.serverHost, 'onload --profile=/nonexistent.opf true');
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /Cannot find profile '\/nonexistent.opf'/);
    const broken = await lab.ssh(lab.serverHost, "printf 'onload_set EF_POLL_USEC (\\n' > broken.opf; onload -p broken.opf true");
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /is not valid shell/);
    const noCommand = await lab.ssh(lab.serverHost, 'onload --profile=latency');
    assert.equal(noCommand.code, 1);
    assert.match(noCommand.stderr, /missing command/);
    const settings = await lab.ssh(lab.serverHost, "onload --profile=latency sh -c 'echo $EF_POLL_USEC $ONLOAD_BENCH_LAB_ACCELERATED'");
    assert.equal(settings.stdout, '100000 1\n');
  });

  it('resolves onload_import like the real launcher: home profiles, the profile folder, then a literal path, never beside the importer', async () => {
    const home = lab.hosts[lab.serverHost].home;
    const files: Record<string, string> = {
      'imports/sibling.opf': 'onload_set EF_SIBLING 1\n',
      'imports/by-name.opf': 'onload_import sibling\n',
      'imports/by-path.opf': 'onload_import imports/sibling.opf\nonload_import imports/args.opf-fragment one two\n',
      'imports/args.opf-fragment': 'onload_set EF_ARGS "$*"\n',
      'imports/std.opf': 'onload_import latency\nonload_import frag\n',
      '.openonload/profiles/latency.opf': 'onload_set EF_POLL_USEC 7\n',
      '.openonload/profiles/frag.opf-fragment': 'onload_set EF_FRAG 1\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(home, path)), { recursive: true });
      writeFileSync(join(home, path), text);
    }
    try {
      const script = [
        // a sibling of the importing profile is NOT found by name (the launcher does not look there)
        'onload -p imports/by-name.opf true; echo "rc=$?"',
        // a literal path (relative to the working folder) is; an import's arguments become its "$@"
        `onload -p imports/by-path.opf sh -c 'echo $EF_SIBLING $EF_ARGS'`,
        // a name in ~/.openonload/profiles wins over Onload's own profile; fragments only when nested
        `onload -p imports/std.opf sh -c 'echo $EF_POLL_USEC $EF_FRAG'`,
        'onload -p frag true; echo "rc=$?"',
      ].join('\n');
      const result = await lab.ssh(lab.serverHost, script);
      assert.equal(result.stdout, 'rc=3\n1 one two\n7 1\nrc=3\n', result.stderr);
      assert.match(result.stderr, /Cannot find profile 'sibling'/);
      assert.match(result.stderr, /Cannot find profile 'frag'/);
    } finally {
      rmSync(join(home, 'imports'), { recursive: true, force: true });
      rmSync(join(home, '.openonload'), { recursive: true, force: true });
    }
  });

  it('offers a tiny tmpfs that fills up (ENOSPC) for results-disk tests', (t) => {
    const disk = lab.smallDisk(64);
    if (!disk) {
      t.skip('mounting a tmpfs is not allowed on this machine');
      return;
    }
    try {
      writeFileSync(join(disk.path, 'small'), Buffer.alloc(16 * 1024));
      assert.throws(() => writeFileSync(join(disk.path, 'big'), Buffer.alloc(128 * 1024)), { code: 'ENOSPC' });
    } finally {
      disk.unmount();
    }
    assert.equal(existsSync(join(disk.path, 'small')), false, 'unmounted: the folder underneath is empty');
  });

});
