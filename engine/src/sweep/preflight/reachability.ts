// Pre-flight's first group: every server and client host answers over SSH (key login, host key
// verified), all at once. The hosts it reached are the only ones the later groups look at.
import { toEngineError } from '../../errors';
import { OpenSshSession } from '../../remote/ssh';
import { failedCheck, rethrowCancel, type CheckGroup } from './checkGroup';

export const reachability: CheckGroup = async ({ plan, pool, signal }, found, report) => {
  const hosts = [
    ...new Set([...plan.servers.map((server) => server.host), ...plan.clients.map((client) => client.host)]),
  ];
  // allSettled: on a cancel, wait until every connect attempt (and its ssh child) has ended
  const attempts = await Promise.allSettled(
    hosts.map(async (host) => {
      const session = pool.get(host);
      try {
        if (session instanceof OpenSshSession) await session.connect('preflight', signal);
        else await session.run('true', { step: 'preflight', signal });
        found.reachable.add(host);
        report({ id: 'reachable', host, ok: true, detail: 'SSH works (key login, host key verified)', blocking: true });
      } catch (error) {
        rethrowCancel(error, signal);
        const engineError = toEngineError(error, 'preflight', host);
        report(failedCheck('reachable', host, engineError, true), engineError);
      }
    }),
  );
  for (const attempt of attempts) if (attempt.status === 'rejected') throw attempt.reason;
};
