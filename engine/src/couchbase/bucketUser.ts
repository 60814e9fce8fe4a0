// The RBAC user YCSB logs in as (REAL-LAB Y2, Y3): `couchbase2` opens the bucket with the bucket's
// name as user name (SDK 2.x against Server 5.0+), so the engine creates or updates a local user
// of that name with access to that bucket only, and a password generated for the run. YCSB gets
// only that password: the admin password never reaches a client host. Like perfrunner's
// add_rbac_users, the user is left in place after the run (it can reach the benchmark bucket only,
// and its password is not kept anywhere).
import { randomBytes } from 'node:crypto';
import { EngineFailure } from '../errors';
import { quote, restCall, type RestTarget } from './couchbaseRest';
import type { BucketLogin } from '../ycsb/ycsbBinding';

/** `bucket_full_access` is the one bucket role every edition has; it covers KV and N1QL on the bucket. */
export function bucketUserRoles(bucket: string): string {
  return `bucket_full_access[${bucket}]`;
}

export function newBucketPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** PUT /settings/rbac/users/local/<bucket>; returns the login for YCSB. */
export async function ensureBucketUser(
  target: RestTarget,
  bucket: string,
  password = newBucketPassword(),
): Promise<BucketLogin> {
  const path = `/settings/rbac/users/local/${encodeURIComponent(bucket)}`;
  const answer = await restCall(target, 'PUT', path, 'bucket-user', {
    form: { password, roles: bucketUserRoles(bucket), name: `onload-bench YCSB login for ${bucket}` },
  });
  if (answer.status !== 200) {
    throw new EngineFailure({
      code: 'bucket-user',
      host: target.server.host,
      step: 'bucket-user',
      message: `Couchbase did not create the YCSB user "${bucket}" (PUT ${path}: HTTP ${answer.status}: ${quote(answer.text) || 'empty answer'}).`,
      action: `YCSB's couchbase2 binding logs in as a user named after the bucket; check that "${target.server.adminUser}" may manage users (Security Admin) and that the server supports RBAC (5.0 or later).`,
    });
  }
  return { username: bucket, password };
}
