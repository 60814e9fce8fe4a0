// A cell whose run showed no KV connection on the server cannot have its interface proven (REAL-LAB
// C7): issue 21 item 6 says such a check must mark the cell, never pass it. Before, "nothing
// observed: no claim either way" left the cell clean. The watcher runs against a session whose
// /proc/net/tcp lists nothing, as a server would whose clients never connected while it looked.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { watchInterfaceTraffic } from '../../../engine/src/evidence/serverEvidence';
import type { CellResult } from '../../../engine/src/model';
import type { ResolvedServer } from '../../../engine/src/plan/planSchema';
import type { RemoteSession } from '../../../engine/src/remote/ssh';

test('no KV connection seen during the run marks the cell interface-unverified, naming where it looked', async () => {
  // a REST port that refuses at once: the node's name stays unknown, as when REST is unreachable
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const session = { host: 's1', run: async () => ({ stdout: '', stderr: '', code: 0 }) } as unknown as RemoteSession;
  const server = {
    host: 's1',
    address: '127.0.0.1',
    restPort: port,
    adminUser: 'Administrator',
    kvPort: 11210,
  } as unknown as ResolvedServer;
  const draft = {
    kind: 'cell',
    id: 'x',
    status: 'ok',
    logs: [],
    key: { interface: 'eth1', address: '198.18.0.1', stack: 'kernel', threads: 1, repetition: 1 },
  } as unknown as CellResult;
  let finish!: () => void;
  const running = new Promise<void>((resolve) => (finish = resolve));
  const watching = watchInterfaceTraffic({
    session,
    server,
    draft,
    password: 'x',
    baseline: [],
    running,
    log: () => undefined,
  });
  setImmediate(finish);
  await watching;
  assert.deepEqual(
    draft.marks?.map((mark) => `${mark.code} ${mark.host}`),
    ['interface-unverified s1'],
  );
  assert.match(
    draft.marks![0].message,
    /No KV connection of the run was seen on s1 in \d+ looks? \(\/proc\/net\/tcp\{,6\}\): which interface carried the traffic is not proven/,
  );
});
