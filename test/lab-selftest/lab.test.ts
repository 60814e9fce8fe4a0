// The lab's hosts are real Linux systems (issue 19): booted by the real systemd, reached through
// their real sshd with strict host-key checking, with real users, sudo, interfaces and a Couchbase
// unit run by systemd; the stand-ins (onload, onload_stackdump, couchbase-server) as a user or the
// engine sees them over ssh; fault switches; and cleanup by pid. The real YCSB on the client
// hosts: realYcsb.test.ts.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sudoersLines } from '../lab/hostFiles';
import { labUnavailable, startLab, waitForPort, type Lab } from '../lab/index';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('lab hosts', { skip: labUnavailable() }, () => {
  let lab: Lab;
  // memcached writes its pid file once all its listeners are up, a moment after REST answers
  const memcachedPid = async (): Promise<number> => {
    for (let i = 0; i < 50 && lab.couchbaseState().pid === undefined; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const pid = lab.couchbaseState().pid;
    assert.ok(pid !== undefined, 'memcached runs');
    return pid;
  };

  before(async () => {
    lab = await startLab({ clients: 2 });
  });

  after(async () => {
    const { dir, id } = lab;
    await lab.stop();
    assert.equal(existsSync(dir), false, 'stop() removes the lab folder');
    const machines = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--machine=ob${id}-`);
        } catch {
          return false;
        }
      });
    assert.deepEqual(machines, [], 'stop() powers every host off');
    assert.deepEqual(
      existsSync('/run/netns') ? readdirSync('/run/netns').filter((name) => name.startsWith(`obl-${id}-`)) : [],
      [],
      'and removes its network namespaces',
    );
  });

  it('each host is a booted Linux system: systemd as PID 1, its own name, the SSH user in a 0700 home', async () => {
    for (const host of [lab.serverHost, ...lab.clientHosts]) {
      const facts = await lab.ssh(
        host,
        'cat /proc/1/comm; systemctl is-system-running; hostname; id -un; pwd; stat -c %a ~; echo "$PATH"',
      );
      assert.deepEqual(
        facts.stdout.split('\n').slice(0, 7),
        ['systemd', 'running', host, 'bench', '/home/bench', '700', '/usr/local/bin:/usr/bin:/bin:/usr/games'],
        facts.stderr,
      );
    }
    // hosts share no state: a file on one client is not on the other
    await lab.ssh(lab.clientHost, 'touch only-here');
    assert.equal((await lab.ssh('ycsb-client-2', 'ls only-here')).code, 2);
    // the stand-ins are where the real programs install themselves, the real tools where Debian has them
    const where = await lab.ssh(lab.serverHost, 'command -v onload onload_stackdump systemctl sudo ip setsid java');
    assert.equal(
      where.stdout,
      '/usr/bin/onload\n/usr/bin/onload_stackdump\n/usr/bin/systemctl\n/usr/bin/sudo\n/usr/bin/ip\n/usr/local/bin/setsid\n/usr/bin/java\n',
    );
    // REAL-LAB H2: a non-login SSH command's PATH (sshd's default) lacks /usr/sbin, where ethtool is
    assert.equal(
      (await lab.ssh(lab.serverHost, 'command -v ethtool; ls /usr/sbin/ethtool')).stdout,
      '/usr/sbin/ethtool\n',
    );
  });

  it("each host's systemd has a cgroup tree of its own, so hosts booting together cannot break each other's units", async () => {
    // Before: every host's systemd managed this machine's /payload/system.slice/<unit> (init in /payload/init.scope);
    // hosts starting
    // the same unit at once removed each other's unit cgroup (219/CGROUP), and a host that lost
    // systemd-user-sessions refused every SSH login ("System is booting up", pam_nologin).
    const hosts = [lab.serverHost, ...lab.clientHosts];
    const groups = hosts.map((host) => {
      const leader = readFileSync(join(lab.dir, 'hosts', host, 'leader.pid'), 'utf8').trim();
      return /^\d+:name=systemd:(.*)$/m.exec(readFileSync(`/proc/${leader}/cgroup`, 'utf8'))?.[1];
    });
    assert.deepEqual(
      groups,
      hosts.map((host) => `/onload-bench-lab-ob${lab.id}-${host}/payload/init.scope`),
    );
    for (const host of hosts) {
      const state = await lab.root(
        host,
        'systemctl is-system-running; systemctl --failed --no-legend --plain; test -e /run/nologin && echo nologin',
      );
      assert.equal(state.stdout, 'running\n', host);
    }
  });

  it('the server has three NICs with an address each (IPv6 too on the third); nothing is routed elsewhere', async () => {
    const addresses = await lab.ssh(
      lab.serverHost,
      "/usr/sbin/ip -o addr show scope global | awk '{print $2, $4}'; /usr/sbin/ip route; /usr/sbin/ip -6 route | grep -v '^fe80'",
    );
    const [a, b, c] = lab.interfaces.map((item) => item.address);
    assert.deepEqual(addresses.stdout.split('\n').slice(0, 4), [
      `eth0 ${a}/26`,
      `eth1 ${b}/26`,
      `eth2 ${c}/26`,
      `eth2 ${lab.ipv6Interface.address}/64`,
    ]);
    assert.doesNotMatch(addresses.stdout, /default/, 'no default route');
    const driver = await lab.ssh(lab.serverHost, '/usr/sbin/ethtool -i eth1 | head -1');
    assert.equal(driver.stdout, 'driver: veth\n');
    // a client reaches each NIC on its own network, the workstation too
    for (const address of [a, b, c, lab.ipv6Interface.address]) {
      const reach = await lab.ssh(
        lab.clientHost,
        `curl -s -o /dev/null -w '%{http_code} %{local_ip}' http://${address.includes(':') ? `[${address}]` : address}:8091/pools`,
      );
      assert.match(reach.stdout, /^200 /, `${address}: ${reach.stderr}`);
    }
    await waitForPort(lab.ipv6Interface.address, lab.couchbase.kvPort, 2000);
    const outside = await lab.ssh(lab.clientHost, 'curl -s -m 2 -o /dev/null http://192.0.2.1/; echo $?');
    assert.equal(outside.stdout, '7\n', 'no route to anything outside the lab');
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

  it('drops a host when its sshd is stopped and brings it back', async () => {
    lab.faults.killSshd(lab.clientHost);
    try {
      const down = await lab.ssh(lab.clientHost, 'true');
      assert.equal(down.code, 255);
      assert.match(down.stderr, /Connection refused/);
    } finally {
      await lab.faults.startSshd(lab.clientHost);
    }
    assert.equal((await lab.ssh(lab.clientHost, 'true')).code, 0);
  });

  it("sudo is the real one with the README's sudoers lines: allowed commands run, others are refused; clients allow nothing", async () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    for (const line of sudoersLines('bench'))
      assert.ok(readme.includes(line), `README.md tells users to write: ${line}`);
    assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl daemon-reload && echo ok')).stdout, 'ok\n');
    const refused = await lab.ssh(lab.serverHost, 'sudo -n systemctl restart couchbase-server');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^sudo: a password is required$/m);
    const client = await lab.ssh(lab.clientHost, 'sudo -n true');
    assert.match(client.stderr, /^sudo: a password is required$/m);
    const visudo = await lab.root(lab.serverHost, 'visudo -c');
    assert.equal(visudo.code, 0, visudo.stdout + visudo.stderr);
  });

  it('the Couchbase unit is the packaged one, run as couchbase by systemd with its limits (REAL-LAB C12, C1, H3)', async () => {
    const unit = await lab.ssh(lab.serverHost, 'systemctl cat couchbase-server');
    for (const line of [
      'Type=simple',
      'User=couchbase',
      'WorkingDirectory=/opt/couchbase/var/lib/couchbase',
      'LimitNOFILE=70000',
      'LimitMEMLOCK=infinity',
      'ExecStart=/opt/couchbase/bin/couchbase-server -- -noinput',
      'ExecStop=/opt/couchbase/bin/couchbase-server -k',
    ]) {
      assert.match(unit.stdout, new RegExp(`^${escape(line)}$`, 'm'));
    }
    const state = lab.couchbaseState();
    assert.deepEqual({ ...state, pid: 0 }, { running: true, pid: 0, service: true, accelerated: false });
    const facts = await lab.ssh(
      lab.serverHost,
      `ps -o user= -p ${state.pid}; grep -E 'Max (open files|locked memory)' /proc/${state.pid}/limits; ulimit -S -n; stat -c '%U %a' /opt/couchbase/var/lib/couchbase; systemctl show -p MainPID couchbase-server`,
    );
    const lines = facts.stdout.split('\n');
    assert.equal(lines[0], 'couchbase');
    // the unit's limits, soft = hard (this machine caps every hard limit: labHosts.ts)
    const [, nofileSoft, nofileHard] = /^Max open files +(\d+) +(\d+) +files/.exec(lines[1]) ?? [];
    assert.ok(Number(nofileSoft) > 1024 && nofileSoft === nofileHard, lines[1]);
    const [, memlockSoft, memlockHard] = /^Max locked memory +(\w+) +(\w+) +bytes/.exec(lines[2]) ?? [];
    assert.ok(memlockSoft !== undefined && memlockSoft === memlockHard, lines[2]);
    assert.equal(lines[3], '1024', 'an SSH session has the lower soft limit');
    assert.equal(lines[4], 'couchbase 770');
    // the babysitter is the unit's main process; memcached is its child in a process group of its own (C2)
    const babysitter = Number(/^MainPID=(\d+)$/m.exec(facts.stdout)?.[1]);
    const groups = await lab.ssh(lab.serverHost, `ps -o ppid=,pgid= -p ${state.pid}; ps -o pgid= -p ${babysitter}`);
    const [ppid, memcachedGroup, babysitterGroup] = groups.stdout.trim().split(/\s+/).map(Number);
    assert.equal(ppid, babysitter);
    assert.equal(memcachedGroup, state.pid);
    assert.notEqual(memcachedGroup, babysitterGroup);
    // the unit's own warning from couchbase-server's checks, in the journal (70000 < 200000)
    const journal = await lab.root(
      lab.serverHost,
      'journalctl -u couchbase-server --no-pager -o cat | grep -m1 "open files"',
    );
    assert.match(
      journal.stdout,
      new RegExp(`The maximum number of open files for the couchbase user is set too low \\(${nofileSoft}\\)`),
    );
  });

  it(
    'runs couchbase under onload as couchbase, visible to onload_stackdump; the SSH user may not start it (REAL-LAB C1, C2, O1, O5)',
    { timeout: 60_000 },
    async () => {
      assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server')).code, 0);
      assert.equal(lab.couchbaseState().running, false);
      // the real tool prints nothing at all when there are no stacks (libstack.c:435)
      const empty = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump');
      assert.deepEqual([empty.code, empty.stdout], [0, '']);

      // REAL-LAB C1: the SSH user (not couchbase) may not start it from a shell
      const refused = await lab.ssh(lab.serverHost, `onload --profile=latency ${lab.couchbaseServerPath} -- -noinput`);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /Insufficient privileges to start couchbase-server: \/opt\/couchbase\/var\/lib\/couchbase is not writable by bench/,
      );

      await lab.ssh(
        lab.serverHost,
        `setsid sudo -n -u couchbase onload --profile=latency ${lab.couchbaseServerPath} -- -noinput > cb.log 2>&1 < /dev/null &`,
      );
      for (let i = 0; i < 100 && !lab.couchbaseState().running; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const state = lab.couchbaseState();
      const pid = await memcachedPid();
      assert.deepEqual(state, { running: true, pid, service: false, accelerated: true });
      // REAL-LAB O5: without root another user's stacks are "inaccessible" (no name, no pids) and
      // `lots` leaves them out with a word on stderr; O1: every child is in a stack
      const unprivileged = await lab.ssh(lab.serverHost, 'onload_stackdump');
      assert.match(unprivileged.stdout, /^#stack-id stack-name {6}pids\n(\d+ {8,}inaccessible\n){3}$/);
      const unprivilegedLots = await lab.ssh(lab.serverHost, 'onload_stackdump lots');
      assert.equal(unprivilegedLots.stdout, '');
      assert.match(
        unprivilegedLots.stderr,
        /^User 1000:1000 cannot access full details of stack \d+\(\) owned by \d+:\d+ share_with=0$/m,
      );
      const stacks = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump');
      assert.match(stacks.stdout, new RegExp(`^\\d+ {8,}- {15}${pid} $`, 'm'));
      assert.equal(stacks.stdout.trim().split('\n').length, 4, 'babysitter, ns_server and memcached');
      assert.match((await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump list')).stdout, /^unknown command: list$/m);
      const lots = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump lots');
      assert.match(
        lots.stdout,
        new RegExp(
          `pid=${pid} ns_flags=[\\s\\S]*?^pids: ${pid}$[\\s\\S]*?^TCP \\d+:\\d+ lcl=${escape(lab.interfaces[0].address)}:${lab.couchbase.kvPort} rmt=0\\.0\\.0\\.0:0 LISTEN$`,
          'm',
        ),
      );
      // what an acceleration check on a real server looks at: memcached maps libonload (its maps are couchbase's: sudo)
      const mapped = await lab.ssh(lab.serverHost, `sudo -n sh -c 'grep -c libonload.so /proc/${pid}/maps'`);
      assert.ok(Number(mapped.stdout) > 0, mapped.stdout + mapped.stderr);
      // REAL-LAB C2: babysitter, beam.smp and memcached, each child in its own process group, left by the session
      const left = (await lab.processesLeft()).join('\n');
      assert.match(
        left,
        new RegExp(
          `^cb-server ${pid} \\S+ \\S+couchbase-server\\.cjs --lab-child memcached /opt/couchbase/bin/memcached`,
          'm',
        ),
      );
      assert.match(left, /--lab-child ns_server \/opt\/couchbase\/lib\/erlang\/erts\/bin\/beam\.smp/);

      // couchbase-server -k as the user who runs it (the SSH user may not signal couchbase's processes)
      assert.equal((await lab.ssh(lab.serverHost, `${lab.couchbaseServerPath} -k`)).code, 1);
      assert.equal((await lab.ssh(lab.serverHost, `sudo -n -u couchbase ${lab.couchbaseServerPath} -k`)).code, 0);
      for (let i = 0; i < 50 && (await lab.processesLeft()).length > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(await lab.processesLeft(), []);
      assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl start couchbase-server')).code, 0);
      const active = await lab.ssh(lab.serverHost, 'systemctl is-active couchbase-server');
      assert.equal(
        active.stdout,
        'active\n',
        (await lab.root(lab.serverHost, 'journalctl -u couchbase-server -n 30 --no-pager')).stdout,
      );
      await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
    },
  );

  it(
    "memcached outlives a killed babysitter until its stdin closes; the unit's stop takes the whole control group (REAL-LAB C2)",
    { timeout: 60_000 },
    async () => {
      await lab.ssh(lab.serverHost, 'sudo -n systemctl stop couchbase-server');
      await lab.ssh(
        lab.serverHost,
        `setsid sudo -n -u couchbase ${lab.couchbaseServerPath} -- -noinput > cb.log 2>&1 < /dev/null &`,
      );
      for (let i = 0; i < 100 && !lab.couchbaseState().running; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const memcached = await memcachedPid();
      const babysitter = Number((await lab.ssh(lab.serverHost, `ps -o ppid= -p ${memcached}`)).stdout.trim());
      const group = Number((await lab.ssh(lab.serverHost, `ps -o pgid= -p ${babysitter}`)).stdout.trim());
      // killing the babysitter's process group leaves memcached (its own group) listening for a while
      await lab.ssh(lab.serverHost, `sudo -n kill -KILL -- -${group}`);
      const soon = await lab.ssh(lab.serverHost, `sleep 0.3; [ -d /proc/${memcached} ] && echo alive`);
      assert.equal(soon.stdout, 'alive\n');
      for (let i = 0; i < 50 && lab.couchbaseState().running; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(lab.couchbaseState().running, false, 'gone once it saw its stdin close');

      // through the unit, a dead babysitter takes memcached with it: systemd stops the whole cgroup
      assert.equal((await lab.ssh(lab.serverHost, 'sudo -n systemctl start couchbase-server')).code, 0);
      await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
      const served = await memcachedPid();
      await lab.ssh(lab.serverHost, `sudo -n kill -KILL "$(systemctl show -p MainPID --value couchbase-server)"`);
      // (a process that just exited is a zombie for a moment: alive means not Z)
      const alive = `[ -r /proc/${served}/stat ] && [ "$(sed 's/.*) //' /proc/${served}/stat | cut -c1)" != Z ]`;
      const gone = await lab.ssh(
        lab.serverHost,
        `i=0; while systemctl -q is-active couchbase-server || [ "$(systemctl is-active couchbase-server)" = deactivating ] || ${alive}; do [ $i -lt 100 ] || break; sleep 0.1; i=$((i+1)); done; ${alive} && echo alive; systemctl is-active couchbase-server`,
      );
      assert.match(gone.stdout, /^(failed|inactive)\n$/, 'memcached went with the unit');
      assert.equal(
        (await lab.ssh(lab.serverHost, 'sudo -n systemctl start couchbase-server')).code,
        0,
        'start after a failure',
      );
      await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
    },
  );

  it(
    'systemd judges the drop-ins: read after daemon-reload only, two ExecStart= refused, a later file wins (REAL-LAB H4)',
    { timeout: 60_000 },
    async () => {
      const dir = '/etc/systemd/system/couchbase-server.service.d';
      const execStart = async (): Promise<string> =>
        /argv\[\]=(.*?) ;/.exec(
          (await lab.ssh(lab.serverHost, 'systemctl show -p ExecStart couchbase-server')).stdout,
        )?.[1] ?? '';
      assert.equal(await execStart(), `${lab.couchbaseServerPath} -- -noinput`);
      try {
        await lab.root(
          lab.serverHost,
          `mkdir -p ${dir} && printf '[Service]\\nExecStart=\\nExecStart=/usr/bin/onload --profile=latency ${lab.couchbaseServerPath} -- -noinput\\n' > ${dir}/onload-bench.conf`,
        );
        assert.equal(await execStart(), `${lab.couchbaseServerPath} -- -noinput`, 'not before daemon-reload');
        await lab.ssh(lab.serverHost, 'sudo -n systemctl daemon-reload');
        // after the drop-in, show reports the drop-in's command: a wrapper built from it wraps the wrapper
        assert.equal(await execStart(), `/usr/bin/onload --profile=latency ${lab.couchbaseServerPath} -- -noinput`);
        // a site drop-in named after ours wins (file-name order)
        await lab.root(
          lab.serverHost,
          `printf '[Service]\\nExecStart=\\nExecStart=${lab.couchbaseServerPath} -- -noinput -site\\n' > ${dir}/override.conf && systemctl daemon-reload`,
        );
        assert.equal(await execStart(), `${lab.couchbaseServerPath} -- -noinput -site`);
        // a second ExecStart= without the empty reset line: systemd refuses the unit
        await lab.root(
          lab.serverHost,
          `rm ${dir}/override.conf; printf '[Service]\\nExecStart=/usr/bin/onload ${lab.couchbaseServerPath} -- -noinput\\n' > ${dir}/onload-bench.conf && systemctl daemon-reload`,
        );
        // systemctl start says so itself; status's lines vary (a 'changed on disk' warning or a failed process dump may
        // come first)
        const refused = await lab.ssh(lab.serverHost, 'sudo -n systemctl start couchbase-server');
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, /Unit couchbase-server\.service has a bad unit file setting/);
        assert.match(
          (await lab.ssh(lab.serverHost, 'systemctl show -p LoadState --value couchbase-server')).stdout,
          /^bad-setting$/m,
        );
        const verify = await lab.root(lab.serverHost, 'systemd-analyze verify couchbase-server.service 2>&1');
        assert.match(verify.stdout, /more than one ExecStart= setting/);
      } finally {
        await lab.root(lab.serverHost, `rm -rf ${dir} && systemctl daemon-reload && systemctl start couchbase-server`);
      }
      assert.equal(await execStart(), `${lab.couchbaseServerPath} -- -noinput`);
      await waitForPort(lab.interfaces[0].address, lab.couchbase.restPort, 15_000);
    },
  );

  it('hosts like RHEL 7, sudo with requiretty, sudo refused, and Onload without drivers (REAL-LAB H1, H2, O3)', async () => {
    const setsid = await lab.ssh(lab.serverHost, 'setsid -w true');
    assert.equal(setsid.code, 1);
    assert.match(setsid.stderr, /invalid option -- 'w'/);
    lab.faults.set({ sudoRequiresTty: true, onloadDriversMissing: true });
    try {
      const sudo = await lab.ssh(lab.serverHost, 'sudo -n systemctl daemon-reload');
      assert.match(sudo.stderr, /^sudo: sorry, you must have a tty to run sudo$/m);
      const withTty = await lab.ssh(
        lab.serverHost,
        'script -qec "sudo -n systemctl daemon-reload && echo reloaded" /dev/null',
      );
      assert.match(withTty.stdout, /reloaded/, 'a terminal satisfies requiretty');
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
    lab.faults.set({ sudoDenied: true });
    try {
      const none = await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump');
      assert.match(none.stderr, /^sudo: a password is required$/m);
    } finally {
      lab.faults.clear();
    }
    assert.equal(
      (await lab.ssh(lab.serverHost, 'sudo -n onload_stackdump; echo $?')).stdout.trim().split('\n').pop(),
      '0',
    );
  });

  it('checks onload arguments and profiles like the real launcher', async () => {
    const missing = await lab.ssh(lab.serverHost, 'onload --profile=/nonexistent.opf true');
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /Cannot find profile '\/nonexistent.opf'/);
    const broken = await lab.ssh(
      lab.serverHost,
      "printf 'onload_set EF_POLL_USEC (\\n' > broken.opf; onload -p broken.opf true",
    );
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /is not valid shell/);
    const noCommand = await lab.ssh(lab.serverHost, 'onload --profile=latency');
    assert.equal(noCommand.code, 1);
    assert.match(noCommand.stderr, /missing command/);
    const settings = await lab.ssh(
      lab.serverHost,
      "onload --profile=latency sh -c 'echo $EF_POLL_USEC $ONLOAD_BENCH_LAB_ACCELERATED'",
    );
    assert.equal(settings.stdout, '100000 1\n');
    // the unit's user cannot read a profile in the SSH user's 0700 home: the real permissions decide
    await lab.ssh(lab.serverHost, "printf 'onload_set EF_POLL_USEC 1\\n' > mine.opf");
    const other = await lab.ssh(
      lab.serverHost,
      'sudo -n -u couchbase onload --profile=/home/bench/mine.opf /usr/bin/env true',
    );
    assert.equal(other.code, 3);
    assert.match(other.stderr, /Cannot find profile '\/home\/bench\/mine\.opf'/);
  });

  it('resolves onload_import like the real launcher: home profiles, the profile folder, then a literal path, never beside the importer', async () => {
    const files: Record<string, string> = {
      'imports/sibling.opf': 'onload_set EF_SIBLING 1\n',
      'imports/by-name.opf': 'onload_import sibling\n',
      'imports/by-path.opf': 'onload_import imports/sibling.opf\nonload_import imports/args.opf-fragment one two\n',
      'imports/args.opf-fragment': 'onload_set EF_ARGS "$*"\n',
      'imports/std.opf': 'onload_import latency\nonload_import frag\n',
      '.openonload/profiles/latency.opf': 'onload_set EF_POLL_USEC 7\n',
      '.openonload/profiles/frag.opf-fragment': 'onload_set EF_FRAG 1\n',
    };
    const write = Object.entries(files)
      .map(([path, text]) => `mkdir -p "$(dirname ${path})" && printf '%s' '${text.replace(/'/g, `'\\''`)}' > ${path}`)
      .join(' && ');
    assert.equal((await lab.ssh(lab.serverHost, write)).code, 0);
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
      await lab.ssh(lab.serverHost, 'rm -rf imports .openonload');
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
