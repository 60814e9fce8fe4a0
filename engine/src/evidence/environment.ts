// What a run ran on: kernel, NIC driver and firmware per interface, Onload, Couchbase, YCSB and
// Java versions, and the CPU/NUMA/IRQ facts of hostHardware.ts. One shell script per host prints tagged facts; a pure
// parser reads them, so a
// missing tool leaves a field empty instead of failing the run.
import type { HostEnvironment, RunManifest } from '../model';
import { couchbaseHome, type ResolvedClient, type ResolvedServer } from '../plan/planSchema';
import type { RemoteSession } from '../remote/ssh';
import { canonicalAddress } from '../remote/ipAddress';
import { shellQuote } from '../remote/shellQuote';
import { cpuFactsLines, nicFactsLines, readHardwareFact } from './hostHardware';

export function serverFactsScript(server: ResolvedServer, addresses: string[]): string {
  const lines = [
    'echo "@kernel $(uname -r 2>/dev/null)"',
    `v=$(cat ${shellQuote(couchbaseHome(server.couchbaseServerPath) + '/VERSION.txt')} 2>/dev/null | head -n 1); [ -n "$v" ] || v=$(${shellQuote(server.couchbaseServerPath)} --version 2>/dev/null | head -n 1); echo "@couchbase $v"`,
    `if [ -x ${shellQuote(server.couchbaseServerPath)} ]; then echo "@couchbase-binary yes"; else echo "@couchbase-binary no"; fi`,
    'echo "@onload $(onload --version 2>/dev/null | head -n 1)"',
    'if command -v onload >/dev/null 2>&1; then echo "@onload-binary yes"; else echo "@onload-binary no"; fi',
    ...cpuFactsLines(),
  ];
  for (const address of addresses) {
    // ip prints addresses in canonical form: compare with the plan's address in that form (REAL-LAB H5)
    const quoted = shellQuote(canonicalAddress(address));
    lines.push(
      // exact match on the address column (`show to` would also match a covering prefix)
      `dev=$(ip -o addr 2>/dev/null | awk -v a=${quoted} '{ split($4, p, "/"); if (p[1] == a) { print $2; exit } }')`,
      `echo "@iface ${address.replace(/[^A-Za-z0-9.:_-]/g, '')} device=$dev"`,
      `if [ -n "$dev" ]; then ethtool -i "$dev" 2>/dev/null | sed -n 's/^driver: */@iface-driver ${address.replace(/[^A-Za-z0-9.:_-]/g, '')} /p; s/^firmware-version: */@iface-firmware ${address.replace(/[^A-Za-z0-9.:_-]/g, '')} /p'; fi`,
      ...nicFactsLines(address.replace(/[^A-Za-z0-9.:_-]/g, '')),
    );
  }
  lines.push('exit 0');
  return lines.join('\n');
}

export function clientFactsScript(client: ResolvedClient): string {
  const home = shellQuote(client.ycsbHome);
  return [
    'echo "@kernel $(uname -r 2>/dev/null)"',
    // java -version prints on stderr
    'echo "@java $(java -version 2>&1 | head -n 1)"',
    'if command -v java >/dev/null 2>&1; then echo "@java-binary yes"; else echo "@java-binary no"; fi',
    `if [ -x ${home}/bin/ycsb ] || [ -f ${home}/bin/ycsb.sh ]; then echo "@ycsb-binary yes"; else echo "@ycsb-binary no"; fi`,
    `echo "@ycsb $(ls ${home}/lib 2>/dev/null | sed -n 's/^core-\\(.*\\)\\.jar$/\\1/p' | head -n 1)"`,
    `echo "@ycsb-version-file $(cat ${home}/VERSION 2>/dev/null | head -n 1)"`,
    // release folders are named ycsb-0.17.0
    `echo "@ycsb-folder $(cd ${home} 2>/dev/null && basename "$(pwd -P)" | sed -n 's/^ycsb-\\([0-9][0-9.]*[A-Za-z0-9-]*\\)$/\\1/p')"`,
    'echo "@onload $(onload --version 2>/dev/null | head -n 1)"',
    'if command -v onload >/dev/null 2>&1; then echo "@onload-binary yes"; else echo "@onload-binary no"; fi',
    ...cpuFactsLines(),
    'exit 0',
  ].join('\n');
}

export interface HostFacts {
  environment: HostEnvironment;
  binaries: Record<string, boolean>;
}

/** Reads `@tag value` lines. Pure. */
export function parseHostFacts(output: string, role: 'server' | 'client'): HostFacts {
  const environment: HostEnvironment = { role };
  const binaries: Record<string, boolean> = {};
  const set = (field: 'kernel' | 'couchbase' | 'ycsb' | 'java' | 'onload', value: string): void => {
    if (value !== '' && environment[field] === undefined) environment[field] = value;
  };
  for (const raw of output.split('\n')) {
    const match = /^@([a-z-]+) ?(.*)$/.exec(raw.trim());
    if (!match) continue;
    const [, tag, rest] = match;
    const value = rest.trim();
    if (readHardwareFact(environment, tag, value)) continue;
    if (tag.endsWith('-binary')) {
      binaries[tag.slice(0, -'-binary'.length)] = value === 'yes';
    } else if (tag === 'kernel' || tag === 'couchbase' || tag === 'java' || tag === 'onload') {
      set(tag, value);
    } else if (tag === 'ycsb' || tag === 'ycsb-version-file' || tag === 'ycsb-folder') {
      set('ycsb', value);
    } else if (tag === 'iface') {
      const [address, device] = value.split(/\s+device=/);
      environment.interfaces ??= {};
      environment.interfaces[address] = { ...(environment.interfaces[address] ?? {}), ...(device ? { device } : {}) };
    } else if (tag === 'iface-driver' || tag === 'iface-firmware') {
      const space = value.indexOf(' ');
      const address = space < 0 ? value : value.slice(0, space);
      const detail = space < 0 ? '' : value.slice(space + 1).trim();
      environment.interfaces ??= {};
      const entry = (environment.interfaces[address] ??= {});
      if (detail !== '') entry[tag === 'iface-driver' ? 'driver' : 'firmware'] = detail;
    }
  }
  return { environment, binaries };
}

export async function serverFacts(
  session: RemoteSession,
  server: ResolvedServer,
  addresses: string[],
  signal?: AbortSignal,
): Promise<HostFacts> {
  const result = await session.run(serverFactsScript(server, addresses), {
    step: 'environment',
    ...(signal ? { signal } : {}),
    timeoutMs: 60_000,
  });
  return parseHostFacts(result.stdout, 'server');
}

export async function clientFacts(
  session: RemoteSession,
  client: ResolvedClient,
  signal?: AbortSignal,
): Promise<HostFacts> {
  const result = await session.run(clientFactsScript(client), {
    step: 'environment',
    ...(signal ? { signal } : {}),
    timeoutMs: 60_000,
  });
  return parseHostFacts(result.stdout, 'client');
}

/** Fills in YCSB versions the client folder did not reveal; true when the manifest changed. */
export function recordYcsbVersions(manifest: RunManifest, versions: Map<string, string>): boolean {
  let changed = false;
  for (const [host, version] of versions) {
    const entry = manifest.environment?.hosts[host];
    if (entry && entry.ycsb === undefined) {
      entry.ycsb = version;
      changed = true;
    }
  }
  return changed;
}
