// Is Couchbase really running on Onload? Two independent signs, checked on the server: the
// accelerated process has libonload mapped (/proc/PID/maps), or `onload_stackdump` lists its pid
// or name among the Onload stacks. Either is enough; neither marks the cell not accelerated.
import type { ResolvedServer } from './planSchema';
import type { RemoteSession } from './ssh';
import { serverPidFile } from './serverControl';
import { shellQuote } from './shellQuote';

export interface AccelerationCheck {
  accelerated: boolean;
  /** What was found, for logs and the cell's record: `memcached 1234: libonload mapped`. */
  evidence: string;
}

/** A POSIX sh script printing `pid N`, `maps N` and `stackdump-line ...` facts for the parser. */
export function accelerationScript(processName: string, pidFile: string): string {
  const name = shellQuote(processName);
  const pids = shellQuote(pidFile);
  return [
    // the server's own process group first (other instances may run on the host), then by name
    'pids=""',
    `if [ -s ${pids} ]; then g=$(cat ${pids}); pids=$(pgrep -g "$g" -x ${name} 2>/dev/null); [ -n "$pids" ] || pids=$(pgrep -g "$g" 2>/dev/null); fi`,
    `[ -n "$pids" ] || pids=$(pgrep -x ${name} 2>/dev/null)`,
    `for p in $pids; do echo "pid $p"; if grep -q libonload /proc/$p/maps 2>/dev/null; then echo "maps $p"; fi; done`,
    `if command -v onload_stackdump >/dev/null 2>&1; then onload_stackdump 2>/dev/null | sed 's/^/stackdump-line /'; else echo "no-stackdump"; fi`,
    'exit 0',
  ].join('\n');
}

/** Reads the facts printed by `accelerationScript`. Pure. */
export function parseAccelerationOutput(output: string, processName: string): AccelerationCheck {
  const pids: string[] = [];
  const mapped: string[] = [];
  const stackLines: string[] = [];
  for (const line of output.split('\n')) {
    if (line.startsWith('pid ')) pids.push(line.slice(4).trim());
    else if (line.startsWith('maps ')) mapped.push(line.slice(5).trim());
    else if (line.startsWith('stackdump-line ')) stackLines.push(line.slice('stackdump-line '.length));
  }
  if (pids.length === 0) return { accelerated: false, evidence: `no ${processName} process found on the server` };
  if (mapped.length > 0) return { accelerated: true, evidence: `${processName} ${mapped.join(',')}: libonload mapped` };
  const listed = pids.filter((pid) => stackLines.some((line) => new RegExp(`(^|[^0-9])${pid}([^0-9]|$)`).test(line)));
  if (listed.length > 0) return { accelerated: true, evidence: `onload_stackdump lists ${processName} pid ${listed.join(',')}` };
  if (stackLines.some((line) => new RegExp(`\\b${escapeRegExp(processName)}\\b`).test(line))) {
    return { accelerated: true, evidence: `onload_stackdump lists a ${processName} stack` };
  }
  return { accelerated: false, evidence: `${processName} (pid ${pids.join(',')}) has no libonload mapping and no Onload stack` };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function checkAcceleration(session: RemoteSession, server: ResolvedServer, signal?: AbortSignal): Promise<AccelerationCheck> {
  const result = await session.run(accelerationScript(server.acceleratedProcess, serverPidFile(server)), { step: 'check-acceleration', ...(signal ? { signal } : {}) });
  return parseAccelerationOutput(result.stdout, server.acceleratedProcess);
}
