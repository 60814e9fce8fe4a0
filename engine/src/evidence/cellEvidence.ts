// The run phase's evidence for one cell, at the edges the sweep calls: CPU samplers started before
// YCSB's run phase and stopped after it (cpuSampler.ts), YCSB's HDR interval logs written into a
// per-cell folder on each client and fetched back into the run folder (hdrMerge.ts), status lines
// kept per client (ycsbTimeSeries.ts). Then one pure step turns it all into evidence and marks.
import { startSampler, clientProcessFinder, serverProcessFinder, type RunningSampler } from './cpuSampler';
import { cpuEvidence, type SamplerOutput } from './cpuStat';
import { applyMergedPercentiles, hdrEvidence, hdrOperationOf, mergeHdrLogs, type HdrLogFile } from './hdrMerge';
import type { CellKey, CellMark, CellResult } from '../model';
import type { ResolvedClient, ResolvedPlan, ResolvedServer } from '../plan/planSchema';
import { serverPidFile } from '../server/serverControl';
import type { RemoteSession } from '../remote/ssh';
import { shellQuote } from '../remote/shellQuote';
import { ycsbPidFile } from '../ycsb/ycsbRun';
import type { YcsbStatus } from '../ycsb/ycsbStatus';
import { timeSeriesEvidence } from '../ycsb/ycsbTimeSeries';

/** Where YCSB writes the cell's HDR logs on a client (hdrhistogram.output.path is a prefix: keep the slash). */
export function hdrRemoteDir(client: ResolvedClient, cellId: string, attempt: number): string {
  return `${client.workDir}/hdr/${cellId}/attempt${attempt}`;
}

/** YCSB 0.17 OneMeasurementHdrHistogram: `<path><NAME>.hdr` per measurement when fileoutput is true. */
export function hdrProperties(remoteDir: string): Record<string, string> {
  return { 'hdrhistogram.fileoutput': 'true', 'hdrhistogram.output.path': `${remoteDir}/` };
}

/** A fresh, empty folder: YCSB does not create it (FileOutputStream fails on a missing folder). */
export async function prepareHdrDir(session: RemoteSession, remoteDir: string, signal?: AbortSignal): Promise<void> {
  await session.run(`rm -rf ${shellQuote(remoteDir)} && mkdir -p ${shellQuote(remoteDir)}`, { step: 'ycsb-run', ...(signal ? { signal } : {}) });
}

/** Reads every `.hdr` file of the folder in one command, then removes the folder. */
export async function fetchHdrFiles(session: RemoteSession, remoteDir: string, signal?: AbortSignal): Promise<{ name: string; text: string }[]> {
  const dir = shellQuote(remoteDir);
  const script = `cd ${dir} 2>/dev/null || exit 0\nfor f in *.hdr; do [ -f "$f" ] || continue; echo "@@hdr-file $f"; cat "$f"; echo; done\ncd / && rm -rf ${dir}`;
  const result = await session.run(script, { step: 'fetch-hdr', ...(signal ? { signal } : {}) });
  return parseHdrBundle(result.stdout);
}

/** Splits `@@hdr-file NAME` sections. Pure. */
export function parseHdrBundle(output: string): { name: string; text: string }[] {
  const files: { name: string; text: string }[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current) files.push({ name: current.name, text: `${current.lines.join('\n').trimEnd()}\n` });
  };
  for (const line of output.split('\n')) {
    if (line.startsWith('@@hdr-file ')) {
      flush();
      current = { name: line.slice('@@hdr-file '.length).trim(), lines: [] };
    } else if (current) current.lines.push(line);
  }
  flush();
  return files.filter((file) => hdrOperationOf(file.name) !== undefined);
}

export interface CellSamplers {
  stop(): Promise<{ host: string; role: 'server' | 'client'; output: SamplerOutput }[]>;
}

export function samplerPidFile(workDir: string, role: 'server' | 'client'): string {
  return `${workDir}/cpu-sampler-${role}.pid`;
}

/** Starts one sampler per server and client host for the run phase of `key`. */
export function startCellSamplers(pool: { get(host: string): RemoteSession }, plan: ResolvedPlan, key: CellKey, signal?: AbortSignal): CellSamplers {
  const maxSamples = plan.timeouts.cellSec + 120;
  const running: { role: 'server' | 'client'; sampler: RunningSampler }[] = [
    ...plan.servers.map((server: ResolvedServer) => ({
      role: 'server' as const,
      sampler: startSampler(pool.get(server.host), { role: 'server', address: key.address, findProcess: serverProcessFinder(serverPidFile(server), server.acceleratedProcess, server.kvPort), preferredName: server.acceleratedProcess, pidFile: samplerPidFile(server.workDir, 'server'), maxSamples }, signal),
    })),
    ...plan.clients.map((client) => ({
      role: 'client' as const,
      sampler: startSampler(pool.get(client.host), { role: 'client', address: key.address, findProcess: clientProcessFinder(ycsbPidFile(client, 'run')), preferredName: 'java', pidFile: samplerPidFile(client.workDir, 'client'), maxSamples }, signal),
    })),
  ];
  return {
    stop: () => Promise.all(running.map(async ({ role, sampler }) => ({ host: sampler.host, role, output: await sampler.stop() }))),
  };
}

/**
 * Fills the cell's evidence.cpu and evidence.timeseries, replaces the combined run report's
 * percentiles with the merged HDR ones (or labels them as the clients' maximum), and adds the
 * client-bound and warmup-too-short marks.
 */
export function applyRunEvidence(
  draft: CellResult,
  inputs: { samplers: { host: string; role: 'server' | 'client'; output: SamplerOutput }[]; statusByHost: Record<string, YcsbStatus[]>; hdrFiles: HdrLogFile[]; warmupSec: number },
): CellMark[] {
  const marks: CellMark[] = [];
  const warmup = inputs.warmupSec > 0 ? inputs.warmupSec : undefined;
  const series = timeSeriesEvidence(inputs.statusByHost, warmup);
  marks.push(...series.marks);
  const timeseries = series.evidence;
  const hdr = hdrEvidence(inputs.hdrFiles, inputs.warmupSec);
  if (hdr) timeseries.hdr = hdr;
  if (draft.run && inputs.hdrFiles.length > 0) {
    if (draft.clients?.length === 1 && draft.run === draft.clients[0].report) draft.run = structuredClone(draft.run);
    applyMergedPercentiles(draft.run, mergeHdrLogs(inputs.hdrFiles, inputs.warmupSec));
  }
  const throughput = timeseries.throughputAfterWarmupOpsPerSec ?? draft.run?.throughputOpsPerSec;
  const cpu = cpuEvidence(inputs.samplers, throughput, inputs.warmupSec);
  marks.push(...cpu.marks);
  draft.evidence = { ...(draft.evidence ?? {}), timeseries, ...(Object.keys(cpu.evidence.hosts).length > 0 ? { cpu: cpu.evidence } : {}) };
  return marks;
}
