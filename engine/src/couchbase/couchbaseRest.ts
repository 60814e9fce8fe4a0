// Plain REST calls to a Couchbase node as the admin (management port), for what the SDK does not
// expose: RBAC users, bucket state and stats, node services. Answers are returned as they came, so
// callers can quote what the server said; a 401/403 is worded once here. The password goes only
// into the Authorization header.
import { EngineFailure } from '../errors';
import type { ResolvedServer } from '../plan/planSchema';
import { hostForUrl } from '../server/serverControl';

export interface RestAnswer {
  status: number;
  text: string;
  /** The parsed body when it is JSON. */
  json?: unknown;
}

export interface RestTarget {
  server: ResolvedServer;
  password: string;
  signal?: AbortSignal;
}

export async function restCall(
  target: RestTarget,
  method: string,
  path: string,
  step: string,
  options: { form?: Record<string, string>; port?: number; timeoutMs?: number } = {},
): Promise<RestAnswer> {
  const { server } = target;
  const port = options.port ?? server.restPort;
  const url = `http://${hostForUrl(server.address)}:${port}${path}`;
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${server.adminUser}:${target.password}`).toString('base64')}`,
  };
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: target.signal ? AbortSignal.any([target.signal, timeout]) : timeout,
    });
  } catch (error) {
    if (target.signal?.aborted)
      throw new EngineFailure({
        code: 'cancelled',
        host: server.host,
        step,
        message: 'Cancelled.',
        action: 'Resume the run when ready.',
      });
    throw new EngineFailure({
      code: 'rest',
      host: server.host,
      step,
      message: `${method} ${path} on ${server.address}:${port} got no answer: ${(error as Error).message}.`,
      action: 'Check that Couchbase runs and that this machine reaches that port.',
    });
  }
  const text = await response.text();
  const answer: RestAnswer = { status: response.status, text };
  try {
    answer.json = JSON.parse(text);
  } catch {
    // not JSON: callers quote the text
  }
  if (response.status === 401 || response.status === 403) {
    throw new EngineFailure({
      code: 'bucket-auth',
      host: server.host,
      step,
      message: `Couchbase refused ${method} ${path} for "${server.adminUser}" (HTTP ${response.status}${text.trim() ? `: ${quote(text)}` : ''}).`,
      action: `Check adminUser in the plan and the password; "${server.adminUser}" needs the Full Admin (or Cluster Admin and Security Admin) role.`,
    });
  }
  return answer;
}

/** What the server said, short enough for a message. */
export function quote(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}...` : trimmed;
}
