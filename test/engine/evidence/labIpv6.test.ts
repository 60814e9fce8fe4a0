// REAL-LAB H5 on the lab's real hosts: the server's third NIC carries an IPv6 address (test/lab). A
// kernel cell over it must read its own traffic as its own: /proc/net/tcp6 prints addresses as 32
// hex digits, the plan in RFC 5952's compressed form, and only parsed addresses compare.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan } from '../../../engine/src/index';
import type { PreflightCheck, SweepEvent } from '../../../engine/src/events';
import type { CellResult } from '../../../engine/src/model';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { labUnavailable, startLab, writeLabPlan, type Lab } from '../../lab/index';

function server(result: CellResult | undefined): Record<string, any> {
  return ((result?.evidence?.server ?? {}) as Record<string, Record<string, any>>)['cb-server'] ?? {};
}

describe('an IPv6 interface on the lab (H5)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab();
    work = mkdtempSync(join(tmpdir(), 'engine-ipv6-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a kernel cell over the server\'s IPv6 address is not marked wrong-interface; its KV traffic is recorded under the plan\'s address', { timeout: 120_000 }, async () => {
    const planPath = writeLabPlan(lab, { dir: work, stacks: ['kernel'], threads: [2], interfaces: [lab.ipv6Interface], properties: { operationcount: 3000 } });
    const { plan, errors } = await loadPlan(planPath);
    assert.deepEqual(errors, []);
    const events: SweepEvent[] = [];
    lab.faults.set({ kvDelayMs: 2 }); // a run long enough for the connection samples
    const outcome = await runSweep({ planPath, plan, resultsRoot: join(work, 'results'), password: lab.couchbase.password, signal: new AbortController().signal, onEvent: (event) => events.push(event), ssh: { configFile: lab.sshConfigPath } });
    lab.faults.clear();
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    const checks = (events.find((event) => event.type === 'preflight') as { checks: PreflightCheck[] }).checks;
    assert.equal(checks.find((check) => check.id === 'interface-address')?.ok, true, JSON.stringify(checks.find((check) => check.id === 'interface-address')));
    const path = join(outcome.runDir, 'results.jsonl');
    const [cell] = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CellResult) : [];
    assert.equal(cell?.status, 'ok', JSON.stringify(cell?.error));
    // (client-bound may be marked on this busy 2-core machine: the hosts share its /proc/stat)
    assert.equal(cell?.marks?.find((mark) => mark.code === 'wrong-interface')?.message, undefined, 'the traffic went through the cell\'s interface');
    assert.deepEqual(Object.keys(server(cell).traffic.localAddresses), [lab.ipv6Interface.address]);
  });
});
