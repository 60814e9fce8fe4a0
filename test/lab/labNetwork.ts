// The lab's network: real interfaces, real addresses, the kernel's own routing and /proc/net (issue
// 19, REAL-LAB C7, H5). Each lab host lives in a network namespace of its own; three bridges on
// this machine stand for the cookbook's three NICs' networks, and every host has one veth leg on
// each: the server's three legs are its three "NICs" (eth0..eth2, one address each, IPv6 as well on
// eth2), a client's legs let it reach each of them. This machine has an address on every bridge
// (the engine and the SDK talk to the server from here, SSH goes over the first network).
// Addresses come from the benchmarking ranges 198.18.0.0/15 (RFC 2544) and 2001:2::/48 (RFC 5180);
// nothing is routed anywhere else: no default route in a host, no forwarding on this machine.
//
// Several labs run at once on this machine (several engineers, parallel test files): each claims a
// /24 block (and the IPv6 /64 of the same number) with a symlink `$TMPDIR/obl-net-<block>` to its
// folder, and names everything after its id (`ob<id>a` bridges, `ob<id><host><leg>` veths, netns
// `obl-<id>-<host>`), so two labs never collide; a claim whose lab folder is gone is taken over.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The three networks (the server's NICs) by leg: a = eth0, b = eth1, c = eth2 (IPv6 too). */
export const legs = ['a', 'b', 'c'] as const;
export type Leg = (typeof legs)[number];

export interface HostAddresses {
  /** IPv4 address per leg (eth0, eth1, eth2). */
  ipv4: Record<Leg, string>;
  /** The IPv6 address on eth2. */
  ipv6: string;
}

export interface LabNetwork {
  block: number;
  /** This machine's address on each bridge. */
  machine: HostAddresses;
  /** netns name per host alias. */
  netns: Record<string, string>;
  addresses: Record<string, HostAddresses>;
  bridges: string[];
  /** Root-side veth names (removed with their netns, listed for reaping). */
  veths: string[];
}

const blockCount = 512; // 198.18.0.0/15 in /24s
const claimPrefix = 'obl-net-';

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // already gone
  }
}

/** The /24 of a block: 198.18.0.0 ... 198.19.255.0. */
function prefix(block: number): string {
  return `198.${18 + (block >> 8)}.${block & 255}`;
}

/**
 * Host number `index` on each leg: 0..servers-1 the server hosts (.10, .11, ...), then the clients
 * (.20, .21, ...); undefined = this machine (.1). With one server: 0 = server (.10), 1.. = clients.
 */
export function hostAddresses(block: number, index: number | undefined, servers = 1): HostAddresses {
  if (servers < 1 || servers > 9) throw new Error('lab network: 1..9 server hosts');
  const last = index === undefined ? 1 : index < servers ? 10 + index : 19 + (index - servers + 1);
  return {
    ipv4: { a: `${prefix(block)}.${last}`, b: `${prefix(block)}.${64 + last}`, c: `${prefix(block)}.${128 + last}` },
    ipv6: `2001:2:0:${block.toString(16)}::${last.toString(16)}`,
  };
}

function claimPath(block: number): string {
  return join(tmpdir(), `${claimPrefix}${block}`);
}

/** Claims a free block for the lab in `labDir` (taking over claims whose lab folder is gone). */
export function claimBlock(labDir: string): number {
  const start = Math.floor(Math.random() * blockCount);
  for (let offset = 0; offset < blockCount; offset++) {
    const block = (start + offset) % blockCount;
    const path = claimPath(block);
    try {
      symlinkSync(labDir, path);
    } catch {
      let owner: string | undefined;
      try {
        owner = readlinkSync(path);
      } catch {
        continue;
      }
      if (existsSync(owner)) continue;
      rmSync(path, { force: true });
      try {
        symlinkSync(labDir, path);
      } catch {
        continue;
      }
    }
    // belt and braces: nobody else (another tool) routes this block here
    const routes = execFileSync('ip', ['-4', 'route', 'show', 'to', 'match', `${prefix(block)}.1`], {
      encoding: 'utf8',
    });
    if (
      routes
        .split('\n')
        .some(
          (line) => line.startsWith(`${prefix(block)}.`) || line.startsWith('198.18.') || line.startsWith('198.19.'),
        )
    ) {
      rmSync(path, { force: true });
      continue;
    }
    return block;
  }
  throw new Error('lab network: all 512 blocks of 198.18.0.0/15 are claimed');
}

export function releaseBlock(block: number, labDir: string): void {
  const path = claimPath(block);
  try {
    if (readlinkSync(path) === labDir) rmSync(path, { force: true });
  } catch {
    // not ours or gone
  }
}

/** Names of a lab's network objects (pure). Host index 0 = the first server. */
export function networkNames(
  labId: string,
  aliases: string[],
): { bridges: string[]; netns: Record<string, string>; veth: (hostIndex: number, leg: Leg) => string } {
  return {
    bridges: legs.map((leg) => `ob${labId}${leg}`),
    netns: Object.fromEntries(aliases.map((alias) => [alias, `obl-${labId}-${alias}`])),
    veth: (hostIndex, leg) => `ob${labId}${hostIndex}${leg}`,
  };
}

/**
 * Creates the bridges, one namespace per host and its three legs, with addresses. The first
 * `servers` aliases are the server hosts (all on the same three networks, so their test nodes reach
 * each other's REST and KV ports for addNode and rebalance), the rest clients. Undone by
 * destroyNetwork (also when this throws halfway).
 */
export function createNetwork(labId: string, block: number, aliases: string[], servers = 1): LabNetwork {
  const names = networkNames(labId, aliases);
  const machine = hostAddresses(block, undefined);
  const network: LabNetwork = { block, machine, netns: names.netns, addresses: {}, bridges: names.bridges, veths: [] };
  try {
    legs.forEach((leg, legIndex) => {
      const bridge = names.bridges[legIndex];
      ip(['link', 'add', bridge, 'type', 'bridge']);
      // no IPv6 autoconfiguration on the bridges: only the addresses below
      ip(['addr', 'add', `${machine.ipv4[leg]}/26`, 'dev', bridge]);
      if (leg === 'c') ip(['addr', 'add', `${machine.ipv6}/64`, 'dev', bridge, 'nodad']);
      ip(['link', 'set', bridge, 'up']);
    });
    aliases.forEach((alias, hostIndex) => {
      const netns = names.netns[alias];
      ip(['netns', 'add', netns]);
      ip(['-n', netns, 'link', 'set', 'lo', 'up']);
      const addresses = hostAddresses(block, hostIndex, servers);
      network.addresses[alias] = addresses;
      legs.forEach((leg, legIndex) => {
        const outside = names.veth(hostIndex, leg);
        const inside = `eth${legIndex}`;
        ip(['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', netns]);
        network.veths.push(outside);
        ip(['link', 'set', outside, 'master', names.bridges[legIndex], 'up']);
        ip(['-n', netns, 'addr', 'add', `${addresses.ipv4[leg]}/26`, 'dev', inside]);
        if (leg === 'c') ip(['-n', netns, 'addr', 'add', `${addresses.ipv6}/64`, 'dev', inside, 'nodad']);
        ip(['-n', netns, 'link', 'set', inside, 'up']);
      });
    });
  } catch (error) {
    destroyNetwork(network);
    throw new Error(
      `lab network: ${error instanceof Error ? (error as Error & { stderr?: Buffer }).stderr?.toString().trim() || error.message : String(error)}`,
      { cause: error },
    );
  }
  return network;
}

/** The Onload NICs' legs of a stack namespace: stk<N> in the server's namespace, onl<N> in the stack's. */
export function onloadStackNetns(labId: string): string {
  return `obl-${labId}-onload`;
}

/**
 * The server's "Onload stack" namespace (REAL-LAB O6; standins/onloadStack.ts): for each Onload NIC
 * ethN a veth pair stkN (server side) / onlN (stack side, same MAC and IPv4 address as ethN), and tc
 * on ethN's ingress that redirects TCP packets for `kvPort` to stkN before the server's kernel sees
 * them (ARP is mirrored there too); whatever the stack sends leaves through ethN. Sockets of the
 * stack namespace are in no /proc/net/tcp of the server's. Removed with the lab's namespaces.
 */
export function createOnloadStack(
  labId: string,
  serverNetns: string,
  nics: number[],
  addresses: HostAddresses,
): string {
  const stack = onloadStackNetns(labId);
  const tc = (args: string[]): void => {
    execFileSync('tc', ['-n', serverNetns, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  try {
    ip(['netns', 'add', stack]);
    ip(['-n', stack, 'link', 'set', 'lo', 'up']);
    execFileSync(
      'ip',
      [
        'netns',
        'exec',
        stack,
        'sysctl',
        '-q',
        '-w',
        'net.ipv6.conf.all.disable_ipv6=1',
        'net.ipv6.conf.default.disable_ipv6=1',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    for (const index of nics) {
      const nic = `eth${index}`;
      const mac = /link\/ether ([0-9a-f:]+)/.exec(
        execFileSync('ip', ['-n', serverNetns, '-o', 'link', 'show', nic], { encoding: 'utf8' }),
      )?.[1];
      if (!mac) throw new Error(`no MAC address on ${nic}`);
      ip([
        '-n',
        serverNetns,
        'link',
        'add',
        `stk${index}`,
        'type',
        'veth',
        'peer',
        'name',
        `onl${index}`,
        'netns',
        stack,
      ]);
      ip(['-n', stack, 'link', 'set', `onl${index}`, 'address', mac]);
      ip(['-n', stack, 'addr', 'add', `${addresses.ipv4[legs[index]]}/26`, 'dev', `onl${index}`]);
      ip(['-n', stack, 'link', 'set', `onl${index}`, 'up']);
      ip(['-n', serverNetns, 'link', 'set', `stk${index}`, 'up']);
      tc(['qdisc', 'add', 'dev', nic, 'clsact']);
      tc([
        'filter',
        'add',
        'dev',
        nic,
        'ingress',
        'protocol',
        'arp',
        'pref',
        '2',
        'u32',
        'match',
        'u32',
        '0',
        '0',
        'action',
        'mirred',
        'egress',
        'mirror',
        'dev',
        `stk${index}`,
      ]);
      tc(['qdisc', 'add', 'dev', `stk${index}`, 'clsact']);
      tc([
        'filter',
        'add',
        'dev',
        `stk${index}`,
        'ingress',
        'protocol',
        'all',
        'pref',
        '1',
        'u32',
        'match',
        'u32',
        '0',
        '0',
        'action',
        'mirred',
        'egress',
        'redirect',
        'dev',
        nic,
      ]);
    }
  } catch (error) {
    quietly(() => ip(['netns', 'delete', stack]));
    throw new Error(
      `lab network: Onload stack: ${error instanceof Error ? (error as Error & { stderr?: Buffer }).stderr?.toString().trim() || error.message : String(error)}`,
      { cause: error },
    );
  }
  return stack;
}

/** Removes the namespaces (their veths go with them), any veth left, and the bridges. Synchronous. */
export function destroyNetwork(network: Pick<LabNetwork, 'netns' | 'bridges' | 'veths'>): void {
  for (const netns of Object.values(network.netns)) quietly(() => ip(['netns', 'delete', netns]));
  for (const veth of network.veths) quietly(() => ip(['link', 'delete', veth]));
  for (const bridge of network.bridges) quietly(() => ip(['link', 'delete', bridge]));
}

/** Network objects named after a lab id (for a lab whose folder is gone): namespaces and links. */
export function destroyNetworkById(labId: string): void {
  const netnsPrefix = `obl-${labId}-`;
  let namespaces: string[] = [];
  try {
    namespaces = readdirSync('/run/netns').filter((name) => name.startsWith(netnsPrefix));
  } catch {
    // no namespaces at all
  }
  const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\d+: ([^:@]+)/.exec(line)?.[1])
    .filter(
      (name): name is string =>
        name !== undefined && name.startsWith(`ob${labId}`) && name.length <= `ob${labId}`.length + 3,
    );
  destroyNetwork({ netns: Object.fromEntries(namespaces.map((name) => [name, name])), bridges: links, veths: [] });
}

/** Claims (`$TMPDIR/obl-net-N`) whose lab folder is gone: their network is removed, the claim freed. */
export function reapStaleClaims(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(claimPrefix)) continue;
    const path = join(tmpdir(), name);
    let owner: string;
    try {
      owner = readlinkSync(path);
    } catch {
      continue;
    }
    if (existsSync(owner)) continue;
    const labId = /obl-([0-9a-f]+)$/.exec(owner)?.[1];
    if (labId) destroyNetworkById(labId);
    rmSync(path, { force: true });
  }
}
