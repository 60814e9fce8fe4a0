// The SecretStorage key under which a plan's Couchbase password is kept. Pure. The key is made
// from what identifies the cluster (admin user and server hosts, order-insensitive), so plans
// that target the same servers share one password and editing unrelated parts of a plan does not
// ask again. The key holds no secret itself and may be listed.

export interface ClusterIdentity {
  servers: { host: string; adminUser?: string }[];
}

export const secretKeyPrefix = 'onloadBench.couchbasePassword:';
const defaultAdminUser = 'Administrator';

export function passwordSecretKey(plan: ClusterIdentity): string {
  const pairs = plan.servers.map(
    (server) => `${(server.adminUser ?? defaultAdminUser).trim()}@${server.host.trim().toLowerCase()}`,
  );
  const unique = [...new Set(pairs)].sort();
  return secretKeyPrefix + unique.join(',');
}

/** A short label for pickers: `Administrator@cb1, cb2`. */
export function describeSecretKey(key: string): string {
  if (!key.startsWith(secretKeyPrefix)) return key;
  const pairs = key
    .slice(secretKeyPrefix.length)
    .split(',')
    .filter((pair) => pair !== '');
  const byUser = new Map<string, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf('@');
    const user = pair.slice(0, at);
    byUser.set(user, [...(byUser.get(user) ?? []), pair.slice(at + 1)]);
  }
  return [...byUser].map(([user, hosts]) => `${user}@${hosts.join(', ')}`).join('; ');
}
