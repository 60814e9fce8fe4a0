// What each YCSB Couchbase binding reads, so each gets only its own keys (REAL-LAB Y1, Y3):
// `couchbase2` (YCSB 0.17.0) reads host, bucket and password but no username and no ports: it
// logs in as the user named after the bucket (Y2); the couchbaselabs `couchbase3` binding reads
// username, password, managerPort and kvPort. Unknown keys are ignored silently by YCSB, so a key
// sent to the wrong binding is a silent misconfiguration, not an error. Pure.
import { escapePropertiesValue } from '../remote/secrets';

export interface BucketLogin {
  /** The RBAC user YCSB logs in as: the bucket's name (bucketUser.ts). */
  username: string;
  /** Generated for the run; never the admin password. */
  password: string;
}

export interface BindingTarget {
  binding: string;
  host: string;
  bucket: string;
  restPort: number;
  kvPort: number;
}

/** The `-p` keys the engine sets for the binding (no secrets). */
export function bindingProperties(target: BindingTarget): Record<string, string | number> {
  const common = { 'couchbase.host': target.host, 'couchbase.bucket': target.bucket };
  // REAL-LAB Y3: the fork's couchbase3 reads the ports under these names
  if (target.binding === 'couchbase3')
    return { ...common, 'couchbase.managerPort': target.restPort, 'couchbase.kvPort': target.kvPort };
  // REAL-LAB Y1: couchbase2 (and the old couchbase binding) read no port and no username
  return common;
}

/** The keys of the credentials file (mode 600, removed after the phase) for the binding. */
export function bindingCredentials(binding: string, login: BucketLogin): string {
  const lines = ['# written by onload-bench for one YCSB phase; deleted afterwards'];
  // REAL-LAB Y3: couchbase3 takes the user by name (its default would be Administrator)
  if (binding === 'couchbase3') lines.push(`couchbase.username=${escapePropertiesValue(login.username)}`);
  lines.push(`couchbase.password=${escapePropertiesValue(login.password)}`);
  return `${lines.join('\n')}\n`;
}

/** Names of the keys a credentials file carries (for the evidence; values never leave). */
export function credentialKeys(binding: string): string[] {
  return binding === 'couchbase3' ? ['couchbase.username', 'couchbase.password'] : ['couchbase.password'];
}
