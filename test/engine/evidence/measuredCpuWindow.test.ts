// CPU figures mean what the tables say: they cover YCSB's own run (its status
// lines, the warm-up counted from its start), not the idle seconds the samplers also see before the
// JVM and after the last client; the busiest threads of memcached and of the YCSB JVM come from
// /proc/PID/task/TID/stat; a client whose busiest threads are saturated is client-bound even when
// its host is not; and a window that could not be aligned marks the cell. Each test feeds sampler
// output as the awk prints it and status lines as YCSB 0.17.0 prints them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runEvidence } from '../../../engine/src/evidence/cellEvidence';
import { samplerAwk } from '../../../engine/src/evidence/cpuSampler';
import { clientIoSpinOf } from '../../../engine/src/evidence/clientIoSpin';
import { noteMarkCodes } from '../../../engine/src/evidence/marks';
import { parseSamplerOutput, type SamplerOutput } from '../../../engine/src/evidence/cpuStat';
import type { CellMark, CellResult } from '../../../engine/src/model';
import { parseStatusLines } from '../../../engine/src/ycsb/ycsbStatus';

// 2026-12-04 12:00:00 UTC, when every sampler below read its clock
const epochSec = Date.UTC(2026, 11, 4, 12, 0, 0) / 1000;

/**
 * One host's sampler output: a reading per second from `uptime0` for 11 s, 2 cores; busy at
 * `busyShare` (0..1) of both cores between 2 s and 8 s, idle otherwise; the watched process uses
 * what the host uses; `threads(second)` gives each thread's ticks at that reading (default: one thread at 10 %).
 */
function sampler(options: {
  uptime0: number;
  zone: string;
  busyShare: number;
  threads?: (second: number) => [number, number, string][];
}): SamplerOutput {
  const lines = ['@hz 100', `@clock ${options.uptime0.toFixed(2)} ${epochSec}.000000000 ${options.zone}`];
  let busy = 0;
  let idle = 0;
  const printed = new Map<number, number>();
  for (let second = 0; second <= 10; second++) {
    if (second > 0) {
      const share = second > 2 && second <= 8 ? options.busyShare : 0;
      busy += Math.round(200 * share);
      idle += 200 - Math.round(200 * share);
    }
    lines.push(
      `@t ${(options.uptime0 + second).toFixed(2)}`,
      `cpu  ${busy} 0 0 ${idle} 0 0 0 0 0 0`,
      `cpu0 ${busy / 2} 0 0 ${idle / 2} 0 0 0 0 0 0`,
      `cpu1 ${busy / 2} 0 0 ${idle / 2} 0 0 0 0 0 0`,
    );
    lines.push(`@p 42 (proc) S 1 42 42 0 -1 0 0 0 0 0 ${busy} 0 0 0 20 0 30 0`);
    for (const [tid, ticks, name] of (
      options.threads ?? ((at: number): [number, number, string][] => [[43, at * 10, 'Thread-1']])
    )(second)) {
      if (printed.get(tid) === ticks) continue; // the awk prints a thread only when its ticks moved
      printed.set(tid, ticks);
      lines.push(`@th ${tid} ${ticks} ${name}`);
    }
    lines.push('@end');
  }
  return parseSamplerOutput(lines.join('\n'));
}

// The client's local time is UTC+1: YCSB started at 13:00:02.000 local (2 s after the samplers'
// clock reading) and its last status line, printed when its threads ended, at 13:00:08.000.
const statusText = [
  '2026-12-04 13:00:02:000 0 sec: 0 operations; est completion in 0 second ',
  '2026-12-04 13:00:05:004 3 sec: 3000 operations; 1000 current ops/sec; [READ AverageLatency(us)=100] ',
  '2026-12-04 13:00:08:000 6 sec: 6000 operations; 1000 current ops/sec; [READ AverageLatency(us)=100] ',
].join('\n');

/**
 * The cell's marks about its CPU figures: these short status series also carry the warm-up note
 * (ycsbTimeSeries.test.ts).
 */
function cpuMarksOf(result: CellResult, inputs: Parameters<typeof runEvidence>[1]): CellMark[] {
  const judged = runEvidence({ clients: result.clients ?? [], run: result.run }, inputs);
  result.evidence = { ...result.evidence, ...judged.evidence }; // as the sweep records it
  return judged.marks.filter((mark) => mark.code !== 'warmup-unverified');
}

function draft(): CellResult {
  return {
    kind: 'cell',
    id: 'x',
    status: 'ok',
    logs: [],
    clients: [],
    key: { interface: 'eth1', stack: 'kernel', threads: 8, repetition: 1, address: '198.18.0.1' },
  } as unknown as CellResult;
}

test("CPU figures cover YCSB's run after its warm-up, not the samplers' idle seconds before and after it", () => {
  const result = draft();
  const marks = cpuMarksOf(result, {
    samplers: [
      // the client's uptime clock starts at 1000, the server's at 5000 in UTC: the same moment
      { host: 'c1', role: 'client', output: sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.5 }) },
      { host: 's1', role: 'server', output: sampler({ uptime0: 5000, zone: '+0000', busyShare: 0.8 }) },
    ],
    statusByHost: { c1: parseStatusLines(statusText) },
    hdrFiles: [],
    warmupSec: 2,
  });
  const cpu = result.evidence?.cpu;
  assert.ok(cpu);
  // YCSB ran 2-8 s after the clocks were read; the warm-up leaves 4-8 s: busy all through
  assert.equal(cpu.hosts.s1.busyPct, 80, "the server's busy % over YCSB's run (was diluted by the idle seconds: 60 %)");
  assert.equal(cpu.hosts.c1.busyPct, 50);
  assert.deepEqual(cpu.hosts.s1.windowSec, { from: 4, to: 8 });
  assert.equal(cpu.hosts.s1.process?.pctOfCore, 160, 'memcached over the same window');
  // 1.6 busy cores at 1000 ops/s (the status lines after the warm-up): 1600 µs per operation
  assert.equal(cpu.serverCpuUsPerOp, 1600);
  assert.equal(cpu.memcachedCpuUsPerOp, 1600);
  assert.deepEqual(cpu.window, {
    source: 'ycsb-status-lines',
    runStartedAt: '2026-12-04T12:00:02.000Z',
    runEndedAt: '2026-12-04T12:00:08.000Z',
    warmupSec: 2,
  });
  assert.deepEqual(
    marks.map((mark) => mark.code),
    [],
  );
});

test("a cell whose CPU window cannot be aligned to YCSB's run is marked cpu-window-unverified, saying why", () => {
  const result = draft();
  const marks = cpuMarksOf(result, {
    samplers: [
      { host: 's1', role: 'server', output: sampler({ uptime0: 5000, zone: '+0000', busyShare: 0.8 }) },
      { host: 'c1', role: 'client', output: sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.5 }) },
    ],
    // YCSB 0.1.x-style lines: no timestamp
    statusByHost: { c1: parseStatusLines('0 sec: 0 operations; \n6 sec: 6000 operations; 1000 current ops/sec; ') },
    hdrFiles: [],
    warmupSec: 2,
  });
  assert.deepEqual(
    marks.map((mark) => `${mark.code} ${mark.host}`),
    ['cpu-window-unverified s1', 'cpu-window-unverified c1'],
  );
  assert.match(
    marks[1].message,
    /c1's CPU figures could not be aligned to YCSB's run \(c1: no time-stamped YCSB status line\): they cover the sampler's readings from 2 s after its first one/,
  );
  assert.equal(result.evidence?.cpu?.window?.source, 'sampler');
  assert.equal(result.evidence?.cpu?.hosts.s1.busyPct, 60, "the samplers' window, as before");
});

test('the busiest threads of the watched process over the window, named from their comm, and client-bound on a saturated thread of a half-idle host', () => {
  const result = draft();
  // the JVM: an IO thread spinning at 95 % of a CPU from 2 s on, a worker at 20 %, GC a little,
  // a thread born at 6 s at 50 %, and 3 idle ones; the host itself only 50 % busy
  const threads = (second: number): [number, number, string][] => {
    const running = Math.max(0, Math.min(second, 8) - 2);
    return [
      [101, 95 * running, 'cb-io-1-1'],
      [102, 20 * running, 'Thread-3'],
      [103, 1 * running, 'GC Thread#0'],
      ...(second >= 6 ? [[104, 50 * (Math.min(second, 8) - 6), 'cb-computations'] as [number, number, string]] : []),
      [105, 7, 'main'],
      [106, 3, 'C2 CompilerThre'],
      [107, 0, 'Signal Dispatch'],
    ];
  };
  const marks = cpuMarksOf(result, {
    samplers: [
      { host: 'c1', role: 'client', output: sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.5, threads }) },
    ],
    statusByHost: { c1: parseStatusLines(statusText) },
    hdrFiles: [],
    warmupSec: 2,
  });
  const c1 = result.evidence?.cpu?.hosts.c1;
  assert.equal(c1?.busyPct, 50, 'the host is not above 90 %');
  assert.deepEqual(
    c1?.threads?.map((thread) => [thread.name, thread.tid, thread.pctOfCore]),
    [
      ['cb-io-1-1', 101, 95],
      ['cb-computations', 104, 25],
      ['Thread-3', 102, 20],
      ['GC Thread#0', 103, 1],
      ['main', 105, 0],
    ],
  );
  assert.equal(c1?.threadsSeen, 7);
  const bound = marks.filter((mark) => mark.code === 'client-bound');
  assert.equal(bound.length, 1, JSON.stringify(marks));
  assert.equal(bound[0].host, 'c1');
  assert.match(
    bound[0].message,
    /a thread of proc \(pid 42\) ran at 90 % of one CPU or more: cb-io-1-1 \(tid 101\) 95 % \(\/proc\/PID\/task\/TID\/stat\)/,
  );
  assert.doesNotMatch(bound[0].message, /% busy during the run/, 'the host was not');
});

test("the couchbase2 binding's spinning IO loops (couchbase.boost > 0) are left out of the client-bound check, with a note naming them; a saturated worker still counts", () => {
  // YCSB 0.17.0's default boost=3 spins the cb-io-* event loops at about a CPU whatever the load
  // (a 400 ops/s demo run: cb-io-1-1 at 92 %); before, every such cell was marked client-bound.
  const spin = clientIoSpinOf(['couchbase2'], new Map());
  assert.deepEqual(spin && [spin.boost, spin.threadPrefix], [3, 'cb-io-']);
  assert.equal(clientIoSpinOf(['couchbase2'], new Map([['couchbase.boost', '0']])), undefined, 'boost=0: no spin');
  assert.equal(clientIoSpinOf(['couchbase3'], new Map()), undefined, 'another binding: no spin');
  assert.equal(clientIoSpinOf(['couchbase2'], new Map([['couchbase.boost', '2']]))?.boost, 2);
  const spinning =
    (worker: number) =>
    (second: number): [number, number, string][] => {
      const running = Math.max(0, Math.min(second, 8) - 2);
      return [
        [101, 92 * running, 'cb-io-1-1'],
        [102, 23 * running, 'cb-io-1-2'],
        [103, worker * running, 'Thread-2'],
      ];
    };
  const inputs = (worker: number, clientIoSpin: typeof spin | null = spin) => ({
    samplers: [
      {
        host: 'c1',
        role: 'client' as const,
        output: sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.6, threads: spinning(worker) }),
      },
    ],
    statusByHost: { c1: parseStatusLines(statusText) },
    hdrFiles: [],
    warmupSec: 2,
    ...(clientIoSpin ? { clientIoSpin } : {}),
  });
  const quiet = draft();
  const quietMarks = cpuMarksOf(quiet, inputs(5));
  assert.deepEqual(
    quietMarks.map((mark) => `${mark.code} ${mark.host}`),
    ['client-io-spinning c1'],
    'a spinning loop alone is not client-bound',
  );
  assert.match(
    quietMarks[0].message,
    /^cb-io-1-1 \(tid 101\) 92 % on c1: the couchbase2 binding's IO loops spin by design \(couchbase\.boost=3; YCSB 0\.17\.0 couchbase2 binding \(Couchbase2Client\.java\)/,
  );
  assert.match(quietMarks[0].message, /whether those IO threads themselves limited the client is not proven/);
  assert.equal(quiet.evidence?.cpu?.clientIoSpin?.boost, 3, 'recorded with the evidence');
  assert.ok(noteMarkCodes.has('client-io-spinning'), 'a note: the cell stays in the medians');
  // the same threads without the spin (boost=0, or an older engine): client-bound, as before
  assert.deepEqual(
    cpuMarksOf(draft(), inputs(5, null)).map((mark) => mark.code),
    ['client-bound'],
  );
  // a YCSB worker thread at 95 % is saturated whatever the IO loops do
  const busy = cpuMarksOf(draft(), inputs(95));
  assert.deepEqual(
    busy.map((mark) => mark.code),
    ['client-bound', 'client-io-spinning'],
  );
  assert.match(busy[0].message, /Thread-2 \(tid 103\) 95 %/);
  assert.doesNotMatch(busy[0].message, /cb-io-1-1/);
});

test("the sampler's awk prints each thread of the watched process from /proc/PID/task/TID/stat, again only when its ticks moved", (t) => {
  const proc = mkdtempSync(join(tmpdir(), 'proc-threads-'));
  t.after(() => rmSync(proc, { recursive: true, force: true }));
  const write = (path: string, text: string): void => {
    mkdirSync(join(proc, path, '..'), { recursive: true });
    writeFileSync(join(proc, path), `${text}\n`);
  };
  const statLine = (pid: number, comm: string, utime: number, stime: number, threads: number): string =>
    `${pid} (${comm}) S 1 42 42 0 -1 0 0 0 0 0 ${utime} ${stime} 0 0 20 0 ${threads} 0 100`;
  write('uptime', '100.00 50.00');
  write('stat', 'cpu  1 0 1 10 0 0 0 0 0 0\ncpu0 1 0 1 10 0 0 0 0 0 0\nintr 5\nctxt 7');
  write('self/stat', statLine(7, 'awk', 1, 1, 1));
  write('7/stat', statLine(7, 'sh', 0, 0, 1));
  write('42/stat', statLine(42, 'memcached', 30, 10, 2));
  write('42/task/42/stat', statLine(42, 'memcached', 1, 1, 2));
  write('42/task/43/stat', statLine(43, 'mc:worker 0', 20, 8, 2));
  // three readings: the worker's ticks move between the second and the third only
  const script = samplerAwk.replace(
    'NR == 1 { ticker = $1; next }',
    'NR == 1 { ticker = $1; next }\nNR == 4 { system("sed -i s/\\" 20 8 \\"/\\" 25 9 \\"/ " proc "/42/task/43/stat") }',
  );
  const out = execFileSync(
    'awk',
    ['-v', `proc=${proc}`, '-v', 'dev=', '-v', 'find=echo 42', '-v', 'want=memcached', script],
    { input: '7\n\n\n\n', encoding: 'utf8' },
  );
  const threadLines = out.split('\n').filter((line) => line.startsWith('@th ') || line === '@end');
  assert.deepEqual(threadLines, [
    '@th 42 2 memcached',
    '@th 43 28 mc:worker 0',
    '@end',
    '@end',
    '@th 43 34 mc:worker 0',
    '@end',
  ]);
  const parsed = parseSamplerOutput(out);
  assert.deepEqual(
    [...(parsed.samples[2].threads ?? new Map())],
    [
      [42, { name: 'memcached', ticks: 2 }],
      [43, { name: 'mc:worker 0', ticks: 34 }],
    ],
    'a thread not printed again keeps its ticks',
  );
});

test('a client whose YCSB JVM threads could not be read is marked client-cpu-unverified, not passed', () => {
  const result = draft();
  const withoutProcess = sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.5 });
  for (const sample of withoutProcess.samples) delete sample.process;
  const marks = cpuMarksOf(result, {
    samplers: [
      { host: 'c1', role: 'client', output: withoutProcess },
      {
        host: 'c2',
        role: 'client',
        output: sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.5, threads: () => [] }),
      },
    ],
    statusByHost: { c1: parseStatusLines(statusText), c2: parseStatusLines(statusText) },
    hdrFiles: [],
    warmupSec: 2,
  });
  assert.deepEqual(
    marks.map((mark) => `${mark.code} ${mark.host}`),
    ['client-cpu-unverified c1', 'client-cpu-unverified c2'],
  );
  assert.match(
    marks[0].message,
    /the YCSB JVM on c1 was not found \(\/proc\/PID\/task\/TID\/stat\): whether some of its threads were saturated, making c1 client-bound below 90 % host busy, could not be checked/,
  );
  assert.match(marks[1].message, /the threads of proc 42 on c2 were not read/);
});

test("the hosts' clocks are measured against this workstation's; clocks 3 s apart leave the servers' window unproven, marked", () => {
  const at = epochSec * 1000;
  const run = (serverSeenAtMs: number): { result: CellResult; marks: ReturnType<typeof cpuMarksOf> } => {
    const result = draft();
    const marks = cpuMarksOf(result, {
      samplers: [
        {
          host: 'c1',
          role: 'client',
          output: { ...sampler({ uptime0: 1000, zone: '+0100', busyShare: 0.5 }), clockSeenAtMs: at + 4 },
        },
        {
          host: 's1',
          role: 'server',
          output: { ...sampler({ uptime0: 5000, zone: '+0000', busyShare: 0.8 }), clockSeenAtMs: serverSeenAtMs },
        },
      ],
      statusByHost: { c1: parseStatusLines(statusText) },
      hdrFiles: [],
      warmupSec: 2,
    });
    return { result, marks };
  };
  // both readings arrived within a few ms of what they said: the clocks agree, recorded as measured
  const agreeing = run(at + 6);
  assert.deepEqual(agreeing.result.evidence?.cpu?.window?.clockOffsetsMs, { c1: -4, s1: -6 });
  assert.deepEqual(
    agreeing.marks.map((mark) => mark.code),
    [],
  );
  // the server's reading said 12:00:00.000 when this workstation's clock said 12:00:03.006: its clock is 3 s behind
  const apart = run(at + 3006);
  assert.deepEqual(apart.result.evidence?.cpu?.window?.clockOffsetsMs, { c1: -4, s1: -3006 });
  assert.deepEqual(
    apart.marks.map((mark) => `${mark.code} ${mark.host}`),
    ['cpu-window-unverified s1'],
  );
  assert.match(
    apart.marks[0].message,
    /the hosts' clocks disagree by 3\.0 s \(against this workstation's when the samplers started: c1 -4 ms, s1 -3006 ms\): s1's CPU window, YCSB's run as the clients' clocks stamp it, may be off by that much/,
  );
});
