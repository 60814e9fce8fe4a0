// A cell whose run showed no KV connection on the server cannot have its interface proven (REAL-LAB
// C7): such a check must mark the cell, never pass it ("nothing observed: no claim either way"
// would leave a cell clean whose interface nobody saw). The watcher runs against a session whose
// /proc/net/tcp lists nothing, as a server would whose clients never connected while it looked.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { watchInterfaceTraffic } from '../../../engine/src/evidence/serverEvidence';
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
  let finish!: () => void;
  const running = new Promise<void>((resolve) => (finish = resolve));
  const watching = watchInterfaceTraffic({
    session,
    server,
    key: { interface: 'eth1', address: '198.18.0.1', stack: 'kernel', threads: 1, axes: {}, repetition: 1 },
    cellId: 'x',
    password: 'x',
    baseline: [],
    running,
    log: () => undefined,
  });
  setImmediate(finish);
  const { marks } = await watching;
  assert.deepEqual(
    marks.map((mark) => `${mark.code} ${mark.host}`),
    ['interface-unverified s1'],
  );
  assert.match(
    marks[0].message,
    /No KV connection of the run was seen on s1 in \d+ looks? \(\/proc\/net\/tcp\{,6\}\): which interface carried the traffic is not proven/,
  );
});
