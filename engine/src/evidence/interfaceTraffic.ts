// Which server address really carried a cell's traffic (REAL-LAB C7). The cluster map names each
// node by its configured name; only a node configured as 127.0.0.1/localhost is announced as the
// address the client bootstrapped through. A node named by address or host name receives the data
// traffic on that name whatever `couchbase.host` says, so an interface axis would measure one NIC
// again and again. The proof is on the server: the local addresses of the established
// connections to the KV port during the run phase (serverProcess.ts reads them). Addresses are
// compared parsed (REAL-LAB H5: /proc/net/tcp6 and the plan spell one IPv6 address differently).
import { canonicalAddress, hostOfEndpoint, sameAddress } from '../remote/ipAddress';
import type { TcpEndpoint } from '../server/serverProcess';

/** Local addresses (without port, in canonical form) seen across samples, with how often. */
export function localAddresses(samples: TcpEndpoint[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sample of samples) {
    for (const connection of sample) {
      const address = canonicalAddress(hostOfEndpoint(connection.local));
      counts.set(address, (counts.get(address) ?? 0) + 1);
    }
  }
  return counts;
}

/** Why the traffic did not use `expected`, or undefined when it did. Pure. */
export function wrongInterfaceReason(
  expected: string,
  seen: Map<string, number>,
  nodeName: string | undefined,
): string | undefined {
  if (seen.size === 0) return undefined; // nothing observed: no claim either way
  const others = [...seen.keys()].filter((address) => !sameAddress(address, expected));
  if (others.length === 0) return undefined;
  // the node's name explains it when the traffic went to that name
  const named =
    nodeName !== undefined &&
    !isLoopbackName(nodeName) &&
    others.some((address) => sameAddress(address, nodeHost(nodeName)));
  const because = named
    ? `; the node is named ${nodeName}, so the cluster map sends clients to that name whatever couchbase.host says`
    : '';
  const alsoExpected = [...seen.keys()].some((address) => sameAddress(address, expected));
  return `KV connections used ${others.join(', ')}${alsoExpected ? ` besides ${expected}` : ` instead of ${expected}`}${because}`;
}

/** A node configured as localhost/127.0.0.1 is announced as the bootstrap address ($HOST). */
export function isLoopbackName(hostname: string): boolean {
  const host = nodeHost(hostname);
  return host.toLowerCase() === 'localhost' || sameAddress(host, '127.0.0.1') || sameAddress(host, '::1');
}

/**
 * The host part of `/pools/default` nodes[].hostname (`10.0.0.1:8091` → `10.0.0.1`, `[2001:db8::a]:8091` →
 * `2001:db8::a`).
 */
export function nodeHost(hostname: string): string {
  return hostOfEndpoint(hostname);
}
