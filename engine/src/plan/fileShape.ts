// Files are uploaded only when they look like what the plan says they are. The language services
// lint a private key as a profile without a single problem (it has no directives to be wrong), so
// "no diagnostics" is not enough: a profile must contain at least one Onload directive
// (onload_set/onload_import, found by the profile parser), a workload at least one `key=value`
// property, both must be text, and neither may carry a key or certificate block.
import { parseProfile } from '../../../server/src/onload/parser';

/** Larger than any real profile or workload (the real ones are a few KB). */
export const maxUploadBytes = 4 * 1024 * 1024;

function commonProblem(content: string | Buffer): string | undefined {
  const bytes = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
  if (bytes > maxUploadBytes) return `it is ${bytes} bytes, more than ${maxUploadBytes}`;
  const text = content.toString();
  if (text.includes('\u0000')) return 'it is a binary file';
  if (
    /-----BEGIN [A-Z0-9 ]*(PRIVATE KEY|CERTIFICATE|PGP)/.test(text) ||
    /^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-\S+) AAAA/m.test(text)
  )
    return 'it contains a key or certificate';
  return undefined;
}

/** Why `content` does not look like an Onload profile, or undefined when it does. */
export function profileShapeProblem(content: string | Buffer): string | undefined {
  const common = commonProblem(content);
  if (common) return common;
  if (parseProfile(content.toString()).directives.length === 0)
    return 'it has no onload_set or onload_import directive';
  return undefined;
}

/** Why `content` does not look like a YCSB workload (.properties), or undefined when it does. */
export function workloadShapeProblem(content: string | Buffer): string | undefined {
  const common = commonProblem(content);
  if (common) return common;
  if (!/^[ \t\f]*[^#!\s=:][^=:\s]*[ \t\f]*[=:]/m.test(content.toString())) return 'it has no key=value property';
  return undefined;
}
