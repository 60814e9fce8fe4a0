// The CPU sampler's parser and figures: a hand-checked example, and real /proc/stat text of this
// machine (test/fixtures/proc, two readings a second apart).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { samplerAwk } from '../../../engine/src/evidence/cpuSampler';
import {
  cpuEvidence,
  deriveHostCpu,
  parseSamplerOutput,
  procTicks,
  samplerSelfCostPct,
} from '../../../engine/src/evidence/cpuStat';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'proc');

// Between the two readings (2 s): user 300, system 100, idle 500, softirq 100 ticks of 1000 in all;
// cpu0 busy 350 of 500, cpu1 busy 150 of 500; memcached 300 ticks (3 s of CPU in 2 s).
const handChecked = `@hz 100
@t 100.00
cpu  1000 0 500 8000 0 0 100 0 0 0
cpu0 500 0 250 4000 0 0 50 0 0 0
cpu1 500 0 250 4000 0 0 50 0 0 0
intr 500
ctxt 1000
@p 42 (mem (cached) x) S 1 42 42 0 -1 4194560 0 0 0 0 1000 200 0 0 20 0 1 0
@nic eth0 100
@self 7 (awk) S 1 7 7 0 -1 0 0 0 0 0 1 1 0 0 20 0
@ticker 6 (sh) S 1 6 6 0 -1 0 0 0 0 0 0 0 0 0 20 0
@end
@t 102.00
cpu  1300 0 600 8500 0 0 200 0 0 0
cpu0 750 0 300 4150 0 0 100 0 0 0
cpu1 550 0 300 4350 0 0 100 0 0 0
intr 2500
ctxt 5000
@p 42 (mem (cached) x) S 1 42 42 0 -1 4194560 0 0 0 0 1250 250 0 0 20 0 1 0
@nic eth0 700
@self 7 (awk) S 1 7 7 0 -1 0 0 0 0 0 1 1 0 0 20 0
@ticker 6 (sh) S 1 6 6 0 -1 0 0 0 0 0 0 0 1 0 20 0
@end
@t 103.00
cpu  1400 0 6`;

test('a hand-checked pair of readings gives the exact shares, rates and process figures', () => {
  const output = parseSamplerOutput(handChecked);
  assert.equal(output.hz, 100);
  assert.equal(output.samples.length, 2, 'the unfinished third block is dropped');
  const cpu = deriveHostCpu(output, 'server');
  assert.ok(cpu);
  assert.deepEqual(
    {
      cores: cpu.cores,
      busy: cpu.busyPct,
      user: cpu.userPct,
      system: cpu.systemPct,
      softirq: cpu.softirqPct,
      idle: cpu.idlePct,
      maxCore: cpu.maxCoreBusyPct,
      ctxt: cpu.contextSwitchesPerSec,
      intr: cpu.interruptsPerSec,
      nic: cpu.nicInterruptsPerSec,
    },
    {
      cores: 2,
      busy: 50,
      user: 30,
      system: 10,
      softirq: 10,
      idle: 50,
      maxCore: 70,
      ctxt: 2000,
      intr: 1000,
      nic: { eth0: 300 },
    },
  );
  assert.deepEqual(cpu.process, { name: 'mem (cached) x', pid: 42, pctOfCore: 150, cpuSec: 3 });
  assert.deepEqual(cpu.series, [{ tSec: 2, busyPct: 50, processPctOfCore: 150 }]);
  // awk 2 ticks -> 2, ticker 0 -> 1 (a reaped child): 1 tick = 0.01 s in 2 s
  assert.equal(samplerSelfCostPct(output), 0.5);
});

test('procTicks reads utime and stime after a comm with spaces and parentheses', () => {
  assert.equal(procTicks('42 (a) b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14', false), 23);
  assert.equal(procTicks('42 (a) b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14', true), 50);
  assert.equal(procTicks('garbage', false), undefined);
});

test("this machine's /proc/stat: every core, the counters and shares that add up", () => {
  const first = readFileSync(join(fixtures, 'stat-1.txt'), 'utf8');
  const second = readFileSync(join(fixtures, 'stat-2.txt'), 'utf8');
  const output = parseSamplerOutput(`@hz 100\n@t 10.0\n${first}@end\n@t 11.0\n${second}@end\n`);
  assert.equal(output.samples.length, 2);
  const cores = first.split('\n').filter((line) => /^cpu\d+ /.test(line)).length;
  assert.ok(cores >= 1);
  assert.equal(output.samples[0].cpus.size, cores + 1);
  assert.equal(output.samples[0].ctxt, Number(/^ctxt (\d+)/m.exec(first)?.[1]));
  assert.equal(output.samples[0].intr, Number(/^intr (\d+)/m.exec(first)?.[1]));
  const cpu = deriveHostCpu(output, 'client');
  assert.ok(cpu);
  assert.equal(cpu.cores, cores);
  assert.ok(cpu.busyPct > 0 && cpu.busyPct <= 100);
  // busy + idle + iowait (+ steal, not busy) = 100 % of the ticks
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ['stat-1.txt', 'stat-2.txt']
    .map((name) => readFileSync(join(fixtures, name), 'utf8').split('\n')[0].split(/\s+/).slice(1, 9).map(Number))
    .reduce((a, b) => b.map((value, index) => value - a[index]));
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  assert.equal(cpu.busyPct, Math.round(((user + nice + system + irq + softirq) / total) * 10000) / 100);
  assert.ok(cpu.contextSwitchesPerSec > 0 && cpu.interruptsPerSec > 0);
});

test('client-bound: a client above 90 % busy is marked; server µs per operation from busy cores and throughput', () => {
  const block = (t: number, busy: number, idle: number): string =>
    `@t ${t}\ncpu  ${busy} 0 0 ${idle} 0 0 0 0 0 0\ncpu0 ${busy / 2} 0 0 ${idle / 2} 0 0 0 0 0 0\ncpu1 ${busy / 2} 0 0 ${idle / 2} 0 0 0 0 0 0\n@end\n`;
  const client = parseSamplerOutput(block(0, 0, 0) + block(1, 190, 10)); // 95 % busy
  const server = parseSamplerOutput(block(0, 0, 0) + block(1, 100, 100)); // 50 % of 2 cores = 1 busy core
  const { evidence, marks } = cpuEvidence(
    [
      { host: 'c1', role: 'client', output: client },
      { host: 's1', role: 'server', output: server },
    ],
    10_000,
  );
  assert.deepEqual(
    marks.map((mark) => [mark.code, mark.host]),
    [['client-bound', 'c1']],
  );
  assert.match(marks[0].message, /c1 was 95 % busy/);
  // 1 busy core / 10 000 ops/s = 100 µs per op; 10 000 ops/s per busy core
  assert.equal(evidence.serverCpuUsPerOp, 100);
  assert.equal(evidence.opsPerBusyServerCore, 10_000);
  assert.equal(evidence.memcachedCpuUsPerOp, undefined, 'no memcached readings, no figure');
});

test('warm-up: the samples before it are left out of the means, not of the series', () => {
  const block = (t: number, busy: number, idle: number): string =>
    `@t ${t}\ncpu  ${busy} 0 0 ${idle} 0 0 0 0 0 0\n@end\n`;
  // 0-1 s: 100 % busy; 1-3 s: 25 % busy
  const output = parseSamplerOutput(block(0, 0, 0) + block(1, 100, 0) + block(2, 125, 75) + block(3, 150, 150));
  assert.equal(deriveHostCpu(output, 'server', 1)?.busyPct, 25);
  assert.equal(deriveHostCpu(output, 'server')?.busyPct, 50);
  assert.equal(deriveHostCpu(output, 'server', 1)?.series.length, 3);
});

test("the sampler's awk on a /proc tree shaped like a real one: cores, counters, the process, only the NIC's queues, its own cost", () => {
  // test/fixtures/proc/sample: this machine's /proc/stat, a /proc/interrupts with eth0's queues,
  // eth10 (not eth0) and other devices, memcached as pid 42, the awk (self) and its ticker (pid 7)
  const out = execFileSync(
    'awk',
    [
      '-v',
      `proc=${join(fixtures, 'sample')}`,
      '-v',
      'dev=eth0',
      '-v',
      'find=echo 42',
      '-v',
      'want=memcached',
      samplerAwk,
    ],
    { input: '7\n\n', encoding: 'utf8' },
  );
  const stat = readFileSync(join(fixtures, 'sample', 'stat'), 'utf8');
  const expected = [
    '@t 5062.32',
    ...stat.split('\n').filter((line) => line.startsWith('cpu')),
    `intr ${/^intr (\d+)/m.exec(stat)?.[1]}`,
    `ctxt ${/^ctxt (\d+)/m.exec(stat)?.[1]}`,
    `@p ${readFileSync(join(fixtures, 'sample', '42', 'stat'), 'utf8').trim()}`,
    '@nic eth0 5240', // 1000+200 + 30+4000 + 5+5
    `@self ${readFileSync(join(fixtures, 'sample', 'self', 'stat'), 'utf8').trim()}`,
    `@ticker ${readFileSync(join(fixtures, 'sample', '7', 'stat'), 'utf8').trim()}`,
    '@end',
  ];
  assert.deepEqual(out.trimEnd().split('\n'), expected);
  const sample = parseSamplerOutput(out).samples[0];
  assert.deepEqual(sample.process, { pid: 42, name: 'memcached', ticks: 2000 });
  assert.equal(sample.selfTicks, 5 + 6, 'awk 3+2, ticker 1+0 plus its children 4+1');
});

test('a host without CPU readings marks the cell instead of passing it (issue 21: client-cpu-unverified)', () => {
  const block = (t: number, busy: number, idle: number): string =>
    `@t ${t}\ncpu  ${busy} 0 0 ${idle} 0 0 0 0 0 0\n@end\n`;
  const server = parseSamplerOutput(block(0, 0, 0) + block(1, 50, 50));
  const { evidence, marks } = cpuEvidence(
    [
      { host: 'c1', role: 'client', output: parseSamplerOutput('') },
      { host: 'c2', role: 'client', output: parseSamplerOutput(block(0, 0, 0)) },
      { host: 's1', role: 'server', output: server },
    ],
    1000,
  );
  assert.deepEqual(Object.keys(evidence.hosts), ['s1']);
  assert.deepEqual(
    marks.map((mark) => `${mark.code} ${mark.host}`),
    ['client-cpu-unverified c1', 'client-cpu-unverified c2'],
  );
  assert.match(
    marks[0].message,
    /no CPU reading from c1 during the run .*: whether c1 was client-bound could not be checked/,
  );
  assert.match(marks[1].message, /only one CPU reading from c2/);
  const noServer = cpuEvidence([{ host: 's1', role: 'server', output: parseSamplerOutput('') }], 1000);
  assert.deepEqual(
    noServer.marks.map((mark) => mark.code),
    ['server-cpu-unverified'],
  );
});
