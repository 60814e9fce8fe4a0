// `npm run bench` (evidence part): what issue 10's observers cost.
// - the CPU sampler (engine/src/evidence/cpuSampler.ts) run locally against this machine's /proc for N
//   seconds: its CPU in % of one core, measured from outside (the CPU time of every process of the
//   loop, reaped into a wrapper shell's cutime/cstime) and as the sampler reports it itself, beside
//   a reference loop that only runs `cat /proc/stat > /dev/null; sleep 1`;
// - merging one cell's HDR logs (4 clients × 300 one-second intervals of READ, as YCSB writes them):
//   decoding alone vs decoding + merging + the evidence summary.
// Figures only, no assertions.   node --import tsx bench/evidence.ts [--json] [--seconds N]
import { execFile } from 'node:child_process';
import { build, HistogramLogWriter } from 'hdr-histogram-js';
import { samplerCommand } from '../engine/src/evidence/cpuSampler';
import { parseSamplerOutput, samplerSelfCostPct } from '../engine/src/evidence/cpuStat';
import { decodeIntervals, hdrEvidence, type HdrLogFile } from '../engine/src/evidence/hdrMerge';
import { round, time, type Timing } from './stats';

export interface EvidenceFigures {
  sampler: {
    seconds: number;
    samples: number;
    pctOfCore: number;
    selfReportedPctOfCore: number | undefined;
    referenceCatPctOfCore: number;
  };
  hdrMerge: {
    clients: number;
    intervals: number;
    valuesPerInterval: number;
    decodeOnly: Timing;
    decodeMergeSummarise: Timing;
  };
}

/** Runs `script` under a wrapper sh and returns its stdout and the CPU seconds of all its descendants. */
function runMeasured(script: string): Promise<{ stdout: string; cpuSec: number; wallSec: number }> {
  const wrapper = `sh -c "$1"; read -r s < /proc/$$/stat; echo "@@wrapper $s"; getconf CLK_TCK`;
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', wrapper, 'bench', script], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const wallSec = Number(process.hrtime.bigint() - started) / 1e9;
      const lines = stdout.trimEnd().split('\n');
      const hz = Number(lines.pop());
      const stat = lines.pop() ?? '';
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // cutime, cstime: fields 16 and 17 (index 13, 14 after the comm)
      const ticks = Number(fields[13]) + Number(fields[14]);
      resolve({ stdout: lines.join('\n'), cpuSec: ticks / hz, wallSec });
    });
  });
}

async function benchSampler(seconds: number): Promise<EvidenceFigures['sampler']> {
  const command = samplerCommand({
    role: 'server',
    address: '127.0.0.1',
    findProcess: `echo ${process.pid}`,
    preferredName: 'node',
    pidFile: '/dev/null',
    maxSamples: seconds,
  });
  const sampler = await runMeasured(command);
  const reference = await runMeasured(
    `i=0; while [ $i -lt ${seconds} ]; do cat /proc/stat > /dev/null; i=$((i+1)); sleep 1; done`,
  );
  const output = parseSamplerOutput(sampler.stdout);
  return {
    seconds,
    samples: output.samples.length,
    pctOfCore: round((sampler.cpuSec / sampler.wallSec) * 100, 3),
    selfReportedPctOfCore: samplerSelfCostPct(output),
    referenceCatPctOfCore: round((reference.cpuSec / reference.wallSec) * 100, 3),
  };
}

function hdrLogs(clients: number, intervals: number, valuesPerInterval: number): HdrLogFile[] {
  const start = 1_700_000_000_000;
  let state = 1;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: clients }, (_, client) => {
    let text = '';
    const writer = new HistogramLogWriter((chunk) => (text += chunk));
    writer.outputComment('[Logging for: READ]');
    writer.outputLogFormatVersion();
    writer.outputStartTime(start);
    writer.baseTime = start;
    writer.outputLegend();
    for (let i = 0; i < intervals; i++) {
      const histogram = build({ numberOfSignificantValueDigits: 3 });
      for (let v = 0; v < valuesPerInterval; v++) histogram.recordValue(Math.round(150 + 2000 * next() ** 4));
      histogram.startTimeStampMsec = start + i * 1000;
      histogram.endTimeStampMsec = start + (i + 1) * 1000;
      writer.outputIntervalHistogram(histogram, undefined, undefined, 1_000_000);
    }
    return { host: `client${client + 1}`, operation: 'READ', file: `client${client + 1}/READ.hdr`, text };
  });
}

export async function benchEvidence(seconds = 20): Promise<EvidenceFigures> {
  const sampler = await benchSampler(seconds);
  const clients = 4;
  const intervals = 300;
  const valuesPerInterval = 2000;
  const files = hdrLogs(clients, intervals, valuesPerInterval);
  const decodeOnly = await time(5, () => files.forEach((file) => decodeIntervals(file.text)), 1);
  const decodeMergeSummarise = await time(5, () => hdrEvidence(files, 30), 1);
  return { sampler, hdrMerge: { clients, intervals, valuesPerInterval, decodeOnly, decodeMergeSummarise } };
}

export function formatEvidenceFigures(figures: EvidenceFigures): string {
  const { sampler: s, hdrMerge: h } = figures;
  const ms = (timing: Timing): string => `median ${round(timing.medianMs)} ms (${timing.runs} runs)`;
  return [
    `Evidence: CPU sampler on this machine's /proc, ${s.seconds} s, ${s.samples} samples`,
    `  sampler ${s.pctOfCore} % of a core (it reports ${s.selfReportedPctOfCore ?? '-'} %; target < 0.5 %); reference "cat /proc/stat; sleep 1" loop ${s.referenceCatPctOfCore} %`,
    `Evidence: HDR logs of a cell, ${h.clients} clients × ${h.intervals} intervals × ${h.valuesPerInterval} values`,
    `  decode only ${ms(h.decodeOnly)}; decode + merge + summary ${ms(h.decodeMergeSummarise)}`,
  ].join('\n');
}

if (require.main === module) {
  const at = process.argv.indexOf('--seconds');
  benchEvidence(at > 0 ? Number(process.argv[at + 1]) : 20).then(
    (figures) =>
      console.log(process.argv.includes('--json') ? JSON.stringify(figures, null, 2) : formatEvidenceFigures(figures)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
